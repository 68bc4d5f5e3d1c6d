"""Dates written in other calendars and digit systems (issue #29, ADR 0039): a Japanese era date (平成8年11月3日,
令和元年5月20日), a day, a month name and a year in Arabic (Levantine and Egyptian month names), Persian (the solar
Hijri months), Hindi or Thai (a Buddhist-era year), with Western, Arabic-Indic, Persian or Devanagari digits
("١٢ آذار ١٩٩٤", "۲۳ مهر ۱۳۷۱", "१४ अगस्त १९९२", "14 กุมภาพันธ์ 2531"). ``calendar_date`` converts each to the
Gregorian calendar and asks for a real date of 1900-2199; whether it is a birth date is the rule's context
(rules/pii.yaml, ``birth_context``). Month names and era start dates from general knowledge of the calendars;
written by hand for ztgate, no external source."""

from __future__ import annotations

import datetime as _dt
import re
import unicodedata
from collections.abc import Mapping
from types import MappingProxyType

# Japanese eras and the Gregorian date of their first day (year 1, 元年, is the Gregorian year of that day).
ERAS: Mapping[str, _dt.date] = MappingProxyType({
    "明治": _dt.date(1868, 1, 25), "大正": _dt.date(1912, 7, 30), "昭和": _dt.date(1926, 12, 25),
    "平成": _dt.date(1989, 1, 8), "令和": _dt.date(2019, 5, 1),
})


def _months(*names: tuple[str, ...]) -> dict[str, int]:
    return {unicodedata.normalize("NFKC", n): i for i, group in enumerate(names, start=1) for n in group}


# Gregorian months in Arabic (Levantine and Iraqi names, then Egyptian and Gulf ones), Hindi and Thai.
GREGORIAN_MONTHS: Mapping[str, int] = MappingProxyType(_months(
    ("كانون الثاني", "يناير", "جنوری", "जनवरी", "มกราคม", "ม.ค."),
    ("شباط", "فبراير", "فوریه", "फ़रवरी", "फरवरी", "กุมภาพันธ์", "ก.พ."),
    ("آذار", "اذار", "مارس", "मार्च", "มีนาคม", "มี.ค."),
    ("نيسان", "أبريل", "ابريل", "آوریل", "अप्रैल", "เมษายน", "เม.ย."),
    ("أيار", "ايار", "مايو", "مه", "मई", "พฤษภาคม", "พ.ค."),
    ("حزيران", "يونيو", "يونيه", "ژوئن", "जून", "มิถุนายน", "มิ.ย."),
    ("تموز", "يوليو", "يوليه", "ژوئیه", "जुलाई", "กรกฎาคม", "ก.ค."),
    ("آب", "أغسطس", "اغسطس", "اوت", "अगस्त", "สิงหาคม", "ส.ค."),
    ("أيلول", "ايلول", "سبتمبر", "سپتامبر", "सितंबर", "सितम्बर", "กันยายน", "ก.ย."),
    ("تشرين الأول", "تشرين الاول", "أكتوبر", "اكتوبر", "اکتبر", "अक्टूबर", "अक्तूबर", "ตุลาคม", "ต.ค."),
    ("تشرين الثاني", "نوفمبر", "نوامبر", "नवंबर", "नवम्बर", "พฤศจิกายน", "พ.ย."),
    ("كانون الأول", "كانون الاول", "ديسمبر", "دسامبر", "दिसंबर", "दिसम्बर", "ธันวาคม", "ธ.ค."),
))
# Hungarian months, written after the year ("1987. március 14."), and the Roman numerals of months that
# Polish, Czech, Hungarian and Romanian write between the day and the year ("3.VII.2009").
HUNGARIAN_MONTHS: Mapping[str, int] = MappingProxyType(_months(
    ("január",), ("február",), ("március",), ("április",), ("május",), ("június",), ("július",), ("augusztus",),
    ("szeptember",), ("október",), ("november",), ("december",),
))
ROMAN_MONTHS: Mapping[str, int] = MappingProxyType(
    {r: i for i, r in enumerate(("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"), start=1)})
# The months of the solar Hijri calendar (Iran, Afghanistan), each with its days.
PERSIAN_MONTHS: Mapping[str, int] = MappingProxyType(_months(
    ("فروردین",), ("اردیبهشت",), ("خرداد",), ("تیر",), ("مرداد", "امرداد"), ("شهریور",), ("مهر",), ("آبان",),
    ("آذر",), ("دی",), ("بهمن",), ("اسفند",),
))
_PERSIAN_DAYS = (31, 31, 31, 31, 31, 31, 30, 30, 30, 30, 30, 29)
BUDDHIST_ERA_OFFSET = 543  # Thai years: the Gregorian year plus 543

_ERA_DATE = re.compile(r"(明治|大正|昭和|平成|令和)\s*(元|\d{1,2})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日?")
_DAY_MONTH_YEAR = re.compile(r"(\d{1,2})\s+(\D+?)\s*(?:،|,)?\s+(\d{4})")
_VIETNAMESE = re.compile(r"(?:ngày\s+)?(\d{1,2})\s+tháng\s+(\d{1,2})\s*,?\s+năm\s+(\d{4})", re.IGNORECASE)
_HUNGARIAN = re.compile(r"(\d{4})\.\s*(\w+)\s+(\d{1,2})\.?", re.IGNORECASE)
_ROMAN = re.compile(r"(\d{1,2})(?:\.\s?|\s)([IVX]{1,4})(?:\.\s?|\s)(\d{4})")


def _real(year: int, month: int, day: int) -> bool:
    try:
        _dt.date(year, month, day)
    except ValueError:
        return False
    return 1900 <= year <= 2199


def _era_to_gregorian(era: str, year: int, month: int, day: int) -> _dt.date | None:
    """The Gregorian date of an era date, None where it is no real date or falls before the era began."""
    start = ERAS[era]
    try:
        date = _dt.date(start.year + year - 1, month, day)
    except ValueError:
        return None
    return date if date >= start else None


def _persian_to_gregorian(year: int, month: int, day: int) -> _dt.date | None:
    """A solar Hijri date in the Gregorian calendar: 1 Farvardin falls on 21 March (a day either way around leap
    years, which a birth-date check does not need), and the months run 31, 31, ..., 30, ..., 29 days."""
    if not (1 <= month <= 12 and 1 <= day <= _PERSIAN_DAYS[month - 1] + (month == 12)):
        return None
    offset = sum(_PERSIAN_DAYS[:month - 1]) + day - 1
    return _dt.date(year + 621, 3, 21) + _dt.timedelta(days=offset)


def calendar_date(value: str) -> bool:
    """A real date of 1900-2199 written as a Japanese era date, a Vietnamese, Hungarian or Roman-numeral date, or
    as a day, a month name of Arabic, Persian, Hindi or Thai (or its Thai abbreviation) and a year (Thai Buddhist-era years too), in any decimal digits Python reads (int() reads Arabic-Indic,
    Persian and Devanagari digits)."""
    text = unicodedata.normalize("NFKC", value.strip())
    if m := _ERA_DATE.fullmatch(text):
        year = 1 if m.group(2) == "元" else int(m.group(2))
        date = _era_to_gregorian(m.group(1), year, int(m.group(3)), int(m.group(4)))
        return date is not None and 1900 <= date.year <= 2199
    if m := _VIETNAMESE.fullmatch(text):
        return _real(int(m.group(3)), int(m.group(2)), int(m.group(1)))
    if (m := _HUNGARIAN.fullmatch(text)) and m.group(2).casefold() in HUNGARIAN_MONTHS:
        return _real(int(m.group(1)), HUNGARIAN_MONTHS[m.group(2).casefold()], int(m.group(3)))
    if (m := _ROMAN.fullmatch(text)) and m.group(2) in ROMAN_MONTHS:
        return _real(int(m.group(3)), ROMAN_MONTHS[m.group(2)], int(m.group(1)))
    if m := _DAY_MONTH_YEAR.fullmatch(text):
        day, name, year = int(m.group(1)), " ".join(m.group(2).split()), int(m.group(3))
        if name in PERSIAN_MONTHS:
            date = _persian_to_gregorian(year, PERSIAN_MONTHS[name], day)
            return date is not None and 1900 <= date.year <= 2199
        month = GREGORIAN_MONTHS.get(name)
        if month is None:
            return False
        if year - BUDDHIST_ERA_OFFSET >= 1900 and year > 2199:
            year -= BUDDHIST_ERA_OFFSET
        return _real(year, month, day)
    return False
