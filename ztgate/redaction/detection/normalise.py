"""The normalised view of a text that detection reads, and the map from its offsets back to the text.

Values are disguised with characters a reader does not see or reads as others: full-width digits
(`１２３-４５-６７８９`), a zero-width space inside a key, soft hyphens inside a card number,
no-break spaces grouping an IBAN, an e-mail address percent-encoded in a URL, a value in base64. The
view undoes these so that one catalogue of rules (and NER) reads the value as written plainly:

- every default-ignorable or format character (Unicode category Cf, and the Default_Ignorable_Code_Point
  property: zero-width space/joiner/non-joiner, word joiner, soft hyphen, BOM, bidi controls, variation
  selectors, Hangul fillers, tags) is dropped;
- every character gets its NFKC compatibility form (full-width and other compatibility letters and
  digits, ligatures, superscripts), per starter and the combining marks that follow it;
- every decimal digit of any script (Unicode category Nd: Arabic-Indic `٥٣٦`, Devanagari `५३६`, Thai,
  Bengali ...; NFKC leaves them as they are) becomes its ASCII digit (`unicodedata.decimal`);
- every space separator (category Zs: no-break, narrow no-break, figure, ideographic spaces ...) becomes
  an ASCII space;
- a run of percent escapes is decoded where its bytes are UTF-8 of printable text (`john%40example.com`);
- a run of base64 (standard or URL-safe, 12 characters or more) whose bytes are UTF-8 of printable text
  is decoded into a part of its own appended to the view (the run itself stays in place, so a token
  that only looks like base64 is still read as it is).

Every view character maps to the original characters it came from; a finding maps back to the smallest
span of the original that covers all of it, so what is replaced is the disguised original, invisible
characters inside the value included. A text that needs none of this (plain ASCII with no escapes or
base64, or Unicode text already in that form) is its own view, found with a few C-speed searches.
Building a view is linear in the text, and its map holds one entry per change of length (a
character replaced by one character, full-width forms and odd spaces, needs none).
"""

from __future__ import annotations

import base64
import binascii
import bisect
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

import regex

from ztgate.redaction.types import Detection

# Base64 runs shorter than this are not decoded (9 bytes: an e-mail address or an SSN fits).
MIN_BASE64 = 12
_PERCENT_RUN = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
_BASE64_RUN = re.compile(r"(?<![A-Za-z0-9+/_=\-])[A-Za-z0-9+/_\-]{%d,}={0,2}(?![A-Za-z0-9+/_=\-])" % MIN_BASE64)
# What is not text: controls (but tab and line breaks), surrogates, private use, unassigned.
_NOT_TEXT = regex.compile(r"[[\p{Cc}\p{Cs}\p{Co}\p{Cn}]--[\t\n\r]]", regex.VERSION1)
# Between the text and each decoded part: no rule reads across it, and parts are mapped apart anyway.
_PART_SEPARATOR = "\n\n"
_SPACES = regex.compile(r"\p{Zs}")
# The characters the view drops: format characters and the Default_Ignorable_Code_Point property (the
# `regex` module reads Unicode's property tables; Python's unicodedata does not expose that property).
_REMOVABLE_CLASS = r"\p{Cf}\p{Default_Ignorable_Code_Point}"
# Characters that join the cluster of the one before them: combining marks, and the characters that
# may compose with a preceding one (NFKC_Quick_Check=Maybe: Hangul vowels, some vowel signs).
_JOINING_CLASS = r"\P{Canonical_Combining_Class=Not_Reordered}\p{NFKC_Quick_Check=Maybe}"
_REMOVABLE = regex.compile(f"[{_REMOVABLE_CLASS}]")
_JOINING = regex.compile(f"[{_JOINING_CLASS}]")
_SPACE_CLASS = r"[\p{Zs}--\x20]"  # space separators but the ASCII space
_OTHER_DIGIT_CLASS = r"[\p{Nd}--[0-9]]"  # decimal digits of other scripts (NFKC keeps most of them)
_OTHER_DIGIT = regex.compile(_OTHER_DIGIT_CLASS, regex.VERSION1)
# A run of characters that may change in the view: the removable ones, space separators, those NFKC
# changes and those that join a cluster (a run starting with one of those takes the character before).
_TROUBLE = regex.compile(
    f"[{_REMOVABLE_CLASS}{_JOINING_CLASS}\\p{{NFKC_Quick_Check=No}}{_SPACE_CLASS}{_OTHER_DIGIT_CLASS}]+",
    regex.VERSION1)
# In text already in NFKC form, only these can change (a quicker search).
_INVISIBLE = regex.compile(f"[{_REMOVABLE_CLASS}{_SPACE_CLASS}{_OTHER_DIGIT_CLASS}]+", regex.VERSION1)


@lru_cache(maxsize=4096)
def _removable(char: str) -> bool:
    """A character the view drops (default-ignorable or format)."""
    return _REMOVABLE.match(char) is not None


@lru_cache(maxsize=4096)
def _joins(char: str) -> bool:
    """A character that belongs to the cluster of the one before it."""
    return _JOINING.match(char) is not None


@lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """One cluster (a starter and its combining marks) as the view has it."""
    folded = unicodedata.normalize("NFKC", _REMOVABLE.sub("", text))
    if not folded.isascii():
        folded = _REMOVABLE.sub("", _SPACES.sub(" ", folded))
        folded = _OTHER_DIGIT.sub(_ascii_digit, folded)
    return folded


def _ascii_digit(match: regex.Match[str]) -> str:
    return str(unicodedata.decimal(match.group()))


class View:
    """A text as detection reads it (`text`), and the map back to the original (`spans`)."""

    __slots__ = ("text", "_v", "_o", "_olen", "_main", "_decoded", "_decoded_ends")

    def __init__(self, text: str, *, decode_base64: bool = True) -> None:
        # The main part: segments of the view, each either one character for one of the original
        # (`_olen` None) or standing as one unit for the original span [`_o`, `_o` + `_olen`).
        self._v: list[int] = []
        self._o: list[int] = []
        self._olen: list[int | None] = []
        self._main = -1  # view length of the main part; -1: the view is the text itself
        self._decoded: list[_DecodedPart] = []
        self._decoded_ends: list[int] = []  # view end of each decoded part, in order: found by bisection
        edits = _edits(text)
        decoded = _base64_parts(text) if decode_base64 else []
        if not edits and not decoded:
            self.text = text
            return
        pieces: list[str] = []
        length = self._main = self._build(text, edits, pieces)
        for start, end, plain in decoded:
            pieces.append(_PART_SEPARATOR)
            length += len(_PART_SEPARATOR)
            part = _DecodedPart(length, start, end, plain)
            pieces.append(part.view.text)
            length += len(part.view.text)
            self._decoded.append(part)
            self._decoded_ends.append(part.end)
        self.text = "".join(pieces)

    @property
    def is_identity(self) -> bool:
        return self._main < 0

    def _build(self, text: str, edits: list[tuple[int, int, str]], pieces: list[str]) -> int:
        position = view = 0
        for start, end, replacement in edits:
            if start > position:
                self._linear(view, position)
                pieces.append(text[position:start])
                view += start - position
            if replacement:
                if end - start == 1 == len(replacement):  # one character for one: no unit of its own
                    self._linear(view, start)
                else:
                    self._segment(view, start, end - start)
                pieces.append(replacement)
                view += len(replacement)
            position = end
        if position < len(text):
            self._linear(view, position)
            pieces.append(text[position:])
            view += len(text) - position
        return view

    def _linear(self, view: int, original: int) -> None:
        """View characters from `view` on stand one for one for original ones from `original` (the
        segment before is extended when it is such a run in step: a full-width text is one segment)."""
        if self._v and self._olen[-1] is None and self._v[-1] - self._o[-1] == view - original:
            return
        self._segment(view, original, None)

    def _segment(self, view: int, original: int, olen: int | None) -> None:
        self._v.append(view)
        self._o.append(original)
        self._olen.append(olen)

    def _char_span(self, position: int) -> tuple[int, int]:
        """The original span that main-part view character `position` stands for."""
        index = bisect.bisect_right(self._v, position) - 1
        origin, olen = self._o[index], self._olen[index]
        if olen is None:
            origin += position - self._v[index]
            return origin, origin + 1
        return origin, origin + olen

    def spans(self, start: int, end: int) -> list[tuple[int, int]]:
        """The original spans that view span [start, end) covers (one per part of the view it crosses)."""
        if self._main < 0:
            return [(start, end)] if start < end else []
        out = []
        if start < min(end, self._main):
            out.append((self._char_span(start)[0], self._char_span(min(end, self._main) - 1)[1]))
        # Only the decoded parts the span crosses: a walk of every part per span made mapping a text of
        # many base64 runs quadratic.
        for index in range(bisect.bisect_right(self._decoded_ends, start), len(self._decoded)):
            part = self._decoded[index]
            if part.start >= end:
                break
            out += part.spans(max(start, part.start), min(end, part.end))
        return out

    def to_original(self, detections: Iterable[Detection]) -> list[Detection]:
        """Detections on the view, as detections on the original text, sorted by start."""
        if self._main < 0:
            return list(detections)
        out = [Detection(d.entity_type, s, e, d.score, d.recognizer)
               for d in detections for s, e in self.spans(d.start, d.end)]
        out.sort(key=lambda d: (d.start, -d.end, d.entity_type))
        return out


class _DecodedPart:
    """A base64 run [run_start, run_end) of the original, decoded to `plain`, whose own view (escapes
    decoded and characters folded, no base64 again) is appended to the main view at `start`."""

    __slots__ = ("start", "end", "run_start", "run_end", "view", "_bytes")

    def __init__(self, start: int, run_start: int, run_end: int, plain: str) -> None:
        self.view = View(plain, decode_base64=False)
        self.start, self.end = start, start + len(self.view.text)
        self.run_start, self.run_end = run_start, run_end
        # Byte offset of each character of `plain` (None when ASCII: the character's index).
        self._bytes: list[int] | None = None
        if not plain.isascii():
            offsets, total = [], 0
            for char in plain:
                offsets.append(total)
                total += len(char.encode("utf-8"))
            offsets.append(total)
            self._bytes = offsets

    def spans(self, start: int, end: int) -> list[tuple[int, int]]:
        out = []
        for lo, hi in self.view.spans(start - self.start, end - self.start):
            if self._bytes is not None:
                lo, hi = self._bytes[lo], self._bytes[hi]
            out.append((self.run_start + 4 * (lo // 3), min(self.run_end, self.run_start + 4 * -(-hi // 3))))
        return out


def _percent_edits(text: str) -> list[tuple[int, int, str]]:
    """Each percent escape run decoded: one edit per decoded character (its escapes -> the character)."""
    edits: list[tuple[int, int, str]] = []
    for match in _PERCENT_RUN.finditer(text):
        run = match.group()
        decoded = bytes.fromhex(run.replace("%", "")).decode("utf-8", errors="surrogateescape")
        position = match.start()
        for char in decoded:  # a byte that is not UTF-8 is a lone surrogate here, kept as written
            escaped = "\udc80" <= char <= "\udcff"
            end = position + 3 * (1 if escaped else len(char.encode("utf-8")))
            if not escaped and not _NOT_TEXT.match(char):
                edits.append((position, end, char if char.isascii() else fold(char)))
            position = end
    return edits


def _edits(text: str) -> list[tuple[int, int, str]]:
    """The changes of the main part, sorted and disjoint: (start, end, replacement) of the original."""
    percent = _percent_edits(text) if "%" in text else []
    if text.isascii():
        return percent
    edits: list[tuple[int, int, str]] = []
    runs = iter(percent)
    pending = next(runs, None)
    # NFKC form is checked in C; text in that form can only hold invisible characters and odd spaces.
    trouble = _INVISIBLE if unicodedata.is_normalized("NFKC", text) else _TROUBLE
    done = 0  # end of the last edit: a starter is never taken from inside it
    for match in trouble.finditer(text):
        start, end = match.span()
        while pending is not None and pending[1] <= start:
            edits.append(pending)
            done = max(done, pending[1])
            pending = next(runs, None)
        if start > done and _joins(text[start]):
            start -= 1  # a combining mark: its cluster starts at the character before
        done = end
        cluster = start
        for index in range(start + 1, end + 1):
            if index < end and _joins(text[index]) and not _removable(text[index - 1]):
                continue
            piece = text[cluster:index]
            folded = fold(piece)
            if folded != piece:
                if not folded and edits and edits[-1][1] == cluster and not edits[-1][2]:
                    edits[-1] = (edits[-1][0], index, "")  # a run of invisible characters: one edit
                else:
                    edits.append((cluster, index, folded))
            cluster = index
    while pending is not None:
        edits.append(pending)
        pending = next(runs, None)
    edits.sort()
    return edits


def _base64_parts(text: str) -> list[tuple[int, int, str]]:
    """Base64 runs whose bytes are UTF-8 of printable text: (start, end, decoded text)."""
    parts = []
    for match in _BASE64_RUN.finditer(text):
        run = match.group().rstrip("=")
        if len(run) % 4 == 1:
            continue
        urlsafe = "-" in run or "_" in run
        if urlsafe and ("+" in run or "/" in run):
            continue
        padded = run + "=" * (-len(run) % 4)
        try:
            raw = base64.urlsafe_b64decode(padded) if urlsafe else base64.b64decode(padded, validate=True)
            plain = raw.decode("utf-8")
        except (binascii.Error, ValueError):
            continue
        if plain and not _NOT_TEXT.search(plain):
            parts.append((match.start(), match.start() + len(run), plain))
    return parts


def view_of(text: str, *, decode_base64: bool = True) -> View:
    """The normalised view of `text` (the text itself when nothing in it changes). Without base64 parts,
    the view of a concatenation is the concatenation of the views, cut between clusters and escapes."""
    return View(text, decode_base64=decode_base64)


def detect_on_view(detect: Callable[[str], Sequence[Detection]], text: str) -> list[Detection]:
    """`detect` run on the view of `text`, its detections mapped to spans of `text`."""
    view = View(text)
    if view.is_identity:
        return list(detect(text))
    return view.to_original(detect(view.text))
