"""`PersonIndex` answers "is pos in a sentence of one of the private persons" as the walk over every person did,
on a generated family of texts, person spans and positions (it looks at two persons, not all)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from ztgate.redaction.detection.names.person_ties import PersonIndex
from ztgate.redaction.types import Detection

_END = re.compile(r"[.!?。！？]\s|\n")


def _walk(text: str, persons: list[Detection], pos: int) -> bool:
    """The definition: some person with no sentence end between its name and pos (or a name over pos)."""
    for person in persons:
        lo, hi = (person.end, pos) if person.end <= pos else (pos, person.start)
        if _END.search(text, lo, hi) is None:
            return True
    return False


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(st.sampled_from(["ab ", "Cd ", ". ", "\n", "! ", "x", "。 "]), min_size=1, max_size=40),
       data=st.data())
def test_the_index_answers_as_the_walk_over_every_person(pieces: list[str], data: st.DataObject) -> None:
    text = "".join(pieces)
    spans = data.draw(st.lists(st.tuples(st.integers(0, len(text) - 1), st.integers(1, 6)), max_size=8))
    persons = [Detection("PERSON", a, min(len(text), a + n), 0.9, "t") for a, n in spans if a < len(text)]
    pos = data.draw(st.integers(0, len(text)))
    assert PersonIndex(persons).in_sentence_of_one(text, pos) == _walk(text, persons, pos)
