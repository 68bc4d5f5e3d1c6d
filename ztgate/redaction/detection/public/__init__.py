"""Public knowledge: named lists of values a policy keeps (countries, regions, cities, landmarks, public figures,
nationalities), so that a question about France reaches the model with "France" in it.

Each list is one module of this package with a ``load() -> PublicList`` function, its data under
``ztgate/redaction/data/public/`` or in an installed data package, and its source and licence in
THIRD_PARTY_NOTICES.md. A policy names the lists it keeps (``allow.public``); a detection whose whole value is on
one of them, for the list's entity type, is kept unless the text ties it to a person (``person_ties``): "I live
in Paris" still hides Paris, "What is the capital of France?" keeps France.
"""

from __future__ import annotations

import functools
import importlib
import re
import unicodedata
from dataclasses import dataclass

# List name -> module (one list per module; the names a policy's `allow.public` may hold).
PUBLIC_LISTS: dict[str, str] = {
    "countries": "ztgate.redaction.detection.public.countries",
    "regions": "ztgate.redaction.detection.public.regions",
    "cities": "ztgate.redaction.detection.public.cities",
    "landmarks": "ztgate.redaction.detection.public.landmarks",
    "organisations": "ztgate.redaction.detection.public.organisations",
    "public_figures": "ztgate.redaction.detection.public.public_figures",
    "nationalities": "ztgate.redaction.detection.public.nationalities",
    "historical": "ztgate.redaction.detection.public.historical",
    "trade_routes": "ztgate.redaction.detection.public.trade_routes",
    "natural_features": "ztgate.redaction.detection.public.natural_features",
    "products": "ztgate.redaction.detection.public.products",
    "eponyms": "ztgate.redaction.detection.public.eponyms",
}


@dataclass(frozen=True, slots=True)
class PublicList:
    """Values of one kind that are public knowledge, stored by ``canonical`` form; ``patterns`` name more of
    them by shape (matched whole against the canonical value: "the Mongol Empire", "the Battle of Hastings"),
    and ``followed_by`` by the words right after them in the text ("Ohm's law": an eponym)."""

    name: str
    entity_types: frozenset[str]
    values: frozenset[str]
    patterns: tuple[re.Pattern[str], ...] = ()
    followed_by: re.Pattern[str] | None = None

    def has(self, value: str) -> bool:
        """The value is on the list, whatever the type a recognizer gave it."""
        folded = canonical(value)
        return folded in self.values or any(p.fullmatch(folded) for p in self.patterns)

    def holds(self, entity_type: str, value: str) -> bool:
        return entity_type in self.entity_types and self.has(value)

    def holds_at(self, text: str, start: int, end: int, entity_type: str) -> bool:
        """``holds`` for text[start:end], or the words after it make it one of the list's ("'s law")."""
        if entity_type not in self.entity_types:
            return False
        return self.has(text[start:end]) or (
            self.followed_by is not None and self.followed_by.match(text, end, min(len(text), end + 60)) is not None)


class UnknownPublicListError(ValueError):
    """A policy named a public list that does not exist."""


@functools.cache
def load(name: str) -> PublicList:
    """The list called name, read once per process."""
    module = PUBLIC_LISTS.get(name)
    if module is None:
        raise UnknownPublicListError(f"unknown public list {name!r}; known: {', '.join(sorted(PUBLIC_LISTS))}")
    return importlib.import_module(module).load()


_LEADING_THE = re.compile(r"^the\s+", re.IGNORECASE)
_POSSESSIVE = re.compile(r"['’]s?$")
_SPACES = re.compile(r"\s+")


def canonical(value: str) -> str:
    """The form values are compared in: NFKC, case-folded, single spaces, without a leading "the" or a
    trailing possessive ("the Nile" and "Einstein's" match "Nile" and "Einstein")."""
    value = _SPACES.sub(" ", unicodedata.normalize("NFKC", value)).strip()
    value = _POSSESSIVE.sub("", _LEADING_THE.sub("", value))
    return value.casefold()


def from_lines(name: str, entity_types: frozenset[str], lines: list[str],
               patterns: tuple[re.Pattern[str], ...] = (), followed_by: re.Pattern[str] | None = None) -> PublicList:
    """A list from lines of values ('#' lines and blank lines skipped)."""
    return PublicList(name, entity_types, frozenset(
        canonical(line) for line in lines if line.strip() and not line.lstrip().startswith("#")), patterns, followed_by)


def heads_pattern(heads: list[str], words_before: int = 3) -> re.Pattern[str]:
    """A name made of one to ``words_before`` words and then one of ``heads`` ("mongol empire", "bronze age"),
    over canonical values."""
    alternatives = "|".join(sorted((re.escape(h.casefold()) for h in heads), key=len, reverse=True))
    return re.compile(rf"(?:[^\W\d_][\w'’.\-]* ){{1,{words_before}}}(?:{alternatives})")


def data_words(lines: list[str]) -> list[str]:
    """The non-comment, non-blank lines of a data file, stripped."""
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
