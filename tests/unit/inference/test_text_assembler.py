"""Streaming text of the transformers engine: UTF-8 held back until whole, stop strings cut."""

from __future__ import annotations

import pytest

from ztgate.inference.engines.transformers_engine import TextAssembler


class _ByteTokenizer:
    """Each token id is one byte; undecodable tails show as U+FFFD, like real BPE tokenizers."""

    def decode(self, ids, skip_special_tokens=True):
        return bytes(ids).decode("utf-8", errors="replace")


def _feed(assembler, text: str, step: int = 1) -> list[str]:
    data = list(text.encode())
    return [assembler.add(data[i:i + step]) for i in range(0, len(data), step)]


def test_plain_text_streams_as_it_comes_and_adds_up():
    a = TextAssembler(_ByteTokenizer(), ())
    pieces = _feed(a, "hello world")
    assert "".join(pieces) + a.flush() == "hello world"
    assert pieces[0] == "h"


def test_half_a_utf8_character_is_held_back():
    a = TextAssembler(_ByteTokenizer(), ())
    pieces = _feed(a, "é!")
    assert pieces[0] == "" and pieces[1] == "é"
    assert "".join(pieces) + a.flush() == "é!"


@pytest.mark.parametrize("text, stop, expected", [
    ("one two STOP three", ("STOP",), "one two "),
    ("abc\n\ndef", ("\n\n",), "abc"),
    ("no stop here", ("XYZ",), "no stop here"),
    ("first END or HALT", ("HALT", "END"), "first "),
])
def test_text_is_cut_at_the_first_stop_string_and_never_shows_it(text, stop, expected):
    a = TextAssembler(_ByteTokenizer(), stop)
    streamed = "".join(_feed(a, text, step=2))
    out = streamed + a.flush()
    assert out == expected
    assert a.stopped == (expected != text)
    assert not any(s in streamed for s in stop)
