"""Scrubs a stream of text chunks, holding back only a tail that could still grow into a value.

Each chunk is scanned with the held text and a window of text already sent; what goes out is the text
before the hold point, which moves back over anything that may still become a value (a token, a
name, digit groups, an open quote, a PEM block), since the detector reports only complete values. Work
is linear in the stream however it is chunked (docs/adr/0003-stream-scrubbing-bounded-work.md). The
hold rules and bounds: docs/architecture.md ("Module notes").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from ztgate.redaction.detection.normalise import view_of
from ztgate.redaction.types import Detection

F = TypeVar("F")

# Characters of the detector's reading a stream earns per character fed (beyond `lookbehind` per
# chunk). Holding is always safe, so a scan the stream has not earned yet only waits.
SCAN_CREDIT = 4

# Values written in groups (cards, phones, IBANs, SSNs with spaces): the longest, an IBAN, is 34
# characters and 8 spaces. A trailing run longer than MAX_GROUPED_RUN cannot end one, and the groups
# before it are looked for in the GROUPED_WINDOW characters before that run (ten groups and more).
MAX_GROUPED_RUN = 48
GROUPED_WINDOW = 192
_GROUP_RUN = re.compile(r"[0-9A-Z()+\-.]*")
# Up to ten space-separated groups, read backwards from the start of the trailing run (on the reversed
# window: possessive, so a failed group is not retried character by character).
_GROUPS_BACK = re.compile(r"(?: [0-9A-Z()+\-.]++){1,10}")
# Where a grouped value can begin: a digit, "+", "(", or an IBAN's country code and check digits.
_GROUP_FIRST = re.compile(r"[0-9+(]|[A-Z]{2}[0-9]{2}")

# Values of several words: at most this many name-like words (three name words and the particles
# between them, and a label), within PHRASE_WINDOW characters on one line.
MAX_PHRASE_WORDS = 8
PHRASE_WINDOW = 160
# Lower-case words inside names (the particles of the catalogue's person rules).
_PARTICLES = frozenset("van von de da di du del della der den dos das do la le bin ibn al ter ten y zu "
                       "d' l'".split())
# The trailing run may still grow into a particle ("d" before "e la Cruz").
_PARTICLE_PREFIXES = frozenset(p[:i] for p in _PARTICLES for i in range(1, len(p) + 1))
_WORD = re.compile(r"\S+")
_OPENING = "\"'(\u201c\u2018\u00ab["
# A quote opened after one of these (blanks between) starts a value that may hold spaces.
QUOTE_WINDOW = 256
_QUOTES = re.compile("[\"'`]")
_QUOTE_OPENERS = frozenset(":=>([{,\"'`")
# The window of the original text the rules above read (before the run, and of the run), four
# times theirs so that invisible characters padding a value do not push it out of reach.
_WINDOW = 4 * max(GROUPED_WINDOW, PHRASE_WINDOW, QUOTE_WINDOW)
_RUN = 4 * MAX_GROUPED_RUN

# The text after the last whitespace of what it is matched from (the whole text, greedily, then back).
_LAST_SPACE = re.compile(r".*\s", re.DOTALL)

_PEM_BEGIN = "-----BEGIN"
# A PEM label is a few words ("ENCRYPTED PRIVATE KEY", "PGP PRIVATE KEY BLOCK"); a longer one is not
# taken for an END, which only holds more.
_PEM_END = re.compile(r"-----END [A-Z0-9 ]{0,64}-----")
_PEM_END_MAX = len("-----END ") + 64 + len("-----")
# A trailing run that may be the first characters of a PEM marker (at most 22 characters long).
_DASH_TAIL = re.compile(r"-{1,10}[A-Z ]{0,12}\Z")
_DASH_TAIL_MAX = 22


@dataclass
class Emitted(Generic[F]):
    text: str
    findings: list[F] = field(default_factory=list)


def _grouped_start(view: str, run_start: int) -> int | None:
    """Where a value written in groups may begin that the trailing run could still continue, or None.

    O(MAX_GROUPED_RUN + GROUPED_WINDOW): the run must be short and made of group characters (digits,
    capitals, + ( ) - .), the groups before it are read backwards over single spaces, and the value
    begins at the first place in them where one can (so "card 4111 1111 11" holds from "4111").
    """
    end = len(view)
    if end - run_start > MAX_GROUPED_RUN or _GROUP_RUN.fullmatch(view, run_start) is None:
        return None
    back = _GROUPS_BACK.match(view[max(0, run_start - GROUPED_WINDOW):run_start][::-1])
    first = _GROUP_FIRST.search(view, run_start - back.end() if back else run_start, end)
    return first.start() if first else None


def _name_like(word: str, growing: bool = False) -> bool:
    """A word that may be part of a name, an address or a date (`growing`: or may still become one)."""
    word = word.lstrip(_OPENING)
    return bool(word) and (word[0].isupper() or word[0].isdigit() or word.rstrip(",.;:") in _PARTICLES
                           or growing and word in _PARTICLE_PREFIXES)


def _phrase_start(view: str, run_start: int) -> int | None:
    """The first of the name-like words that end at the trailing run (which must be one, or empty)."""
    run = view[run_start:]
    if run and not _name_like(run, growing=True):
        return None
    start = run_start if run else None
    words = 1 if run else 0
    following = run_start
    for match in reversed(list(_WORD.finditer(view, max(0, run_start - PHRASE_WINDOW), run_start))):
        if words >= MAX_PHRASE_WORDS or not _name_like(match.group()) or "\n" in view[match.end():following]:
            break
        start, following = match.start(), match.start()
        words += 1
    return start


def _quote_start(view: str) -> int | None:
    """Where a quote opened after an assignment or separator is still open on the last line."""
    line = max(view.rfind("\n") + 1, len(view) - QUOTE_WINDOW)
    opened = None
    for match in _QUOTES.finditer(view, line):
        at = match.start()
        if opened is None:
            before = at - 1
            while before >= line and view[before] in " \t":
                before -= 1  # blanks are walked once: the walk stops at the previous quote at the latest
            if before < line or view[before] in _QUOTE_OPENERS or view[before - 1:before + 1] == "-p":
                opened = at
        elif view[at] == view[opened]:
            opened = None
    return opened


def _value_start(text: str, run_start: int) -> int | None:
    """Where a value of several words that the trailing run may still continue begins, or None.

    Read on the normalised view of a bounded window (the run and the text before it) and mapped back.
    """
    window = max(0, run_start - _WINDOW)
    before = view_of(text[window:run_start], decode_base64=False)
    run = view_of(text[run_start:run_start + _RUN], decode_base64=False)
    view = before.text + run.text
    split = len(before.text)
    starts = [_quote_start(view)]
    if len(text) - run_start <= _RUN:
        starts += [_grouped_start(view, split), _phrase_start(view, split)]
    found = [start for start in starts if start is not None]
    if not found:
        return None
    first = min(found)
    if first >= split:
        return run_start + run.spans(first - split, first - split + 1)[0][0]
    return window + before.spans(first, first + 1)[0][0]


class _Tail:
    """The hold point of a growing text, kept up to date from each chunk in O(chunk + windows)."""

    __slots__ = ("run_start", "pem_begin")

    def __init__(self) -> None:
        self.run_start = 0  # start of the trailing whitespace-free run
        self.pem_begin: int | None = None  # the last "-----BEGIN", while no END follows it

    def extend(self, text: str, old: int) -> None:
        """`text` is the held text, grown from its first `old` characters."""
        space = _LAST_SPACE.match(text, old)
        if space is not None:
            self.run_start = space.end()
        begin = text.rfind(_PEM_BEGIN, max(0, old - len(_PEM_BEGIN) + 1))
        if begin != -1:
            self.pem_begin = begin
            since = begin
        else:  # an END completed by this chunk began at most _PEM_END_MAX characters before it
            since = max(0, old - _PEM_END_MAX + 1, self.pem_begin or 0)
        if self.pem_begin is not None and _PEM_END.search(text, since):
            self.pem_begin = None

    def shift(self, cut: int) -> None:
        """The first `cut` characters were sent."""
        self.run_start = max(0, self.run_start - cut)
        if self.pem_begin is not None:
            self.pem_begin = self.pem_begin - cut if self.pem_begin >= cut else None

    def cut(self, text: str) -> int:
        """Index in `text` from which the tail must be held back (len(text) holds nothing)."""
        cut = self.run_start
        value = _value_start(text, self.run_start)
        if value is not None:
            cut = min(cut, value)
        dashes = _DASH_TAIL.search(text, max(0, len(text) - _DASH_TAIL_MAX))
        if dashes is not None:
            cut = min(cut, dashes.start())
        if self.pem_begin is not None:
            cut = min(cut, self.pem_begin)
        return cut


def hold_point(text: str, max_hold: int) -> int:
    """Index in `text` from which the tail must be held back (len(text) holds nothing)."""
    tail = _Tail()
    tail.extend(text, 0)
    return max(tail.cut(text), len(text) - max_hold)


class StreamScrubber(Generic[F]):
    """Per-stream state; `feed` and `finish` return what may be sent now.

    `detect(text)` finds values in the scanned window; `apply(segment, detections)` rewrites a
    segment (detections given relative to it) and returns its text and findings.
    """

    def __init__(self, detect: Callable[[str], Sequence[Detection]],
                 apply: Callable[[str, list[Detection]], tuple[str, list[F]]],
                 lookbehind: int = 256, max_hold: int = 32768) -> None:
        self._detect = detect
        self._apply = apply
        self._lookbehind = lookbehind
        self._max_hold = max_hold
        self._sent = ""     # tail of the original text already emitted (context only)
        self._pending = ""  # original text not yet emitted
        self._tail = _Tail()
        self._credit = 0    # characters the detector may still read (see the module doc)

    @property
    def held(self) -> int:
        """Characters currently held back."""
        return len(self._pending)

    def feed(self, chunk: str) -> Emitted[F]:
        if not chunk:
            return Emitted("")
        old = len(self._pending)
        self._pending += chunk
        self._tail.extend(self._pending, old)
        self._credit += self._lookbehind + SCAN_CREDIT * len(chunk)
        return self._emit(final=False)

    def finish(self) -> Emitted[F]:
        return self._emit(final=True)

    def _emit(self, final: bool) -> Emitted[F]:
        pending = self._pending
        if not pending:
            return Emitted("")
        offset = len(self._sent)
        floor = 0  # the cut can move back no further than this
        if final:
            cut = len(pending)
        else:
            cut = self._tail.cut(pending)
            if len(pending) > self._max_hold:  # held too long: send down to half the limit
                floor = len(pending) - self._max_hold // 2
                cut = max(cut, floor)
            elif cut <= 0 or self._credit < offset + len(pending):
                return Emitted("")  # nothing can be sent yet, or the scan is not paid for yet
        self._credit -= offset + len(pending)
        detections = sorted(self._detect(self._sent + pending), key=lambda d: d.start, reverse=True)
        if not final:
            # A value that reaches past the cut is held whole. Latest start first, so one pass
            # settles a chain of overlapping values. Values that began in text already sent cannot
            # be held; they are clipped.
            for d in detections:
                if 0 <= d.start - offset < cut < d.end - offset:
                    cut = d.start - offset
            cut = max(cut, floor)
            if cut <= 0:
                return Emitted("")
        segment = pending[:cut]
        local = [Detection(d.entity_type, max(d.start - offset, 0), min(d.end - offset, cut),
                           d.score, d.recognizer)
                 for d in reversed(detections) if d.end - offset > 0 and d.start - offset < cut]
        text, findings = self._apply(segment, local)
        self._sent = (self._sent + segment[-self._lookbehind:])[-self._lookbehind:]
        self._pending = pending[cut:]
        self._tail.shift(cut)
        return Emitted(text, findings)
