"""Issue #29's public figures on no list, by the frame of the question (``encyclopedic_persons``): a made-up full
name that is the topic of an encyclopedic question ("Which major did <name> win first?", "Why is <name>
famous?", "Who was Lord <name>?") is kept by the default policy and hidden by strict; the same frames with a
private cue in the sentence or the paragraph (my colleague, I'm, an e-mail address, a phone number, my patient,
a signature, a record's line) are hidden by both; private persons asked about in question frames with private
context are hidden. A name spaCy types LOCATION in an unambiguous person's frame is kept too.

The names are drawn from a pool of invented words (``ztgate_bench.encyclopedic_family``, which also counts the
private families) that no tuning corpus and no golden case holds (asserted below). Detections are built by hand (no spaCy): what is under test is what the policy does with a detection.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.public import PUBLIC_LISTS, load
from ztgate.redaction.policies import PolicyStore
from ztgate.redaction.types import Detection
from ztgate_bench.encyclopedic_family import BARE, GIVEN, PRIVATE_A, SURNAMES

STORE = PolicyStore.load()
DEFAULT, STRICT = STORE.get("default"), STORE.get("strict")
OPERATORS = Operators()
ROOT = Path(__file__).resolve().parents[5]

_GIVEN = st.sampled_from(GIVEN)
_SURNAME = st.sampled_from(SURNAMES)
_FULL = st.tuples(_GIVEN, _SURNAME).map(" ".join)

# Encyclopedic frames: {n} is the person asked about.
PUBLIC_FRAMES = [
    "Which major did {n} win first?",
    "How many Olympic gold medals did {n} win?",
    "Which pharaoh's tomb did {n} open in 1922?",
    "Which house did {n} build over a waterfall?",
    "What did {n} discover?",
    "When did {n} first climb the north face?",
    "Which element did {n} discover in the 1890s?",
    "When was {n} crowned?",
    "Why is {n} famous?",
    "Why was {n} so important in the history of chemistry?",
    "What is {n} best known for?",
    "What made {n} famous?",
    "Who was {n}?",
    "Who was Lord {n}?",
    "Who was Saint {n} and why is she remembered?",
    "Tell me about the life of {n}.",
    "Write a short biography of {n}.",
    "Explain {n}'s theory of light.",
    "What is {n}'s most famous symphony?",
    "In which city is {n}'s Harbour Lights set?",
    "Who was the Scottish physicist {n}?",
    "Which records did the sprinter {n} break?",
    "Which novel features a dog named {n}?",
    "Compare the discoveries of {n} and {m}.",
    "Who were {n} and {m}?",
]
# Frames where the name may be typed LOCATION by spaCy and is still a person's.
LOCATION_FRAMES = [
    "How many Olympic gold medals did {n} win?",
    "What did {n} discover?",
    "Who was the Danish astronomer {n}?",
    "Which races did {n} win?",
]
# Private cues added to the same question: in the sentence, or in the next sentence of the paragraph.
PRIVATE_CUES = [
    " My colleague {n} asked me.",
    " I'm {n}, by the way.",
    " Write to {n} at {mail}@example.org.",
    " Call {n} on +44 20 7946 0958.",
    " {n} is my patient.",
    " Our landlord {n} wants to know.",
    "\n\nBest regards,\n{n}",
    " Asked by Dr. {n} at the clinic.",
    " Ticket INC-4410923 was filed by {n}.",
    " {n} asked again yesterday.",
]
# Private persons asked about in question frames, with private context: the rule must not keep them.
PRIVATE_QUESTIONS = [
    "When did {n} sign the lease? She lives at 14 Elm Road.",
    "Why is {first} late again? My manager asked.",
    "What did {n} win at the office raffle?",
    "When did {n} discover the bug?",
    "Which house did {n} build? He wants to sell it to my parents.",
    "Who was {n}? She called me yesterday.",
    "Tell me about {n}. She is our new tenant.",
    "What is {n} known for at your company?",
    "Why is {n} famous on our team?",
    "How many medals did {n} win? Her phone is 415-555-0187.",
    "Which tests did {n} write?",
    "name: {n} | Who was {n}?",
    "Why is {n} so well known? {mail}@example.org",
    "What did {n} discover in the patient files?",
    "When did {n} die? My grandmother never told us.",
]


def detections_for(text: str, value: str, entity_type: str = "PERSON") -> list[Detection]:
    found = []
    start = text.find(value)
    while start >= 0:
        found.append(Detection(entity_type, start, start + len(value), 0.9, "SpacyRecognizer"))
        start = text.find(value, start + 1)
    return found


def run(text: str, values: list[str], policy=DEFAULT, entity_type: str = "PERSON") -> str:
    detections = [d for value in values for d in detections_for(text, value, entity_type)]
    return redact(text, detections, policy, None, None, None, operators=OPERATORS).text


def fill(frame: str, name: str, other: str) -> str:
    given_name, surname = name.split(" ", 1)
    return frame.format(n=name, m=other, first=given_name, mail=f"{given_name}.{surname}".lower())


def test_the_default_policy_keeps_the_list_and_strict_does_not():
    assert "encyclopedic_persons" in PUBLIC_LISTS
    assert "encyclopedic_persons" in DEFAULT.allow.public
    assert "encyclopedic_persons" not in STRICT.allow.public


def test_the_invented_names_are_on_no_corpus_or_golden_case():
    texts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "bench" / "corpora").glob("*-tune*.jsonl"))]
    texts += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "tests" / "golden").rglob("*.json*"))]
    assert texts
    for word in GIVEN + SURNAMES:
        assert not any(word in text for text in texts), word


@settings(max_examples=150, deadline=None)
@given(name=_FULL, other=_FULL, frame=st.sampled_from(PUBLIC_FRAMES))
def test_a_person_asked_about_encyclopedically_is_kept_and_strict_hides_it(name: str, other: str, frame: str):
    text = fill(frame, name, other)
    names = [name, other] if "{m}" in frame and other != name else [name]
    if "named {n}" in frame:  # a character's name is one word
        names = [name.split()[0]]
        text = frame.format(n=names[0])
    assert run(text, names) == text
    hidden = run(text, names, STRICT)
    assert all(n not in hidden for n in names)


@settings(max_examples=40, deadline=None)
@given(name=_FULL, frame=st.sampled_from(LOCATION_FRAMES))
def test_a_person_typed_as_a_place_in_a_persons_frame_is_kept(name: str, frame: str):
    text = fill(frame, name, name)
    assert run(text, [name], entity_type="LOCATION") == text
    assert name not in run(text, [name], STRICT, entity_type="LOCATION")


@settings(max_examples=250, deadline=None)
@given(name=_FULL, other=_FULL, frame=st.sampled_from(PUBLIC_FRAMES), cue=st.sampled_from(PRIVATE_CUES))
def test_the_same_frames_with_a_private_cue_are_hidden(name: str, other: str, frame: str, cue: str):
    value = name
    if "named {n}" in frame:  # a character's name is one word: the private cue names the same first name
        frame, value = frame.replace("{n}", "{first}"), name.split()[0]
    text = fill(frame + cue, name, other)
    for policy in (DEFAULT, STRICT):
        assert value not in run(text, [value], policy)


@settings(max_examples=150, deadline=None)
@given(name=_FULL, question=st.sampled_from(PRIVATE_QUESTIONS))
def test_private_persons_in_question_frames_with_private_context_are_hidden(name: str, question: str):
    text = fill(question, name, name)
    value = name.split()[0] if "{first}" in question else name
    assert value not in run(text, [value])


@pytest.mark.parametrize("entity_type", ["LOCATION", "NRP"])
def test_a_place_typed_name_needs_a_persons_frame(entity_type: str):
    # "Why is X famous" and "Tell me about X" fit a place too: a place-typed span is not kept by this list (a place
    # asked about in a text with no private evidence is kept by ``knowledge_requests``, not by a person's frame).
    encyclopedic = load("encyclopedic_persons")
    for frame in ("Why is {n} famous?", "Tell me about the history of {n}."):
        text = frame.format(n="Kalvoran Heights")
        start = text.index("Kalvoran Heights")
        assert not encyclopedic.holds_at(text, start, start + len("Kalvoran Heights"), entity_type)
        private = text + " My aunt lives there."
        assert "Kalvoran Heights" not in run(private, ["Kalvoran Heights"], entity_type=entity_type)


def test_a_place_next_to_a_kept_person_is_no_longer_tied_to_it():
    # "Which pharaoh's tomb did <person> open in <place>": the person is public, so the place is not tied.
    text = "Which pharaoh's tomb did Ostrek Mardenau open in Luxor in 1922?"
    person = detections_for(text, "Ostrek Mardenau")
    place = detections_for(text, "Luxor", "LOCATION")
    assert redact(text, person + place, DEFAULT, None, None, None, operators=OPERATORS).text == text


@pytest.mark.parametrize("template", PRIVATE_A)
def test_the_private_family_the_evidence_words_were_written_from_is_hidden(template: str):
    for given_name, surname in ((GIVEN[0], SURNAMES[0]), (GIVEN[5], SURNAMES[7])):
        value = given_name if "{first}" in template else f"{given_name} {surname}"
        text = template.format(n=f"{given_name} {surname}", first=given_name)
        assert value not in run(text, [value])


@pytest.mark.parametrize("template", BARE)
def test_the_bare_frames_are_the_trade_kept_by_default_hidden_by_strict(template: str):
    # No private cue at all: the frame alone keeps the name (docs/security.md, the trade); strict hides it.
    text = template.format(n="Kalvo Dresmoor")
    assert run(text, ["Kalvo Dresmoor"]) == text
    assert "Kalvo Dresmoor" not in run(text, ["Kalvo Dresmoor"], STRICT)


@pytest.mark.parametrize("frame", ["Explain {n}'s theory of light.", "In which city is {n}'s Harbour Lights set?"])
def test_a_span_that_takes_the_possessive_in_is_decided_at_the_name(frame: str):
    # A recognizer may give "Ostrek Mardenau's" (or "... 's Harbour Lights") as the span.
    text = frame.format(n="Ostrek Mardenau")
    value = "Ostrek Mardenau's" + (" Harbour Lights" if "Harbour" in frame else "")
    assert run(text, [value]) == text
    assert "Mardenau" not in run(text, [value], STRICT)
    private = text + " My colleague Ostrek Mardenau asked."
    assert "Mardenau's" not in run(private, [value])
