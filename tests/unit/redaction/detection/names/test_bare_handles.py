"""A social handle with no cue word in a sentence about a person (issue #29, ADR 0045).

Generated families, apart from utility-tune-20.jsonl: handles of invented syllable words joined by underscores in
sentences with a pronoun or a social verb, found by ``BareHandleRecognizer``; the same shape as a code identifier
(a part identifiers are built from, a sentence with no person, a text with a mark of code) not found."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.unit.redaction.detection.test_private_value_classes_7 import _WORD, _found
from ztgate.redaction.detection.names.context.bare_handles import IDENTIFIER_PARTS, BareHandleRecognizer

FAST = settings(max_examples=40, deadline=None)
RULE = BareHandleRecognizer()
_PART = _WORD.filter(lambda w: len(w) >= 3 and w not in IDENTIFIER_PARTS)
HANDLES = st.lists(_PART, min_size=2, max_size=3).map("_".join)
PERSONAL = ["{h} and I are training a sled team together.", "Follow {h}, she knits every day.",
            "My friend {h} posts her drawings.", "I met {h} at the fair; he sells honey.",
            "They asked {h} to judge the contest."]


@FAST
@given(handle=HANDLES, frame=st.sampled_from(PERSONAL))
def test_a_bare_handle_in_a_sentence_about_a_person_is_found(handle: str, frame: str) -> None:
    assert handle in _found(RULE, frame.format(h=handle))


CODE_PARTS = st.tuples(st.sampled_from(sorted(IDENTIFIER_PARTS)), _PART).map("_".join)
CODE_FRAMES = ["She said {h} broke after the update.", "I renamed {h} yesterday.",
               "In Python, why does `{h}` fail?", "I set {h} = 3 and he laughed.", "Call {h}() before the loop; I did.",
               "The {h} variable is what I changed."]
NO_PERSON = ["The table {h} grows every night.", "Rename {h} before the release."]


@FAST
@given(part_handle=CODE_PARTS, handle=HANDLES, frame=st.sampled_from(CODE_FRAMES), bare=st.sampled_from(NO_PERSON))
def test_the_shape_as_a_code_identifier_is_not_found(part_handle: str, handle: str, frame: str, bare: str) -> None:
    assert _found(RULE, frame.format(h=part_handle)) == []
    assert _found(RULE, bare.format(h=handle)) == []
    if "`" in frame or "=" in frame or "()" in frame or "variable" in frame:
        assert _found(RULE, frame.format(h=handle)) == []


@FAST
@given(handle=HANDLES)
def test_a_chat_logs_speaker_tag_is_the_logs_not_a_bare_handle(handle: str) -> None:
    """Found on one line and left on the next, the nick would only be half hidden (the golden gate's chat logs)."""
    log = f"[9:28] <customer> the build is green again\n[10:31] <{handle}> she moved to Leeds last month\n"
    assert _found(RULE, log) == []
