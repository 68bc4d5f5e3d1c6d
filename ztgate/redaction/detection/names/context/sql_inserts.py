"""Values of an SQL INSERT's columns named for a person or a place (``INSERT INTO t (name, city) VALUES
('Rose Tyler', 'Haderup')``). A bare ``name`` column is a person's only where the table or the columns say
persons (``records``: ``INSERT INTO users (name, email)``); in a table of services, tools, packages, hosts or
jobs it names a thing (``INSERT INTO services (name, tier) VALUES ('Huey', 2)``), and in a table that says
neither only a full name is a person's."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.fields import field_kind, value_span
from ztgate.redaction.detection.records import column_kind, record_kind

_SQL_INSERT = re.compile(r"(?is)INSERT\s+INTO\s+([\w.\"`]+)\s*\(([^()]{1,400})\)\s*VALUES\s*((?:\([^()]{1,2000}\)\s*,?\s*){1,50})")
_SQL_ROW = re.compile(r"\(([^()]*)\)")
_SQL_VALUE = re.compile(r"'((?:[^'\n]|'')*)'|([^,\s][^,]*)")


class SqlInsertFieldRecognizer(ContextRule):
    NAME = "SqlInsertFieldRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON", "LOCATION")

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        for m in _SQL_INSERT.finditer(text):
            columns = m.group(2).split(",")
            record = record_kind(m.group(1), columns)
            kinds = [column_kind(field_kind(c), c, record) for c in columns]
            if not any(kinds):
                continue
            for row in _SQL_ROW.finditer(m.group(3)):
                base = m.start(3) + row.start(1)
                for kind, value in zip(kinds, _SQL_VALUE.finditer(row.group(1))):
                    if kind and value.group(1) is not None:
                        span = value_span(text, base + value.start(1), value.group(1), kind)
                        if span:
                            out.append(span)
        return out
