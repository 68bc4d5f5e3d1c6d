"""Dates in a table's date-of-birth column are found row by row, in every table layout; dates in other columns
(a release, a changelog, an order) are not (issue #29: "name, dob, email" then rows reached the model)."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from ztgate.redaction.detection.names.context.birth_columns import BirthColumnRecognizer

BIRTH_HEADERS = ("dob", "DOB", "date_of_birth", "Date of birth", "birthdate", "born", "Birth date", "d.o.b")
OTHER_HEADERS = ("released", "release_date", "date", "created_at", "shipped", "version_date", "order date")
DATE_LAYOUTS = (
    lambda d: d.isoformat(),
    lambda d: f"{d.day:02d}/{d.month:02d}/{d.year}",
    lambda d: f"{d.month}/{d.day}/{d.year}",
    lambda d: f"{d.day:02d}.{d.month:02d}.{d.year}",
    lambda d: d.strftime("%d %B %Y"),
    lambda d: f"{d.year}年{d.month}月{d.day}日",
)
dates = st.dates(min_value=dt.date(1930, 1, 1), max_value=dt.date(2024, 12, 31))
names = st.sampled_from(("Ana Ruiz", "Bo Li", "Kofi Mensah", "Yui Tanaka", "release-bot", "widget"))


def _table(layout: str, header: list[str], rows: list[list[str]]) -> str:
    if layout == "markdown":
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join(lines)
    sep = {"csv": ", ", "semicolon": ";", "tsv": "\t"}[layout]
    return "\n".join(sep.join(cells) for cells in [header, *rows])


tables = st.sampled_from(("csv", "semicolon", "tsv", "markdown"))


@settings(max_examples=200, deadline=None)
@given(layout=tables, head=st.sampled_from(BIRTH_HEADERS), fmt=st.sampled_from(DATE_LAYOUTS),
       rows=st.lists(st.tuples(names, dates), min_size=1, max_size=6), column=st.integers(0, 2))
def test_every_date_in_a_birth_column_is_found(layout: str, head: str, fmt, rows, column: int) -> None:
    header = ["name", "email", "city"]
    header.insert(column, head)
    body = []
    for name, day in rows:
        cells = [name, "x@example.org", "Porto"]
        cells.insert(column, fmt(day))
        body.append(cells)
    text = "Please check this export:\n" + _table(layout, header, body) + "\nThanks"
    found = {text[s:e] for s, e, kind in BirthColumnRecognizer().find(text) if kind == "DATE_OF_BIRTH"}
    assert {fmt(day) for _, day in rows} <= found, (text, found)


@settings(max_examples=200, deadline=None)
@given(layout=tables, head=st.sampled_from(OTHER_HEADERS), fmt=st.sampled_from(DATE_LAYOUTS),
       rows=st.lists(st.tuples(names, dates), min_size=1, max_size=6))
def test_dates_in_other_columns_are_not_found(layout: str, head: str, fmt, rows) -> None:
    body = [[f"2.{i}.0", name, fmt(day)] for i, (name, day) in enumerate(rows)]
    text = "## Changelog\n" + _table(layout, ["version", "author", head], body)
    assert BirthColumnRecognizer().find(text) == []


def test_rows_end_where_the_table_ends() -> None:
    text = "name, dob\nAna, 1994-05-16\n\nThe release shipped on 2023-10-02, see notes."
    found = [text[s:e] for s, e, _ in BirthColumnRecognizer().find(text)]
    assert found == ["1994-05-16"]
