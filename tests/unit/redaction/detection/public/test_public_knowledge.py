"""Public knowledge kept, private persons' data hidden: the public lists, person ties, and both shipped policies.

Detections are built by hand here (no spaCy): what is under test is what a policy does with a detection,
given the words around it. The generated families draw values from the shipped lists themselves.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ztgate.common.config import ConfigError
from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.names.context import CONTEXT_RECOGNIZER_NAMES
from ztgate.redaction.detection.public import PUBLIC_LISTS, canonical, load
from ztgate.redaction.policies import Policy, PolicyStore, load_policy_file
from ztgate.redaction.types import Detection

STORE = PolicyStore.load()
DEFAULT = STORE.get("default")
STRICT = STORE.get("strict")
OPERATORS = Operators()


def run(text: str, value: str, entity_type: str, policy: Policy, recognizer: str = "SpacyRecognizer") -> str:
    start = text.index(value)
    detection = Detection(entity_type, start, start + len(value), 0.9, recognizer)
    return redact(text, [detection], policy, None, None, None, operators=OPERATORS).text


@pytest.mark.parametrize(("name", "entity_type", "value"), [
    ("countries", "LOCATION", "France"), ("countries", "LOCATION", "the United Kingdom"),
    ("regions", "LOCATION", "Bavaria"), ("regions", "LOCATION", "California"), ("regions", "LOCATION", "Europe"),
    ("cities", "LOCATION", "Munich"), ("cities", "LOCATION", "Berlin"), ("landmarks", "LOCATION", "Eiffel Tower"),
    ("landmarks", "PERSON", "Kilimanjaro"), ("public_figures", "PERSON", "Marie Curie"),
    ("public_figures", "PERSON", "Einstein's"), ("nationalities", "NRP", "French"),
    ("organisations", "LOCATION", "Nvidia"),
])
def test_each_list_holds_its_values(name, entity_type, value):
    assert load(name).holds(entity_type, value)


def test_lists_hold_only_their_own_types_and_not_small_towns():
    assert not load("countries").holds("PERSON", "France")
    assert not load("public_figures").holds("LOCATION", "Marie Curie")
    assert not load("cities").holds("LOCATION", "Haderup")  # a Danish village of about 700 people


def test_canonical_form_ignores_case_article_possessive_and_spacing():
    assert canonical("the  Brandenburg Gate") == canonical("Brandenburg Gate") == "brandenburg gate"
    assert canonical("Newton’s") == "newton"


def test_a_policy_naming_an_unknown_public_list_is_refused(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text("name: p\nallow:\n  public: [countries, planets]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"allow\.public: unknown public list\(s\) planets; known: cities"):
        load_policy_file(path)


def test_shipped_policies_name_their_lists():
    assert set(DEFAULT.allow.public) == set(PUBLIC_LISTS)
    assert STRICT.allow.public == ("countries", "regions")


def test_the_capital_of_france_reaches_the_model():
    text = "What is the capital of France?"
    assert run(text, "France", "LOCATION", DEFAULT) == text


def test_the_issue_example_keeps_topics_and_hides_the_person():
    text = "Our office in Berlin is near the Brandenburg Gate. Ask Dr. Anna Schmidt."
    detections = [Detection("LOCATION", 14, 20, 0.95, "GazetteerRecognizer"),
                  Detection("LOCATION", 29, 49, 0.85, "SpacyRecognizer"),
                  Detection("PERSON", text.index("Anna"), len(text) - 1, 0.85, "SpacyRecognizer")]
    out = redact(text, detections, DEFAULT, None, None, None, operators=OPERATORS).text
    assert out == "Our office in Berlin is near the Brandenburg Gate. Ask Dr. <PERSON_1>."


# --- generated families: the same public value, neutral or tied to a person --------------------------------

def _sample(name: str) -> list[str]:
    return sorted(load(name).values)[::37]


PLACES = st.sampled_from(_sample("countries") + _sample("regions") + _sample("cities") + _sample("landmarks"))
CITIES = st.sampled_from(_sample("cities"))
FIGURES = st.sampled_from(_sample("public_figures"))
NEUTRAL_PLACE = st.sampled_from(["Tell me about {}.", "What is the history of {}?", "Compare {} and its neighbours.",
                                 "Our office in {} opens at nine.", "Which river runs through {}?",
                                 "How many people live in {}?", "Write a poem about {} in winter."])
TIED_PLACE = st.sampled_from(["I live in {}.", "She was born in {} in 1990.", "My client is originally from {}.",
                              "Ship it to 12 Baker Street, {}.", "Address: 4 Rue de la Paix, {}",
                              "city: {}", "Call me at +44 20 7946 0958, I am in {}.", "Patient moved to {} last year.",
                              "Send it to 10115 {}", "He grew up in {} with his sister."])
NEUTRAL_PERSON = st.sampled_from(["Explain the work of {}.", "What did {} discover?", "Write a short essay on {}.",
                                  "Why is {} famous?"])
TIED_PERSON = st.sampled_from(["Mrs {} called about her invoice.", "Ask Dr. {} to sign.", "Dear {}, thanks.",
                               "My colleague {} is off today.", "I am {} and I need help.", "author: {}",
                               "{} <someone@example.org> wrote:", "Call {} on 415-555-0187."])


@settings(max_examples=150, deadline=None)
@given(PLACES, NEUTRAL_PLACE)
def test_a_public_place_named_as_a_topic_is_kept(value, template):
    text = template.format(value)
    assert run(text, value, "LOCATION", DEFAULT) == text


@settings(max_examples=150, deadline=None)
@given(PLACES, TIED_PLACE)
def test_a_public_place_that_locates_a_person_is_hidden(value, template):
    text = template.format(value)
    assert value not in run(text, value, "LOCATION", DEFAULT)


@settings(max_examples=100, deadline=None)
@given(FIGURES, NEUTRAL_PERSON)
def test_a_public_figure_named_as_a_topic_is_kept(value, template):
    text = template.format(value)
    assert run(text, value, "PERSON", DEFAULT) == text


@settings(max_examples=100, deadline=None)
@given(FIGURES, TIED_PERSON)
def test_a_public_name_given_to_a_person_is_hidden(value, template):
    text = template.format(value)
    assert value not in run(text, value, "PERSON", DEFAULT)


@settings(max_examples=100, deadline=None)
@given(PLACES, NEUTRAL_PLACE, st.sampled_from(sorted(CONTEXT_RECOGNIZER_NAMES)))
def test_the_context_recognizers_findings_are_never_public(value, template, recognizer):
    """A context rule's place is personal evidence, except the cued place after an organisation's cue
    ("Our office in"), which the default policy keeps (organisation_places) and strict hides."""
    text = template.format(value)
    group_place = recognizer == "CuedPlaceRecognizer" and template.startswith("Our office in")
    assert value not in run(text, value, "LOCATION", STRICT, recognizer=recognizer)
    assert (value in run(text, value, "LOCATION", DEFAULT, recognizer=recognizer)) == group_place


@settings(max_examples=100, deadline=None)
@given(CITIES, NEUTRAL_PLACE)
def test_strict_hides_every_city_even_as_a_topic(value, template):
    text = template.format(value)
    if load("countries").holds("LOCATION", value) or load("regions").holds("LOCATION", value):
        return  # a city that is also a state or a country (Singapore, Berlin): Safe Harbor keeps states
    assert value not in run(text, value, "LOCATION", STRICT)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(_sample("countries") + _sample("regions")), NEUTRAL_PLACE)
def test_strict_keeps_countries_and_states(value, template):
    text = template.format(value)
    assert run(text, value, "LOCATION", STRICT) == text


@pytest.mark.parametrize(("text", "kept"), [
    ("What caused the French Revolution?", True), ("Is German grammar hard?", True),
    ("I am French and I need a visa.", False), ("She is a Catholic, my mother said.", False),
    ("My father is Kurdish.", False),
])
def test_a_nationality_is_a_topic_unless_said_of_someone(text, kept):
    value = next(w for w in ("French", "German", "Catholic", "Kurdish") if w in text)
    assert (run(text, value, "NRP", DEFAULT) == text) is kept


def _redact_all(text: str, found: list[tuple[str, str]], policy: Policy = DEFAULT) -> str:
    detections = [Detection(kind, text.index(value), text.index(value) + len(value), 0.9, "SpacyRecognizer")
                  for value, kind in found]
    return redact(text, detections, policy, None, None, None, operators=OPERATORS).text


def test_a_city_in_the_sentence_of_a_private_person_is_hidden():
    text = "My name is Maria Gonzalez and I manage IT for our office in Lisbon."
    out = _redact_all(text, [("Maria Gonzalez", "PERSON"), ("Lisbon", "LOCATION")])
    assert "Lisbon" not in out and "Maria" not in out


def test_a_private_person_in_another_sentence_does_not_tie_the_city():
    text = "Our office is in Lisbon. Ask Maria Gonzalez."
    assert _redact_all(text, [("Maria Gonzalez", "PERSON"), ("Lisbon", "LOCATION")]) == (
        "Our office is in Lisbon. Ask <PERSON_1>.")


def test_a_place_misread_as_a_person_ties_nothing():
    text = "Why did the Roman Empire lose Constantinople?"
    out = _redact_all(text, [("Roman Empire", "PERSON"), ("Constantinople", "LOCATION")])
    assert "Constantinople" in out


@pytest.mark.parametrize(("text", "kept"), [
    ("In 1945 the war ended, Germany was divided.", True),
    ("Ship it to 1945 Elm Way, Germany", False),
    ("Ship it to 4 Rue de la Paix, Germany", False),
])
def test_a_year_before_a_comma_is_no_house_number(text, kept):
    assert (run(text, "Germany", "LOCATION", DEFAULT) == text) is kept
