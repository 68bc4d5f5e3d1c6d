"""A person's reference by its shape after a possessive or a marked label (issue #29, ADR 0045).

Generated families, apart from utility-tune-20.jsonl: references of random capitals and digits (letter segments and
a long digit segment, or a year and a running number) after a possessive and a label noun of eight languages, or
after a noun and a number marker, found by ``ReferenceShapeRecognizer`` and not reaching the model; model numbers,
standards, a tracker's keys, an order's or an invoice's codes, and a reference after a technical noun, not found."""

from __future__ import annotations

import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.unit.redaction.detection.test_private_value_classes_7 import _found, _out
from ztgate.redaction.detection.names.context.reference_shapes import ReferenceShapeRecognizer, reference_shaped

FAST = settings(max_examples=40, deadline=None)
E2E = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                     HealthCheck.function_scoped_fixture])
RULE = ReferenceShapeRecognizer()
_CAPS = st.text(string.ascii_uppercase, min_size=2, max_size=4)
_LETTERS_DIGITS = st.tuples(_CAPS, st.one_of(st.none(), _CAPS), st.integers(1000, 99_999_999)).map(
    lambda t: "-".join(p for p in (t[0], t[1], str(t[2]).zfill(5)) if p))
_YEAR_SERIAL = st.tuples(st.integers(1995, 2030), st.sampled_from("-/"), st.integers(100, 999_999)).map(
    lambda t: f"{t[0]}{t[1]}{t[2]:05d}")
VALUES = st.one_of(_LETTERS_DIGITS, _YEAR_SERIAL)
OWNED = ["My ticket {v} is still open; anyway, what is a comet?", "Our claim {v} was refused.",
         "Mon numéro de sinistre est {v}, merci.", "Mi expediente es {v} y sigue parado.",
         "Il mio numero di pratica è {v}. Grazie.", "O meu processo: {v}.", "Meine Vorgangsnummer ist {v}, bitte.",
         "Mijn dossier {v} is kwijt.", "Moja sprawa nr {v} czeka.", "Her case no. {v} was heard today."]
MARKED = ["Ticket no. {v} is mine.", "support ticket # {v} mentions it", "Claim nr. {v}, please check.",
          "Aanvraag nr. {v} is binnen.", "Sprawa nr {v} w sądzie."]


@FAST
@given(value=VALUES, frame=st.sampled_from(OWNED + MARKED))
def test_a_reference_after_a_possessive_or_a_marked_label_is_found(value: str, frame: str) -> None:
    assert value in _found(RULE, frame.format(v=value))


MODELS = st.tuples(_CAPS, st.integers(100, 9999), _CAPS).map(lambda t: f"{t[0]}-{t[1]}{t[2]}")  # WH-1000XM5
STANDARDS = st.tuples(st.sampled_from(["ISO", "CVE", "RFC", "PEP", "IEC"]), st.integers(1000, 99999)).map(
    lambda t: f"{t[0]}-{t[1]}")
NOT_PERSONS = ["Our order reference is {v}.", "invoice number {v} is overdue", "Fix issue # {v} today.",
               "My build no. {v} failed.", "See release no. {v} notes.", "my version is {v}", "Ticket {v} in Jira"]


@FAST
@given(value=st.one_of(MODELS, STANDARDS), frame=st.sampled_from(OWNED + MARKED))
def test_model_numbers_and_standards_are_no_references(value: str, frame: str) -> None:
    assert not reference_shaped(value)
    assert _found(RULE, frame.format(v=value)) == []


@FAST
@given(value=VALUES, frame=st.sampled_from(NOT_PERSONS))
def test_a_reference_of_an_order_a_tracker_or_software_is_not_found(value: str, frame: str) -> None:
    assert _found(RULE, frame.format(v=value)) == []


@E2E
@given(value=VALUES, frame=st.sampled_from(OWNED))
def test_the_reference_does_not_reach_the_model(redaction_analyzer, value: str, frame: str) -> None:
    assert value not in _out(redaction_analyzer, frame.format(v=value))
