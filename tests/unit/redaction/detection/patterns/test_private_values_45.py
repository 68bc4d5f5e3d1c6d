"""Dates of birth in Vietnamese, Hungarian, Roman-numeral and Thai abbreviated forms, UK sort codes, postcodes after
their cue word, and national phone layouts after call verbs of other languages (issue #29, ADR 0045).

Generated families, apart from utility-tune-20.jsonl (any date of 1930-2024, sampled frames and languages, random
codes): each found whole after its cue; the same value with no cue (a history question's date, a score, a count,
a model number) no finding; a month or a day that does not exist refused by the validator."""

from __future__ import annotations

import datetime as dt
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ztgate.redaction.detection.normalise import detect_on_view
from ztgate.redaction.detection.patterns.calendars import (BUDDHIST_ERA_OFFSET, HUNGARIAN_MONTHS, ROMAN_MONTHS,
                                                           calendar_date)
from ztgate.redaction.detection.patterns.scanner import PatternScanner

FAST = settings(max_examples=40, deadline=None)
SCAN = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
DATES = st.dates(dt.date(1930, 1, 1), dt.date(2024, 12, 31))
HU = {n: m for n, m in HUNGARIAN_MONTHS.items()}
HU_BY_NUMBER = {m: n for n, m in HU.items()}
ROMAN_BY_NUMBER = {m: r for r, m in ROMAN_MONTHS.items()}
TH_ABBR = ["ม.ค.", "ก.พ.", "มี.ค.", "เม.ย.", "พ.ค.", "มิ.ย.", "ก.ค.", "ส.ค.", "ก.ย.", "ต.ค.", "พ.ย.", "ธ.ค."]


def _written(date: dt.date, form: str) -> str:
    if form == "vi":
        return f"{date.day} tháng {date.month} năm {date.year}"
    if form == "hu":
        return f"{date.year}. {HU_BY_NUMBER[date.month]} {date.day}."
    if form == "roman":
        return f"{date.day}.{ROMAN_BY_NUMBER[date.month]}.{date.year}"
    if form == "roman_spaced":
        return f"{date.day}. {ROMAN_BY_NUMBER[date.month]}. {date.year}"
    return f"{date.day} {TH_ABBR[date.month - 1]} {date.year + BUDDHIST_ERA_OFFSET}"


FORMS = st.sampled_from(["vi", "hu", "roman", "roman_spaced", "th"])
BIRTH_FRAMES = {"vi": ["Tôi sinh ngày {d} ở một làng nhỏ.", "Ngày sinh: {d}. Xin cảm ơn."],
                "hu": ["Születési dátum: {d} Köszönöm.", "A fiam {d} született, és"],
                "roman": ["Data urodzenia: {d}, miejsce: wieś.", "Narozena {d}, chci vědět"],
                "roman_spaced": ["Data urodzenia: {d}, miejsce: wieś.", "Született {d}, kérdezem"],
                "th": ["ฉันเกิดวันที่ {d} ที่บ้าน", "วันเกิด: {d} ค่ะ"]}
NEUTRAL_FRAMES = ["Chuyện gì đã xảy ra vào {d}?", "Mi történt {d} Budapesten?", "Co się stało {d} w Gdańsku?",
                  "เกิดอะไรขึ้นในวันที่ {d} ที่กรุงเทพ"]


@FAST
@given(date=DATES, form=FORMS)
def test_a_real_date_of_these_forms_is_accepted(date: dt.date, form: str) -> None:
    assert calendar_date(_written(date, form))


@FAST
@given(year=st.integers(1930, 2024), day=st.integers(1, 28), bad=st.sampled_from([0, 13, 14, 21]))
def test_a_month_that_does_not_exist_is_refused(year: int, day: int, bad: int) -> None:
    assert not calendar_date(f"{day} tháng {bad} năm {year}")
    assert not calendar_date(f"{day}.{'X' * 4 if bad else 'IIII'}.{year}")
    assert not calendar_date(f"{year}. hónap {day}.")
    assert not calendar_date(f"31.II.{year}") and not calendar_date(f"{year}. február 30.")


@pytest.fixture(scope="module")
def scanner(hs_cache_dir: Path) -> PatternScanner:
    return PatternScanner(cache_dir=hs_cache_dir)


def _found(scanner: PatternScanner, text: str, entity: str) -> list[str]:
    return [text[d.start:d.end] for d in detect_on_view(scanner.scan, text) if d.entity_type == entity]


@SCAN
@given(date=DATES, form=FORMS, pick=st.integers(0, 1))
def test_a_date_of_these_forms_after_a_birth_word_is_found(scanner, date, form, pick):
    value = _written(date, form)
    found = _found(scanner, BIRTH_FRAMES[form][pick].format(d=value), "DATE_OF_BIRTH")
    assert any(f.rstrip(".") == value.rstrip(".") for f in found), (value, found)


@SCAN
@given(date=DATES, form=FORMS, frame=st.sampled_from(NEUTRAL_FRAMES))
def test_the_same_date_with_no_birth_word_is_no_finding(scanner, date, form, frame):
    assert _found(scanner, frame.format(d=_written(date, form)), "DATE_OF_BIRTH") == []


# --- sort codes ------------------------------------------------------------------------------------------------
PAIRS = st.lists(st.integers(0, 99), min_size=3, max_size=3).map(lambda p: [f"{n:02d}" for n in p])


@SCAN
@given(pairs=PAIRS, sep=st.sampled_from(["-", " "]),
       frame=st.sampled_from(["My sort code is {v} and my account 12345678.", "Sort code: {v}", "sort-code {v}, thanks",
                              "Pay Ann, sortcode {v}, today."]))
def test_a_sort_code_after_its_label_is_found(scanner, pairs, sep, frame):
    value = sep.join(pairs)
    assert value in _found(scanner, frame.format(v=value), "ID_NUMBER")


@SCAN
@given(pairs=PAIRS, frame=st.sampled_from(["The score was {v} at half time.", "Set the timer to {v} and wait.",
                                           "Part {v} of the kit", "Code {v} is an error in the sorting module."]))
def test_three_pairs_of_digits_without_the_label_are_no_finding(scanner, pairs, frame):
    assert _found(scanner, frame.format(v="-".join(pairs)), "ID_NUMBER") == []


# --- postcodes after their cue -----------------------------------------------------------------------------------
_UP = string.ascii_uppercase
LAYOUTS = {
    "uk": st.tuples(st.text(_UP, min_size=1, max_size=2), st.integers(1, 99), st.integers(0, 9),
                    st.text(_UP, min_size=2, max_size=2)).map(lambda t: f"{t[0]}{t[1]} {t[2]}{t[3]}"),
    "ca": st.tuples(st.sampled_from(_UP), st.integers(0, 9), st.sampled_from(_UP), st.integers(0, 9),
                    st.sampled_from(_UP), st.integers(0, 9)).map(lambda t: f"{t[0]}{t[1]}{t[2]} {t[3]}{t[4]}{t[5]}"),
    "nl": st.tuples(st.integers(1000, 9999), st.text(_UP, min_size=2, max_size=2)).map(lambda t: f"{t[0]} {t[1]}"),
    "pt": st.tuples(st.integers(1000, 9999), st.integers(0, 999)).map(lambda t: f"{t[0]}-{t[1]:03d}"),
    "pl": st.tuples(st.integers(0, 99), st.integers(0, 999)).map(lambda t: f"{t[0]:02d}-{t[1]:03d}"),
    "jp": st.tuples(st.integers(100, 999), st.integers(0, 9999)).map(lambda t: f"{t[0]}-{t[1]:04d}"),
    "plain": st.integers(10000, 99999).map(str),
}
CUES = {"uk": ["My postcode is {v}.", "Our post code: {v}, flat 2"], "ca": ["my postal code {v}, please",
                                                                             "Her postcode: {v}"],
        "nl": ["Mijn postcode is {v}, en", "Onze postcode {v} klopt"], "pt": ["O meu código postal: {v} Porto",
                                                                            "meu código postal é {v}"],
        "pl": ["Mój kod pocztowy to {v}, dziękuję", "nasz kod pocztowy {v}"], "jp": ["私の郵便番号は〒{v}です。",
                                                                                 "自宅の郵便番号：{v}"],
        "plain": ["Meine PLZ ist {v}.", "mi código postal es el {v}", "My zip code is {v}."]}
UNCUED = ["Build {v} failed on the runner.", "We sold {v} units last year.", "Model {v} ships in May.",
          "The answer is {v}, isn't it?", "Which district has the postcode {v}?", "What area does zip code {v} cover?"]


@SCAN
@given(data=st.data(), layout=st.sampled_from(sorted(LAYOUTS)))
def test_a_postcode_after_its_cue_is_found(scanner, data, layout):
    value = data.draw(LAYOUTS[layout])
    text = data.draw(st.sampled_from(CUES[layout])).format(v=value)
    assert any(value in f for f in _found(scanner, text, "LOCATION")), (text, _found(scanner, text, "LOCATION"))


@SCAN
@given(data=st.data(), layout=st.sampled_from(sorted(LAYOUTS)), frame=st.sampled_from(UNCUED))
def test_a_postcode_shape_without_a_cue_is_no_finding(scanner, data, layout, frame):
    text = frame.format(v=data.draw(LAYOUTS[layout]))
    assert _found(scanner, text, "LOCATION") == []


# --- national phone layouts after a call verb or label of another language ---------------------------------------
PHONES = {"es": st.tuples(st.sampled_from("6789"), st.integers(10, 99), st.integers(100, 999), st.integers(100, 999))
          .map(lambda t: f"{t[0]}{t[1]} {t[2]} {t[3]}"),
          "pt": st.tuples(st.sampled_from(["91", "92", "93", "96", "21", "22"]), st.integers(1, 9),
                          st.integers(100, 999), st.integers(100, 999)).map(lambda t: f"{t[0]}{t[1]} {t[2]} {t[3]}"),
          "pl": st.tuples(st.integers(50, 89), st.integers(100, 999), st.integers(10, 99), st.integers(10, 99))
          .map(lambda t: f"{t[0]} {t[1]} {t[2]} {t[3]}"),
          "fr": st.lists(st.integers(10, 99), min_size=4, max_size=4).map(lambda g: "06." + ".".join(map(str, g))),
          "it": st.tuples(st.integers(320, 399), st.integers(100, 999), st.integers(1000, 9999))
          .map(lambda t: f"{t[0]} {t[1]} {t[2]}")}
CALLS = {"es": ["Llámame al {v} esta tarde.", "Mi móvil es {v}."], "pt": ["Ligue-me para o {v} amanhã.",
         "O meu telemóvel: {v}."], "pl": ["Zadzwoń {v} wieczorem.", "Nr tel. {v}, dziękuję."],
         "fr": ["Appelle-moi au {v} ce soir.", "Mon portable : {v}."], "it": ["Chiamami al {v} domani.",
         "Il mio cellulare è {v}."]}


@SCAN
@given(data=st.data(), lang=st.sampled_from(sorted(PHONES)))
def test_a_national_phone_after_a_call_word_is_found(scanner, data, lang):
    value = data.draw(PHONES[lang])
    text = data.draw(st.sampled_from(CALLS[lang])).format(v=value)
    assert value in _found(scanner, text, "PHONE_NUMBER"), text


@SCAN
@given(data=st.data(), lang=st.sampled_from(["es", "pt", "pl"]),
       frame=st.sampled_from(["The town has {v} inhabitants.", "Il modello ha {v} parametri.",
                              "Wynik: {v} punktów.", "Recaudó {v} euros."]))
def test_the_same_digits_as_a_count_are_no_phone(scanner, data, lang, frame):
    assert _found(scanner, frame.format(v=data.draw(PHONES[lang])), "PHONE_NUMBER") == []
