"""Scrubs a stream of text chunks, holding back only a tail that could still grow into a value.

Each chunk is scanned together with the text still held and a window of text already sent
(so context words like "password:" count). What is emitted is the text before the hold point:
the start of the last whitespace-free run (a token, an email, a key, a placeholder being
restored), moved back over digit groups (cards, phones, IBANs written with spaces), to an
unterminated PEM block, and to the start of any detection that reaches into the tail.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from services.redaction.types import Detection

F = TypeVar("F")

# Runs of short alphanumeric groups joined by spaces, dashes or dots: values written in groups.
# The first group starts with a digit, "+", "(" or an IBAN country code and check digits.
_GROUPED_TAIL = re.compile(
    r"(?:[+(]?[0-9][0-9A-Z]{0,5}|[A-Z]{2}[0-9]{2})\)?[ \-.]"
    r"(?:[+(]?[0-9A-Z]{1,6}\)?[ \-.]){0,9}[0-9A-Z()+\-]*\Z")
_PEM_BEGIN = "-----BEGIN"
_PEM_END = re.compile(r"-----END [A-Z0-9 ]*-----")
# A trailing run that may be the first characters of a PEM marker.
_DASH_TAIL = re.compile(r"-{1,10}[A-Z ]{0,12}\Z")


@dataclass
class Emitted(Generic[F]):
    text: str
    findings: list[F] = field(default_factory=list)


def hold_point(text: str, max_hold: int) -> int:
    """Index in `text` from which the tail must be held back (len(text) holds nothing)."""
    end = len(text)
    cut = end
    while cut > 0 and not text[cut - 1].isspace():
        cut -= 1
    grouped = _GROUPED_TAIL.search(text)
    if grouped:
        cut = min(cut, grouped.start())
    dashes = _DASH_TAIL.search(text)
    if dashes:
        cut = min(cut, dashes.start())
    begin = text.rfind(_PEM_BEGIN)
    if begin != -1 and not _PEM_END.search(text, begin):
        cut = min(cut, begin)
    return max(cut, end - max_hold)


class StreamScrubber(Generic[F]):
    """Per-stream state; `feed` and `finish` return what may be sent now.

    `detect(text)` finds values in the scanned window; `apply(segment, detections)` rewrites a
    segment (detections given relative to it) and returns its text and findings.
    """

    def __init__(self, detect: Callable[[str], Sequence[Detection]],
                 apply: Callable[[str, list[Detection]], tuple[str, list[F]]],
                 lookbehind: int = 256, max_hold: int = 16384) -> None:
        self._detect = detect
        self._apply = apply
        self._lookbehind = lookbehind
        self._max_hold = max_hold
        self._sent = ""     # tail of the original text already emitted (context only)
        self._pending = ""  # original text not yet emitted

    @property
    def held(self) -> int:
        """Characters currently held back."""
        return len(self._pending)

    def feed(self, chunk: str) -> Emitted[F]:
        self._pending += chunk
        return self._emit(final=False)

    def finish(self) -> Emitted[F]:
        return self._emit(final=True)

    def _emit(self, final: bool) -> Emitted[F]:
        pending = self._pending
        if not pending:
            return Emitted("")
        offset = len(self._sent)
        window = self._sent + pending
        detections = list(self._detect(window))
        cut = len(pending) if final else hold_point(pending, self._max_hold)
        # A value that reaches past the cut is held whole; repeat until stable.
        moved = True
        while moved and not final:
            moved = False
            for d in detections:
                # Values that began in text already sent cannot be held; they are clipped.
                if 0 <= d.start - offset < cut < d.end - offset:
                    cut = d.start - offset
                    moved = True
        cut = max(cut, len(pending) - self._max_hold)
        if cut <= 0:
            return Emitted("")
        segment = pending[:cut]
        local = [Detection(d.entity_type, max(d.start - offset, 0), min(d.end - offset, cut),
                           d.score, d.recognizer)
                 for d in detections if d.end - offset > 0 and d.start - offset < cut]
        text, findings = self._apply(segment, local)
        self._sent = (self._sent + segment)[-self._lookbehind:]
        self._pending = pending[cut:]
        return Emitted(text, findings)
