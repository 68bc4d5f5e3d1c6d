"""Persons in technical text as a class (issue #29, fourth round): ownership, action by a person, attribution
lines, names in string literals and commit messages, @-mentions, lower-case first.last user names, with
diacritics; and tools spelt like given names or surnames in prose about builds, which stay unaltered.

Names, frames and tools here are apart from the bench's ``code_persons`` splits (tuning examples kept apart
from reported ones). The first tests read ``text_shape`` and the context rule alone; the last run the
production Analyzer and the default policy.
"""

from __future__ import annotations

import unicodedata

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.analyzer import Analyzer
from ztgate.redaction.detection.names.code_identifiers import code_identifier
from ztgate.redaction.detection.names.context.lower_identifiers import LowerCaseUserNameRecognizer
from ztgate.redaction.detection.text_shape import has_evidence, person_evidence
from ztgate.redaction.policies import PolicyStore

GIVEN = st.sampled_from(["Marta", "Dagny", "Tiago", "Hye-jin", "Oluwaseun", "Žofie", "Kirra", "Matías", "Nilufar",
                         "Bartosz", "Ólafur", "Anahí"])
SURNAME = st.sampled_from(["Kowalska", "Solberg", "Brandão", "Okoro", "Dvořáková", "Tjandra", "Sepúlveda",
                           "Karimova", "Wróblewski", "Guðmundsson", "Huanca", "Van Rooyen"])
# Frames by the evidence they carry, every one naming one person ({}).
OWNERSHIP = [
    "# This cache belongs to {}; read the notes first.\n",
    "// owned by {} since the migration\nconst N = 4;\n",
    "# ask {} before changing the schema\n",
    "// ping {} when the queue backs up\n",
    "# the branch of {} has the fix\n",
]
ACTION = [
    "// FIXME: {} will drop this shim in 3.0\nshim();\n",
    "# TODO: {} should confirm the limits\n",
    "# XXX {} needs to check the locale here\n",
    "    # {} reverted the index on Friday\n    pass\n",
    "/* {} rebased the patch onto main */\n",
    "# cc {}\nretries = 2\n",
    "@{} could you take the review?\n",
    "# kudos to {} for the profiler run\n",
]
ATTRIBUTION = [
    "Tested-by: {} <qa@example.org>\n",
    "# Copyright 2020-2023 {}. All rights reserved.\n",
    "docs: credit {} for the figures\n",
]
STRING = [
    "assert profile.display_name == \"{}\"\n",
    "if owner != \"{}\":\n    raise PermissionError\n",
]
FRAMES = st.sampled_from(OWNERSHIP + ACTION + ATTRIBUTION + STRING)
# Tools spelt like given names or surnames, in prose about building and shipping software.
TOOLS = st.sampled_from(["Travis", "Hudson", "Percy", "Karma", "Luigi", "Jasmine", "Hugo", "Jekyll", "Maven"])
TOOL_PROSE = st.sampled_from([
    "The release pipeline runs on {}.\n",
    "We moved the nightly build off {} last year.\n",
    "See {}'s documentation for the plugin settings.\n",
    "{} 2.1 is needed before the next deploy.\n",
    "- Bump {} from 4.0.1 to 4.1.0\n",
])
POLICY = PolicyStore.load().get("default")


def _span(text: str, value: str) -> tuple[int, int]:
    start = text.index(value)
    return start, start + len(value)


@settings(max_examples=150, deadline=None)
@given(GIVEN, SURNAME, FRAMES)
def test_a_full_name_in_a_person_frame_has_evidence(first: str, last: str, frame: str) -> None:
    name = f"{first} {last}"
    text = frame.format(name)
    assert has_evidence(text, *_span(text, name), "PERSON"), text


@settings(max_examples=60, deadline=None)
@given(TOOLS, FRAMES)
def test_a_lone_tool_in_the_same_frames_has_no_person_evidence(tool: str, frame: str) -> None:
    text = frame.format(tool)
    assert not person_evidence(text, *_span(text, tool))


@settings(max_examples=60, deadline=None)
@given(TOOLS, TOOL_PROSE)
def test_a_lone_tool_in_prose_about_builds_is_an_identifier(tool: str, frame: str) -> None:
    text = frame.format(tool)
    assert code_identifier(text, *_span(text, tool)), text


def test_a_given_name_with_a_person_cue_in_the_same_prose_stays_a_name() -> None:
    for text, word in [("Ask Marta about the build.\n", "Marta"), ("Marta fixed the nightly build.\n", "Marta"),
                       ("Dr. Percy reviewed the deploy.\n", "Percy"), ("Marta lives in Hudson near the build farm.\n", "Hudson")]:
        assert not code_identifier(text, *_span(text, word)), text


@settings(max_examples=60, deadline=None)
@given(GIVEN, SURNAME, st.sampled_from(["reviewer: {}\n", "assignee = \"{}\"\n", "# @{} please look\n",
                                        "owners: [{}]\n"]))
def test_a_lower_case_user_name_after_a_person_field_or_a_mention_is_found(first: str, last: str, frame: str
                                                                          ) -> None:
    folded = unicodedata.normalize("NFKD", f"{first}.{last}".casefold().replace(" ", "").replace("-", ""))
    ident = folded.encode("ascii", "ignore").decode()  # user names are spelt in ASCII letters
    text = frame.format(ident)
    spans = [(s, e) for s, e, _ in LowerCaseUserNameRecognizer().find(text)]
    assert spans == [_span(text, ident)], text


def test_lower_case_dotted_words_that_are_no_person_are_left() -> None:
    rule = LowerCaseUserNameRecognizer()
    for text in ["name: max.retries\n", "reviewer: release.bot\n", "owner: data.platform\n", "import os.path\n",
                 "value = settings.timeout\n", "mail me at marta.kowalska@example.org\n", "@pytest.fixture\n"]:
        assert rule.find(text) == [], text


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(GIVEN, SURNAME, FRAMES)
def test_the_analyzer_hides_the_person(redaction_analyzer: Analyzer, first: str, last: str, frame: str) -> None:
    text = frame.format(f"{first} {last}")
    out = redact(text, redaction_analyzer.analyze(text), POLICY, None, None, None, operators=Operators()).text
    assert last not in out, out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(TOOLS, TOOL_PROSE)
def test_the_analyzer_leaves_tools_in_prose_about_builds_alone(redaction_analyzer: Analyzer, tool: str,
                                                               frame: str) -> None:
    text = frame.format(tool)
    assert redact(text, redaction_analyzer.analyze(text), POLICY, None, None, None,
                  operators=Operators()).text == text
