"""A bare ``name`` value in an SQL INSERT or UPDATE, a CSV table or a YAML record is a person's only where the
record says persons (issue #29, eighth round, ADR 0024): the table (``users``, ``authors``, ``employees``) or a
column only a person has (``email``, ``first_name``); in a table of services, tools, packages, hosts or jobs a
name-like value is a tool; where the record says neither, a full name still is a person's. Both sides as
generated families through the rules alone; the ``analyzer`` tests run the production Analyzer and the default
policy. Tools and names are made up here, apart from every ``code_persons`` split's and the other families'."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.analyzer import Analyzer
from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.names.context.csv_columns import CsvColumnFieldRecognizer
from ztgate.redaction.detection.names.context.key_values import KeyValueFieldRecognizer
from ztgate.redaction.detection.names.context.sql_inserts import SqlInsertFieldRecognizer
from ztgate.redaction.detection.records import PERSONS, THINGS, record_kind
from ztgate.redaction.policies import PolicyStore
from ztgate_bench import code_persons

POLICY = PolicyStore.load().get("default")
FAST = settings(max_examples=300, deadline=None)
SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
TOOLS = ("Philippa", "Perdita", "Augustin", "Rosamund")  # given names, here the names of services
SURNAMES = ("Throckmorton", "Haverkamp", "Szczepanik")
THING_TABLES = st.sampled_from(["services", "tools", "packages", "hosts", "ci_jobs", "public.plugins", "\"servers\"",
                                "service_catalog"])
PERSON_TABLES = st.sampled_from(["users", "authors", "employees", "contacts", "app.customers", "team_members"])
THING_INSERTS = ("INSERT INTO {table} (id, name, tier) VALUES (3, '{t}', 2);\n",
                 "INSERT INTO {table} (name, version) VALUES\n  ('{t}', '1.2.0'),\n  ('{m}-cli', '1.2.0');\n")
PERSON_INSERTS = ("INSERT INTO {table} (id, name, team) VALUES (3, '{n}', 'payments');\n",
                  "INSERT INTO {table} (name, bio) VALUES\n  ('{n}', 'writes the storage chapters');\n")


def _values(rule, text: str) -> list[str]:
    return [text[s:e] for s, e, _ in rule.find(text)]


def test_the_pools_are_apart_and_the_tools_are_given_names() -> None:
    for split in code_persons.TOOLS:
        assert not {t.casefold() for t in TOOLS} & {t.casefold() for t in code_persons.TOOLS[split]}, split
        assert not set(TOOLS) & set(code_persons.GIVEN[split]) and not set(SURNAMES) & set(code_persons.SURNAMES[split])
    assert all(given_name(t) for t in TOOLS)


def test_the_table_or_a_column_says_what_a_record_is_about() -> None:
    assert record_kind("users", ["id", "name"]) == PERSONS
    assert record_kind("services", ["id", "name", "email"]) == PERSONS  # a column only a person has wins
    assert record_kind("ci_jobs", ["name"]) == THINGS
    assert record_kind(None, ["name", "host", "port"]) == THINGS
    assert record_kind("t", ["id", "name", "plan"]) is None


@FAST
@given(st.sampled_from(TOOLS), THING_TABLES, st.sampled_from(THING_INSERTS))
def test_a_tool_in_a_table_of_things_is_no_person(tool: str, table: str, frame: str) -> None:
    text = frame.format(table=table, t=tool, m=tool.casefold())
    assert _values(SqlInsertFieldRecognizer(), text) == [], text
    update = f"UPDATE {table} SET name = '{tool}', schedule = '0 3 * * *' WHERE id = 12;\n"
    assert _values(KeyValueFieldRecognizer(), update) == [], update
    csv = f"name,host,port\n{tool},{tool.casefold()}.svc.internal,8443\n"
    assert _values(CsvColumnFieldRecognizer(), csv) == [], csv
    yaml = f"{table.strip(chr(34)).split('.')[-1]}:\n  - name: {tool}\n    fqdn: {tool.casefold()}.internal\n    rack: r2\n"
    assert _values(KeyValueFieldRecognizer(), yaml) == [], yaml


@FAST
@given(st.sampled_from(TOOLS), st.sampled_from(SURNAMES), PERSON_TABLES, st.sampled_from(PERSON_INSERTS),
       st.booleans())
def test_a_name_in_a_table_of_persons_is_a_person(first: str, last: str, table: str, frame: str,
                                                  one_word: bool) -> None:
    name = first if one_word else f"{first} {last}"
    text = frame.format(table=table, n=name)
    assert _values(SqlInsertFieldRecognizer(), text) == [name], text
    update = f"UPDATE {table} SET name = '{name}' WHERE id = 12;\n"
    assert _values(KeyValueFieldRecognizer(), update) == [name], update
    csv = f"name,email\n{name},x{len(name)}@example.test\n"
    assert _values(CsvColumnFieldRecognizer(), csv) == [name], csv
    # a services table's owner column holds a person
    owner = f"INSERT INTO services (name, owner) VALUES ('ledger', '{first} {last}');\n"
    assert _values(SqlInsertFieldRecognizer(), owner) == [f"{first} {last}"], owner


@FAST
@given(st.sampled_from(TOOLS), st.sampled_from(SURNAMES))
def test_where_the_record_says_neither_a_full_name_is_a_person_and_a_lone_word_is_not(first: str, last: str) -> None:
    for frame in ("INSERT INTO t (id, name) VALUES (1, '{n}');\n", "id,name,plan\n1,{n},gold\n"):
        rule = SqlInsertFieldRecognizer() if frame.startswith("INSERT") else CsvColumnFieldRecognizer()
        full = frame.format(n=f"{first} {last}")
        assert _values(rule, full) == [f"{first} {last}"], full
        assert _values(rule, frame.format(n=first)) == [], frame


def _redacted(analyzer: Analyzer, text: str) -> str:
    return redact(text, analyzer.analyze(text), POLICY, None, None, None, operators=Operators()).text


@SLOW
@given(st.sampled_from(TOOLS), THING_TABLES, st.sampled_from(THING_INSERTS))
def test_the_analyzer_leaves_a_table_of_things_alone(redaction_analyzer: Analyzer, tool: str, table: str,
                                                     frame: str) -> None:
    for text in (frame.format(table=table, t=tool, m=tool.casefold()),
                 f"UPDATE {table} SET name = '{tool}', schedule = '0 3 * * *' WHERE id = 12;\n",
                 f"name,host,port\n{tool},{tool.casefold()}.svc.internal,8443\n"):
        assert _redacted(redaction_analyzer, text) == text


@SLOW
@given(st.sampled_from(TOOLS), st.sampled_from(SURNAMES), PERSON_TABLES, st.sampled_from(PERSON_INSERTS))
def test_the_analyzer_hides_a_person_in_a_table_of_persons(redaction_analyzer: Analyzer, first: str, last: str,
                                                           table: str, frame: str) -> None:
    for text in (frame.format(table=table, n=f"{first} {last}"),
                 f"UPDATE {table} SET display_name = '{first} {last}' WHERE id = 88;\n",
                 f"id,full_name,email\n7,{first} {last},{first.casefold()}@example.test\n"):
        out = _redacted(redaction_analyzer, text)
        assert re.search(rf"(?<!\w){last}(?!\w)", out) is None, text
