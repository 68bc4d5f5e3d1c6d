"""Issue #29, places named as a topic: a place on no list is public in the default policy where its sentence
names no one (``topic_places``) - a question about it, an organisation's site, a team's trip - and hidden where
anything ties it to a private person (a residence or an origin, a self-introduction, a patient's town, an
address line, a record row, a signature); ``strict`` (HIPAA Safe Harbor: geographic units smaller than a state
are identifiers) hides every town in every frame. The places are made up from syllables (no list or corpus
holds them); the detections are built by hand with each recognizer that finds places."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.public import load
from ztgate.redaction.detection.public.organisation_places import cue as organisation_place_cue
from ztgate.redaction.detection.text_shape import strong_place_cue
from ztgate.redaction.policies import PolicyStore
from ztgate.redaction.types import Detection

STORE = PolicyStore.load()
DEFAULT, STRICT = STORE.get("default"), STORE.get("strict")
OPERATORS = Operators()

_PLACE = st.lists(st.sampled_from(["kal", "ten", "brun", "vo", "rsk", "ha", "de", "rup", "mei", "lo", "zan", "tir"]),
                  min_size=2, max_size=4).map(lambda parts: "".join(parts).capitalize()).filter(
    lambda place: not any(load(name).has(place) for name in DEFAULT.allow.public))  # on no list ("Loha" is a city)
RECOGNIZERS = ["SpacyRecognizer", "GazetteerRecognizer", "CuedPlaceRecognizer"]
# A place named as a topic, an organisation's site or a group's trip: nothing in the sentence names a person.
TOPIC_FRAMES = [
    "Which palace in {} is the most famous?",
    "What is {} best known for?",
    "Is {} worth a visit in spring?",
    "How old is the cathedral of {}?",
    "The train from Vienna to {} takes two hours; is there a faster route?",
    "Our team in Lisbon is planning a day trip to {}; which palace there is the most famous?",
    "Our supplier near {} is ASML.",
    "Our partners at CERN in {} mentioned the LHC.",
    "Our Nairobi office wants a weekend trip to {}.",
    "The company's plant near {} is closing.",
    "What is the Golden Pavilion in {} called in Japanese?",
    "Which river flows through {} and what is its source?",
]
# The same places tied to a private person: (frame, whether the frame names a person "Anna Berg" the NER finds).
PERSON_FRAMES = [
    ("I live in {}.", False),
    ("She was born in {} in 1984.", False),
    ("Hi, I'm Tom and I'm from {}.", False),
    ("My grandmother grew up near {}.", False),
    ("We moved to {} last year.", False),
    ("The patient's town is {}.", False),
    ("The patient lives in {} with her son.", False),
    ("Her farm outside {} floods every spring.", False),
    ("I'm flying to {} tomorrow to see my mother.", False),
    ("Address: 12 Elm Street, {}", False),
    ("Please ship it to 4 Mill Lane, {} by Friday.", False),
    ("name,age,town\nAnna Berg,34,{}", True),
    ("Best regards,\nAnna Berg\n{}", True),
    ("Anna Berg manages the team from {}.", True),
]


def _run(text: str, place: str, policy, recognizer: str, person: bool = False) -> str:
    start = text.index(place)
    detections = [Detection("LOCATION", start, start + len(place), 0.9, recognizer)]
    if person:
        name = text.index("Anna Berg")
        detections.append(Detection("PERSON", name, name + len("Anna Berg"), 0.9, "SpacyRecognizer"))
    return redact(text, detections, policy, None, None, None, operators=OPERATORS).text


def test_default_keeps_topic_places_and_strict_does_not():
    assert "topic_places" in DEFAULT.allow.public
    assert "topic_places" not in STRICT.allow.public
    assert load("topic_places").values == frozenset()  # decided by the sentence, not by a list of names


@settings(max_examples=150, deadline=None)
@given(place=_PLACE, frame=st.sampled_from(TOPIC_FRAMES), recognizer=st.sampled_from(RECOGNIZERS))
def test_a_place_named_as_a_topic_or_a_site_is_kept(place: str, frame: str, recognizer: str):
    text = frame.format(place)
    # The cue recognizer finds a place only after a strong place cue ("trip to", "near"); its other findings are
    # a person's by construction (test_public_knowledge).
    assume(text.count(place) == 1)
    assume(recognizer != "CuedPlaceRecognizer" or strong_place_cue(text, text.index(place)))
    assert _run(text, place, DEFAULT, recognizer) == text
    assert place not in _run(text, place, STRICT, recognizer)


@settings(max_examples=200, deadline=None)
@given(place=_PLACE, frame=st.sampled_from(PERSON_FRAMES), recognizer=st.sampled_from(RECOGNIZERS))
def test_a_place_tied_to_a_private_person_is_hidden(place: str, frame: tuple[str, bool], recognizer: str):
    pattern, person = frame
    text = pattern.format(place)
    assume(text.count(place) == 1)
    for policy in (DEFAULT, STRICT):
        assert place not in _run(text, place, policy, recognizer, person)


@settings(max_examples=60, deadline=None)
@given(place=_PLACE, frame=st.sampled_from(TOPIC_FRAMES))
def test_a_self_or_a_relation_in_the_sentence_ties_a_topic_place(place: str, frame: str):
    """The topic frames with a person's word added to the sentence are hidden: the rule is the sentence's (an
    organisation's own cue, "the company's plant near", is ``organisation_places``' and left out here)."""
    text = "My sister asks: " + frame.format(place)
    assume(text.count(place) == 1 and organisation_place_cue().search(text, 0, text.index(place)) is None)
    assert place not in _run(text, place, DEFAULT, "SpacyRecognizer")


@given(place=_PLACE)
@settings(max_examples=30, deadline=None)
def test_a_lone_place_or_a_street_is_not_a_topic(place: str):
    for text, value in ((f"{place}\n", place), (f"Where is {place} Street exactly?", f"{place} Street")):
        assert value not in _run(text, value, DEFAULT, "SpacyRecognizer")


@settings(max_examples=60, deadline=None)
@given(place=_PLACE, frame=st.sampled_from(TOPIC_FRAMES))
def test_a_text_that_names_a_private_person_keeps_no_topic_place(place: str, frame: str):
    """A letter to a private person ("Dear Anna Berg,") keeps no town of its body by this rule."""
    body = frame.format(place)
    assume(body.count(place) == 1 and organisation_place_cue().search(body, 0, body.index(place)) is None)
    text = f"Dear Anna Berg,\n{body}\n"
    assert place not in _run(text, place, DEFAULT, "SpacyRecognizer", person=True)


@settings(max_examples=40, deadline=None)
@given(place=_PLACE, frame=st.sampled_from(["Review by {} (changes requested)\n- rename tmp\n",
                                            "**{}** commented on `pkg/cache/lru.go` line 88:\n> evict first?\n",
                                            "{} left a comment on the pull request about the cache size.\n",
                                            "Review from Anna {} (requested changes)\n- split `load()`\n",
                                            "> Anna {} replied on `api/routes.ts`:\n> fixed in 4f1c2e0\n",
                                            "Approved by Anna {} (2 nits)\n"]))
def test_a_place_read_as_someone_in_a_review_is_not_a_topic(place: str, frame: str):
    text = frame.format(place)
    assert place not in _run(text, place, DEFAULT, "SpacyRecognizer")
