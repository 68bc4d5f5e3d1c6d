"""Public knowledge of issue #29's second round: historical states, eras and events, trade routes, natural
features, products and eponyms are kept by the default policy as topics, and hidden where the text ties them to
a person. Each list is its own module; the generated families combine words with a list's heads (so values on
no line of any list are covered) and must fail without the list. Detections are built by hand (no spaCy):
what is under test is what the policy does with a detection, given the words around it."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.public import data_words, load
from ztgate.redaction.detection.public._data import read_lines
from ztgate.redaction.detection.public.historical import HEADS
from ztgate.redaction.policies import PolicyStore
from ztgate.redaction.types import Detection

STORE = PolicyStore.load()
DEFAULT, STRICT = STORE.get("default"), STORE.get("strict")
OPERATORS = Operators()
NEW_LISTS = ("historical", "trade_routes", "natural_features", "products", "eponyms")

# Made-up names on no public list by themselves (the syllables make "Nero", a public figure: left out).
_WORD = st.lists(st.sampled_from(["ka", "ro", "mi", "ta", "ne", "lu", "vo", "sa", "den", "mar", "os", "ti"]),
                 min_size=2, max_size=3).map(lambda parts: "".join(parts).capitalize()).filter(
    lambda name: not any(load(kind).has(name) for kind in DEFAULT.allow.public))
FEATURE_HEADS = [w for w in data_words(read_lines("natural_features.txt")) if not w.endswith(" *")]
EPONYM_HEADS = data_words(read_lines("eponym_heads.txt"))


def run(text: str, value: str, entity_type: str, policy=DEFAULT) -> str:
    start = text.index(value)
    detection = Detection(entity_type, start, start + len(value), 0.9, "SpacyRecognizer")
    return redact(text, [detection], policy, None, None, None, operators=OPERATORS).text


def test_the_default_policy_keeps_the_new_lists_and_strict_does_not():
    assert set(NEW_LISTS) <= set(DEFAULT.allow.public)
    assert not set(NEW_LISTS) & set(STRICT.allow.public)


@settings(max_examples=80, deadline=None)
@given(word=_WORD, head=st.sampled_from(HEADS), kind=st.sampled_from(["PERSON", "LOCATION", "NRP"]))
def test_a_historical_name_of_that_shape_is_a_topic(word: str, head: str, kind: str):
    value = f"{word} {head}"
    text = f"What caused the {value} to end?"
    assert run(text, value, kind) == text
    assert run(text, value, kind, STRICT) != text


@settings(max_examples=60, deadline=None)
@given(place=_WORD, event=st.sampled_from(["Battle of", "Treaty of", "Siege of", "Congress of"]))
def test_an_event_of_a_place_is_a_topic(place: str, event: str):
    value = f"{event} {place}"
    text = f"Summarise the {value} in three lines."
    assert run(text, value, "LOCATION") == text


@settings(max_examples=60, deadline=None)
@given(word=_WORD, head=st.sampled_from(FEATURE_HEADS))
def test_a_natural_feature_is_a_topic_unless_someone_lives_there(word: str, head: str):
    value = f"{word} {head}"
    assert run(f"How was the {value} formed?", value, "LOCATION") == f"How was the {value} formed?"
    assert value not in run(f"I live in {value} with my kids.", value, "LOCATION")


@pytest.mark.parametrize("value", [v for v in data_words(read_lines("trade_routes.txt"))][:30])
def test_each_trade_route_is_a_topic(value: str):
    text = f"Which goods moved along the {value}?"
    assert run(text, value, "LOCATION") == text
    assert run(text, value, "PERSON") == text


@pytest.mark.parametrize("value", ["Kindle Paperwhite", "PlayStation 5", "Nintendo Switch OLED", "Microsoft Excel"])
def test_products_are_topics(value: str):
    text = f"Is the {value} worth buying?"
    assert run(text, value, "PERSON") == text


@settings(max_examples=80, deadline=None)
@given(name=_WORD, head=st.sampled_from(EPONYM_HEADS), possessive=st.booleans())
def test_a_name_before_a_law_or_an_effect_is_an_eponym(name: str, head: str, possessive: bool):
    suffix = "'s" if possessive else ""
    text = f"Explain {name}{suffix} {head} with an example."
    assert run(text, name, "PERSON") == text


@settings(max_examples=80, deadline=None)
@given(name=_WORD, surname=_WORD)
def test_private_persons_stay_hidden(name: str, surname: str):
    assume(not any(load(n).has(name) for n in DEFAULT.allow.public))  # "Nero" is a public figure
    # No list or shape makes a private person's name public: not "'s number", "'s reaction", nor a title.
    for text, value in [(f"Please call {name} {surname} tomorrow.", f"{name} {surname}"),
                        (f"What is {name}'s number?", name), (f"{name}'s reaction was calm.", name),
                        (f"Ask Dr. {name} about the law firm.", name), (f"Dear {name}, the effect is clear.", name)]:
        assert value not in run(text, value, "PERSON"), text


def test_each_new_list_is_a_module_of_its_own_with_its_source_recorded():
    notices = open("THIRD_PARTY_NOTICES.md", encoding="utf-8").read()
    readme = open("ztgate/redaction/data/public/README.md", encoding="utf-8").read()
    for name in NEW_LISTS:
        assert load(name).name == name
        assert f"`{name}`" in notices and f"`{name}`" in readme


# A public name that a recognizer covers only in part: the list's match on the longer name around the span decides
# for it, unless the text ties the span to a person; a private person's name beside a public one stays hidden.
PART_FRAMES = ["Why did the {value} matter so much?", "Summarise the {value} in three lines.",
               "What do historians say about the {value}?"]


@settings(max_examples=80, deadline=None)
@given(word=_WORD, head=st.sampled_from(HEADS), frame=st.sampled_from(PART_FRAMES),
       part=st.sampled_from(["word", "head"]), kind=st.sampled_from(["PERSON", "LOCATION", "NRP"]))
def test_a_public_name_found_in_part_is_kept_whole(word: str, head: str, frame: str, part: str, kind: str):
    value = f"{word} {head}"
    text = frame.format(value=value)
    assert run(text, word if part == "word" else head, kind) == text
    assert run(text, word if part == "word" else head, kind, STRICT) != text


@settings(max_examples=60, deadline=None)
@given(place=_WORD, event=st.sampled_from(["Battle of", "Treaty of", "Siege of", "Congress of"]),
       frame=st.sampled_from(PART_FRAMES))
def test_the_place_of_an_event_found_alone_is_kept(place: str, event: str, frame: str):
    text = frame.format(value=f"{event} {place}")
    assert run(text, place, "LOCATION") == text


@settings(max_examples=60, deadline=None)
@given(first=_WORD, second=_WORD, head=st.sampled_from(["Space Telescope", "Observatory", "Rover"]))
def test_an_instrument_named_after_a_person_is_kept_but_the_person_is_not(first: str, second: str, head: str):
    text = f"What has the {first} {second} {head} found so far?"
    assert run(text, f"{first} {second}", "PERSON") == text
    tied = f"Please ask Dr. {first} {second} about the {head.lower()}."
    assert f"{first} {second}" not in run(tied, f"{first} {second}", "PERSON")


@settings(max_examples=80, deadline=None)
@given(name=_WORD, surname=_WORD, head=st.sampled_from(HEADS + ["Space Telescope"]),
       sep=st.sampled_from([", ", ". ", " and the ", " - ", "\n"]))
def test_a_private_person_beside_a_public_name_stays_hidden(name: str, surname: str, head: str, sep: str):
    assume(not any(load(n).has(f"{name} {surname}") for n in DEFAULT.allow.public))
    public = f"Battle of {surname}" if head == "Battle" else f"{surname} {head}"
    text = f"Please call {name} {surname}{sep}{public} is the topic."
    assert f"{name} {surname}" not in run(text, f"{name} {surname}", "PERSON"), text


@settings(max_examples=60, deadline=None)
@given(name=_WORD, surname=_WORD, head=st.sampled_from(["Age", "War", "Empire", "Telescope"]))
def test_a_name_a_person_carries_is_hidden_even_inside_a_public_shape(name: str, surname: str, head: str):
    value = f"{name} {surname}"
    for text in [f"Dear {value} {head} fans, welcome.", f"My colleague {value} {head} called."]:
        assert value not in run(text, value, "PERSON"), text


@settings(max_examples=60, deadline=None)
@given(era=st.sampled_from(["Victorian", "Ancient", "Medieval", "Feudal", "Colonial", "Imperial"]),
       place=st.sampled_from(["England", "Egypt", "Japan", "India", "Russia", "Europe"]),
       kind=st.sampled_from(["LOCATION", "NRP", "PERSON"]))
def test_an_era_and_a_place_is_a_topic(era: str, place: str, kind: str):
    value = f"{era} {place}"
    text = f"What was daily life like in {value}?"
    assert run(text, value, kind) == text
