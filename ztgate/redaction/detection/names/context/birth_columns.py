"""Dates in a column of a table whose header names a date of birth (``name, dob, email`` then ``X, 1994-05-16,
x@y``): CSV, ;- or tab-separated, or a markdown table, row by row until a row has another shape. The catalogue's
birth rules see only a birth word within 48 characters, so the rows under the header went through (issue #29);
a column named ``released`` or ``date`` is no person's, and its dates stay."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.patterns.validators import intl_date, personal_date

# Column names of a date of birth, lower case, spaces and dashes as underscores; in the languages of the
# catalogue's birth words.
BIRTH_COLUMNS = frozenset({
    "dob", "d.o.b", "d.o.b.", "date_of_birth", "birth_date", "birthdate", "birthday", "born", "bday", "b_day",
    "geburtsdatum", "geboren", "fecha_de_nacimiento", "fecha_nacimiento", "nacimiento", "data_de_nascimento",
    "data_nascimento", "data_di_nascita", "date_de_naissance", "naissance", "geboortedatum", "data_urodzenia",
    "doğum_tarihi", "生年月日", "出生日期", "생년월일",
})
_SEPARATORS = ",;\t|"
RULE_ROW = re.compile(r"^[\s|:\-+]+$")  # a markdown table's |---|:--| line


def cells(line: str, sep: str) -> list[tuple[int, str]]:
    """The cells of a line with their offsets in it; a markdown row's outer pipes are no cells."""
    out, pos = [], 0
    for cell in line.split(sep):
        out.append((pos, cell))
        pos += len(cell) + 1
    if sep == "|" and out and not out[0][1].strip():
        out = out[1:]
    if sep == "|" and out and not out[-1][1].strip():
        out = out[:-1]
    return out


def numbered_lines(text: str) -> list[tuple[int, str]]:
    """Each line of `text` with the offset it starts at (a trailing carriage return cut off)."""
    lines: list[tuple[int, str]] = []
    pos = 0
    for line in text.split("\n"):
        lines.append((pos, line.rstrip("\r")))
        pos += len(line) + 1
    return lines


def column_key(cell: str) -> str:
    return re.sub(r"[\s\-]+", "_", cell.strip().strip("\"'`*").strip().casefold())


def _is_date(value: str) -> bool:
    return any(c.isdigit() for c in value) and (personal_date(value) or intl_date(value))


class BirthColumnRecognizer(ContextRule):
    NAME = "BirthColumnRecognizer"
    SCORE = 0.9
    ENTITIES = ("DATE_OF_BIRTH",)

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        lines = numbered_lines(text)
        index = 0
        while index < len(lines):
            start, line = lines[index]
            index += 1
            sep = next((s for s in _SEPARATORS if s in line), None)
            if sep is None:
                continue
            header = cells(line, sep)
            columns = [i for i, (_, cell) in enumerate(header) if column_key(cell) in BIRTH_COLUMNS]
            if not columns or len(header) < 2:
                continue
            while index < len(lines):  # rows until one has another shape
                row_start, row = lines[index]
                if sep == "|" and RULE_ROW.match(row):
                    index += 1
                    continue
                row_cells = cells(row, sep)
                if len(row_cells) != len(header):
                    break
                index += 1
                for column in columns:
                    offset, cell = row_cells[column]
                    value = cell.strip().strip("\"'")
                    if value and _is_date(value):
                        at = row_start + offset + cell.index(value)
                        out.append((at, at + len(value), "DATE_OF_BIRTH"))
        return out
