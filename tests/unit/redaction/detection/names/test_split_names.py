"""A person's name split across the fields of a structured record, and copyright lines whose holder comes before
the year (issue #29, eighth round): generated families, both sides.

Persons: CITATION.cff given-names/family-names, codemeta givenName/familyName, .zenodo.json "Family, Given",
BibTeX author and editor lists, R person() by position and by keyword, DOAP foaf:givenName/foaf:familyName, JATS
<surname>/<given-names>, schema.org microdata, hCard, Turtle, CSL JSON and YAML family/given, an ORCID record's
{"value": ...} and XML, vCard N and FN (with parameters), a form's first_name/last_name, a Maven <developer>;
every part of the name is found, for given names on the shipped lists and on none, surnames with a particle too.
Copyright lines with the year after the holder or none, by ©, (c) or "Copyright"; a citation's author after a cue to
cite ("please cite it as: NAME (2024)"). Clean: the same records holding organisations ("The X Authors", "Apache
Software Foundation", an organisation's vCard, a BibTeX literal, person("R Core Team"), a Turtle or microdata
organisation, a citation of one), a tool spelt like a name alone in a person() or a BibTeX list, and the bare keys
"family"/"first"/"last" outside a record about a person (a font's family, a range).

The rule tests read the rules alone; the ``analyzer`` tests run the production Analyzer and the default policy.
Name pools and tools are made up here, apart from every ``code_persons`` split's and the other families'.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.unit.redaction.detection.names import person_formats as P
from tests.unit.redaction.detection.names import test_comment_lines_and_timelines as T
from tests.unit.redaction.detection.names import test_person_fields_in_formats as F
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

# Given names on a shipped list and on none, and surnames (one with a particle).
LISTED = ("Philippa", "Augustin", "Henrike", "Casimir")
OFF_LIST = ("Tjarko", "Oyiza", "Kelechukwu", "Tokoni")
SURNAMES = ("Oyebanji", "Halloran", "Vukadinovic", "Strandvik", "van Rensburg", "Ekwueme")
# Tools spelt like given names or surnames, and organisations.
TOOLS = ("Harlow", "Ainsley", "Colby", "Everett")
ORGS = ("The Harlow Authors", "Apache Software Foundation", "Tidal Research Group", "Colby Labs",
        "Everett Project Contributors", "R Core Team")

# A name split across fields: {g} the given name, {f} the family name.
SPLIT = (
    "cff-version: 1.2.0\nauthors:\n  - given-names: {g}\n    family-names: {f}\n    affiliation: Tidal Unit\n",
    "authors:\n  - family-names: \"{f}\"\n    given-names: \"{g}\"\n    orcid: \"https://orcid.org/0000-0002-1825-0097\"\n",
    "{{\"author\": [{{\"@type\": \"Person\", \"givenName\": \"{g}\", \"familyName\": \"{f}\"}}]}}\n",
    "{{\n  \"creators\": [\n    {{\"name\": \"{f}, {g}\", \"affiliation\": \"Tidal Unit\"}}\n  ]\n}}\n",
    "@article{{k1,\n  author = {{{f}, {g} and Others}},\n  title = {{Tides}}\n}}\n",
    "@book{{k2,\n  editor = \"{g} {f}\",\n  year = 2020\n}}\n",
    "Authors@R: person(\"{g}\", \"{f}\", email = \"tides@example.org\", role = c(\"aut\", \"cre\"))\n",
    "Authors@R: c(\n    person(given = \"{g}\", family = \"{f}\", role = \"ctb\"),\n    person(\"R Core Team\", role = \"cph\"))\n",
    "<foaf:Person>\n  <foaf:givenName>{g}</foaf:givenName>\n  <foaf:familyName>{f}</foaf:familyName>\n</foaf:Person>\n",
    "<contrib>\n  <name><surname>{f}</surname>\n    <given-names>{g}</given-names></name>\n</contrib>\n",
    "[{{\"id\": \"k3\", \"author\": [{{\"family\": \"{f}\", \"given\": \"{g}\"}}]}}]\n",
    "---\nauthor:\n  - family: {f}\n    given: {g}\n---\n",
    "\"name\": {{\n  \"given-names\": {{\"value\": \"{g}\"}},\n  \"family-name\": {{\"value\": \"{f}\"}}\n}}\n",
    "BEGIN:VCARD\nVERSION:3.0\nN:{f};{g};;;\nFN:{g} {f}\nEND:VCARD\n",
    "BEGIN:VCARD\nVERSION:2.1\nFN;CHARSET=UTF-8:{g} {f}\nTEL;WORK:+1-555-0100\nEND:VCARD\n",
    "first_name = \"{g}\"\nlast_name = \"{f}\"\n",
    "<div itemscope itemtype=\"https://schema.org/Person\">\n  <span itemprop=\"givenName\">{g}</span>\n"
    "  <span itemprop=\"familyName\">{f}</span>\n</div>\n",
    "<span class=\"h-card\"><span class=\"p-given-name\">{g}</span> <span class=\"p-family-name\">{f}</span></span>\n",
    "<#me> a foaf:Person ;\n  foaf:givenName \"{g}\" ;\n  foaf:familyName \"{f}\" .\n",
    "<personal-details:given-names>{g}</personal-details:given-names>\n"
    "<personal-details:family-name>{f}</personal-details:family-name>\n",
    "<developers>\n  <developer>\n    <id>t1</id>\n    <name>{g} {f}</name>\n  </developer>\n</developers>\n",
)
# Copyright lines whose holder {n} comes before the year, or has none.
COPYRIGHT_AFTER = (
    "[assembly: AssemblyCopyright(\"Copyright \u00a9 {n} 2021\")]\n",
    "// Copyright (c) {n}, 2019-2021\n",
    "# (C) {n} 2020. All rights reserved.\n",
    "Copyright {n}. All rights reserved.\n",
    "  VALUE \"LegalCopyright\", \"\u00a9 {n} 2023\"\n",
)
# A citation's author {n} after a cue to cite, the year right after (CITATION.cff's message, R's CITATION).
CITATIONS = (
    "message: \"If you use tidekit, please cite it as: {n} (2024). tidekit (1.4.2).\"\n",
    "To cite tidekit in publications use:\n\n  {n} (2023). tidekit: Tide tables. R package version 1.4.\n",
    "Please cite the paper as: {n} et al. (2021)\n",
)
# The same records holding an organisation {o}, or a tool {t} alone.
ORG_RECORDS = (
    "cff-version: 1.2.0\nauthors:\n  - name: \"{o}\"\n",
    "{{\"author\": [{{\"@type\": \"Organization\", \"name\": \"{o}\"}}]}}\n",
    "@manual{{k4,\n  author = {{{{{o}}}}},\n  title = {{Manual}}\n}}\n",
    "Authors@R: person(\"{o}\", role = c(\"cph\", \"fnd\"))\n",
    "BEGIN:VCARD\nVERSION:4.0\nKIND:org\nFN:{o}\nEND:VCARD\n",
    "BEGIN:VCARD\nVERSION:3.0\nN:;;;;\nFN:{o}\nORG:{o}\nEND:VCARD\n",
    "[{{\"id\": \"k5\", \"author\": [{{\"literal\": \"{o}\"}}]}}]\n",
    "[assembly: AssemblyCopyright(\"Copyright \u00a9 {o} 2021\")]\n",
    "# (c) {o}, 2020. All rights reserved.\n",
    "message: \"If you use it, please cite it as: {o} (2024).\"\n",
    "<#org> a foaf:Organization ;\n  foaf:name \"{o}\" .\n",
    "<div itemscope itemtype=\"https://schema.org/Organization\"><span itemprop=\"name\">{o}</span></div>\n",
)
TOOL_RECORDS = (
    "Authors@R: person(\"{t}\", role = \"cph\")\n",
    "@misc{{k6,\n  author = {{{t}}},\n  note = {{{t} 2.1}}\n}}\n",
    "theme:\n  fonts:\n    - family: {t} Sans\n      weight: 400\n",
    "font:\n  family: {t}\n  size: 12\n",
    "range:\n  first: {t}\n  last: {t}\n",
    "BEGIN:VCARD\nVERSION:4.0\nKIND:application\nFN:{t}\nEND:VCARD\n",
)

RULES = context_recognizers()


def _spans(text: str) -> list[tuple[int, int]]:
    return [(s, e) for r in RULES for s, e, _ in r.find(text)] + evidence_recognizer.find(text)


def _found(text: str, value: str) -> bool:
    spans = _spans(text)
    return all(any(s <= m.start() and m.end() <= e for s, e in spans)
               for m in re.finditer(rf"(?<!\w){re.escape(value)}(?!\w)", text))


def _redacted(analyzer: Analyzer, text: str) -> str:
    return redact(text, analyzer.analyze(text), POLICY, None, None, None, operators=Operators()).text


def _survives(word: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) is not None


def _last_word(surname: str) -> str:
    return surname.split()[-1]


def test_the_pools_are_apart_from_every_split_and_family_and_the_off_list_names_on_no_list() -> None:
    for split in code_persons.GIVEN:
        assert not set(LISTED + OFF_LIST) & set(code_persons.GIVEN[split]), split
        assert not set(SURNAMES) & set(code_persons.SURNAMES[split]), split
        assert not {t.casefold() for t in TOOLS} & {t.casefold() for t in code_persons.TOOLS[split]}, split
    assert not set(LISTED + OFF_LIST) & set(P.GIVEN + T.OFF_LIST + F.LISTED + F.OFF_LIST)
    assert not set(SURNAMES) & set(P.SURNAMES + F.SURNAMES)
    assert not {t.casefold() for t in TOOLS} & {t.casefold() for t in P.TOOLS + T.TOOLS + F.TOOLS}
    assert all(given_name(g) for g in LISTED) and not any(given_name(g) for g in OFF_LIST)


@FAST
@given(st.sampled_from(LISTED + OFF_LIST), st.sampled_from(SURNAMES), st.sampled_from(SPLIT))
def test_every_part_of_a_name_split_across_fields_is_found(first: str, last: str, frame: str) -> None:
    text = frame.format(g=first, f=last)
    assert _found(text, first) and _found(text, _last_word(last)), text


@FAST
@given(st.sampled_from(LISTED + OFF_LIST), st.sampled_from(SURNAMES), st.sampled_from(COPYRIGHT_AFTER + CITATIONS))
def test_a_copyright_holder_with_the_year_after_or_none_and_a_cited_author_are_found(first: str, last: str,
                                                                            frame: str) -> None:
    text = frame.format(n=f"{first} {last}")
    assert _found(text, f"{first} {last}"), text


@FAST
@given(st.sampled_from(ORGS), st.sampled_from(TOOLS), st.sampled_from(ORG_RECORDS + TOOL_RECORDS))
def test_organisations_and_tools_in_the_same_records_are_found_by_no_rule(org: str, tool: str, frame: str) -> None:
    text = frame.format(o=org, t=tool)
    assert _spans(text) == [], text


@SLOW
@given(st.sampled_from(LISTED + OFF_LIST), st.sampled_from(SURNAMES),
       st.sampled_from(SPLIT + COPYRIGHT_AFTER + CITATIONS))
def test_the_analyzer_hides_every_part_of_a_split_name_a_copyright_holder_and_a_cited_author(
        redaction_analyzer: Analyzer, first: str, last: str, frame: str) -> None:
    text = frame.format(g=first, f=last, n=f"{first} {last}")
    out = _redacted(redaction_analyzer, text)
    assert not _survives(first, out) and not _survives(_last_word(last), out), (text, out)


@SLOW
@given(st.sampled_from(ORGS), st.sampled_from(TOOLS), st.sampled_from(ORG_RECORDS + TOOL_RECORDS))
def test_the_analyzer_leaves_organisations_and_tools_in_those_records(redaction_analyzer: Analyzer, org: str,
                                                                     tool: str, frame: str) -> None:
    text = frame.format(o=org, t=tool)
    assert _redacted(redaction_analyzer, text) == text, text
