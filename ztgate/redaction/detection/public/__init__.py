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
    "facilities": "ztgate.redaction.detection.public.facilities",
    "product_models": "ztgate.redaction.detection.public.product_models",
    "organisation_places": "ztgate.redaction.detection.public.organisation_places",
    "public_terms": "ztgate.redaction.detection.public.public_terms",
    "public_works": "ztgate.redaction.detection.public.public_works",
    "encyclopedic_persons": "ztgate.redaction.detection.public.encyclopedic_persons",
    "topic_places": "ztgate.redaction.detection.public.topic_places",
    "public_events": "ztgate.redaction.detection.public.public_events",
    "work_titles": "ztgate.redaction.detection.public.work_titles",
    "company_frames": "ztgate.redaction.detection.public.company_frames",
    "model_generations": "ztgate.redaction.detection.public.model_generations",
    "knowledge_requests": "ztgate.redaction.detection.public.knowledge_requests",
    "travel_places": "ztgate.redaction.detection.public.travel_places",
    "protected_designations": "ztgate.redaction.detection.public.protected_designations",
    "trade_fairs": "ztgate.redaction.detection.public.trade_fairs",
    "geographic_features": "ztgate.redaction.detection.public.geographic_features",
    "feature_frames": "ztgate.redaction.detection.public.feature_frames",
    "name_origins": "ztgate.redaction.detection.public.name_origins",
    "dish_names": "ztgate.redaction.detection.public.dish_names",
    "court_cases": "ztgate.redaction.detection.public.court_cases",
    "exhibitors": "ztgate.redaction.detection.public.exhibitors",
    "endonyms": "ztgate.redaction.detection.public.endonyms",
    "mythology": "ztgate.redaction.detection.public.mythology",
    "founder_firms": "ztgate.redaction.detection.public.founder_firms",
    "venues": "ztgate.redaction.detection.public.venues",
    "routes": "ztgate.redaction.detection.public.routes",
    "region_names": "ztgate.redaction.detection.public.region_names",
    "foreign_questions": "ztgate.redaction.detection.public.foreign_questions",
    "subdivisions": "ztgate.redaction.detection.public.subdivisions",
    "materials": "ztgate.redaction.detection.public.materials",
    "topic_figures": "ztgate.redaction.detection.public.topic_figures",
    "named_sites": "ztgate.redaction.detection.public.named_sites",
    "eponymous_firms": "ztgate.redaction.detection.public.eponymous_firms",
}


@dataclass(frozen=True, slots=True)
class PublicList:
    """Values of one kind that are public knowledge, stored by ``canonical`` form; ``patterns`` name more of
    them by shape (matched whole against the canonical value: "the Mongol Empire", "the Battle of Hastings"),
    ``followed_by`` by the words right after them in the text ("Ohm's law": an eponym), ``preceded_by`` by
    the words right before them ("our office in Lyon": a place named for an organisation). With
    ``after_the`` a value or pattern counts only where a definite article opens the name ("the Millau
    Viaduct": a named facility; "Millau Viaduct Road" or a bare "Mill Bridge" is not read as one)."""

    name: str
    entity_types: frozenset[str]
    values: frozenset[str]
    patterns: tuple[re.Pattern[str], ...] = ()
    followed_by: re.Pattern[str] | None = None
    preceded_by: re.Pattern[str] | None = None
    after_the: bool = False

    def has(self, value: str) -> bool:
        """The value is on the list, whatever the type a recognizer gave it."""
        folded = canonical(value)
        return folded in self.values or any(p.fullmatch(folded) for p in self.patterns)

    def holds(self, entity_type: str, value: str) -> bool:
        return entity_type in self.entity_types and self.has(value)

    def holds_at(self, text: str, start: int, end: int, entity_type: str) -> bool:
        """``holds`` for text[start:end], or the words after it make it one of the list's ("'s law"), or a
        longer name around it is on the list (``enclosing_names``: spaCy found "Hastings" in "the Battle of
        Hastings", "Armada" in "the Spanish Armada")."""
        if entity_type not in self.entity_types:
            return False
        if self.preceded_by is not None and self.preceded_by.search(text, max(0, start - 60), start) is not None:
            return True
        if self.after_the:
            return any(_the_before(text, a, b) and self.has(text[a:b])
                       for a, b in ((start, end), *enclosing_names(text, start, end)))
        return self.has(text[start:end]) or (
            self.followed_by is not None and self.followed_by.match(text, end, min(len(text), end + 60)) is not None
        ) or any(self.has(text[a:b]) for a, b in enclosing_names(text, start, end))


@dataclass(frozen=True, slots=True)
class FramePublicList(PublicList):
    """A list with no values: no name is public by itself, only the words around a span can make it so
    (``public_works``, ``encyclopedic_persons``, ``topic_places``, ``public_events``, ``work_titles``,
    ``company_frames``, ``model_generations``, ``knowledge_requests``, ``travel_places``, ``trade_fairs``,
    ``feature_frames``, ``name_origins``, ``dish_names``, ``court_cases``, ``exhibitors``, ``founder_firms``,
    ``foreign_questions``, ``materials``, ``topic_figures``, ``eponymous_firms``)."""

    def has(self, value: str) -> bool:
        return False

    def holds_at(self, text: str, start: int, end: int, entity_type: str) -> bool:
        return entity_type in self.entity_types and 0 <= start < end <= len(text) and self.in_frame(
            text, start, end, entity_type)

    def in_frame(self, text: str, start: int, end: int, entity_type: str) -> bool:
        """Whether the words around text[start:end] make it public (the type is one of the list's)."""
        raise NotImplementedError


_THE = re.compile(r"(?i)\bthe\s+$")


def _the_before(text: str, start: int, end: int) -> bool:
    """A definite article opens text[start:end] or stands right before it."""
    return (text[start:end][:4].casefold() == "the " or
            _THE.search(text, max(0, start - 5), start) is not None)


# Words a public name may hold in lower case between its capitalised words ("Battle of Hastings").
_CONNECTORS = frozenset({"of", "the", "de", "del", "la", "le", "du", "da", "di", "von", "van", "upon", "on"})
_NAME_WORD = re.compile(r"[^\W\d_][\w'’\-]*")
# How many words a name may grow by on each side, and how far the words are looked for.
MAX_GROWTH = 4
_WORD_REACH = 80


def enclosing_names(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Longer names around text[start:end]: runs of capitalised words on its line, joined by single spaces and
    connectors ("of", "the"), that hold every capitalised word of the span and start and end with a capitalised
    word ("Hastings" -> "Battle of Hastings", "Armada" -> "Spanish Armada"). A public list that holds one of
    them decides for the span: the span is part of a public name, and no word of it is left out of that name,
    so no private word is kept by it."""
    lo = max(0, start - _WORD_REACH, text.rfind("\n", 0, start) + 1)
    hi = text.find("\n", end)
    hi = min(len(text), end + _WORD_REACH) if hi < 0 else min(hi, end + _WORD_REACH)
    found = list(_NAME_WORD.finditer(text, lo, hi))
    inside = [i for i, w in enumerate(found) if w.start() < end and w.end() > start]
    if not inside:
        return []
    capitals = [i for i in inside if found[i].group()[0].isupper()]
    if not capitals:
        return []

    def joined(i: int) -> bool:  # word i and word i + 1 are one name's words
        gap = text[found[i].end():found[i + 1].start()]
        nxt = found[i + 1].group()
        return gap == " " and (nxt[0].isupper() or nxt in _CONNECTORS) and (
            found[i].group()[0].isupper() or found[i].group() in _CONNECTORS)

    first, last = inside[0], inside[-1]
    if any(not joined(i) for i in range(first, last)):
        return []
    left = first
    while left > 0 and first - left < MAX_GROWTH and joined(left - 1):
        left -= 1
    right = last
    while right + 1 < len(found) and right - last < MAX_GROWTH and joined(right):
        right += 1
    out: list[tuple[int, int]] = []
    for i in range(left, capitals[0] + 1):
        if not found[i].group()[0].isupper():
            continue
        for j in range(capitals[-1], right + 1):
            if found[j].group()[0].isupper() and (i, j) != (capitals[0], capitals[-1]):
                out.append((found[i].start(), found[j].end()))
    return out


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
               patterns: tuple[re.Pattern[str], ...] = (), followed_by: re.Pattern[str] | None = None,
               *, preceded_by: re.Pattern[str] | None = None, after_the: bool = False) -> PublicList:
    """A list from lines of values ('#' lines and blank lines skipped)."""
    return PublicList(name, entity_types, frozenset(
        canonical(line) for line in lines if line.strip() and not line.lstrip().startswith("#")), patterns, followed_by,
        preceded_by, after_the)


def heads_pattern(heads: list[str], words_before: int = 3) -> re.Pattern[str]:
    """A name made of one to ``words_before`` words and then one of ``heads`` ("mongol empire", "bronze age"),
    over canonical values."""
    alternatives = "|".join(sorted((re.escape(h.casefold()) for h in heads), key=len, reverse=True))
    return re.compile(rf"(?:[^\W\d_][\w'’.\-]* ){{1,{words_before}}}(?:{alternatives})")


def data_words(lines: list[str]) -> list[str]:
    """The non-comment, non-blank lines of a data file, stripped."""
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
