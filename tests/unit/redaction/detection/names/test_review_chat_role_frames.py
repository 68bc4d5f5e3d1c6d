"""Persons in review exports, chat logs pasted into code, role fields of configurations and plans or needs
in comments, with names mixed across cultures and Latin capitals from every block (issue #29, fifth round);
and CI steps, services and bots named after tools, which stay unaltered.

Names, frames and tools here are apart from the bench's ``code_persons`` splits (tuning examples kept apart
from reported ones). The first tests read the rules alone; the last run the production Analyzer and the
default policy.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.analyzer import Analyzer
from ztgate.redaction.detection.names import evidence_recognizer
from ztgate.redaction.detection.names.context.chat_lines import ChatSpeakerRecognizer
from ztgate.redaction.detection.names.context.key_values import KeyValueFieldRecognizer
from ztgate.redaction.detection.text_shape import has_evidence, is_capitalised, tool_or_organisation
from ztgate.redaction.policies import PolicyStore

GIVEN = st.sampled_from(["Rhiannon", "Gethin", "Batbayar", "Oyunchimeg", "Tavita", "Rivo", "Ẹniọlá", "Ștefan",
                         "Ǵorgi", "Sefa", "Nalani", "Ikaika"])
SURNAME = st.sampled_from(["Llewellyn", "Ganbold", "Faleolo", "Andrianarisoa", "Țurcanu", "Ọlọ́fin", "Ristovski",
                           "Tupou", "Mahoe", "Rakotomalala", "Bilguun", "Ẹ̀kọ́"])
REVIEW = [
    "__{}__ commented on `cmd/serve.go` line 7:\n> nit: rename\n",
    "Review by {} (approved)\n",
    "Feedback from {}: add a test for the empty page\n",
    "{} replied in the thread on `db/pool.rs`\n",
]
PLAN = [
    "# {} is working on a replacement for this loop\n",
    "// {} intends to drop the flag in 5.0\n",
    "/* {} needs this export for the audit */\n",
    "# {} planned the cut-over for May\n",
    "-- {} has promised a backfill\n",
    "# {} is looking into the leak\n",
]
CHAT = [
    "# [09:41] {}: draining node 3\n",
    "// 22:05 {}: cache warmed\n",
    "{} \u2013 4:12 PM\nok to ship\n",
    "> [2025-01-09 17:30] <kb> {}: reverting\n",
    "{} [11:03 AM]\nthe backup finished\n",
]
ROLE = [
    "owners:\n  release_manager: {}\n",
    "{{\"data_steward\": \"{}\"}}\n",
    "tech_lead = \"{}\"\n",
    "support:\n  poc: {}\n",
    "incident_commander: {}\n",
    "executive_sponsor: \"{}\"\n",
    "authors:\n  - name: {}\n    email: kb@example.org\n",
]
# Tools spelt like given names or surnames, as CI steps, services and bots name them.
TOOLS = st.sampled_from(["Caddy", "Hermes", "Apollo", "Atlas", "Dexter", "Bruno", "Vale", "Rosie"])
CLEAN = [
    "- name: {} checks\n  run: make check\n",
    "name: {} sync\non:\n  push:\n",
    "steps:\n  - name: Install {}\n    uses: ./setup\n",
    "services:\n  api:\n    name: {} Proxy\n",
    "service:\n  name: {} Relay\n  image: relay:1\n",
    "# [08:00] deploy-bot: {} rollout done\n",
    "# [08:01] renovate[bot]: bumped {} to 2.3\n",
    "{{\"name\": \"{} Worker\", \"image\": \"x:1\"}}\n",
    "driver: {}\n",
    "lead: {} Team\n",
]
POLICY = PolicyStore.load().get("default")


def _span(text: str, value: str) -> tuple[int, int]:
    start = text.index(value)
    return start, start + len(value)


def _person_spans(text: str) -> list[tuple[int, int]]:
    spans = [(s, e) for s, e, k in ChatSpeakerRecognizer().find(text) + KeyValueFieldRecognizer().find(text)
             if k == "PERSON"]
    return spans + evidence_recognizer.find(text)


def test_capitals_of_every_latin_block_start_a_name() -> None:
    for word in ("Ọlábísí", "Ștefan", "Țurcanu", "Ǵorgi", "Ẹniọlá", "Łukasz"):
        assert is_capitalised(word), word
        assert evidence_recognizer.find(f"# {word} Faleolo is working on it\n"), word


@settings(max_examples=120, deadline=None)
@given(GIVEN, SURNAME, st.sampled_from(REVIEW + PLAN))
def test_a_reviewer_or_a_person_with_a_plan_has_evidence(first: str, last: str, frame: str) -> None:
    name = f"{first} {last}"
    text = frame.format(name)
    assert has_evidence(text, *_span(text, name), "PERSON"), text
    assert _span(text, name) in evidence_recognizer.find(text), text


@settings(max_examples=80, deadline=None)
@given(GIVEN, SURNAME, st.sampled_from(CHAT))
def test_the_speaker_of_a_chat_line_is_found(first: str, last: str, frame: str) -> None:
    name = f"{first} {last}"
    text = frame.format(name)
    assert [(s, e) for s, e, _ in ChatSpeakerRecognizer().find(text)] == [_span(text, name)], text


@settings(max_examples=80, deadline=None)
@given(GIVEN, SURNAME, st.sampled_from(ROLE))
def test_a_person_under_a_role_field_is_found(first: str, last: str, frame: str) -> None:
    name = f"{first} {last}"
    text = frame.format(name)
    assert [(s, e) for s, e, _ in KeyValueFieldRecognizer().find(text)] == [_span(text, name)], text


@settings(max_examples=80, deadline=None)
@given(TOOLS, st.sampled_from(CLEAN))
def test_steps_services_and_bots_named_after_tools_are_no_persons(tool: str, frame: str) -> None:
    text = frame.format(tool)
    assert _person_spans(text) == [], text


def test_a_role_field_with_one_word_or_a_team_and_a_lone_speaker_are_left() -> None:
    for text in ("driver: Npgsql\n", "manager: Rhiannon\n", "lead: infra-guild\n", "captain: Ops Team\n",
                 "# [10:02] Jenkins: build green\n", "[12:00] ci-bot: done\n"):
        assert _person_spans(text) == [], text
    assert tool_or_organisation("Zuul Gateway") and tool_or_organisation("Billing API")
    assert not tool_or_organisation("Rhiannon Llewellyn")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(GIVEN, SURNAME, st.sampled_from(REVIEW + PLAN + CHAT + ROLE))
def test_the_analyzer_hides_the_person(redaction_analyzer: Analyzer, first: str, last: str, frame: str) -> None:
    text = frame.format(f"{first} {last}")
    out = redact(text, redaction_analyzer.analyze(text), POLICY, None, None, None, operators=Operators()).text
    assert last not in out, out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(TOOLS, st.sampled_from(CLEAN))
def test_the_analyzer_leaves_steps_services_and_bots_alone(redaction_analyzer: Analyzer, tool: str,
                                                           frame: str) -> None:
    text = frame.format(tool)
    assert redact(text, redaction_analyzer.analyze(text), POLICY, None, None, None,
                  operators=Operators()).text == text
