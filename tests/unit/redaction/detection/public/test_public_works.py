"""Issue #29's public figures named as a topic: a person on no list is kept by the default policy where its
sentence asks about public works or records ("Which novel by <name>", "How many medals did <name> win?") and
nothing in the sentence ties it to a private person; strict keeps none. Generated families use made-up names
(on no list) on both sides: the cue keeps the name, each private cue in the same sentence hides it again.
Detections are built by hand (no spaCy): what is under test is what the policy does with a detection."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.policies import PolicyStore
from ztgate.redaction.types import Detection

STORE = PolicyStore.load()
DEFAULT, STRICT = STORE.get("default"), STORE.get("strict")
OPERATORS = Operators()

_PART = st.lists(st.sampled_from(["ka", "ro", "mi", "ta", "ne", "lu", "vo", "sa", "den", "mar", "os", "ti"]),
                 min_size=2, max_size=3).map(lambda parts: "".join(parts).capitalize())
_NAME = st.tuples(_PART, _PART).map(lambda p: f"{p[0]} {p[1]}son")

PUBLIC_QUESTIONS = [
    "Which novel by {n} features a raft?",
    "Which {n} novel has a train in it?",
    "What are {n}'s best films?",
    "Which tournament did {n} win first?",
    "How many medals did {n} win?",
    "Which building did {n} design?",
    "What was {n} the first woman to do?",
    "Which symphonies did {n} compose?",
    "Which bridge was designed by {n}?",
    "Which element is named after {n}?",
]
PRIVATE_CUES = [
    "My colleague {n}",
    "Our landlord {n}",
    "I'm {n} and",
    "Dr. {n}",
    "{n}, call 415-555-0187,",
    "{n} (patient ID MRN-4410923)",
    "{n} from my team",
]
PRIVATE_SENTENCES = [
    "The bug was discovered by {n} yesterday.",
    "The dashboard was developed by {n}.",
    "Which tests did {n} write?",
    "Was {n} the first person to arrive?",
    "What did {n} say about the invoice?",
    "Please ask {n} about {n2}'s records.",
    "A report by {n} is due on Friday.",
]


def run(text: str, value: str, policy=DEFAULT) -> str:
    detections = []
    start = text.find(value)
    while start >= 0:
        detections.append(Detection("PERSON", start, start + len(value), 0.9, "SpacyRecognizer"))
        start = text.find(value, start + 1)
    return redact(text, detections, policy, None, None, None, operators=OPERATORS).text


def test_the_default_policy_keeps_public_works_and_strict_does_not():
    assert "public_works" in DEFAULT.allow.public
    assert "public_works" not in STRICT.allow.public


@settings(max_examples=80, deadline=None)
@given(name=_NAME, question=st.sampled_from(PUBLIC_QUESTIONS))
def test_a_name_asked_about_as_a_public_work_is_kept(name: str, question: str):
    text = question.format(n=name)
    assert run(text, name) == text
    assert name not in run(text, name, STRICT)


@settings(max_examples=120, deadline=None)
@given(name=_NAME, question=st.sampled_from(PUBLIC_QUESTIONS), cue=st.sampled_from(PRIVATE_CUES))
def test_a_private_cue_in_the_sentence_hides_the_name(name: str, question: str, cue: str):
    # The name is the private person's: the cue and the question are one sentence.
    subject = cue.format(n=name)
    text = question.format(n=name).rstrip("?") + f", asked {subject} today?"
    assert name not in run(text, name)


@pytest.mark.parametrize("sentence", PRIVATE_SENTENCES)
def test_work_talk_about_a_private_person_is_no_public_work(sentence: str):
    text = sentence.format(n="Keoni Makoa", n2="Keoni Makoa")
    assert "Keoni Makoa" not in run(text, "Keoni Makoa")
