"""Identifiers of a person's record after their label, and addresses outside the number-first street shape,
are found whatever the wording; numbers in technical and product text are not.

Generated families (issue #29: "student no. 20190042", "MRN 0033817264", "P.O. Box 2231", "12/4 Moo 7" reached
the model): a person-record label (student, employee, member, patient, badge, ...) with or without a number
marker (no., nr., number, #, ID) in front of identifiers of many shapes (digits, grouped digits, a letter prefix
or suffix, dashes), inside sentences; addresses of post-office boxes, Thai moo numbers, slashed house numbers,
and postcodes next to a town where a person's address is meant. The other direction: versions, model numbers,
standards, ticket and issue numbers, years, prices, counts and street names as a topic stay untouched. The
scanner runs on the normalised view, as the analyzer runs it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ztgate.redaction.detection.normalise import detect_on_view
from ztgate.redaction.detection.patterns.scanner import PatternScanner
from ztgate.redaction.detection.patterns.validators import labelled_id, labelled_id_bare, postcode_town

LABELS = ("student", "Student", "employee", "Employee", "emp.", "staff", "Staff", "member", "membership",
          "patient", "Patient", "badge", "candidate", "library card", "customer", "Customer", "account",
          "passport", "licence", "license", "driver's license", "policy", "policyholder", "policy holder",
          "frequent flyer", "loyalty", "subscriber", "applicant", "tenant", "client", "pupil")
MARKERS = ("no.", "No.", "nr.", "Nr.", "number", "Number", "#", "ID", "Id", "id", "no", "num.")
SELF_LABELS = ("MRN", "MRN:", "MRN#", "Personalnummer", "Personalnummer:", "Kundennummer", "Mitgliedsnummer",
               "Matrikelnummer", "matricule", "Matricule")
SEPARATORS = (" ", ": ", " ")
PREFIXES = ("", "", "A", "QX-", "ABC-", "ZT-", "KLM-", "MN-", "X")

PERSONAL = (
    "My {label} {id} is on the form, can you help me fill in the rest?",
    "{label} {id}",
    "Please update the record for {label} {id}.",
    "Hi, I am writing about {label} {id}: the payment did not go through.",
    "The file of {label} {id} was sent to the wrong office.",
    "Reference ({label} {id}) attached.",
    "Can you draft a letter to the school? {label} {id}, class 4B.",
)


@st.composite
def identifiers(draw: st.DrawFn, *, min_digits: int) -> str:
    """An identifier with a digit: a letter prefix or none, digits (grouped or not), a letter suffix or none."""
    prefix = draw(st.sampled_from(PREFIXES))
    n = draw(st.integers(max(min_digits, 3), 10))
    digits = "".join(draw(st.lists(st.sampled_from("0123456789"), min_size=n, max_size=n)))
    if digits[:1] in "12" and len(digits) == 4:  # a bare "2019" could be a year: a number is not always one
        digits = "7" + digits[1:]
    layout = draw(st.sampled_from(("plain", "dash", "spaces", "suffix")))
    if layout == "dash" and len(digits) >= 5:
        digits = f"{digits[:len(digits) // 2]}-{digits[len(digits) // 2:]}"
    elif layout == "spaces" and len(digits) >= 6 and not prefix:
        digits = f"{digits[:2]} {digits[2:5]} {digits[5:]}"
    elif layout == "suffix":
        digits = f"{digits}-{draw(st.sampled_from('QZKP'))}"
    return prefix + digits


@pytest.fixture(scope="module")
def scanner(hs_cache_dir: Path) -> PatternScanner:
    return PatternScanner(cache_dir=hs_cache_dir)


def _findings(scanner: PatternScanner, text: str, entity: str) -> list[str]:
    return [text[d.start:d.end] for d in detect_on_view(scanner.scan, text) if d.entity_type == entity]


def _assert_whole(scanner: PatternScanner, text: str, value: str, entity: str) -> None:
    found = _findings(scanner, text, entity)
    assert any(value in f for f in found), f"{text!r}: found {found!r}"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(template=st.sampled_from(PERSONAL), label=st.sampled_from(LABELS), marker=st.sampled_from(MARKERS),
       sep=st.sampled_from(SEPARATORS), value=identifiers(min_digits=3))
def test_an_identifier_after_a_label_and_a_marker_is_found_whole(scanner: PatternScanner, template: str,
                                                                  label: str, marker: str, sep: str,
                                                                  value: str) -> None:
    labelled = f"{label} {marker}{'' if marker == '#' else sep}"
    text = template.format(label=labelled.rstrip(), id=value).replace(f"{labelled.rstrip()} ", labelled)
    _assert_whole(scanner, text, value, "ID_NUMBER")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(template=st.sampled_from(PERSONAL), label=st.sampled_from(LABELS), value=identifiers(min_digits=5))
def test_an_identifier_right_after_a_label_is_found_whole(scanner: PatternScanner, template: str, label: str,
                                                          value: str) -> None:
    _assert_whole(scanner, template.format(label=label, id=value), value, "ID_NUMBER")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(template=st.sampled_from(PERSONAL), label=st.sampled_from(SELF_LABELS), value=identifiers(min_digits=3))
def test_an_identifier_after_a_noun_naming_the_number_is_found_whole(scanner: PatternScanner, template: str,
                                                                     label: str, value: str) -> None:
    _assert_whole(scanner, template.format(label=label, id=value), value, "ID_NUMBER")


CLEAN = (
    "Python {v}.{m} and PostgreSQL {n} are supported.",
    "This is release no. {n} of the tool, version {v}.{m}.",
    "The P-{n} piano and the Yamaha P-{m}5 have weighted keys.",
    "An H{n} SXM has {m} GB of memory.",
    "The Airbus A{n} seats about {m}0 passengers.",
    "ISO {n} and RFC {k} describe it.",
    "JIRA-{k} is fixed; see issue #{k} and PR #{n}.",
    "In {year} we had {n} staff and {k} members.",
    "Membership costs ${n} a year; the account holds {m} users.",
    "The Abbey Road album came out in {year}.",
    "Staff {year} retreat: {n} people, {m} rooms.",
    "Order {k} ships in {m} days.",
    "Set max_tokens to {k} and the port to {k}.",
    "The {year} Olympics were booked out by {n} visitors.",
    "Our team of {n} employees grew {m}% in {year}.",
    "The library has {k} books and {n} members.",
    "Student discounts start at {m} percent for {year}.",
    "Windows {m} runs on port {k} with {n} MB.",
    "Chapter {m}, section {n}: the customer journey in {year}.",
    "Members {year}: see table {m}.",
    "Patients over {m} made up {n} of {k} admissions.",
    "She ran the {k}m race in {year} with {n} others.",
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(template=st.sampled_from(CLEAN), v=st.integers(2, 20), m=st.integers(1, 99), n=st.integers(1, 999),
       k=st.integers(1000, 99999), year=st.integers(1900, 2099))
def test_numbers_in_technical_and_product_text_are_not_identifiers(scanner: PatternScanner, template: str,
                                                                   v: int, m: int, n: int, k: int,
                                                                   year: int) -> None:
    text = template.format(v=v, m=m, n=n, k=k, year=year)
    assert _findings(scanner, text, "ID_NUMBER") == [], text


# --- addresses outside the number-first street shape ------------------------------------------------------

TOWNS = ("Innsbruck", "Linz", "Graz", "Bregenz", "Lyon", "Aarhus", "Utrecht", "Springfield", "Neustadt am Rhein",
         "Saint-Denis")
CUES = ("Book it under Anna, {a}.", "Please send it to {a}.", "Delivery to {a}, ring twice.", "She lives at {a}.",
        "My home address is {a}.", "Ship to: Ben Okafor, {a}", "Reservation for two, guest address {a}.")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cue=st.sampled_from(CUES), town=st.sampled_from(TOWNS), code=st.integers(1000, 99999),
       order=st.sampled_from(("before", "after", "us")))
def test_a_postcode_and_town_of_a_persons_address_are_found(scanner: PatternScanner, cue: str, town: str,
                                                             code: int, order: str) -> None:
    if 1900 <= code <= 2099:
        code += 300  # a postcode that reads as a year is left alone on purpose (postcode_town)
    value = {"before": f"{code} {town}", "after": f"{town} {code}", "us": f"{town}, IL {code:05d}"}[order]
    _assert_whole(scanner, cue.format(a=value), value, "LOCATION")


@pytest.mark.parametrize("text, value", [
    ("Send the forms to P.O. Box 2231, thanks.", "P.O. Box 2231"),
    ("Our mail goes to PO Box 77.", "PO Box 77"),
    ("Post Office Box 12 is hers.", "Post Office Box 12"),
    ("Postfach 10 20 30", "Postfach 10 20 30"),
    ("He lives at 24/C Hill Road.", "24/C Hill Road"),
    ("Please send it to 86/A Mill Road.", "86/A Mill Road"),
    ("Delivery to Boise, ID 83702, ring twice.", "Boise, ID 83702"),
    ("Address: 12/4 Moo 7, Chiang Mai", "12/4 Moo 7"),
    ("Deliver to Lindenweg 14 tomorrow.", "Lindenweg 14"),
    ("Please send it to Hafnargata 3.", "Hafnargata 3"),
    ("Lindenweg 14, 6020 Innsbruck", "6020 Innsbruck"),
    ("Anna Berger, 1010 Wien", "1010 Wien"),
])
def test_other_address_shapes_are_found(scanner: PatternScanner, text: str, value: str) -> None:
    _assert_whole(scanner, text, value, "LOCATION")


@pytest.mark.parametrize("text", [
    "The Abbey Road album was recorded in 1969.",
    "The 2024 Olympics were booked out.",
    "Delivery of 4096 Tokens to the address space.",
    "Ship to production: 8080 Port is open.",
    "Send it to Windows 11 users.",
    "Book a table in Innsbruck for 6 people.",
    "PO 4500123 was approved.",
    "The package ships 2048 Bytes per frame.",
])
def test_numbers_next_to_place_words_are_not_addresses(scanner: PatternScanner, text: str) -> None:
    assert _findings(scanner, text, "LOCATION") == [], text


@pytest.mark.parametrize("value, ok", [("20190042", True), ("QX-55012", True), ("2024", False), ("12", True),
                                       ("7", True), ("X9Q-77", True), ("551203-Q", True), ("Q", False)])
def test_labelled_id(value: str, ok: bool) -> None:
    assert labelled_id(value) is ok


@pytest.mark.parametrize("value, ok", [("77 301 554", True), ("MN-44120", True), ("A350", False), ("500", False),
                                       ("2025", False), ("H100", False), ("X9Q-77", True), ("A1B2C3", True),
                                       ("AB12", True), ("v2", False)])
def test_labelled_id_bare(value: str, ok: bool) -> None:
    assert labelled_id_bare(value) is ok


@pytest.mark.parametrize("value, ok", [("6020 Innsbruck", True), ("Springfield, IL 62704", True),
                                       ("2024 Olympics", False), ("8080 Port", False)])
def test_postcode_town(value: str, ok: bool) -> None:
    assert postcode_town(value) is ok
