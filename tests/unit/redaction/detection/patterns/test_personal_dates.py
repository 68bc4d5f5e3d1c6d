"""Dates tied to a person are found whatever the phrasing and the layout; dates of public events are not.

Generated families (issue #29: "turns 16 on 11/09/2009" reached the model): a date in one of many layouts
(numeric day-first, month-first and ISO, dotted, month names long and short, ordinals, digits of other scripts)
inside a sentence that ties it to a person by birth, age or a personal event, and inside a sentence about a
public event or a release. The scanner runs on the normalised view, as the analyzer runs it.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ztgate.redaction.detection.normalise import detect_on_view
from ztgate.redaction.detection.patterns.scanner import PatternScanner
from ztgate.redaction.detection.patterns.validators import personal_date

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
# Decimal digits of other scripts (Unicode Nd): Arabic-Indic, Devanagari, full-width.
DIGIT_SCRIPTS = ("٠١٢٣٤٥٦٧٨٩", "०१२३४५६७८९", "０１２３４５６７８９")


def _ordinal(day: int) -> str:
    return f"{day}{'th' if 10 <= day % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(day % 10, 'th')}"


LAYOUTS = (
    lambda d: f"{d.day:02d}/{d.month:02d}/{d.year}",
    lambda d: f"{d.month}/{d.day}/{d.year}",
    lambda d: d.isoformat(),
    lambda d: f"{d.day:02d}.{d.month:02d}.{d.year}",
    lambda d: f"{d.day:02d}-{d.month:02d}-{d.year}",
    lambda d: f"{d.day} {MONTHS[d.month - 1][:3]} {d.year}",
    lambda d: f"{d.day} {MONTHS[d.month - 1]} {d.year}",
    lambda d: f"{MONTHS[d.month - 1]} {_ordinal(d.day)}, {d.year}",
    lambda d: f"{MONTHS[d.month - 1]} {d.day}, {d.year}",
    lambda d: f"the {_ordinal(d.day)} of {MONTHS[d.month - 1]} {d.year}",
)

PERSONAL = (
    "My son turns {n} on {date}, can you suggest a party theme?",
    "She turned {n} on {date} and started school.",
    "Aged {n} since {date}, he still plays football.",
    "Her date of birth is {date}.",
    "his DOB: {date}",
    "I was born on {date} in a small town.",
    "Jonas's birthday is {date}.",
    "The patient was admitted on {date} with chest pain.",
    "Discharged on {date}, follow-up in two weeks.",
    "Date of admission: {date}",
    "Our wedding anniversary is {date}, any gift ideas?",
    "We got married on {date} by the lake.",
    "Mr. Olsen passed away on {date}.",
    "Tom has been {n} years old since {date}.",
)

PUBLIC = (
    "The Berlin Wall fell on {date}.",
    "Python 3.12 was released on {date}.",
    "## [2.4.0] - {date}\n- Fixed the parser.",
    "The treaty was signed on {date} in Paris.",
    "Version 1.8 shipped on {date} with a new scheduler.",
    "Apollo 11 landed on the Moon on {date}.",
    "The law came into force on {date}.",
    "Release date: {date}",
    "The conference took place on {date} in Lisbon.",
    "The eclipse was visible across Europe on {date}.",
)

dates = st.dates(min_value=dt.date(1930, 1, 1), max_value=dt.date(2024, 12, 31))


@pytest.fixture(scope="module")
def scanner(hs_cache_dir: Path) -> PatternScanner:
    return PatternScanner(cache_dir=hs_cache_dir)


def _date_findings(scanner: PatternScanner, text: str) -> list[str]:
    return [text[d.start:d.end] for d in detect_on_view(scanner.scan, text) if d.entity_type == "DATE_OF_BIRTH"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(template=st.sampled_from(PERSONAL), layout=st.sampled_from(LAYOUTS), day=dates,
       n=st.integers(2, 90), script=st.sampled_from((None, *DIGIT_SCRIPTS)))
def test_a_date_tied_to_a_person_is_found_whole(scanner: PatternScanner, template: str, layout, day: dt.date,
                                                 n: int, script: str | None) -> None:
    date = layout(day)
    if script is not None:
        date = date.translate(str.maketrans("0123456789", script))
    text = template.format(n=n, date=date)
    found = _date_findings(scanner, text)
    # The whole date is covered (a leading "the" of "the 9th of ..." is not part of it).
    core = date.removeprefix("the ")
    assert any(core in value for value in found), f"{text!r}: found {found!r}"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(template=st.sampled_from(PUBLIC), layout=st.sampled_from(LAYOUTS), day=dates)
def test_a_date_of_a_public_event_is_not_a_finding(scanner: PatternScanner, template: str, layout,
                                                   day: dt.date) -> None:
    text = template.format(date=layout(day))
    assert _date_findings(scanner, text) == [], text


@pytest.mark.parametrize("value", ["11/09/2009", "2031-03-04", "9 Nov 2009", "November 9th, 2009", "1.2.95"])
def test_personal_date_accepts_real_dates_to_come(value: str) -> None:
    assert personal_date(value)


@pytest.mark.parametrize("value", ["31/02/2009", "13/13/2009", "1850-01-01", "2300-01-01", "Smarch 3, 2009",
                                   "123/4/2009"])
def test_personal_date_refuses_what_is_no_date_of_a_life(value: str) -> None:
    assert not personal_date(value)
