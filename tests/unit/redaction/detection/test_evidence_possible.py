"""`text_shape.evidence_possible`, the line-level test the NER gate skips technical lines by: it must hold
wherever `has_evidence` can hold for some candidate on the line (else a finding that would count is never
looked for). Hypothesis builds lines from labels, cues, contact values, code and names."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from ztgate.redaction.detection.text_shape import evidence_possible, has_evidence

_PIECES = st.sampled_from([
    "author: ", "Author = ", '"city": "', "name=", "owner: ", "by ", "ask ", "ping ", "contact ", "cc: ",
    "lives in ", "moved to ", "based in ", "I'm from ", "town: ", "address: ", "Reviewed-by: ",
    "maria@example.com", "+44 20 7946 0958", "(555) 123-4567", "GB82 WEST 1234 5698 7654 32", "123-45-6789",
    "Maria", "Florence", "van der Berg", "Leeds", "x = 1", "def f():", "# ", "// ", "[INFO] ", "| ", "; ",
    "return None", "{", "}", " ", "  ", "\n", ", ", ": ", "'", '"', "2026-01-02 10:00 ", "commit 9f86d08 ",
    "Maria Voss", "Voss", "@mvoss", "TODO(mvoss): ", "(@maria)", "Dr. ", "Prof ", "assigned to ", "escalated to ",
    '__author__ = "', "@author ", ":author: ", "contributed by "])


@settings(max_examples=1000)
@given(pieces=st.lists(_PIECES, min_size=1, max_size=14), at=st.integers(0, 10_000), length=st.integers(0, 59))
# A candidate ending in a line break once took a contact two lines below it as evidence (the line after its
# end), where evidence_possible did not look: has_evidence(text, 0, 7, "PERSON") but not evidence_possible.
@example(pieces=["Maria", "\n", "\n", "maria@example.com"], at=0, length=6)
# CI drew an "@" glued to a word as a handle after the span ("x = 1@mvoss"), which evidence_possible never reads
# as one: has_evidence now reads no handle there either.
@example(pieces=["x = 1", "@mvoss", "@mvoss"], at=0, length=10)
def test_evidence_possible_holds_wherever_a_candidate_could_have_evidence(pieces: list[str], at: int,
                                                                          length: int) -> None:
    text = "".join(pieces)
    start = at % len(text)  # any start in the text, and any end up to 60 characters after it
    end = min(len(text), start + 1 + length)
    for entity_type in ("PERSON", "LOCATION", "NRP"):
        if has_evidence(text, start, end, entity_type):
            assert evidence_possible(text, start), (text, start, end, entity_type)


def test_plain_technical_lines_have_no_possible_evidence() -> None:
    for line in ('    mode = "Florence"', "2026-03-01 10:22 [INFO] Phoenix queue drained", "KeyError: 'Temple'",
                 "| Hamburg | 3 | ok |", "commit 9f86d08 Fix Buffalo parser"):
        assert not evidence_possible(line, 0), line
