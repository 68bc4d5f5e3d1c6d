"""Issue #29, the eighth held-out set's public classes (ADR 0029), both sides, as generated families: natural
features (``geographic_features``, ``feature_frames``), a brand's name origin (``name_origins``), dishes named
for a people or a place and a protected name with its grade (``dish_names``, ``protected_designations``), court
cases (``court_cases``), places in travel questions (``travel_places``) and a company and its seat before its fair
stand (``exhibitors``). Each positive fails under the default policy without the round's lists; each negative is a
private person in the same frames, still hidden. Detections are built by hand on the spans spaCy gives such names;
no spaCy: what is under test is the policy. The invented names are in no corpus file.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.names.context.dispute_parties import DisputePartyRecognizer
from ztgate.redaction.detection.public import PUBLIC_LISTS, canonical, data_words, load
from ztgate.redaction.detection.public._data import PUBLIC_DATA_DIR, read_lines
from ztgate.redaction.policies import AllowList, PolicyStore
from ztgate.redaction.types import Detection

STORE = PolicyStore.load()
DEFAULT, STRICT = STORE.get("default"), STORE.get("strict")
OPERATORS = Operators()
NEW = ("geographic_features", "feature_frames", "name_origins", "dish_names", "court_cases", "exhibitors")
# The default policy as it was before this round (the travel and designation rules are extended in place: their
# positives are checked against the rule's own frames below).
BEFORE = DEFAULT.model_copy(update={"allow": AllowList(values=DEFAULT.allow.values, patterns=DEFAULT.allow.patterns,
                                                         public=tuple(n for n in DEFAULT.allow.public if n not in NEW))})
FEATURES = [w for w in data_words(read_lines("geographic_features.txt")) if not given_name(canonical(w))]
TYPES = st.sampled_from(["PERSON", "LOCATION", "NRP"])
# Invented names (no real place, brand or party, in no corpus file), none a known given name.
PEAKS = ("Quelmatuyo", "Vorskajökull", "Ashtarunik", "Pichucarra", "Tarvankoro", "Ulmagrat")
BRANDS = ("Brennholtz", "Varquisto", "Zelmorak", "Kettwigo", "Trobbelmann", "Quandoria")
PEOPLES = ("Vellorese", "Karthanian", "Ostmarish", "Quellonese", "Brindavan", "Zaruvian")
DISHES = ("chicken rice", "duck", "pizza", "hot chicken", "schnitzel", "rarebit", "hotpot", "noodles", "curry")
PARTIES = ("Quarrendale", "Velloway", "Ostermire", "Brackwith", "Tollingham", "Pemberdine", "Harrowgate")
TOWNS = ("Kesselbrunn", "Altmoorstedt", "Vellachtal", "Ormsweiler")
GIVEN = ("Anna", "Tomas", "Ingrid", "Pavel", "Mariam", "Sofia")


def _redact(text: str, spans: list[tuple[str, str]], policy=DEFAULT) -> str:
    found, at = [], 0
    for value, entity_type in spans:
        start = text.index(value, at) if value in text[at:] else text.index(value)
        found.append(Detection(entity_type, start, start + len(value), 0.85, "SpacyRecognizer"))
        at = start + len(value)
    return redact(text, found, policy, None, None, None, operators=OPERATORS).text


def kept_by_round(text: str, spans: list[tuple[str, str]], before=None, *, before_fails: bool = True) -> None:
    """Kept under the default policy, hidden under strict; with ``before_fails``, hidden under ``before``, the
    default policy without a round's lists (this module's BEFORE unless given): the round's rule is what keeps it.
    A LOCATION in a sentence naming no one is kept by ``topic_places`` already."""
    assert _redact(text, spans) == text
    if before_fails:
        assert _redact(text, spans, BEFORE if before is None else before) != text
    assert all(value not in _redact(text, spans, STRICT) for value, _ in spans)


def test_the_lists_are_the_default_policys_own_ship_with_source_and_licence_and_strict_keeps_none():
    for name in NEW:
        assert name in PUBLIC_LISTS and name in DEFAULT.allow.public and name not in STRICT.allow.public
    notices = (PUBLIC_DATA_DIR.parents[3] / "THIRD_PARTY_NOTICES.md").read_text(encoding="utf-8")
    for data in ("geographic_features.txt", "dish_heads.txt"):
        head = (PUBLIC_DATA_DIR / data).read_text(encoding="utf-8")[:1500]
        assert "Source:" in head and "Licence:" in head and data in notices
    assert all(not given_name(w) for w in PEAKS + BRANDS + PEOPLES + PARTIES + TOWNS)
    assert all(given_name(w) for w in GIVEN)


# Natural features.
@settings(max_examples=100, deadline=None)
@given(st.sampled_from(FEATURES), TYPES, st.sampled_from([
    "How high is {f}, and in which country is it?", "Can you hike {f} in June?", "Is {f} worth the trip?",
    "Give me three facts about {f}.", "How old is {f}?"]))
def test_a_listed_feature_is_kept(feature: str, entity_type: str, template: str):
    text = template.format(f=feature)
    spans = [(feature, entity_type)]
    assert _redact(text, spans) == text


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(PEAKS), TYPES, st.sampled_from([
    "How high is {f}, and which range is it in?", "When did {f} last erupt?", "How deep is {f}?",
    "Plan two days around the {f} glacier.", "Book us a camel ride in the {f} dunes.",
    "Is {f} still active?", "What is the height of {f}?"]))
def test_a_feature_in_a_features_frame_is_kept(peak: str, entity_type: str, template: str):
    text = template.format(f=peak)
    kept_by_round(text, [(peak, entity_type)], before_fails=entity_type == "PERSON")


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([f for f in FEATURES if f.isalpha()] + list(PEAKS)), st.sampled_from(GIVEN), st.sampled_from([
    "I hiked with {g} {f} last summer; his number is 0161 496 0123.", "Ask {f} about the glacier trip.",
    "My guide {f} says we can climb it.", "How tall is {g} {f} now? My son asked.",
    "Dear {f},\nthe dunes tour is booked."]))
def test_a_person_by_a_features_name_is_hidden(feature: str, given_name_: str, template: str):
    text = template.format(f=feature, g=given_name_)
    value = f"{given_name_} {feature}" if "{g} {f}" in template else feature
    if value in _redact(text, [(value, "PERSON")], BEFORE):
        return  # a name another list keeps ("Seine": landmarks) is that list's case, not this round's
    assert value not in _redact(text, [(value, "PERSON")])


def test_a_given_name_on_the_features_list_is_kept_only_without_private_evidence():
    text = "Can you climb Ararat without a permit?"
    assert _redact(text, [("Ararat", "PERSON")]) == text
    assert "Ararat" not in _redact("My guide Ararat says yes; call him on 0161 496 0123.", [("Ararat", "PERSON")])


# A brand's name origin.
@settings(max_examples=100, deadline=None)
@given(st.sampled_from(BRANDS), TYPES, st.sampled_from([
    "How did {b} get its name?", "Explain how {b} got its name.", "Where does the name {b} come from?",
    "What is the story behind the name {b}?", "Why is {b} called {b}?",
    "What is the origin of the brand name {b}?"]))
def test_a_brand_asked_about_by_its_name_or_history_is_kept(brand: str, entity_type: str, template: str):
    text = template.format(b=brand)
    spans = [(brand, entity_type)] * text.count(brand)
    kept_by_round(text, spans, before_fails=entity_type == "PERSON")


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(BRANDS), st.sampled_from(GIVEN), st.sampled_from([
    "Where does the name {b} come from? My neighbour {g} {b} asked.",
    "Where does the name {g} come from? My daughter {g} wants to know.",
    "Tell me the history of {g} {b}, my grandfather.", "Ask {b} how the shop got its name."]))
def test_a_person_asked_about_by_name_is_hidden(brand: str, given_name_: str, template: str):
    text = template.format(b=brand, g=given_name_)
    value = f"{given_name_} {brand}" if "{g} {b}" in template else given_name_ if "{b}" not in template else brand
    assert value not in _redact(text, [(value, "PERSON")] * text.count(value))


# Dishes named for a people or a place.
@settings(max_examples=100, deadline=None)
@given(st.sampled_from(PEOPLES + TOWNS), st.sampled_from(DISHES), TYPES, st.sampled_from([
    "Give me a recipe for {p} {d} for four people.", "How do you make {p} {d} at home?",
    "What is the difference between {p} {d} and the usual kind?"]))
def test_a_dish_named_for_a_people_or_a_place_is_kept(people: str, dish: str, entity_type: str, template: str):
    kept_by_round(template.format(p=people, d=dish), [(people, entity_type)], before_fails=entity_type == "PERSON")


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(PARTIES), st.sampled_from(GIVEN), st.sampled_from([
    "{g}'s curry was the best at the party.", "Tell {p} rice is ready.", "I cooked for {g} {p} duck and rice.",
    "Ask {p} about the pizza order."]))
def test_a_person_before_a_dish_is_hidden(party: str, given_name_: str, template: str):
    text = template.format(p=party, g=given_name_)
    value = f"{given_name_} {party}" if "{g} {p}" in template else given_name_ if "{p}" not in template else party
    assert value not in _redact(text, [(value, "PERSON")])


@pytest.mark.parametrize("text", ["How is Jamón ibérico de bellota cured?", "Is Jamón Ibérico de cebo worth it?"])
def test_a_protected_name_with_its_grade_in_lower_case_is_kept(text: str):
    value = text[text.index("Jamón"):text.index(" cured") if "cured" in text else text.index(" worth")]
    assert _redact(text, [(value, "PERSON")]) == text
    assert "Jamón" not in _redact("Is Jamón Ibérico Kowalski here?", [("Jamón Ibérico Kowalski", "PERSON")])


# Court cases.
@settings(max_examples=120, deadline=None)
@given(st.sampled_from(PARTIES), st.sampled_from(PARTIES), st.sampled_from([" v. ", " v ", " vs. ", " versus "]),
       st.sampled_from(["What did {a}{v}{b} decide?", "Explain {a}{v}{b} and why it still matters.",
                        "Why is {a}{v}{b} taught in contract law?", "What did the court hold in {a}{v}{b}?"]))
def test_a_court_case_is_kept(first: str, second: str, versus: str, template: str):
    if first == second:
        return
    text = template.format(a=first, b=second, v=versus)
    kept_by_round(text, [(first, "PERSON"), (second, "PERSON")], before_fails="Explain" not in text)


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(PARTIES), st.sampled_from(PARTIES), st.sampled_from([
    "My lawsuit {a} v. {b} was filed last week; can you check the deadlines?",
    "Our claim {a} v. {b} is listed for Monday. What should I bring?",
    "In {a} v. {b}, my solicitor says we can settle.",
    "{a} v. {b}: {a} called me again about the settlement.",
    "Mr {a} v. {b} - what are my chances?"]))
def test_the_parties_of_a_private_dispute_are_hidden(first: str, second: str, template: str):
    if first == second:
        return
    text = template.format(a=first, b=second)
    spans = [(first, "PERSON"), (second, "PERSON")] + ([(first, "PERSON")] if text.count(first) > 1 else [])
    out = _redact(text, spans)
    assert first not in out and second not in out


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(PARTIES), st.sampled_from(PARTIES), st.sampled_from([
    "My lawsuit {a} v. {b} was filed last week.", "Our claim {a} vs. {b} is listed for Monday.",
    "{a} v. {b} was served on us yesterday.", "In my case, {a} v. {b}, the hearing moved."]))
def test_the_parties_of_a_private_dispute_are_found_by_their_own_rule(first: str, second: str, template: str):
    text = template.format(a=first, b=second)
    found = {text[a:b] for a, b, _ in DisputePartyRecognizer().find(text)}
    assert {first, second} <= found
    out = _redact(text, [(first, "PERSON"), (second, "PERSON")])
    assert first not in out and second not in out


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PARTIES), st.sampled_from(PARTIES), st.sampled_from([
    "What did {a} v. {b} decide?", "Explain {a} vs. {b}.", "Why does {a} v {b} still matter?"]))
def test_a_public_case_is_no_dispute(first: str, second: str, template: str):
    assert DisputePartyRecognizer().find(template.format(a=first, b=second)) == []


# Places in travel questions.
@settings(max_examples=80, deadline=None)
@given(st.sampled_from(TOWNS), st.sampled_from(["PERSON", "LOCATION"]), st.sampled_from([
    "Is {t} worth a day trip?", "What is there to see in {t} besides the old town?", "Is {t} worth two days?",
    "What is there to do in {t} in winter?", "Is {t} really worth the detour?"]))
def test_a_place_in_a_travel_question_is_kept(town: str, entity_type: str, template: str):
    text = template.format(t=town)
    assert _redact(text, [(town, entity_type)]) == text


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(TOWNS), st.sampled_from(GIVEN), st.sampled_from([
    "Is {g} worth a visit?", "What is there to see in {t}? I live there with my wife.",
    "Is {t} worth a day trip? My colleague {g} lives there; call her on 0161 496 0123.",
    "What is there to do in {t}? Ask {g} at 0161 496 0123."]))
def test_a_person_or_a_home_in_a_travel_question_is_not_a_visit(town: str, given_name_: str, template: str):
    text = template.format(t=town, g=given_name_)
    value = town if "{t}" in template else given_name_
    start = text.index(value)
    assert not load("travel_places").holds_at(text, start, start + len(value), "LOCATION")
    assert not load("travel_places").holds_at(text, start, start + len(value), "PERSON")


# A company and its seat before its fair stand.
@settings(max_examples=100, deadline=None)
@given(st.sampled_from(BRANDS), st.sampled_from(TOWNS), TYPES, st.sampled_from([
    "Draft a short e-mail to {c} in {t} asking whether meetings at their Hannover Messe stand can be booked.",
    "Meet {c} from {t} at stand B12.", "Ask whether {c} from {t} will be at stand C07 this year.",
    "Write to {c} in {t} about the demo at their booth."]))
def test_an_exhibitor_and_its_seat_are_kept(company: str, town: str, entity_type: str, template: str):
    kept_by_round(template.format(c=company, t=town), [(company, entity_type), (town, "LOCATION")],
          before_fails=entity_type == "PERSON")


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(PARTIES), st.sampled_from(TOWNS), st.sampled_from(GIVEN), st.sampled_from([
    "Draft a note to {g} {p} in {t} asking whether we can meet at her stand C07.",
    "Write to {g} {p} from {t} about the demo at their booth.",
    "Ask {p} in {t} whether their stand is ready.",
    "Write to {p} in {t} about the demo at his booth."]))
def test_a_person_and_their_town_before_a_stand_are_hidden(party: str, town: str, given_name_: str,
                                                            template: str):
    text = template.format(p=party, t=town, g=given_name_)
    value = f"{given_name_} {party}" if "{g} {p}" in template else party
    out = _redact(text, [(value, "PERSON"), (town, "LOCATION")])
    assert value not in out


def test_the_invented_names_are_on_no_corpus_or_golden_case():
    root = PUBLIC_DATA_DIR.parents[3]
    texts = [p.read_text(encoding="utf-8") for p in sorted((root / "bench" / "corpora").glob("*-tune*.jsonl"))]
    texts += [p.read_text(encoding="utf-8") for p in sorted((root / "tests" / "golden").rglob("*.json*"))]
    assert texts
    for word in PEAKS + BRANDS + PEOPLES + PARTIES + TOWNS:
        assert not any(word in text for text in texts), word
