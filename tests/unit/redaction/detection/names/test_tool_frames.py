"""Tools in a project's frame and persons in config files, as classes (issue #29, ADR 0026).

A one-word name-like tool is a tool in a project's frame - a collective noun of its people after it ("the X
developers", "X maintainers", "the X committers"), the topic of questions or help ("questions about X", "help with
X"), the subject of what a database or a job does ("X took a snapshot of the primary", "X compacted the
segments") - unless person evidence stands beside it (a second name, a person's e-mail, a title, a role). And a
person named in a config file (a comment opening with the name, a compose label, a GitHub Actions ``env`` key, a
Prometheus annotation) is found whether or not the given-name lists know the name.

The rule tests read the rules alone; the ``analyzer`` tests run the production Analyzer and the default policy.
Tools, names and frames are written here, apart from every ``code_persons`` split's pools and templates (the
tuning documents' own wordings are not reused) and from the other families' pools.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.unit.redaction.detection.names import person_formats as P
from tests.unit.redaction.detection.names import test_tool_evidence as E
from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.analyzer import Analyzer
from ztgate.redaction.detection.names.code_identifiers import code_identifier, given_name
from ztgate.redaction.detection.names.context.comment_subjects import CommentSubjectRecognizer
from ztgate.redaction.detection.names.product_uses import used_as_product
from ztgate.redaction.policies import PolicyStore
from ztgate_bench import code_persons

POLICY = PolicyStore.load().get("default")
FAST = settings(max_examples=300, deadline=None)
SLOW = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# Tools spelt like given names or surnames.
TOOLS = ("Winifred", "Aloysius", "Cornelius", "Philippa", "Ambrose", "Peregrine", "Millicent", "Lucasta",
         "Griselda", "Wendell", "Mortimer", "Radcliffe", "Fairbanks", "Whitaker", "Harcourt")
# A tool in a project's frame ({t} the tool).
TOOL_FRAMES = ("Originally written by the {t} developers.\n",
               "Maintained by the {t} committers since 2019.\n",
               "Thanks to the {t} contributors for the port.\n",
               ":Credits: {t} contributors\n",
               "Copyright the {t} authors. All rights reserved.\n",
               "Known issues with {t} are listed in the FAQ.\n",
               "For help with {t}, open a ticket in the tracker.\n",
               "Any questions about {t}? See the FAQ.\n",
               "Issues with {t} go to the #infra channel.\n",
               "- 03:10 {t} took a backup of the ledger database\n",
               "[02:40] {t} compacted the segments on node-3\n",
               "04:15 {t} created a checkpoint before the upgrade\n",
               "23:05 {t} vacuumed the events table\n")
# Given names the shipped lists know and ones they do not, and surnames.
LISTED = ("Tavita", "Haunani", "Siaosi", "Kanoa")
UNLISTED = ("Leleiga", "Makerita", "Naalnish", "Tamati", "Hohepa", "Ngaio", "Pania")
SURNAMES = ("Fonoti", "Tupou", "Tafuna", "Tsosie", "Whaanga", "Kealoha", "Nez", "Lautaimi")
# The same frames with person evidence: a second name, an e-mail, a title, a role ({g} given, {s} surname, {t} a
# tool, {m} the lower-case given name).
PERSON_FRAMES = ("Originally written by {g} {s} and the {t} developers.\n",
                 ":Maintainer: {g} {s} <{m}@example.test>\n",
                 "- 03:10 {g} {s} took a backup of the ledger database\n",
                 "[02:40] Dr. {g} {s} compacted the segments on node-3\n",
                 "For help with {t}, ask {g} {s}.\n",
                 "Any questions about {t}? {g} {s}, the lead maintainer, knows it best.\n")
# A person in a config file ({g} {s} the name).
CONFIG_PERSONS = ("services:\n  db:\n    # {g} {s} raised the memory limit after the soak test\n    mem_limit: 4g\n",
                  "services:\n  db:\n    labels:\n      maintainer: \"{g} {s}\"\n",
                  "env:\n  RELEASE_OWNER: {g} {s}\n  NODE_VERSION: 20\n",
                  "jobs:\n  build:\n    # {g} {s} wrote this job; ask before editing\n    runs-on: ubuntu-latest\n",
                  "# {g} {s} moved the upstream to port 8081\nupstream api {{ server 127.0.0.1:8081; }}\n",
                  "        annotations:\n          owner: \"{g} {s}\"\n",
                  "        annotations:\n          description: \"Disk filling up; {g} {s} is on call this week\"\n")
# Title-case phrases of clean config comments and annotations, which open a comment or precede a verb.
CLEAN_CONFIG = ("# Health Check added after the March incident\nhealthcheck:\n  interval: 30s\n",
                "  summary: \"Queue Depth is high\"\n",
                "// Retry Policy changed for the payments client\n",
                "# Docker Compose started the stack\n",
                "# Health Check added after the incident\n")


def _redacted(analyzer: Analyzer, text: str) -> str:
    return redact(text, analyzer.analyze(text), POLICY, None, None, None, operators=Operators()).text


def _survives(word: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) is not None


def test_the_pools_are_apart() -> None:
    mine = {w.casefold() for w in (*TOOLS, *LISTED, *UNLISTED, *SURNAMES)}
    for split in code_persons.TOOLS:
        assert not mine & {t.casefold() for t in code_persons.TOOLS[split]}, split
        assert not mine & {g.casefold() for g in code_persons.GIVEN[split]}, split
        assert not mine & {s.casefold() for s in code_persons.SURNAMES[split]}, split
    others = {w.casefold() for w in (*P.TOOLS, *P.GIVEN, *P.SURNAMES, *E.TOOLS, *E.SURNAMES)}
    assert not mine & others
    assert all(given_name(g) for g in LISTED) and not any(given_name(g) for g in UNLISTED)


@FAST
@given(st.sampled_from(TOOLS), st.sampled_from(TOOL_FRAMES))
def test_a_projects_frame_makes_the_word_a_product(tool: str, frame: str) -> None:
    text = frame.format(t=tool)
    start = text.index(tool)
    assert used_as_product(text, start, start + len(tool)), text
    assert code_identifier(text, start, start + len(tool)), text


def test_a_persons_people_a_places_team_and_questions_for_a_person_are_no_project_frame() -> None:
    for text, word in (("Winifred's developers own the rota.\n", "Winifred"),
                       ("Questions go to Lucasta before noon.\n", "Lucasta"),
                       ("- 06:55 Ambrose took the pager\n", "Ambrose"),
                       ("Ask Peregrine about the developers meeting.\n", "Peregrine"),
                       ("New starter Ana Lima joins the Uppsala team on Monday.\n", "Uppsala")):
        start = text.index(word)
        assert not code_identifier(text, start, start + len(word)), text


@SLOW
@given(st.sampled_from(TOOLS), st.sampled_from(TOOL_FRAMES))
def test_the_analyzer_keeps_a_tool_in_a_projects_frame(redaction_analyzer: Analyzer, tool: str, frame: str) -> None:
    text = frame.format(t=tool)
    assert _redacted(redaction_analyzer, text) == text


@SLOW
@given(st.sampled_from(LISTED + UNLISTED), st.sampled_from(SURNAMES), st.sampled_from(TOOLS),
       st.sampled_from(PERSON_FRAMES))
def test_a_person_in_the_same_frames_is_hidden(redaction_analyzer: Analyzer, first: str, last: str, tool: str,
                                               frame: str) -> None:
    text = frame.format(g=first, s=last, t=tool, m=first.casefold())
    out = _redacted(redaction_analyzer, text)
    assert not _survives(last, out), text
    if tool in text:
        assert _survives(tool, out), (text, out)


@FAST
@given(st.sampled_from(UNLISTED), st.sampled_from(SURNAMES), st.sampled_from(
    [CONFIG_PERSONS[0], CONFIG_PERSONS[3], CONFIG_PERSONS[4], CONFIG_PERSONS[6]]))
def test_a_comment_subject_or_a_person_on_call_is_found_listed_or_not(first: str, last: str, frame: str) -> None:
    text = frame.format(g=first, s=last)
    start = text.index(f"{first} {last}")
    assert (start, start + len(f"{first} {last}"), "PERSON") in CommentSubjectRecognizer().find(text), text


@SLOW
@given(st.sampled_from(LISTED + UNLISTED), st.sampled_from(SURNAMES), st.sampled_from(CONFIG_PERSONS))
def test_the_analyzer_hides_a_person_in_a_config_file(redaction_analyzer: Analyzer, first: str, last: str,
                                                      frame: str) -> None:
    text = frame.format(g=first, s=last)
    out = _redacted(redaction_analyzer, text)
    assert not _survives(last, out), (text, out)


def test_title_case_phrases_of_clean_configs_stay(redaction_analyzer: Analyzer) -> None:
    rule = CommentSubjectRecognizer()
    for text in CLEAN_CONFIG:
        assert rule.find(text) == [], text
        assert _redacted(redaction_analyzer, text) == text


@SLOW
@given(st.sampled_from(TOOLS), st.sampled_from(["install.packages(c(\"{m}\", \"sf\"))\nlibrary({m})\n",
                                                "igraph.Graph.from_{m}(edges)\n",
                                                "x <- instagram_{m}.load()  # {m} loader\n"]))
def test_a_handle_cue_inside_a_longer_word_is_no_cue(redaction_analyzer: Analyzer, tool: str, frame: str) -> None:
    """``handle_after_cue`` takes its cue ("insta", "ig") only as a whole word: not in ``install.packages``."""
    text = frame.format(m=tool.casefold())
    assert _redacted(redaction_analyzer, text) == text


def test_a_handle_after_a_whole_word_cue_is_still_found(redaction_analyzer: Analyzer) -> None:
    for text in ("my insta is tupou.k_88\n", "IG: @leleiga.f\n"):
        assert _redacted(redaction_analyzer, text) != text, text
