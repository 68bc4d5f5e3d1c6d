"""A person in an author-like slot, in any file's syntax, whatever list knows the given name (issue #29, ADR 0036).

The slot is a key, field, tag, macro, keyword or comment label with a word of ``data/words/author_slot_words.txt``
(author, maintainer, packager, creator, developer, owner, contact, copyright holder ...), found as
``person_keys.keyed_by_person`` finds a person's key (``key: v``, ``key => v``, ``"key": "v"``, ``<key>v</key>``,
``-key("v")``, ``KEY. v``, ``\\key{v}``, ``@key v``, ``.KEY v``, ``:key "v"``, ``key 'v'``, any comment leader, a
list, record or block under the key), or an authorship verb and "by" before it ("Created by NAME on DATE"); a
kind tag between is read over ("Creator: Person: NAME"). The value is a person when person-shaped: two to four
capitalised name words (particles between), or "Family, Given" closing a quoted value, no capitalised word after.
It stays when it or the word after it names a tool, team, bot or organisation (``tool_or_organisation``: "X Core
Team", "X Codegen") or holds a common word; a single word stays. The slot is evidence enough: no list is asked.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.person_keys import keyed_by_person
from ztgate.redaction.detection.names.context.shapes import CAP_WORD, LATIN, UP, name_words
from ztgate.redaction.detection.text_shape import (
    COMPONENT_SUFFIXES,
    ORGANISATION_SUFFIXES,
    line_bounds,
    tool_or_organisation,
)
from ztgate.redaction.detection.wordlists import phrases

SLOT_PHRASES = phrases("author_slot_words")
_SLOT_WORDS = frozenset(p for p in SLOT_PHRASES if " " not in p)
_SLOT_RUNS = tuple(f" {p} " for p in SLOT_PHRASES if " " in p)
_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])")
_PARTICLES = r"(?:van der|van den|van|von|de la|de|da|di|do|dos|das|del|della|du|le|la|bin|binti|ibn|al|el|y|ter|ten)"
# Two to four capitalised words, not inside an identifier, a path, a handle or an address, and not followed by a
# further capitalised word (a longer run is a title or an organisation's name).
_VALUE = re.compile(rf"(?<![{LATIN}\w./\-@])({CAP_WORD}(?:[ \t](?:{_PARTICLES}[ \t])?{CAP_WORD}){{1,3}})"
                    rf"(?![{LATIN}\w@/\-]|[ \t]+(?:{_PARTICLES}[ \t]+)?[{UP}])")
# "Family, Given" closing a quoted or braced value ("author = {Hlaing, Thida}", "'Hlaing, Thida'").
_FAMILY_FIRST = re.compile(rf"(?<![{LATIN}\w./\-@])({CAP_WORD}(?:[ \t]{CAP_WORD})?,[ \t]{CAP_WORD}(?:[ \t]{CAP_WORD})?)"
                           r"(?=[ \t]*[\"'}\]]|[ \t]+and[ \t])")
# The values a slot's rules read (``publisher_slots`` and ``version_lines`` read the same forms).
SLOT_VALUES = (_VALUE, _FAMILY_FIRST)
# A kind tag between a slot and its value (SPDX "Creator: Person: NAME").
_KIND_TAG = re.compile(r"(?:Person|Individual|Human)[ \t]*:[ \t]*$", re.IGNORECASE)
# An authorship verb and "by" right before the value.
_BY_BEFORE = re.compile(r"(?<![\w\-])([A-Za-z]+)[ \t]+by[ \t]+$", re.IGNORECASE)
_NEXT_WORD = re.compile(r"[ \t]+([a-z][\w\-]*)")
KIND_REACH = 20


def author_slot_key(key: str) -> bool:
    """A key is an author-like slot: one of its parts, split at case humps, '_', '-', '.', '/' and blanks, is a
    one-word slot phrase, or its parts hold a phrase of several words (module doc)."""
    parts = [p for p in re.split(r"[_\-./\s]+", _HUMP.sub("_", key).casefold()) if p]
    joined = f" {' '.join(parts)} "
    return any(p in _SLOT_WORDS for p in parts) or any(run in joined for run in _SLOT_RUNS)


def in_author_slot(text: str, start: int) -> bool:
    """The value starting at start is an author-like slot's (module doc), a kind tag read over."""
    lo = line_bounds(text, start)[0]
    tag = _KIND_TAG.search(text, max(lo, start - KIND_REACH), start)
    if tag is not None:
        start = tag.start()
    if keyed_by_person(text, start, author_slot_key):
        return True
    by = _BY_BEFORE.search(text, max(lo, start - KIND_REACH * 2), start)
    return by is not None and author_slot_key(f"{by.group(1)} by")


def person_shaped(text: str, run: str, end: int) -> bool:
    """Name words only, and neither they nor the lower-case word after them name a tool, a team or an
    organisation."""
    if not name_words(run) or tool_or_organisation(run):
        return False
    after = _NEXT_WORD.match(text, end)
    return after is None or after.group(1).casefold() not in ORGANISATION_SUFFIXES | COMPONENT_SUFFIXES


def slot_persons(text: str, in_slot: Callable[[str, int, int], bool]) -> list[Span]:
    """Every person-shaped slot value (SLOT_VALUES) whose place `in_slot(text, start, end)` accepts: one walk for
    the author-like, publisher-like and version-line rules."""
    out: list[Span] = []
    for pattern in SLOT_VALUES:
        for m in pattern.finditer(text):
            start, end = m.span(1)
            if person_shaped(text, m.group(1).replace(",", " "), end) and in_slot(text, start, end):
                out.append((start, end, "PERSON"))
    return out


class AuthorSlotRecognizer(ContextRule):
    NAME = "AuthorSlotRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON",)

    def find(self, text: str) -> list[Span]:
        return slot_persons(text, lambda t, start, _end: in_author_slot(t, start))
