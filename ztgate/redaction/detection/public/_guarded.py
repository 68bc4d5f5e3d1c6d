"""A listed name kept only where it stands as the name itself: the shape shared by the lists of names that are
also carried by persons (``mythology``, ``endonyms``). Never after a cue only a person follows ("Ask Odin") or
before a verb of people ("Freya says"); never a listed word that a capitalised word joins into a longer name
("Athena Vourdoumpa": a person carrying it); a listed word that is also a known given name only in a text with no
evidence of a private person."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.public import PublicList, canonical, enclosing_names
from ztgate.redaction.detection.public._private_context import private_person_in_sentence, private_person_in_text
from ztgate.redaction.detection.text_shape import person_after, person_cue_before
from ztgate.redaction.detection.wordlists import words

# A capitalised word right before or after a listed span, in any script that has capitals.
_WORD_AFTER = re.compile(r"[ \t]+([^\W\d_][\w'’\-]*)")
_WORD_BEFORE = re.compile(r"([^\W\d_][\w'’\-]*)[ \t]+$")
# A personal title right before the name ("Mr Messina", "Frau Wien", "господин Киев"): a person.
_TITLE_BEFORE = re.compile(r"(?i)\b(?:mr|mrs|ms|mx|dr|prof|sir|dame|lady|lord|herr|frau|monsieur|madame|mme|señor|"
                           r"señora|sr|sra|signor|signora|господин|госпожа|г-н|г-жа|κύριος|κυρία|κ)\.?[ \t]+$")
_CONNECTORS = frozenset({"of", "the", "and", "de", "del", "la", "le", "du", "da", "di", "von", "van"})


def _joined_by_capital(text: str, start: int, end: int) -> bool:
    """A capitalised word stands right after text[start:end] or right before it, in the same line: the span is
    part of a longer name, as a person's given name is of "Freya Lindqvist"."""
    after = _WORD_AFTER.match(text, end, min(len(text), end + 40))
    if after is not None and after.group(1)[0].isupper():
        return True
    before = _WORD_BEFORE.search(text, max(0, start - 40), start)
    return before is not None and before.group(1)[0].isupper() and before.group(1).casefold() not in _CONNECTORS \
        and before.start() > 0 and text[before.start() - 1] not in ".!?\n" and _not_sentence_start(text, before.start())


def _not_sentence_start(text: str, pos: int) -> bool:
    head = text[:pos].rstrip()
    return bool(head) and head[-1] not in ".!?:;\n\"“(«-–—"


_POSSESSIVE = re.compile(r"['’]s?\b")
_EDGE_WORD = re.compile(r"[^\W\d_]+")
_LOWER_EDGE = re.compile(r"[ \t'’]*(?:[^\W\d_]+[ \t'’]*)*")
# Capitalised common nouns of geography NER takes into a place's span ("Hauptstadt von Österreich").
_GEO_NOUNS = words("geo_nouns")


def _trim_lower_words(text: str, start: int, end: int) -> tuple[int, int]:
    """text[start:end] without the lower-case words at its edges, in a script with capitals, and the capitalised
    common nouns of geography (``_GEO_NOUNS``): NER took words of the sentence into the name ("dan Utrecht",
    "Wien größer", "Hauptstadt von Österreich"); no name is written so, so what is left is the name."""
    words_of = list(_EDGE_WORD.finditer(text, start, end))
    while words_of and (words_of[0].group().islower() or words_of[0].group() in _GEO_NOUNS):
        words_of.pop(0)
    while words_of and (words_of[-1].group().islower() or words_of[-1].group() in _GEO_NOUNS):
        words_of.pop()
    if not words_of:
        return start, end
    a, b = words_of[0].start(), words_of[-1].end()
    if _LOWER_EDGE.fullmatch(text[start:a]) is None or _LOWER_EDGE.fullmatch(text[b:end]) is None:
        return start, end  # a number or a sign at the edge ("80-827 Gdańsk"): a postcode's line, not a sentence's word
    return a, b


@dataclass(frozen=True, slots=True)
class GuardedNames(PublicList):
    """A listed name (module doc); ``match`` finds the listed spans when a list reads more than whole values
    (an inflected form)."""

    match: Callable[[str], bool] | None = field(default=None)
    # A listed word that is also a given name is kept only where NER read it as a place, never with a possessive
    # (``endonyms``: "Sofia" the city, "Sofia's curry" the person).
    given_names_as_places_only: bool = field(default=False)
    # A place NER read as a PERSON is kept only in a sentence with no evidence of a private person (``endonyms``):
    # there the span may be a person's workplace or home ("joins the Rotterdam team" beside a new starter's birth
    # date), which a LOCATION's ties would have hidden and a PERSON reading skips.
    persons_in_clean_sentences_only: bool = field(default=False)

    def has(self, value: str) -> bool:
        folded = canonical(value)
        return folded in self.values or (self.match is not None and self.match(folded))

    def holds_at(self, text: str, start: int, end: int, entity_type: str) -> bool:
        if entity_type not in self.entity_types or not 0 <= start < end <= len(text):
            return False
        if person_cue_before(text, start) or person_after(text, end) or \
                _TITLE_BEFORE.search(text, max(0, start - 12), start) is not None:
            return False  # "Ask Odin about it", "Freya says": a person, whatever the name
        trimmed = _trim_lower_words(text, start, end)
        spans = [(start, end), *enclosing_names(text, start, end)]
        if trimmed != (start, end):
            spans.append(trimmed)
        listed = [(a, b) for a, b in spans if self.has(text[a:b])]
        if not listed:
            return False
        a, b = max(listed, key=lambda s: s[1] - s[0])
        if _joined_by_capital(text, a, b):
            return False  # "Athena Vourdoumpa", "Tiffany Brooks": a person carrying the listed name
        if self.persons_in_clean_sentences_only and entity_type == "PERSON" and private_person_in_sentence(text, start, end):
            return False
        if " " not in text[a:b].strip() and given_name(canonical(text[a:b])):
            if self.given_names_as_places_only and (entity_type == "PERSON" or _POSSESSIVE.match(text, b)):
                return False  # "Sofia's curry", "Sofia said": NER and the possessive read the given name
            return not private_person_in_text(text)  # "Freya" is a given name too
        return True
