"""Tools spelt like given names or surnames held apart from persons by evidence about the tool, as a class (issue
#29, seventh round): a software noun right after the word ("- 09:12 Hamilton alert fired", "Felix bindings"),
what only software does after it ("listens on", "renders", "is pinned"), and a team's or a tool's display name
before an e-mail address ("Packaging Team <packaging@x.org>"); and, both sides, the same words with person
evidence in the same lines (a title, a cue, a role, a contact value, a second name) are still hidden: where
person and tool evidence meet, the person wins.

The rule tests read the rules alone; the ``analyzer`` tests run the production Analyzer and the default policy.
Tools and names are made up here, apart from every ``code_persons`` split's and the other families' pools.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.unit.redaction.detection.names import person_formats as P
from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.analyzer import Analyzer
from ztgate.redaction.detection.names.code_identifiers import code_identifier, given_name
from ztgate.redaction.detection.names.context.display_names import DisplayNameRecognizer
from ztgate.redaction.detection.names.product_uses import used_as_product
from ztgate.redaction.policies import PolicyStore
from ztgate_bench import code_persons

POLICY = PolicyStore.load().get("default")
FAST = settings(max_examples=300, deadline=None)
SLOW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# Tools spelt like given names, and surnames for the person side.
TOOLS = ("Clarence", "Herbert", "Eugene", "Florence", "Dorothy", "Agnes", "Reginald", "Beatrix")
SURNAMES = ("Ashcombe", "Vandermeer", "Oduya", "Lindgren-Holt", "Kaczmarczyk", "Mbatha")
# The tool's evidence on a line that is prose to the line shapes ({t} the tool): a software noun or a verb only
# software has, right after it.
TOOL_LINES = ("- 09:12 {t} alert fired for the queue depth\n",
              "- 14:40 {t} alerts cleared after the restart\n",
              "Use the {t} bindings from the ingest job.\n",
              "Requests go through the {t} proxy first.\n",
              "The {t} datasource feeds the latency panel.\n",
              "Enable the {t} sidecar on every pod.\n",
              "{t} listens on the internal network only.\n",
              "{t} renders the API reference on every tag.\n",
              "{t} is pinned until the next review.\n",
              "{t} binds to port 8443 by default.\n",
              "The {t} webhook retries three times.\n")
# The same lines with person evidence beside the tool's ({t} a given name, {s} a surname).
PERSON_LINES = ("- 09:12 {t} {s} acknowledged the alert\n",
                "- 14:40 Dr. {t} {s} cleared the alerts\n",
                "Ask {t} {s} about the bindings.\n",
                "The datasource was set up by {t} {s} ({t_}@example.test).\n",
                "Thanks to {t} {s} for the sidecar fix.\n",
                "{t} {s} says the proxy listens on the internal network only.\n")
# A team's, a bot's or a tool's display name before an address, and a person's.
DISPLAY_TEAMS = ("Packaging Team", "Release Bot", "Ledger API", "Platform Group", "Build Service")


def _redacted(analyzer: Analyzer, text: str) -> str:
    return redact(text, analyzer.analyze(text), POLICY, None, None, None, operators=Operators()).text


def _survives(word: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) is not None


def test_the_pools_are_apart_and_the_tools_are_given_names() -> None:
    for split in code_persons.TOOLS:
        assert not {t.casefold() for t in TOOLS} & {t.casefold() for t in code_persons.TOOLS[split]}, split
        assert not set(TOOLS) & set(code_persons.GIVEN[split]), split
        assert not set(SURNAMES) & set(code_persons.SURNAMES[split]), split
    assert not set(TOOLS) & (set(P.TOOLS) | set(P.GIVEN)) and not set(SURNAMES) & set(P.SURNAMES)
    assert all(given_name(t) for t in TOOLS)


@FAST
@given(st.sampled_from(TOOLS), st.sampled_from(TOOL_LINES))
def test_a_software_noun_or_a_software_verb_after_the_word_makes_it_a_product(tool: str, line: str) -> None:
    text = line.format(t=tool)
    start = text.index(tool)
    assert used_as_product(text, start, start + len(tool)), text


def test_verbs_and_nouns_people_share_are_no_product_evidence() -> None:
    for text in ("Florence serves on the board.\n", "Herbert runs the team.\n", "Agnes alerted the on-call.\n",
                 "Eugene's job is to review.\n", "Dorothy is on call.\n", "Beatrix's queue is empty.\n"):
        start = text.index(text.split()[0])
        assert not used_as_product(text, start, start + len(text.split()[0].rstrip("'s"))), text


@FAST
@given(st.sampled_from(DISPLAY_TEAMS), st.sampled_from(TOOLS), st.sampled_from(SURNAMES))
def test_a_team_or_a_tool_display_name_is_no_person_and_a_persons_is(team: str, first: str, last: str) -> None:
    rule = DisplayNameRecognizer()
    assert rule.find(f" -- {team} <team@example.test>  Tue, 12 Mar 2024\n") == []
    text = f" -- {first} {last} <x@example.test>  Tue, 12 Mar 2024\n"
    assert rule.find(text) == [(4, 4 + len(f"{first} {last}"), "PERSON")]


@SLOW
@given(st.sampled_from(TOOLS), st.sampled_from(TOOL_LINES))
def test_the_analyzer_leaves_a_name_like_tool_with_tool_evidence_alone(redaction_analyzer: Analyzer, tool: str,
                                                                        line: str) -> None:
    text = line.format(t=tool)
    assert _redacted(redaction_analyzer, text) == text


@SLOW
@given(st.sampled_from(TOOLS), st.sampled_from(SURNAMES), st.sampled_from(PERSON_LINES))
# Drawn on main: spaCy read "Agnes Vandermeer" after "Ask" as a place, kept as a topic.
@example(first="Agnes", last="Vandermeer", line="Ask {t} {s} about the bindings.\n")
def test_the_same_names_with_person_evidence_are_hidden(redaction_analyzer: Analyzer, first: str, last: str,
                                                        line: str) -> None:
    text = line.format(t=first, s=last, t_=first.casefold())
    out = _redacted(redaction_analyzer, text)
    assert not _survives(last, out), text


@FAST
@given(st.sampled_from(TOOLS), st.sampled_from(["Dr. {t} renders the figures.\n", "Hi {t}, {m}-exporter is down.\n",
                                                "Ask {t} before you pip install {m}.\n",
                                                "Prof. {t} is pinned to the review rota.\n"]))
def test_where_person_and_tool_evidence_meet_the_person_wins(tool: str, frame: str) -> None:
    """The word has tool evidence (``used_as_product``) and a person cue before it: it is no code identifier, so
    NER's person finding stands."""
    text = frame.format(t=tool, m=tool.casefold())
    start = text.index(tool)
    assert used_as_product(text, start, start + len(tool)), text
    assert not code_identifier(text, start, start + len(tool)), text
