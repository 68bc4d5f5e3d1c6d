"""Names of private persons found by evidence about a person (issue #29, second round): the person-evidence
recognizer finds a name no list holds when a credit, an assignment, a title, a verb of people, a role, a
person's field label, a handle next to it or a handle that spells it says "person", and finds nothing in the
same frames around tools, bots and teams.

Names are generated (syllables of several languages, so no list holds them), one family per rule; each
family fails without its rule. The last tests run the production Analyzer and default policy.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.analyzer import Analyzer
from ztgate.redaction.detection.names.evidence_recognizer import find
from ztgate.redaction.detection.text_shape import evidence_possible, handle_spells_name, has_evidence, needs_evidence
from ztgate.redaction.detection.wordlists import COMMON_SENTENCE_STARTS, NEVER_TRIGGERS, TECHNICAL_WORDS
from ztgate.redaction.policies import PolicyStore

_SYLLABLES = ["ka", "ro", "mi", "ta", "ne", "ola", "chi", "du", "ng", "se", "yo", "ri", "ba", "ko", "lu", "wen",
              "zha", "ef", "ay", "tse", "mar", "ik", "so", "dem", "har", "uo", "vi", "ji", "pa", "tan"]
_WORD = st.lists(st.sampled_from(_SYLLABLES), min_size=2, max_size=4).map(lambda parts: "".join(parts).capitalize())
_NOT_NAMES = COMMON_SENTENCE_STARTS | NEVER_TRIGGERS | TECHNICAL_WORDS


@st.composite
def names(draw: st.DrawFn) -> tuple[str, str]:
    """A generated full name and a handle that spells it ("Kamiro Dutase", "kdutase")."""
    given_name, surname = draw(_WORD), draw(_WORD)
    assume(given_name.casefold() not in _NOT_NAMES and surname.casefold() not in _NOT_NAMES)
    return f"{given_name} {surname}", f"{given_name[0]}{surname}".lower()


# Frames, one family per rule: {name} a full name, {handle} a handle that spells it, {other} an unrelated handle.
FAMILIES = {
    "credit before": ["# written by {name}\nparse(x)\n", "    // contributed by {name}\n", "- Race fixed by {name}\n"],
    "assignment before": ["ERROR job failed, assigned to {name}\n", "WARN escalated to {name} at 03:10\n"],
    "title before": ["/// Maintained by Dr. {name}.\nfn f() {{}}\n", "# ask Prof. {name} first\n"],
    "verb after": ["# {name} wants this behind a flag\n", "    x = 3  # {name} noticed the drift\n"],
    "role after": ["# {name}, our SRE, owns this\n", "-- {name} (tech lead)\nSELECT 1;\n"],
    "handle after": ["- Flaky test (thanks {name} @{other})\n", "# {name} (@{other})\nrun()\n"],
    "handle spells it": ["/billing/** @{handle}   # {name}\n", "# TODO({handle}): {name}\nx = 1\n"],
    "person field": ['__author__ = "{name}"\n', " * @author {name}\n", ":author: {name}\n", "primary_owner: {name}\n"],
    "task in a TODO": ["# TODO: {name} to confirm the VAT rate\nVAT = 0.2\n"],
    # A cue verb at the start of a sentence is a cue, not the name's first word (the run used to start at "Ask").
    "cue verb before": ["    Ask {name} before changing the rounding.\n", "Ping {name} about the flaky test\n",
                        "# Check with {name} first; {other} has the logs\n", "Ask {name} why it retries.\n"],
    # Role labels of on-call and ownership files: a person-valued field when the value has a person's shape.
    "role label": ["on_call:\n  primary: {name}\n  escalation: {other}\n", "secondary: {name}\nbackup: {other}\n",
                   "approver: \"{name}\"\nreviewer: {other}\n", "oncall:\n  lead: {name}\n  maintainer: {other}\n"],
}
# The same frames around things that are not persons: tools, bots, teams.
NOT_PERSONS = ["Grafana", "Dependabot", "the Platform Team", "Renovate", "release-bot", "Kafka Connect", "Terraform Cloud"]


@settings(max_examples=80, deadline=None)
@given(word=_WORD, suffix=st.sampled_from(["Corp", "Inc.", "GmbH", "Ltd", "Labs", "Foundation", "Team", "Project"]),
       frame=st.sampled_from(["# (c) 2019-2023 {}\nset -e\n", "# Copyright 2024 {}\n", "# written by {}\n",
                              "# thanks to {}\n", "__author__ = \"{}\"\n", "ERROR job failed, assigned to {}\n"]))
def test_an_organisation_in_a_person_frame_is_no_person(word: str, suffix: str, frame: str) -> None:
    assume(word.casefold() not in _NOT_NAMES)
    assert find(frame.format(f"{word} {suffix}")) == []


@pytest.mark.parametrize("family", sorted(FAMILIES))
@settings(max_examples=60, deadline=None)
@given(person=names(), frame_index=st.integers(0, 3), other=st.sampled_from(["qa-bot", "oncall", "dx42"]))
def test_each_family_finds_the_whole_name(family: str, person: tuple[str, str], frame_index: int, other: str) -> None:
    name, handle = person
    frames = FAMILIES[family]
    text = frames[frame_index % len(frames)].format(name=name, handle=handle, other=other)
    assert name in [text[a:b] for a, b in find(text)], text
    start = text.index(name)
    if needs_evidence(text, start):  # a name NER or a list finds on the same technical line counts too
        assert has_evidence(text, start, start + len(name), "PERSON"), text
        assert evidence_possible(text, start), text


# A title before a tool does not occur ("Dr. Grafana"): the title family has no negative.
NEGATIVE_FAMILIES = sorted(set(FAMILIES) - {"title before"})


@pytest.mark.parametrize("family", NEGATIVE_FAMILIES)
@settings(max_examples=40, deadline=None)
@given(thing=st.sampled_from(NOT_PERSONS), frame_index=st.integers(0, 3))
def test_the_same_frames_around_tools_bots_and_teams_find_nothing(family: str, thing: str, frame_index: int) -> None:
    frames = FAMILIES[family]
    text = frames[frame_index % len(frames)].format(name=thing, handle=thing.lower().replace(" ", ""), other="ci")
    assert find(text) == [], text


@settings(max_examples=80, deadline=None)
@given(person=names(), word=st.sampled_from(["wants", "noticed"]))
def test_a_lone_word_needs_a_title(person: tuple[str, str], word: str) -> None:
    surname = person[0].split()[1]
    assert find(f"# {surname} {word} this\n") == []
    assert [f"# ask Dr. {surname} {word} this\n"[a:b] for a, b in find(f"# ask Dr. {surname} {word} this\n")] == [surname]


@settings(max_examples=80, deadline=None)
@given(person=names())
def test_a_handle_spells_a_name_only_when_it_holds_its_letters(person: tuple[str, str]) -> None:
    name, handle = person
    text = f"/x/ @{handle}  # {name}\n"
    start = text.index(name)
    assert handle_spells_name(text, start, start + len(name))
    unrelated = f"/x/ @qa-team  # {name}\n"
    start = unrelated.index(name)
    assert not handle_spells_name(unrelated, start, start + len(name))


POLICY = PolicyStore.load().get("default")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(person=names(), family=st.sampled_from(sorted(FAMILIES)), frame_index=st.integers(0, 3))
def test_the_analyzer_hides_a_person_named_with_evidence(redaction_analyzer: Analyzer, person: tuple[str, str],
                                                         family: str, frame_index: int) -> None:
    name, handle = person
    frames = FAMILIES[family]
    text = frames[frame_index % len(frames)].format(name=name, handle=handle, other="qa-bot")
    out = redact(text, redaction_analyzer.analyze(text), POLICY, None, None, None, operators=Operators()).text
    assert name.split()[1] not in out, out


# Through the analyzer, names of several words only: a lone tool's name after "by" is still read as a person by
# spaCy and backed by the older "by " label ("# written by Dependabot" is redacted on main too), a known miss
# (docs/results/utility.md); the recognizer itself finds no lone word there (the test above). Companies with a
# legal form ("Acme Corp", "Globex GmbH") are still read as persons by spaCy in some of these frames (a known miss,
# named there too); the recognizer itself never finds them (test_an_organisation_in_a_person_frame_is_no_person).
MULTI_WORD_NOT_PERSONS = [t for t in NOT_PERSONS if " " in t]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(thing=st.sampled_from(MULTI_WORD_NOT_PERSONS), family=st.sampled_from(NEGATIVE_FAMILIES),
       frame_index=st.integers(0, 3))
def test_the_analyzer_leaves_tools_in_those_frames_alone(redaction_analyzer: Analyzer, thing: str, family: str,
                                                         frame_index: int) -> None:
    frames = FAMILIES[family]
    text = frames[frame_index % len(frames)].format(name=thing, handle="ci", other="ci")
    out = redact(text, redaction_analyzer.analyze(text), POLICY, None, None, None, operators=Operators()).text
    assert out == text
