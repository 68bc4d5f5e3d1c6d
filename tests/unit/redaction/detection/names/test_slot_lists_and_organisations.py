"""Persons listed under an author-like slot in any list syntax, across lines too, and a person in an organisation's
slot, as classes (issue #29, ADR 0048).

Slot keys x list syntaxes x names: every person-shaped item of a list under an author-like key (a JSON, TOML,
Python, Lua, Perl, Groovy or YAML flow array, an Erlang tuple, an Elixir keyword list, on one line or across lines)
is a person, the later items as the first, whatever list holds the given name; a team, a project, a bot or a
company there stays, and a list under another key is no slot's. An organisation's slot (an Xcode ORGANIZATIONNAME,
a Qt organisation name, an X.509 organizationName, a Maven <organization>, a property list's key, a licensor) is a
publisher-like slot: a person's shape there is a person, a company's stays. The rule tests read the rules alone; the
``analyzer`` tests run the production Analyzer and the default policy. Names, tools, keys and frames are written
here, apart from every ``code_persons`` split's pools and templates.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.analyzer import Analyzer
from ztgate.redaction.detection.names.context.author_slots import AuthorSlotRecognizer
from ztgate.redaction.detection.names.context.person_keys import keyed_by_person
from ztgate.redaction.detection.names.context.publisher_slots import PublisherSlotRecognizer, publisher_slot_key
from ztgate.redaction.policies import PolicyStore
from ztgate_bench import code_persons

POLICY = PolicyStore.load().get("default")
FAST = settings(max_examples=30, deadline=None)
SLOW = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
AUTHOR = AuthorSlotRecognizer()
PUBLISHER = PublisherSlotRecognizer()

# Mizo and Khasi names, none of the given names on a shipped list (the slot alone must say person).
GIVEN = ("Losaline", "Sitanileta", "Lalthanmawia", "Vanlalruati", "Bankerlang", "Iarishisha", "Wanphrang",
         "Dapbiang")
SURNAMES = ("Pulotu", "Syiem", "Marbaniang", "Mateaki", "Pachuau", "Halaholo")
# Tools spelt like surnames, to name teams, projects and companies.
TOOLS = ("Wetherby", "Tamsworth", "Fennimore", "Ashlock", "Brindle")
# Author-like keys that hold lists.
LIST_KEYS = ("authors", "maintainers", "contributors", "developers", "credits", "Authors", "pomMaintainers",
             "__credits__", "x-maintainers", "copyright_holders")
# List syntaxes: {k} the key, {a} {b} {c} the items.
LISTS = ("{k} = [\"{a}\", \"{b}\", \"{c}\"]\n", "\"{k}\": [\"{a}\", \"{b}\", \"{c}\"],\n",
         "{k} = {{ \"{a}\", \"{b}\", \"{c}\" }},\n", "{k} => ['{a}', '{b}', '{c}'],\n",
         "  {{{k}, [\"{a}\", \"{b}\", \"{c}\"]}},\n", "      {k}: [\"{a}\", \"{b}\", \"{c}\"],\n",
         "{k}: [{a}, {b}, {c}]\n", "{k} = ['{a}', '{b}', '{c}']\n",
         "{k} = [\n    \"{a}\",\n    \"{b}\",\n    \"{c}\",\n]\n", "\"{k}\": [\n    \"{a}\",\n    \"{b}\",\n    \"{c}\"\n  ],\n",
         "{k} = {{\n  \"{a}\",\n  \"{b}\",\n  \"{c}\",\n}}\n", "{k} = (\n    '{a}',\n    '{b}',\n    '{c}',\n)\n",
         "  {{{k},\n   [\"{a}\",\n    \"{b}\",\n    \"{c}\"]}},\n", "{k} = [\"{a}\",\n           \"{b}\",\n           \"{c}\"]\n")
# What such a list holds when it names no person ({t} a tool).
NOT_PERSONS = ("The {t} Developers", "{t} Core Team", "{t} Contributors", "release-bot", "dependabot[bot]",
               "{t} Software Ltd", "The {t} Project", "{t}")
# Keys whose lists are no person's.
OTHER_LIST_KEYS = ("keywords", "classifiers", "dependencies", "categories", "exclude", "tags")
# Organisation slots: {v} the value.
ORGANISATIONS = ("\t\t\t\tORGANIZATIONNAME = \"{v}\";\n", "<key>ORGANIZATIONNAME</key>\n\t<string>{v}</string>\n",
                 "    QCoreApplication::setOrganizationName(\"{v}\");\n", "organizationName       = {v}\n",
                 "  <organization>\n    <name>{v}</name>\n  </organization>\n", "Licensor:             {v}\n",
                 "organisation: {v}\n", "\"organization\": \"{v}\",\n", "COMPANYNAME={v}\n",
                 "<key>Organisation</key><string>{v}</string>\n", "set(CPACK_PACKAGE_VENDOR \"{v}\")\n")
# Companies, foundations and projects in an organisation's slot ({t} a tool).
COMPANIES = ("{t} Software Ltd", "{t} GmbH", "{t} Inc.", "The {t} Project", "{t} Foundation", "{t} Labs",
             "{t} Software Foundation", "{t}", "{t} Media")


def _covered(spans: list[tuple[int, int, str]], text: str, value: str) -> bool:
    i = text.index(value)
    return any(start <= i < end for start, end, _ in spans)


def test_the_pools_are_apart() -> None:
    mine = {w.casefold() for w in (*GIVEN, *SURNAMES, *TOOLS)}
    for split in code_persons.SEEDS:
        for pools in (code_persons.TOOLS, code_persons.GIVEN, code_persons.SURNAMES):
            assert not mine & {w.casefold() for w in pools[split]}, split


@FAST
@given(st.sampled_from(LIST_KEYS), st.sampled_from(LISTS), st.permutations(GIVEN), st.permutations(SURNAMES))
def test_every_person_of_a_list_under_an_author_like_key_is_found(key: str, frame: str, given_names: list[str],
                                                                 surnames: list[str]) -> None:
    names = [f"{g} {s}" for g, s in zip(given_names[:3], surnames[:3], strict=True)]
    text = "version = \"1.2.0\"\n" + frame.format(k=key, a=names[0], b=names[1], c=names[2])
    spans = AUTHOR.find(text)
    assert all(_covered(spans, text, name) for name in names), text


@FAST
@given(st.sampled_from(LIST_KEYS), st.sampled_from(LISTS), st.sampled_from(NOT_PERSONS), st.sampled_from(TOOLS))
def test_a_team_a_project_a_bot_or_a_company_in_such_a_list_stays(key: str, frame: str, value: str,
                                                                  tool: str) -> None:
    items = [value.format(t=tool), "release-bot", f"{tool} Maintainers"]
    text = frame.format(k=key, a=items[0], b=items[1], c=items[2])
    assert AUTHOR.find(text) == [] and PUBLISHER.find(text) == [], text


@FAST
@given(st.sampled_from(OTHER_LIST_KEYS), st.sampled_from(LISTS), st.sampled_from(GIVEN), st.sampled_from(SURNAMES))
def test_a_list_under_another_key_is_no_slots_even_after_an_authors_list(key: str, frame: str, first: str,
                                                                        last: str) -> None:
    text = ("authors = [\"The Tide Developers\"]\n"
            + frame.format(k=key, a="Harbour Charts", b=f"{first} {last}", c="Tide Tables"))
    assert not _covered(AUTHOR.find(text) + PUBLISHER.find(text), text, f"{first} {last}"), text


@FAST
@given(st.sampled_from(GIVEN), st.sampled_from(SURNAMES))
def test_a_list_item_after_a_closed_list_or_an_unquoted_line_is_not_under_the_key(first: str, last: str) -> None:
    for text in (f"authors = [\n  \"Tide Team\",\n]\nsummary = [\n  \"{first} {last}\",\n]\n",
                 f"authors = [\n  \"Tide Team\",\n  notes here,\n  \"{first} {last}\",\n]\n"):
        assert not keyed_by_person(text, text.index(first)), text
    text = f"{{maintainers,\n  [\"Tide Team\",\n   \"{first} {last}\"]}}.\n"
    assert keyed_by_person(text, text.index(first))


# Lists of records, each a person's name under a bare name key: {a} {b} the names.
RECORD_LISTS = ("maintainers = [\n  {{name = \"{a}\"}},\n  {{name = \"{b}\", email = \"x@example.test\"}},\n]\n",
                "\"contributors\": [\n  {{\"name\": \"{a}\"}},\n  {{\"name\": \"{b}\"}}\n]\n",
                "authors = [{{name = \"{a}\"}}, {{name = \"{b}\"}}]\n",
                "\"authors\": [{{\"name\": \"{a}\", \"url\": \"https://example.test\"}}, {{\"name\": \"{b}\"}}],\n")


@FAST
@given(st.sampled_from(RECORD_LISTS), st.sampled_from(GIVEN), st.sampled_from(SURNAMES))
def test_every_record_of_a_list_under_an_author_like_key_names_a_person(frame: str, first: str, last: str) -> None:
    other = SURNAMES[(SURNAMES.index(last) + 1) % len(SURNAMES)]
    text = frame.format(a=f"Dapbiang {other}", b=f"{first} {last}")
    spans = AUTHOR.find(text)
    assert _covered(spans, text, f"Dapbiang {other}") and _covered(spans, text, f"{first} {last}"), text
    for key in OTHER_LIST_KEYS:
        text = frame.replace("maintainers", key).replace("contributors", key).replace("authors", key)
        text = text.format(a=f"Dapbiang {other}", b=f"{first} {last}")
        assert not _covered(AUTHOR.find(text), text, f"{first} {last}"), text

@FAST
@given(st.sampled_from(ORGANISATIONS), st.sampled_from(GIVEN), st.sampled_from(SURNAMES))
def test_a_person_in_an_organisations_slot_is_found(frame: str, first: str, last: str) -> None:
    text = frame.format(v=f"{first} {last}")
    assert _covered(PUBLISHER.find(text), text, f"{first} {last}"), text


@FAST
@given(st.sampled_from(ORGANISATIONS), st.sampled_from(COMPANIES), st.sampled_from(TOOLS))
def test_a_company_a_foundation_or_a_project_in_an_organisations_slot_stays(frame: str, value: str,
                                                                            tool: str) -> None:
    text = frame.format(v=value.format(t=tool))
    assert PUBLISHER.find(text) == [], text


def test_organisation_keys_glued_to_name_are_slots_and_look_alikes_are_not() -> None:
    for key in ("ORGANIZATIONNAME", "organizationName", "setOrganizationName", "COMPANYNAME", "Licensor",
                "organisation"):
        assert publisher_slot_key(key), key
    for key in ("name", "ProductName", "organize", "orgName", "licence", "licensed_work", "username"):
        assert not publisher_slot_key(key), key


def test_a_copyright_holder_option_is_an_author_like_slot() -> None:
    for first, last in zip(GIVEN, SURNAMES, strict=False):
        text = f"XGETTEXT_OPTIONS = --keyword=_ \\\n  --copyright-holder=\"{first} {last}\" \\\n"
        assert _covered(AUTHOR.find(text), text, last), text
    assert AUTHOR.find("XGETTEXT_OPTIONS = --copyright-holder=\"The Tide Project\"\n") == []


def _redacted(analyzer: Analyzer, text: str) -> str:
    return redact(text, analyzer.analyze(text), POLICY, None, None, None, operators=Operators()).text


@SLOW
@given(st.sampled_from(LISTS), st.sampled_from(GIVEN), st.sampled_from(SURNAMES), st.sampled_from(ORGANISATIONS))
def test_the_analyzer_hides_every_listed_person_and_the_organisations_person(redaction_analyzer: Analyzer,
                                                                           frame: str, first: str, last: str,
                                                                           organisation: str) -> None:
    other = SURNAMES[(SURNAMES.index(last) + 1) % len(SURNAMES)]
    third = SURNAMES[(SURNAMES.index(last) + 2) % len(SURNAMES)]
    text = (frame.format(k="maintainers", a=f"Sitanileta {other}", b=f"{first} {last}", c=f"Wanphrang {third}")
            + organisation.format(v=f"{first} {other}"))
    out = _redacted(redaction_analyzer, text)
    assert all(s not in out for s in (last, other, third)), out


@SLOW
@given(st.sampled_from(LISTS), st.sampled_from(ORGANISATIONS), st.sampled_from(COMPANIES), st.sampled_from(TOOLS))
def test_the_analyzer_keeps_a_team_list_and_a_company_unchanged(redaction_analyzer: Analyzer, frame: str,
                                                                 organisation: str, company: str, tool: str) -> None:
    text = (frame.format(k="authors", a=f"The {tool} Developers", b="release-bot", c=f"{tool} Core Team")
            + organisation.format(v=company.format(t=tool)))
    assert _redacted(redaction_analyzer, text) == text
