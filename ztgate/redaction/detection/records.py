"""What a record is about, from its table's name and its columns (issue #29, ADR 0024): an SQL INSERT or UPDATE,
a CSV header. A bare ``name`` column holds a person's name in a table of persons and a tool's in a table of things
("INSERT INTO services (name, owner_team) VALUES ('Huey', 'infra')"), so its value is a person's only where the
record says persons:
* persons: the table is named for persons (``users``, ``authors`` ...: ``data/words/record_nouns.txt``) or a
  column holds what only a person has (``first_name``, ``email``, ``dob`` ...);
* things: the table is named for things (``services``, ``packages``, ``jobs`` ...) or a column holds what only
  software has (``port``, ``version``, ``image`` ...), and nothing says persons;
* neither: a bare ``name`` value is a person's only when it is a full name, as for a role's key (``fields.ROLE``).
The table's head noun decides (its last part after ``_``, schema and quotes dropped: ``ci_jobs``). Columns named
for a person (``full_name``, ``author``, ``owner``) keep their kind in any record."""

from __future__ import annotations

import re

from ztgate.redaction.detection.wordlists import words

# The kind ``names/context/fields.field_kind`` gives a role's key: a person only with two name words or more.
ROLE = "PERSON_ROLE"

_NOUNS = words("record_nouns")
PERSON_TABLES = frozenset(w.removeprefix("person:") for w in _NOUNS if w.startswith("person:"))
THING_TABLES = frozenset(w.removeprefix("thing:") for w in _NOUNS if w.startswith("thing:"))
PERSON_COLUMNS = frozenset(w.removeprefix("person-column:") for w in _NOUNS if w.startswith("person-column:"))
THING_COLUMNS = frozenset(w.removeprefix("thing-column:") for w in _NOUNS if w.startswith("thing-column:"))
# A bare name column, in the spellings of person_fields.txt: what a record of things names its things by.
BARE_NAMES = frozenset({"name", "display_name", "displayname", "label", "nombre", "nom", "nome", "naam", "navn",
                        "nimi", "nume", "isim", "imię", "jméno", "имя", "名前", "이름", "नाम", "اسم"})
PERSONS, THINGS = "persons", "things"
_SQL_UPDATE = re.compile(r"(?is)\bUPDATE\s+([\w.\"`\[\]]+)\s+SET\s+((?:[^;'\n]|'(?:[^'\n]|'')*'){0,600}?)(?:\bWHERE\b|;|$)")
_SET_COLUMN = re.compile(r"(?:^|,)\s*[\"`\[]?(\w+)[\"`\]]?\s*=")


def column_key(name: str) -> str:
    return name.strip().strip("\"'`[]").casefold().replace(" ", "_").replace("-", "_")


def table_head(table: str) -> str:
    """The head noun of a table's name: its last part, without schema, quotes or brackets ("ci_jobs" -> "jobs")."""
    bare = table.strip().strip(";").split(".")[-1].strip("\"'`[]").casefold()
    return bare.rsplit("_", 1)[-1] if bare not in PERSON_TABLES | THING_TABLES else bare


def record_kind(table: str | None, columns: list[str]) -> str | None:
    """PERSONS, THINGS or None (module doc)."""
    keys = [column_key(c) for c in columns]
    head = table_head(table) if table else ""
    if head in PERSON_TABLES or any(k in PERSON_COLUMNS for k in keys):
        return PERSONS
    if head in THING_TABLES or any(k in THING_COLUMNS for k in keys):
        return THINGS
    return None


def column_kind(kind: str | None, column: str, record: str | None) -> str | None:
    """A column's field kind (``fields.field_kind``) in a record of that kind: a bare name column is none in a
    record of things, and a role's (two name words or more) in a record that says neither."""
    if kind != "PERSON" or column_key(column) not in BARE_NAMES:
        return kind
    if record == THINGS:
        return None
    return kind if record == PERSONS else ROLE


def sql_update_kind(text: str, pos: int) -> str | None:
    """The record kind of the SQL UPDATE whose SET list holds pos, or None outside one."""
    lo = max(0, pos - 700)
    for m in _SQL_UPDATE.finditer(text, lo, min(len(text), pos + 700)):
        if m.start(2) <= pos < m.end(2):
            return record_kind(m.group(1), _SET_COLUMN.findall(m.group(2))) or ""
    return None
