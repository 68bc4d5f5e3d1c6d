"""A person as the value of an author, maintainer, owner, contact, developer or creator field in any structured
format, and where the same fields hold a tool, a team, a bot, an organisation or a URL (issue #29, seventh
round): generated families, both sides.

Persons: XML elements, records and attributes ("<developer><name>NAME</name>", "owner=\"NAME\""), meta tags
("<meta name=\"creator\" content=\"NAME\">"), Python, Ruby, TOML, YAML and JSON assignments, arrays and records
("CODE_OWNERS = (\"NAME\", ...)", "\"author\": {\"name\": \"NAME\"}", "maintainers:\n  - name: NAME"), man,
POD, Markdown, RST and AsciiDoc section headings followed by a name, RST and AsciiDoc fields, copyright lines
whose years are a range or a list, "questions go to NAME", and timeline lines whose subject is a NAME, also for
given names on no shipped list. Clean: the same frames holding "Packaging Team", "platform-team", "Apache
Software Foundation", "The Ledger Authors", a bot or a URL, and timelines whose subject is a tool.

The rule tests read the rules alone; the ``analyzer`` tests run the production Analyzer and the default policy.
Name pools and tools are made up here, apart from every ``code_persons`` split's and the other families'.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.unit.redaction.detection.names import person_formats as P
from tests.unit.redaction.detection.names import test_comment_lines_and_timelines as T
from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.analyzer import Analyzer
from ztgate.redaction.detection.names import evidence_recognizer
from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.names.context import context_recognizers
from ztgate.redaction.policies import PolicyStore
from ztgate_bench import code_persons

POLICY = PolicyStore.load().get("default")
FAST = settings(max_examples=300, deadline=None)
SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# Given names on a shipped list and on none (the pair rules cannot start from the latter), and surnames.
LISTED = ("Margarethe", "Cornelius", "Evangeline", "Bartholomew", "Ludmila", "Radomir")
OFF_LIST = ("Taualofa", "Ngozichukwu", "Tsegaye", "Yerkebulan", "Akosita", "Zhanibek")
SURNAMES = ("Vainikolo", "Abernethy", "Skarsgaard", "Iwuchukwu", "Tuimavave", "Beisenbayev", "Lindenthal",
            "Okwuosa")
# Tools spelt like given names or surnames.
TOOLS = ("Mason", "Jarvis", "Nelson", "Sterling", "Thornton", "Murphy")

# Keys of a field about a person, and the record keys a ``name`` field sits under.
KEYS = ("author", "maintainer", "owner", "developer", "contributor", "creator", "contact")
# Frames of a field's value: {k} the key, {K} its capitalised form, {v} the value.
FIELDS = (
    "<{k}>{v}</{k}>",
    "<{k}s>\n  <{k}>\n    <id>x1</id>\n    <name>{v}</name>\n  </{k}>\n</{k}s>",
    "<project name=\"ledger\" {k}=\"{v}\" visibility=\"internal\"/>",
    "<meta name=\"{k}\" content=\"{v}\">",
    "<meta property=\"article:{k}\" content=\"{v}\" />",
    "<span itemprop=\"{k}\" content=\"{v}\"></span>",
    "CODE_{K}S = (\"{v}\", \"infra-team\")",
    "__{k}__ = \"{v}\"",
    "setup(\n    name=\"ledger\",\n    {k}=\"{v}\",\n)",
    "spec.{k}s = [\"{v}\"]",
    "spec.{k}s = [\"infra-team\", \"{v}\"]",
    "{k}s: [docs-bot, {v}]",
    "[{k}]\nname = \"{v}\"\nurl = \"https://example.org\"",
    "{k}s = [{{ name = \"{v}\" }}]",
    "title: Ledger\n{k}:\n  name: {v}\n  url: https://example.org\nversion: 1.2.0",
    "apiVersion: v2\nname: ledger\nversion: 1.0.0\n{k}s:\n  - name: {v}\n    url: https://example.org",
    "{{\n  \"name\": \"ledger\",\n  \"{k}\": {{\n    \"name\": \"{v}\"\n  }}\n}}",
    "{{\"{k}s\": [{{\"name\": \"{v}\", \"role\": \"Developer\"}}]}}",
    "{{\"dataset\": \"tariffs\", \"{k}\": \"{v}\", \"license\": \"MIT\"}}",
    "[metadata]\nname = ledger\n{k} = {v}\nlicense = MIT",
    ":{K}: {v}\n:Version: 1.2",
    "= Ledger Guide\n:{k}: {v}\n:toc:",
)
# Section headings about persons followed by the value: {K} the heading word, {v} the value.
HEADINGS = ("=head1 {KU}\n\n{v}\n\n=head1 LICENSE\n", ".SH {KU}\n{v}\n.SH SEE ALSO\n", "## {K}s\n\n{v}\n\n## License\n",
            "## {K}s\n\n- {v}\n- docs-bot\n", "{K}s\n-------\n\n{v}\n", "== {K}\n\n{v}\n", "{K}s:\n  {v}\n")
HEADING_WORDS = ("Author", "Maintainer", "Contributor", "Developer", "Contact", "Owner")
COPYRIGHTS = ("Copyright (c) 2021 {v}", "# Copyright \u00a9 2019\u20132024 {v}", "/* Copyright (C) 2020, 2023 {v} */",
              "copyright = \"2024, {v}\"", "// (c) 2018-2022, {v}")
CONTACTS = ("// questions go to {v}.", "<!-- Direct questions about this page to {v}. -->",
            "# Send patches to {v}, please.", "Questions should go to {v}.")
TIMES = ("14:06", "- 09:15", "* 18:02", "[22:17]", "03:40:12Z", "2024-07-02 11:05")
TIMELINE = ("{t} {v} declared SEV-2 and took incident command", "{t} {v} took the pager",
            "{t} {v} restarted the ingest workers", "{t} {v} rolled back deploy 8812")
# What the same fields hold when no person is named.
NOT_PERSONS = ("Packaging Team", "platform-team", "Apache Software Foundation", "The Ledger Authors",
               "https://example.org/team", "release-bot", "Ledger Contributors", "Data Platform Guild")

RULES = context_recognizers()


def _spans(text: str) -> list[tuple[int, int]]:
    return [(s, e) for r in RULES for s, e, _ in r.find(text)] + evidence_recognizer.find(text)


def _found(text: str, value: str) -> bool:
    spans = _spans(text)
    return all(any(s <= m.start() and m.end() <= e for s, e in spans) for m in re.finditer(re.escape(value), text))


def _redacted(analyzer: Analyzer, text: str) -> str:
    return redact(text, analyzer.analyze(text), POLICY, None, None, None, operators=Operators()).text


def _survives(surname: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(surname)}(?!\w)", text) is not None


def _field(frame: str, key: str, value: str) -> str:
    return frame.format(k=key, K=key.capitalize(), v=value) + "\n"


def _heading(frame: str, word: str, value: str) -> str:
    return frame.format(K=word, KU=word.upper(), v=value)


NAMES = st.builds(lambda g, s: f"{g} {s}", st.sampled_from(LISTED + OFF_LIST), st.sampled_from(SURNAMES))


def test_the_pools_are_apart_from_every_split_and_family_and_the_off_list_names_on_no_list() -> None:
    for split in code_persons.GIVEN:
        assert not set(LISTED + OFF_LIST) & set(code_persons.GIVEN[split]), split
        assert not set(SURNAMES) & set(code_persons.SURNAMES[split]), split
        assert not {t.casefold() for t in TOOLS} & {t.casefold() for t in code_persons.TOOLS[split]}, split
    assert not set(LISTED + OFF_LIST) & set(P.GIVEN + T.OFF_LIST) and not set(SURNAMES) & set(P.SURNAMES)
    assert not {t.casefold() for t in TOOLS} & {t.casefold() for t in P.TOOLS + T.TOOLS}
    assert all(given_name(g) for g in LISTED) and not any(given_name(g) for g in OFF_LIST)


@FAST
@given(NAMES, st.sampled_from(KEYS), st.sampled_from(FIELDS))
def test_a_name_in_a_field_about_a_person_is_found_in_any_format(name: str, key: str, frame: str) -> None:
    text = _field(frame, key, name)
    assert _found(text, name), text


@FAST
@given(NAMES, st.sampled_from(HEADING_WORDS), st.sampled_from(HEADINGS))
def test_a_name_under_a_heading_about_persons_is_found(name: str, word: str, frame: str) -> None:
    text = _heading(frame, word, name)
    assert _found(text, name), text


@FAST
@given(NAMES, st.sampled_from(COPYRIGHTS + CONTACTS))
def test_a_name_on_a_copyright_line_or_where_questions_go_is_found(name: str, frame: str) -> None:
    text = frame.format(v=name) + "\n"
    assert _found(text, name), text


@FAST
@given(NAMES, st.sampled_from(TIMES), st.sampled_from(TIMELINE))
def test_the_subject_of_a_timeline_line_is_found_whatever_its_given_name(name: str, time: str, frame: str) -> None:
    text = "Timeline (UTC)\n" + frame.format(t=time, v=name) + "\n- 14:31 rollback complete\n"
    assert _found(text, name), text


@FAST
@given(st.sampled_from(NOT_PERSONS), st.sampled_from(KEYS), st.sampled_from(FIELDS))
def test_teams_organisations_bots_and_urls_in_those_fields_are_found_by_no_rule(value: str, key: str,
                                                                               frame: str) -> None:
    text = _field(frame, key, value)
    assert _spans(text) == [], text


@FAST
@given(st.sampled_from(NOT_PERSONS + tuple(f"The {t} developers." for t in TOOLS)), st.sampled_from(HEADING_WORDS),
       st.sampled_from(HEADINGS + COPYRIGHTS + CONTACTS))
def test_teams_and_organisations_under_those_headings_and_lines_are_found_by_no_rule(value: str, word: str,
                                                                                    frame: str) -> None:
    text = _heading(frame, word, value) if "{K" in frame else frame.format(v=value) + "\n"
    assert _spans(text) == [], text


@FAST
@given(st.sampled_from(TOOLS), st.sampled_from(("", " Server", " Exporter", " Bot")), st.sampled_from(TIMES),
       st.sampled_from(TIMELINE))
def test_a_tool_as_the_subject_of_a_timeline_line_is_found_by_no_rule(tool: str, suffix: str, time: str,
                                                                     frame: str) -> None:
    text = "Timeline (UTC)\n" + frame.format(t=time, v=tool + suffix) + "\n"
    assert _spans(text) == [], text


@SLOW
@given(st.sampled_from(LISTED + OFF_LIST), st.sampled_from(SURNAMES), st.sampled_from(KEYS),
       st.sampled_from(FIELDS + HEADINGS + COPYRIGHTS + CONTACTS))
def test_the_analyzer_hides_a_name_in_these_fields_headings_and_lines(redaction_analyzer: Analyzer, first: str,
                                                                      last: str, key: str, frame: str) -> None:
    name = f"{first} {last}"
    text = _heading(frame, key.capitalize(), name) if "{K" in frame and "{k}" not in frame else _field(frame, key, name)
    assert not _survives(last, _redacted(redaction_analyzer, text)), text


@SLOW
@given(st.sampled_from(LISTED + OFF_LIST), st.sampled_from(SURNAMES), st.sampled_from(TIMES),
       st.sampled_from(TIMELINE))
def test_the_analyzer_hides_the_subject_of_a_timeline_line(redaction_analyzer: Analyzer, first: str, last: str,
                                                           time: str, frame: str) -> None:
    text = "Timeline (UTC)\n" + frame.format(t=time, v=f"{first} {last}") + "\n"
    assert not _survives(last, _redacted(redaction_analyzer, text)), text


@SLOW
@given(st.sampled_from(NOT_PERSONS), st.sampled_from(KEYS), st.sampled_from(FIELDS))
def test_the_analyzer_leaves_teams_organisations_bots_and_urls_in_those_fields(redaction_analyzer: Analyzer,
                                                                              value: str, key: str,
                                                                              frame: str) -> None:
    """The field's value is kept as written (a document's title NER reads as a person, "= Ledger Guide", is no
    field and is left to the precision rules for titles)."""
    text = _field(frame, key, value)
    out = _redacted(redaction_analyzer, text)
    line = next(ln for ln in text.splitlines() if value in ln)
    assert line in out.splitlines(), (text, out)
