"""Dates of birth in other calendars and digit systems (issue #29, ADR 0039), and a Greek street line.

Generated families: any Gregorian date of 1900-2199 written as a Japanese era date, with an Arabic, Persian, Hindi or
Thai month name in Western, Arabic-Indic, Persian or Devanagari digits (a Thai Buddhist-era year, a solar Hijri
date converted) -> the validator accepts it, and after a birth word of the language the rule finds it whole; a day
that does not exist, or a date before its era began, is refused; the same date with no birth word is no finding. A
Greek street with its number is found, the street named without one stays."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ztgate.redaction.detection.normalise import detect_on_view
from ztgate.redaction.detection.patterns.calendars import BUDDHIST_ERA_OFFSET, ERAS, calendar_date
from ztgate.redaction.detection.patterns.scanner import PatternScanner

FAST = settings(max_examples=40, deadline=None)
SCAN = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
DATES = st.dates(dt.date(1930, 1, 1), dt.date(2024, 12, 31))
DIGITS = {"latin": "0123456789", "arabic": "٠١٢٣٤٥٦٧٨٩", "persian": "۰۱۲۳۴۵۶۷۸۹", "devanagari": "०१२३४५६७८९"}
AR_MONTHS = ["كانون الثاني", "شباط", "آذار", "نيسان", "أيار", "حزيران", "تموز", "آب", "أيلول", "تشرين الأول",
             "تشرين الثاني", "كانون الأول"]
EG_MONTHS = ["يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر", "نوفمبر",
             "ديسمبر"]
HI_MONTHS = ["जनवरी", "फ़रवरी", "मार्च", "अप्रैल", "मई", "जून", "जुलाई", "अगस्त", "सितंबर", "अक्टूबर", "नवंबर", "दिसंबर"]
TH_MONTHS = ["มกราคม", "กุมภาพันธ์", "มีนาคม", "เมษายน", "พฤษภาคม", "มิถุนายน", "กรกฎาคม", "สิงหาคม", "กันยายน",
             "ตุลาคม", "พฤศจิกายน", "ธันวาคม"]
FA_MONTHS = ["فروردین", "اردیبهشت", "خرداد", "تیر", "مرداد", "شهریور", "مهر", "آبان", "آذر", "دی", "بهمن", "اسفند"]


def _digits(number: int, system: str, width: int = 1) -> str:
    return "".join(DIGITS[system][int(c)] for c in str(number).zfill(width))


def _era(date: dt.date) -> str:
    era = max((name for name, start in ERAS.items() if start <= date), key=lambda name: ERAS[name])
    year = date.year - ERAS[era].year + 1
    return f"{era}{'元' if year == 1 else year}年{date.month}月{date.day}日"


def _month_name(date: dt.date, months: list[str], digits: str, year: int | None = None) -> str:
    return f"{_digits(date.day, digits)} {months[date.month - 1]} {_digits(year or date.year, digits)}"


@FAST
@given(date=DATES, digits=st.sampled_from(sorted(DIGITS)),
       months=st.sampled_from([AR_MONTHS, EG_MONTHS, HI_MONTHS, TH_MONTHS]), buddhist=st.booleans())
def test_a_real_date_in_another_calendar_or_digit_system_is_accepted(date, digits, months, buddhist):
    year = date.year + BUDDHIST_ERA_OFFSET if buddhist and months is TH_MONTHS else date.year
    assert calendar_date(_era(date))
    assert calendar_date(_month_name(date, months, digits, year))


@FAST
@given(year=st.integers(1310, 1400), month=st.integers(1, 12), day=st.integers(1, 29),
       digits=st.sampled_from(["persian", "latin", "arabic"]))
def test_a_solar_hijri_date_is_read_by_its_own_months(year, month, day, digits):
    assert calendar_date(f"{_digits(day, digits)} {FA_MONTHS[month - 1]} {_digits(year, digits)}")
    assert not calendar_date(f"{_digits(32, digits)} {FA_MONTHS[month - 1]} {_digits(year, digits)}")


@FAST
@given(months=st.sampled_from([AR_MONTHS, EG_MONTHS, HI_MONTHS, TH_MONTHS]), year=st.integers(1901, 2023),
       digits=st.sampled_from(sorted(DIGITS)))
def test_a_day_that_does_not_exist_is_refused(months, year, digits):
    assert not calendar_date(f"{_digits(31, digits)} {months[3]} {_digits(year, digits)}")  # 31 April
    assert not calendar_date(f"{_digits(12, digits)} {months[3]} {_digits(1850, digits)}")


@FAST
@given(era=st.sampled_from(sorted(ERAS)))
def test_an_era_date_before_the_era_began_is_refused(era):
    start = ERAS[era]
    before = start - dt.timedelta(days=1)
    if before.year == start.year:
        assert not calendar_date(f"{era}元年{before.month}月{before.day}日")
    assert not calendar_date(f"{era}元年2月30日")


@pytest.fixture(scope="module")
def scanner(hs_cache_dir: Path) -> PatternScanner:
    return PatternScanner(cache_dir=hs_cache_dir)


def _found(scanner: PatternScanner, text: str, entity: str) -> list[str]:
    return [text[d.start:d.end] for d in detect_on_view(scanner.scan, text) if d.entity_type == entity]


BIRTH_FRAMES = [("生年月日：{d}", None), ("娘は{d}生まれです。", None), ("تاريخ الميلاد: {d}", AR_MONTHS),
                ("ولدت في {d} في حلب", EG_MONTHS), ("जन्म तिथि: {d}", HI_MONTHS), ("ฉันเกิดเมื่อ {d} ที่เชียงใหม่", TH_MONTHS),
                ("My date of birth: {d}", AR_MONTHS)]


@SCAN
@given(date=DATES, frame=st.sampled_from(BIRTH_FRAMES), digits=st.sampled_from(sorted(DIGITS)))
def test_a_date_of_another_calendar_after_a_birth_word_is_found_whole(scanner, date, frame, digits):
    template, months = frame
    value = _era(date) if months is None else _month_name(date, months, digits)
    assert value in _found(scanner, template.format(d=value), "DATE_OF_BIRTH")


@SCAN
@given(date=DATES, months=st.sampled_from([AR_MONTHS, HI_MONTHS, TH_MONTHS, None]),
       digits=st.sampled_from(sorted(DIGITS)))
def test_the_same_date_with_no_birth_word_is_no_finding(scanner, date, months, digits):
    value = _era(date) if months is None else _month_name(date, months, digits)
    assert _found(scanner, f"Что произошло {value}? Расскажи подробнее.", "DATE_OF_BIRTH") == []


@SCAN
@given(kind=st.sampled_from(["Οδός", "οδό", "Λεωφόρος", "Λεωφ.", "Πλατεία"]),
       street=st.sampled_from(["Κορυτσάς", "Αγίου Δημητρίου", "Νίκης", "Ελευθερίου Βενιζέλου"]),
       number=st.integers(1, 250), postcode=st.one_of(st.none(), st.integers(10431, 85100)))
def test_a_greek_street_with_its_number_is_found(scanner, kind, street, number, postcode):
    value = f"{kind} {street} {number}" + ("" if postcode is None else f", {postcode}")
    assert value in _found(scanner, f"Στείλτε το στην {value}. Ευχαριστώ", "LOCATION")
    assert _found(scanner, f"Γιατί η {kind} {street} λέγεται έτσι;", "LOCATION") == []
