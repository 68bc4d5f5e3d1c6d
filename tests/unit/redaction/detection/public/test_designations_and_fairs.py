"""Issue #29: protected names of food and drink (``protected_designations``, a list of its own shipped with its
source and licence) and trade fairs by their frame (``trade_fairs``), both sides: the default policy keeps them,
strict does not, and a private person in the same frames stays hidden. Detections are built by hand on the
spans spaCy gives such names (a PERSON, a LOCATION or an NRP); no spaCy: what is under test is the policy.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.public import PUBLIC_LISTS, canonical, data_words, load
from ztgate.redaction.detection.public._data import PUBLIC_DATA_DIR, read_lines
from ztgate.redaction.policies import AllowList, PolicyStore
from ztgate.redaction.types import Detection

STORE = PolicyStore.load()
DEFAULT, STRICT = STORE.get("default"), STORE.get("strict")
OPERATORS = Operators()
DESIGNATIONS = data_words(read_lines("protected_designations.txt"))

# Invented fair names (no real fair, no corpus holds them) and real given names for the private side.
FAIR_WORDS = ("Vendrava", "Koltmesse", "Agrivolt", "Ostrafair", "Pellexpo", "Traventa", "Mirokon", "Baltrova")
FAIR_FRAMES = (
    "Draft an e-mail to our distributor in Tuttlingen about meeting at {f}.",
    "Please confirm our stand at {f} in hall 4.",
    "Write to the distributor about visiting their booth at {f}.",
    "Are we exhibiting at {f} this year?",
    "Book two passes for the {f} trade fair.",
    "Write to our partner asking to meet them at {f} next month.",
)
GIVEN = ("Anna", "Tomas", "Ingrid", "Pavel", "Mariam", "Kofi")
SURNAMES = ("Quarrendon", "Velloway", "Ostermire", "Brackwith")
PRIVATE_FRAMES = (
    "Draft an e-mail to our supplier about meeting at {n}'s house.",
    "Write to the distributor about meeting at {n}.",
    "Ask the supplier to meet {n} at the fair.",
    "My colleague {n} is at the stand; call her on 0161 496 0123.",
)


def _redact(text: str, spans: list[tuple[int, int, str]], policy=DEFAULT) -> str:
    found = [Detection(entity_type, a, b, 0.85, "SpacyRecognizer") for a, b, entity_type in spans]
    return redact(text, found, policy, None, None, None, operators=OPERATORS).text


def test_the_lists_are_the_default_policys_own_and_strict_keeps_neither():
    for name in ("protected_designations", "trade_fairs"):
        assert name in PUBLIC_LISTS
        assert name in DEFAULT.allow.public
        assert name not in STRICT.allow.public


def test_the_list_ships_with_its_source_and_licence():
    head = (PUBLIC_DATA_DIR / "protected_designations.txt").read_text(encoding="utf-8")[:1200]
    assert "Source:" in head and "Licence:" in head
    notices = (PUBLIC_DATA_DIR.parents[3] / "THIRD_PARTY_NOTICES.md").read_text(encoding="utf-8")
    assert "protected_designations.txt" in notices
    assert len(DESIGNATIONS) > 250 and len(set(map(canonical, DESIGNATIONS))) == len(DESIGNATIONS)


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(DESIGNATIONS), st.sampled_from(["PERSON", "LOCATION", "NRP"]),
       st.sampled_from(["What is {d} made from?", "How is {d} different from the others?",
                        "Which region does {d} come from, and how is it aged?"]))
def test_a_protected_name_is_kept_whole_and_strict_hides_it(name: str, entity_type: str, template: str):
    text = template.format(d=name)
    start = text.index(name)
    spans = [(start, start + len(name), entity_type)]
    assert _redact(text, spans) == text
    if not any(load(other).holds(entity_type, name) for other in STRICT.allow.public):
        assert name not in _redact(text, spans, STRICT)  # strict keeps only its own lists (a region: "Burgundy")


@pytest.mark.parametrize(("text", "value"), [
    ("Is Jamón Ibérico the same as Serrano ham?", "Serrano"),
    ("Can I use Mozzarella di Bufala Campana on a pizza?", "Bufala Campana"),
    ("Which grape is Tokaji made from?", "Tokaji"),
])
def test_a_part_of_a_protected_name_or_the_name_before_its_product_noun_is_kept(text: str, value: str):
    start = text.index(value)
    assert _redact(text, [(start, start + len(value), "PERSON")]) == text


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(DESIGNATIONS), st.sampled_from(GIVEN),
       st.sampled_from(["My colleague {n} {d} called about the invoice.", "Dear {n} {d},\nthanks for the call.",
                        "Ask Dr. {d} about the results.", "Ask {d} about the results.",
                        "{d} says the delivery is late."]))
def test_a_person_whose_name_holds_a_protected_name_is_hidden(name: str, given_name: str, template: str):
    text = template.format(n=given_name, d=name)
    value = f"{given_name} {name}" if "{n}" in template else f"Dr. {name}" if "Dr." in template else name
    start = text.index(value)
    # What this list adds: a name another default list keeps by its shape ("Napa Valley": natural_features) is
    # that list's case, not this one's.
    without = DEFAULT.model_copy(update={"allow": AllowList(values=DEFAULT.allow.values,
                                                            patterns=DEFAULT.allow.patterns, public=tuple(
        n for n in DEFAULT.allow.public if n != "protected_designations"))})
    if value in _redact(text, [(start, start + len(value), "PERSON")], without):
        return
    assert value not in _redact(text, [(start, start + len(value), "PERSON")])


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(FAIR_WORDS), st.sampled_from(FAIR_FRAMES), st.sampled_from(["PERSON", "LOCATION", "NRP"]))
def test_a_fair_in_a_trades_frame_is_kept_and_strict_hides_it(fair: str, template: str, entity_type: str):
    text = template.format(f=fair)
    start = text.index(fair)
    spans = [(start, start + len(fair), entity_type)]
    assert fair in _redact(text, spans)
    assert fair not in _redact(text, spans, STRICT)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(GIVEN), st.sampled_from(SURNAMES), st.sampled_from(PRIVATE_FRAMES))
def test_a_person_in_a_fairs_frames_is_hidden(given_name: str, surname: str, template: str):
    text = template.format(n=f"{given_name} {surname}")
    spans = [(m.start(), m.end(), "PERSON") for m in re.finditer(f"{given_name} {surname}", text)]
    out = _redact(text, spans)
    assert given_name not in out and surname not in out


@pytest.mark.parametrize("text", [
    "Let's meet at Kingsley Road after work.",
    "We could meet at Bramlow.",
    "Our stand at 41 Quillet Lane.",
])
def test_a_street_a_bare_meeting_place_or_a_value_with_digits_is_no_fair(text: str):
    value = re.search(r"(?:at )([\w ]+)", text).group(1)
    start = text.index(value)
    fairs = load("trade_fairs")
    assert not fairs.holds_at(text, start, start + len(value), "LOCATION")
