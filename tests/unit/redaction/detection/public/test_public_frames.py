"""Issue #29's fifth round of public lists by frame: a name on no list kept by the words around it -
``public_events`` (a name inside an event's name), ``work_titles`` (a work's title and its creator),
``company_frames`` (a brand in a company's frame, and the town it is based in), ``model_generations`` (a model
and its generation) and the new frames of ``encyclopedic_persons`` (professions, ranks, famous prizes). Each
frame keeps an invented name under ``default`` and hides it under ``strict``; the same frame with a private cue
in the paragraph hides it under both; the private family of ``ztgate_bench.public_frames_family`` (real given
names, since the frames read a given name as a person) is hidden. Detections are built by hand (no spaCy): what
is under test is what the policy does with a value found.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.public import PUBLIC_LISTS
from ztgate.redaction.policies import PolicyStore
from ztgate_bench.public_frames_family import GIVEN, PRIVATE, SURNAMES, TOWNS, redact_values
from ztgate_bench.public_frames_family import _values as family_values

STORE = PolicyStore.load()
DEFAULT, STRICT = STORE.get("default"), STORE.get("strict")
OPERATORS = Operators()
ROOT = Path(__file__).resolve().parents[5]
NEW_LISTS = ("public_events", "work_titles", "company_frames", "model_generations")

# Invented words, none a given name: a brand, a title, a place or a person's surname in the frames below.
WORDS = ("Quorvel", "Brandeshk", "Tullivar", "Ossenfry", "Karvolin", "Wendrask", "Pyrmonte", "Falkiresh")
_PAIR = st.lists(st.sampled_from(WORDS), min_size=2, max_size=2, unique=True)  # two distinct words

# (frame, value slots and their types): {a} and {b} are invented words.
PUBLIC_FRAMES = [
    ("What happened at the siege of {a}?", [("{a}", "LOCATION")]),
    ("What did the Council of {a} decide?", [("{a}", "PERSON")]),
    ("Who signed the Treaty of {a} and why?", [("{a}", "LOCATION")]),
    ("What was agreed at the {a} Conference?", [("{a}", "PERSON")]),
    ("What is the plot of {a} {b}?", [("{a} {b}", "PERSON")]),
    ("Summarise the novel {a} by Ilse {b}.", [("{a}", "LOCATION"), ("Ilse {b}", "LOCATION")]),
    ("What is depicted in {a}'s The Great Wave off {b}?", [("{a}", "PERSON"), ("{b}", "PERSON")]),
    ("What is {a}'s film {b} Story about?", [("{a}", "PERSON")]),
    ("What did the Danish physiologist Ivo {a} study?", [("Ivo {a}", "PERSON")]),
    ("What did Admiral {a} command at sea?", [("{a}", "PERSON")]),
    ("How many Wimbledon titles did Ivo {a} win?", [("Ivo {a}", "PERSON")]),
    ("Ivo {a} retired young. How many Grand Slams did he win?", [("Ivo {a}", "PERSON")]),
    ("{a} is based in {b}. What cameras does it make?", [("{a}", "PERSON"), ("{b}", "LOCATION")]),
    ("{a} started in {b}: what did the company make first?", [("{a}", "LOCATION"), ("{b}", "LOCATION")]),
    ("Who is the {a} brewery named after?", [("{a}", "PERSON")]),
    ("Both {a} and Adidas are based in {b}, why?", [("{a}", "PERSON"), ("{b}", "LOCATION")]),
    ("Why is {a} based in {b}? What does the company make?", [("{a}", "PERSON"), ("{b}", "LOCATION")]),
    ("What is special about the {a} 5D Mark II?", [("{a}", "PERSON")]),
    ("What is new in the {a} X100V?", [("the {a} X100V", "LOCATION")]),
    ("Is the {a} 7 III worth it?", [("{a}", "PERSON")]),
]
# Frames whose value a list of shapes keeps, not this round's frames.
SHAPE_KEPT = ("Council of", "5D Mark II")
# Private cues added after the frame, in the paragraph.
PRIVATE_CUES = [
    " My colleague asked me.",
    " Call me on +44 20 7946 0958.",
    " I'm asking for my neighbour.",
    " Our landlord wants to know by Friday.",
    " Write to q.x@example.org.",
    "\n\nBest regards,\n{a}",  # the name signs the letter: a person's
]


def run(text: str, values: list[tuple[str, str]], policy=DEFAULT) -> str:
    return redact_values(text, values, policy, OPERATORS)


def fill(frame: str, slots: list[tuple[str, str]], a: str, b: str) -> tuple[str, list[tuple[str, str]]]:
    return frame.format(a=a, b=b), [(value.format(a=a, b=b), entity_type) for value, entity_type in slots]


def test_the_default_policy_keeps_the_new_lists_and_strict_does_not():
    for name in NEW_LISTS:
        assert name in PUBLIC_LISTS
        assert name in DEFAULT.allow.public
        assert name not in STRICT.allow.public


def test_the_invented_names_are_on_no_corpus_or_golden_case():
    texts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "bench" / "corpora").glob("*-tune*.jsonl"))]
    texts += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "tests" / "golden").rglob("*.json*"))]
    assert texts
    for word in WORDS + SURNAMES + TOWNS:
        assert not any(word in text for text in texts), word


@settings(max_examples=200, deadline=None)
@given(pair=_PAIR, frame=st.sampled_from(PUBLIC_FRAMES))
def test_a_name_in_a_public_frame_is_kept_and_strict_hides_it(pair: list[str], frame):
    text, values = fill(*frame, *pair)
    assert run(text, values) == text
    hidden = run(text, values, STRICT)
    assert all(value not in hidden for value, _ in values)


@settings(max_examples=200, deadline=None)
@given(pair=_PAIR, frame=st.sampled_from(PUBLIC_FRAMES), cue=st.sampled_from(PRIVATE_CUES))
def test_the_same_frames_with_a_private_cue_are_hidden(pair: list[str], frame, cue: str):
    # A town alone in a sentence that names no one is topic_places' to keep, whatever the next sentence says
    # (test_topic_places.py): the persons of the frames, and a product read as a place, are checked here; "the
    # Council of <name>" whole is ``historical``'s and "<brand> 5D" ``product_models``', kept by their shape
    # whatever the paragraph says (a product is public whoever asks about it).
    checked = [value for value, entity_type in frame[1] if entity_type == "PERSON" or " " in value]
    if "{a}" in cue:  # a signature is evidence about the name it signs only
        checked = [value for value in checked if value == "{a}"]
    assume(checked and not any(shape in frame[0] for shape in SHAPE_KEPT))
    text, values = fill(frame[0] + cue, frame[1] + ([("{a}", "PERSON")] if "{a}" in cue else []), *pair)
    checked = [value.format(a=pair[0], b=pair[1]) for value in checked]
    for policy in (DEFAULT, STRICT):
        out = run(text, values, policy)
        assert all(value not in out for value in checked), text


@pytest.mark.parametrize("template", [t for _, t in PRIVATE])
def test_the_private_family_is_hidden(template: str):
    for index, (given_name, surname) in enumerate(((GIVEN[0], SURNAMES[0]), (GIVEN[7], SURNAMES[5]))):
        text, values = family_values(template, given_name, surname, TOWNS[index])
        out = run(text, values)
        assert all(value not in out for value, _ in values), text


@pytest.mark.parametrize("text, value, entity_type", [
    ("Anna Tregunna is based in Quarlby; when was she born?", "Anna Tregunna", "PERSON"),
    ("When is the trial of Anna Tregunna?", "Anna Tregunna", "PERSON"),
    ("Did you see the painting Anna Tregunna sold?", "Anna Tregunna", "PERSON"),
    ("Is Anna Tregunna's Garden Open?", "Anna Tregunna", "PERSON"),  # a possessive and capitals: no title
    ("Is Anna Tregunna II coming on Friday?", "Anna Tregunna", "PERSON"),
    ("Anna Tregunna won the club raffle, what now?", "Anna Tregunna", "PERSON"),
    ("The Tregunna family is based in Quarlby.", "Quarlby", "LOCATION"),
    ("Tregunna is based in Quarlby and works from home.", "Quarlby", "LOCATION"),
    ("Why is Anna Tregunna based in Quarlby?", "Quarlby", "LOCATION"),
])
def test_frames_that_name_a_private_person_are_no_public_frame(text: str, value: str, entity_type: str):
    assert value not in run(text, [(value, entity_type)])
