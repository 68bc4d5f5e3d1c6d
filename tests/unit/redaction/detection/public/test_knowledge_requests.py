"""Issue #29's text-wide rules from the absence of private evidence: a name on no list that is the topic of a
knowledge request (``knowledge_requests``) and a town after a travel frame (``travel_places``) are kept by the
default policy where the text holds no evidence of a private person anywhere, and hidden by strict; a private
person asked about with little evidence (what they said about the budget, their e-mail, a meeting) stays hidden,
and so does any name or place in a text with private evidence (a relation, a contact value, a booking, a
greeting, a home).

The families are ``ztgate_bench.knowledge_family`` (invented names and places that no tuning corpus and no
golden case holds: asserted below). Detections are built by hand (no spaCy): what is under test is what the
policy does with a detection.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.public import PUBLIC_LISTS
from ztgate.redaction.detection.public._private_context import TEXT_MAX_CHARS, private_person_in_text, scoped
from ztgate.redaction.policies import PolicyStore
from ztgate.redaction.types import Detection
from ztgate_bench.knowledge_family import (
    EVIDENCE,
    GIVEN,
    IMPERATIVE,
    KNOWLEDGE,
    OWNED_ELSEWHERE,
    OWNERS,
    PLACES,
    POINTS_BACK,
    RESIDENCE,
    SEAT,
    SEAT_PRIVATE,
    SURNAMES,
    THIN_A,
    THIN_B,
    THIN_C,
    TRAVEL,
    TRAVEL_QUESTION,
    fill,
    person_spans,
)

STORE = PolicyStore.load()
DEFAULT, STRICT = STORE.get("default"), STORE.get("strict")
OPERATORS = Operators()
ROOT = Path(__file__).resolve().parents[5]

_GIVEN = st.sampled_from(GIVEN)
_SURNAME = st.sampled_from(SURNAMES)
_PLACE = st.sampled_from(PLACES)


def _persons(template: str, given_name: str, surname: str, policy=DEFAULT, owner: str = OWNERS[0]
             ) -> tuple[str, str]:
    text = fill(template, given_name, surname, owner)
    found = [Detection("PERSON", a, b, 0.85, "SpacyRecognizer") for a, b in person_spans(text, given_name, surname)]
    return text, redact(text, found, policy, None, None, None, operators=OPERATORS).text


def _place(template: str, place: str, entity_type: str = "LOCATION", policy=DEFAULT) -> str:
    text = template.format(p=place)
    found = [Detection(entity_type, m.start(), m.end(), 0.85, "SpacyRecognizer") for m in re.finditer(place, text)]
    return redact(text, found, policy, None, None, None, operators=OPERATORS).text


def test_the_default_policy_keeps_the_lists_and_strict_does_not():
    for name in ("knowledge_requests", "travel_places"):
        assert name in PUBLIC_LISTS
        assert name in DEFAULT.allow.public
        assert name not in STRICT.allow.public


def test_the_invented_names_and_places_are_on_no_corpus_or_golden_case():
    texts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "bench" / "corpora").glob("*-tune*.jsonl"))]
    texts += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "tests" / "golden").rglob("*.json*"))]
    assert texts
    for word in (*GIVEN, *SURNAMES, *PLACES, *(w for owner in OWNERS for w in owner.split())):
        assert not any(word in text for text in texts), word


@settings(max_examples=120, deadline=None)
@given(_GIVEN, _SURNAME, st.sampled_from(KNOWLEDGE))
def test_a_knowledge_request_with_no_private_evidence_keeps_the_name_and_strict_hides_it(
        given_name: str, surname: str, template: str):
    text, out = _persons(template, given_name, surname)
    assert out == text
    _, strict = _persons(template, given_name, surname, STRICT)
    assert given_name not in strict


@settings(max_examples=200, deadline=None)
@given(_GIVEN, _SURNAME, st.sampled_from(THIN_A + THIN_B))
def test_a_private_person_asked_about_with_little_evidence_is_hidden(given_name: str, surname: str, template: str):
    _, out = _persons(template, given_name, surname)
    assert given_name not in out and surname not in out


@settings(max_examples=100, deadline=None)
@given(_GIVEN, _SURNAME, st.sampled_from(IMPERATIVE))
def test_an_imperative_or_sporting_request_about_a_lone_figure_keeps_the_name_and_strict_hides_it(
        given_name: str, surname: str, template: str):
    text, out = _persons(template, given_name, surname)
    assert out == text
    _, strict = _persons(template, given_name, surname, STRICT)
    assert given_name not in strict


@settings(max_examples=120, deadline=None)
@given(_GIVEN, _SURNAME, st.sampled_from(THIN_C))
def test_a_private_person_in_the_imperative_and_sporting_frames_is_hidden(given_name: str, surname: str,
                                                                          template: str):
    _, out = _persons(template, given_name, surname)
    assert given_name not in out and surname not in out


@settings(max_examples=120, deadline=None)
@given(_GIVEN, _SURNAME, st.sampled_from(EVIDENCE))
def test_a_knowledge_request_with_private_evidence_anywhere_hides_the_name(
        given_name: str, surname: str, template: str):
    _, out = _persons(template, given_name, surname)
    assert given_name not in out and surname not in out


@settings(max_examples=60, deadline=None)
@given(_PLACE, st.sampled_from(TRAVEL), st.sampled_from(["LOCATION", "PERSON"]))
def test_a_town_after_a_travel_frame_is_kept_and_strict_hides_it(place: str, template: str, entity_type: str):
    assert place in _place(template, place, entity_type)
    assert place not in _place(template, place, entity_type, STRICT)


@settings(max_examples=60, deadline=None)
@given(_PLACE, st.sampled_from(TRAVEL_QUESTION + SEAT), st.sampled_from(["LOCATION", "NRP"]))
def test_a_town_in_a_travel_question_or_as_a_trading_companys_seat_is_kept_and_strict_hides_it(
        place: str, template: str, entity_type: str):
    if entity_type == "NRP" and template in TRAVEL_QUESTION:
        entity_type = "LOCATION"  # travel_places holds LOCATION and PERSON; NRP is a seat's mistyping
    assert place in _place(template, place, entity_type)
    assert place not in _place(template, place, entity_type, STRICT)


@settings(max_examples=60, deadline=None)
@given(_PLACE, st.sampled_from(SEAT_PRIVATE))
def test_a_persons_partner_or_home_in_the_seats_frames_hides_the_town(place: str, template: str):
    assert place not in _place(template, place)


@settings(max_examples=60, deadline=None)
@given(_PLACE, st.sampled_from(RESIDENCE))
def test_a_home_or_a_text_with_private_evidence_hides_the_town(place: str, template: str):
    assert place not in _place(template, place)


@pytest.mark.parametrize(("text", "value", "entity_type"), [
    ("Which two straits does the Vellmarck connect?", "Vellmarck", "PERSON"),
    ("Which instrument did he play, and which Ostrigny did he teach?", "Ostrigny", "PERSON"),
    ("Which are the Quarnholtian moons, and why are they called that?", "Quarnholtian", "NRP"),
    ("Which empire did Tavrin the Magnificent rule?", "Tavrin", "PERSON"),
])
def test_shapes_no_private_name_has_are_kept_in_a_knowledge_request(text: str, value: str, entity_type: str):
    start = text.index(value)
    found = [Detection(entity_type, start, start + len(value), 0.85, "SpacyRecognizer")]
    assert redact(text, found, DEFAULT, None, None, None, operators=OPERATORS).text == text
    assert value not in redact(text, found, STRICT, None, None, None, operators=OPERATORS).text


def test_a_knowledge_request_with_a_private_person_in_the_sentence_hides_the_place():
    text = "Which museum in Vellmarck did Tavrin Vorquist found in 1911? Tavrin Vorquist is my neighbour."
    found = [Detection("LOCATION", 15, 24, 0.85, "SpacyRecognizer")] + [
        Detection("PERSON", m.start(), m.end(), 0.85, "SpacyRecognizer") for m in re.finditer("Tavrin Vorquist", text)]
    out = redact(text, found, DEFAULT, None, None, None, operators=OPERATORS).text
    assert "Tavrin" not in out and "Vellmarck" not in out


@pytest.mark.parametrize("evidence", [
    "My colleague asked.", "Our client wants it.", "I'm Ana.", "Ask Mr. Vorquist.", "Call 020 7946 0958.",
    "Write to ana@example.org.", "Booking reference QX48211.", "Born 03/09/1976.", "Dear Ana,\nthanks.",
    "\n\nBest regards,\nAna", "\nName: Ana Vorquist", "Remind Ana tomorrow.", "It was in the budget meeting.",
    "She works in the sales team.", "Send it to Ana.", "Ana, can you check?", "My son asked.",
    "Her address is on the form.", "\n| name | town |\n| Ana | Lyon |",
])
def test_each_kind_of_private_evidence_is_read_anywhere_in_the_text(evidence: str):
    assert private_person_in_text(f"What did Tavrin Vorquist discover in 1911? {evidence}")


@pytest.mark.parametrize("text", [
    "How do I make pizza at home, and is it true it was named after a queen?",
    "We're staying in Vellmarck for three days: which wines is the region known for?",
    "What did Tavrin Vorquist discover about \"jumping genes\", and which prize did she receive?",
    "Can we hike to Ostrigny in a day, or do we need a guide?",
])
def test_first_person_travel_and_quotes_are_no_private_evidence(text: str):
    assert not private_person_in_text(text)


@pytest.mark.parametrize("text", [
    "Who was Tavrin Vorquist? She called me yesterday.",
    "Tell me about Tavrin Vorquist. She is coming on Friday.",
    "Tell me about Tavrin Vorquist, please; I need it now.",
])
def test_a_lone_figure_is_not_kept_where_any_sentence_speaks_of_a_private_matter(text: str):
    start = text.index("Tavrin Vorquist")
    found = [Detection("PERSON", start, start + 15, 0.85, "SpacyRecognizer")]
    assert "Tavrin" not in redact(text, found, DEFAULT, None, None, None, operators=OPERATORS).text


def test_a_long_text_fails_closed():
    question = "What did Tavrin Vorquist discover in 1911? "
    assert not private_person_in_text(question)
    assert private_person_in_text(question * (TEXT_MAX_CHARS // len(question) + 1))


@settings(max_examples=120, deadline=None)
@given(_GIVEN, _SURNAME, st.sampled_from(OWNED_ELSEWHERE), st.sampled_from(OWNERS))
def test_a_knowledge_request_keeps_the_name_beside_evidence_that_names_its_own_owner(
        given_name: str, surname: str, template: str, owner: str):
    text, out = _persons(template, given_name, surname, owner=owner)
    assert f"{given_name} {surname}" in out  # the writer's or a colleague's details say nothing of the name
    assert not any(word in out for word in owner.split())
    _, strict = _persons(template, given_name, surname, STRICT, owner)
    assert given_name not in strict


@settings(max_examples=120, deadline=None)
@given(_GIVEN, _SURNAME, st.sampled_from(POINTS_BACK), st.sampled_from(OWNERS))
def test_evidence_in_another_sentence_that_may_speak_of_the_name_still_hides_it(
        given_name: str, surname: str, template: str, owner: str):
    _, out = _persons(template, given_name, surname, owner=owner)
    assert given_name not in out and surname not in out


@pytest.mark.parametrize(("text", "blanked"), [
    ("Who was Tavrin Vorquist? I'm Ana Ruiz, born 03/09/1976.", True),
    ("Who was Tavrin Vorquist? My colleague Ana needs it; her number is 020 7946 0958.", True),
    ("Who was Tavrin Vorquist? She told my colleague Ana.", False),       # a pronoun before the owner
    ("Who was Tavrin Vorquist? My colleague Ana is Tavrin's niece.", False),  # a word of the name
    ("Who was Tavrin Vorquist? My number is 020 7946 0958.", False),     # no owner named
    ("Who was Tavrin Vorquist?\n\nName: Ana Ruiz\nPhone: 020 7946 0958\nDOB: 03/09/1976", True),  # a record
    ("Who was Tavrin Vorquist?\n\nИмя: Анна Руис\nТел.: 020 7946 0958", True),
    ("Who was Tavrin Vorquist?\n\nBest regards,\nAna Ruiz\n020 7946 0958", True),       # a signature
    ("Who was Tavrin Vorquist?\n\nName: Tavrin Vorquist\nPhone: 020 7946 0958", False),  # the name's own record
    ("Who was Tavrin Vorquist?\n\nPhone: 020 7946 0958\nDOB: 03/09/1976", False),         # a record of no one named
])
def test_scoped_blanks_only_other_sentences_whose_evidence_has_an_owner_of_its_own(text: str, blanked: bool):
    start = text.index("Tavrin")
    view = scoped(text, start, start + 15)
    assert len(view) == len(text) and view[:start + 16] == text[:start + 16]
    assert (view[start + 16:].strip() == "") is blanked
