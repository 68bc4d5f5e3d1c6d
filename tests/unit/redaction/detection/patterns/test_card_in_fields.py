"""Card numbers inside delimited records: a separator after a digit is a field boundary, not a decimal point.

A golden CSV export showed the class: `2025-01-10,3782 822463 10005` lost its card because the rule took
"0," for the integer part of a decimal number. Generated here: every issuer layout the catalogue knows
(Visa, Mastercard, Amex 4-6-5, JCB, Discover), grouped or not, between numeric fields joined by each
common delimiter.
"""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ztgate.redaction.detection.patterns.scanner import PatternScanner
from tests.disguises import _luhn_digit

# (prefixes, length, grouping)
_LAYOUTS = [
    (["4"], 16, (4, 4, 4, 4)),
    (["51", "52", "53", "54", "55", "2221", "2720"], 16, (4, 4, 4, 4)),
    (["34", "37"], 15, (4, 6, 5)),
    ([str(p) for p in range(3528, 3590, 7)], 16, (4, 4, 4, 4)),
    (["6011", "65"], 16, (4, 4, 4, 4)),
]


@st.composite
def cards(draw: st.DrawFn) -> str:
    prefixes, length, groups = draw(st.sampled_from(_LAYOUTS))
    prefix = draw(st.sampled_from(prefixes))
    body = draw(st.text(string.digits, min_size=length - len(prefix) - 1, max_size=length - len(prefix) - 1)
                .filter(lambda s: len(set(s)) >= 4))
    number = prefix + body + _luhn_digit(prefix + body)
    if not draw(st.booleans()):
        return number
    sep = draw(st.sampled_from([" ", "-"]))
    parts, at = [], 0
    for size in groups:
        parts.append(number[at:at + size])
        at += size
    return sep.join(parts)


@pytest.fixture(scope="module")
def scanner(hs_cache_dir: Path) -> PatternScanner:
    return PatternScanner(cache_dir=hs_cache_dir)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(card=cards(), delimiter=st.sampled_from([",", ";", "\t", "|"]),
       before=st.sampled_from(["1030", "2025-01-10", "42", "7.5"]), after=st.sampled_from(["", "2025", "19.99"]))
def test_a_card_between_numeric_fields_is_caught_at_its_span(
        scanner: PatternScanner, card: str, delimiter: str, before: str, after: str) -> None:
    row = f"{before}{delimiter}{card}" + (f"{delimiter}{after}" if after else "")
    start = row.index(card)
    spans = {(d.start, d.end) for d in scanner.scan(row) if d.entity_type == "CREDIT_CARD"}
    assert (start, start + len(card)) in spans, row


@given(card=cards().filter(lambda c: c.isdigit()))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_fraction_of_a_decimal_number_is_not_a_card(scanner: PatternScanner, card: str) -> None:
    assert not [d for d in scanner.scan(f"x = 0.{card} rad") if d.entity_type == "CREDIT_CARD"]
