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
from ztgate.redaction.detection.patterns.validators import day_month, intl_date, personal_date

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


# --- Birthdays without a year, and dates of birth in other languages' forms (issue #29, personal-dates-2) ---

DAY_MONTH_LAYOUTS = (
    lambda d: f"{d.day} {MONTHS[d.month - 1]}",
    lambda d: f"{d.day} {MONTHS[d.month - 1][:3]}",
    lambda d: f"{MONTHS[d.month - 1]} {d.day}",
    lambda d: f"{MONTHS[d.month - 1]} {_ordinal(d.day)}",
    lambda d: f"the {_ordinal(d.day)} of {MONTHS[d.month - 1]}",
)

BIRTHDAY_CUES = (
    "My uncle, who turns {n} on {date}, loves jazz; what should I get him?",
    "She turns {n} on {date}.",
    "Turning {n} on {date}, my daughter wants a bike.",
    "He turned {n} on {date} last year.",
    "My birthday is {date}, plan something.",
    "Her bday: {date}",
    "Date of birth: {date}",
)

DAY_MONTH_PUBLIC = (
    "The shop opens on {date}.",
    "Bastille Day is {date}.",
    "The deadline for the grant is {date}.",
    "The festival runs from {date} in Lisbon.",
    "Independence Day falls on {date} every year.",
    "The new timetable starts {date}.",
    "Tickets go on sale on {date} at noon.",
    "The tide turned in the war after the battle; talks began on {date}.",
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(template=st.sampled_from(BIRTHDAY_CUES), layout=st.sampled_from(DAY_MONTH_LAYOUTS), day=dates,
       n=st.integers(2, 99), script=st.sampled_from((None, *DIGIT_SCRIPTS)))
def test_a_birthday_without_a_year_after_an_age_cue_is_found(scanner: PatternScanner, template: str, layout,
                                                             day: dt.date, n: int, script: str | None) -> None:
    date = layout(day)
    if script is not None:
        date = date.translate(str.maketrans("0123456789", script))
    text = template.format(n=n, date=date)
    found = _date_findings(scanner, text)
    assert any(date.removeprefix("the ") in value for value in found), f"{text!r}: found {found!r}"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(template=st.sampled_from(DAY_MONTH_PUBLIC), layout=st.sampled_from(DAY_MONTH_LAYOUTS), day=dates)
def test_a_day_and_month_without_a_cue_is_not_a_finding(scanner: PatternScanner, template: str, layout,
                                                        day: dt.date) -> None:
    text = template.format(date=layout(day))
    assert _date_findings(scanner, text) == [], text


# Month names as each language writes them in a date (Polish in the genitive), with a birth cue of that
# language and a sentence about a public event in it.
INTL = {
    "tr": (("Ocak", "Şubat", "Mart", "Nisan", "Mayıs", "Haziran", "Temmuz", "Ağustos", "Eylül", "Ekim", "Kasım",
            "Aralık"), "{d} {m} {y}", "Doğum tarihi: {date}", "Anlaşma {date} tarihinde imzalandı."),
    "de": (("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
            "November", "Dezember"), "{d}. {m} {y}", "Ich bin am {date} in Ulm geboren.",
           "Der Vertrag wurde am {date} unterzeichnet."),
    "fr": (("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
            "novembre", "décembre"), "{d} {m} {y}", "Mon père est né le {date} à Lyon.",
           "Le traité a été signé le {date} à Paris."),
    "es": (("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
            "noviembre", "diciembre"), "{d} de {m} de {y}", "Mi abuela, nacida el {date}, vive en Cádiz.",
           "El tratado se firmó el {date} en Madrid."),
    "pt": (("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro",
            "novembro", "dezembro"), "{d} de {m} de {y}", "Data de nascimento: {date}",
           "A ponte foi inaugurada em {date}."),
    "it": (("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre",
            "ottobre", "novembre", "dicembre"), "{d} {m} {y}", "Mio figlio è nato il {date} a Torino.",
           "Il trattato fu firmato il {date} a Roma."),
    "nl": (("januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober",
            "november", "december"), "{d} {m} {y}", "Zij is geboren op {date} in Gent.",
           "Het verdrag werd op {date} ondertekend."),
    "pl": (("stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września",
            "października", "listopada", "grudnia"), "{d} {m} {y}", "Jestem urodzona {date} w Krakowie.",
           "Traktat podpisano {date} w Warszawie."),
    "en-cjk": (None, "{y}年{mo}月{d}日", "I was born {date} in Osaka.", "The war ended on {date}."),
    "ja": (None, "{y}年{mo}月{d}日", "{date}生まれです。", "{date}に条約が調印された。"),
    "ko": (None, "{y}년 {mo}월 {d}일", "생년월일: {date}", "{date}에 조약이 체결되었다."),
}


def _intl_date(lang: str, day: dt.date) -> str:
    months, layout, _, _ = INTL[lang]
    return layout.format(d=day.day, m=months[day.month - 1] if months else "", mo=day.month, y=day.year)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lang=st.sampled_from(sorted(INTL)), day=dates, script=st.sampled_from((None, *DIGIT_SCRIPTS)))
def test_a_date_of_birth_in_another_language_is_found_whole(scanner: PatternScanner, lang: str, day: dt.date,
                                                            script: str | None) -> None:
    date = _intl_date(lang, day)
    if script is not None:
        date = date.translate(str.maketrans("0123456789", script))
    text = INTL[lang][2].format(date=date)
    found = _date_findings(scanner, text)
    assert any(date in value for value in found), f"{text!r}: found {found!r}"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lang=st.sampled_from(sorted(INTL)), day=dates)
def test_a_public_date_in_another_language_is_not_a_finding(scanner: PatternScanner, lang: str,
                                                            day: dt.date) -> None:
    text = INTL[lang][3].format(date=_intl_date(lang, day))
    assert _date_findings(scanner, text) == [], text


@pytest.mark.parametrize("value", ["3 March", "June 2nd", "3rd of March", "29 February", "Oct 14"])
def test_day_month_accepts_real_days(value: str) -> None:
    assert day_month(value)


@pytest.mark.parametrize("value", ["31 February", "0 March", "32 May", "Smarch 3"])
def test_day_month_refuses_what_is_no_day(value: str) -> None:
    assert not day_month(value)


@pytest.mark.parametrize("value", ["1988年7月3日", "1988년 7월 3일", "12 Mart 1990", "3. Mai 1985",
                                   "9 de agosto de 1991", "12 października 1990"])
def test_intl_date_accepts_real_dates(value: str) -> None:
    assert intl_date(value)


@pytest.mark.parametrize("value", ["1988年13月3日", "1850年7月3日", "31 Şubat 1990", "3. Blau 1985"])
def test_intl_date_refuses_what_is_no_date(value: str) -> None:
    assert not intl_date(value)
