"""UTF-8 encoding of a prompt for Hyperscan, and exact mapping of its byte offsets to code points."""

from __future__ import annotations

import re
from collections.abc import Iterable

_SURROGATE = re.compile("[\ud800-\udfff]")


def encode_utf8(text: str) -> bytes:
    """UTF-8 bytes of `text`; a lone surrogate (not encodable) becomes U+FFFD, still one code point.

    Hyperscan's behaviour on invalid UTF-8 is undefined, so the scanned bytes must always be valid.
    """
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text).encode("utf-8")


def _is_continuation(byte: int) -> bool:
    return byte & 0xC0 == 0x80


class Utf8Offsets:
    """The UTF-8 bytes of one text, and the code-point offset of any byte offset into them.

    Pure-ASCII text maps by identity. Otherwise the requested offsets are sorted and the bytes
    between consecutive ones are decoded once, in C, so a batch of offsets costs one pass over the
    text however many non-ASCII characters it has.
    """

    __slots__ = ("data", "is_ascii")

    def __init__(self, text: str) -> None:
        self.data: bytes = encode_utf8(text)
        self.is_ascii: bool = len(self.data) == len(text)

    def codepoints(self, byte_offsets: Iterable[int]) -> dict[int, int]:
        """Map each byte offset to the code-point offset of the same position in the str.

        An offset that falls inside a multi-byte character (never the case for matches of patterns
        compiled with HS_FLAG_UTF8) maps to the end of that character, so that a span widened this way
        still covers every byte that was matched.
        """
        if self.is_ascii:
            return {b: b for b in byte_offsets}
        data = self.data
        size = len(data)
        result: dict[int, int] = {}
        position = 0  # a byte offset on a character boundary
        codepoint = 0  # its code-point offset
        for offset in sorted(set(byte_offsets)):
            if offset < 0 or offset > size:
                raise ValueError(f"byte offset {offset} outside 0..{size}")
            boundary = offset
            while boundary < size and _is_continuation(data[boundary]):
                boundary += 1
            codepoint += len(data[position:boundary].decode("utf-8"))
            position = boundary
            result[offset] = codepoint
        return result

    def codepoint(self, byte_offset: int) -> int:
        """Code-point offset of one byte offset (see `codepoints`)."""
        return self.codepoints((byte_offset,))[byte_offset]
