"""National-format phone numbers found by their layout alone (issue 12: a UK number in a CSV cell or under a
label in another language survived, since only English phone words vouched for national formats).

The property: any number that `phonenumbers` holds valid in a region that dials with a trunk 0, written the
way that region lays it out, is found at its exact span in text with no phone word near it; digit groups that
are not laid out like a phone (dates, versions, checksums, NANP numbers) are not.
"""

from __future__ import annotations

from pathlib import Path

import phonenumbers
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ztgate.redaction.detection.patterns import validators as v
from ztgate.redaction.detection.patterns.scanner import PatternScanner

RULE = "phone_national_layout"
_TYPES = (phonenumbers.PhoneNumberType.FIXED_LINE, phonenumbers.PhoneNumberType.MOBILE)
# Cells and labels with no English phone word near them: a CSV row, and labels in other languages.
_SETTINGS = ("1042,{name},{name}@example.org,{phone},Galway,2025-03-12", "Telefono: {phone}", "電話: {phone}",
             "Adresse : 3 rue Haute, Lyon\nTél. {phone}", "{name} | {phone} | ops", "Kontakt {phone} (Büro)")


@pytest.fixture(scope="module")
def scanner(hs_cache_dir: Path) -> PatternScanner:
    return PatternScanner(cache_dir=hs_cache_dir)  # the session's cache: the catalogue compiles once


@st.composite
def national_numbers(draw: st.DrawFn) -> str:
    """A valid number of a trunk-0 region, in that region's national layout: an example number with its last
    digits redrawn until `phonenumbers` holds it valid."""
    region = draw(st.sampled_from([r for r in v._NATIONAL_REGIONS]))
    example = phonenumbers.example_number_for_type(region, draw(st.sampled_from(_TYPES)))
    if example is None:
        example = phonenumbers.example_number(region)
    national = str(example.national_number)
    tail = draw(st.text("0123456789", min_size=3, max_size=3))
    number = phonenumbers.parse(national[:-3] + tail, region)
    laid_out = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.NATIONAL)
    if not phonenumbers.is_valid_number(number) or not laid_out.startswith("0") or len(set(tail + national)) <= 2:
        laid_out = phonenumbers.format_number(example, phonenumbers.PhoneNumberFormat.NATIONAL)
    return laid_out


@settings(max_examples=300, deadline=None)
@given(phone=national_numbers(), where=st.sampled_from(_SETTINGS), name=st.sampled_from(["ana", "li", "kofi"]))
def test_national_number_found_at_its_span_without_phone_words(scanner: PatternScanner, phone: str, where: str,
                                                                name: str) -> None:
    if not phone.startswith("0") or not any(c in phone for c in " -."):
        return  # a region whose layout has no trunk 0 or no grouping for this type: not this rule's shape
    text = where.format(name=name, phone=phone)
    start = text.index(phone)
    found = [(d.start, d.end) for d in scanner.scan(text) if d.entity_type == "PHONE_NUMBER"]
    assert (start, start + len(phone)) in found, f"{phone!r} not found in {text!r}: {found}"


_NOT_PHONES = st.one_of(
    st.dates().map(lambda d: d.strftime("%d.%m.%Y")),
    st.dates().map(lambda d: d.strftime("%d-%m-%Y")),
    st.dates().map(lambda d: d.isoformat()),
    st.tuples(*(st.integers(0, 99) for _ in range(4))).map(lambda t: "0." + ".".join(map(str, t))),
    st.from_regex(r"[1-9]\d{2} \d{3} \d{4}", fullmatch=True),  # NANP layout: no trunk 0
    st.from_regex(r"0\d{3} \d{4} \d{4} \d{4}", fullmatch=True),  # card-like groups: too long for a national plan
)


@settings(max_examples=300, deadline=None)
@given(value=_NOT_PHONES)
def test_digit_groups_not_laid_out_as_phones_are_left(scanner: PatternScanner, value: str) -> None:
    text = f"build {value} passed; see the release notes"
    assert [d for d in scanner.scan(text) if d.recognizer == RULE] == []


@pytest.mark.parametrize("value", ["0123 4567 8901", "0 12 34", "0000 000 000", "2024-01-01", "01.02.2024",
                                   "09 12 34 5678"])
def test_validator_refuses_groups_no_plan_writes(value: str) -> None:
    assert v.phone_national(value) is False
