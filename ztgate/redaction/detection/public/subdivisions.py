"""Public list ``subdivisions``: first-level divisions of every country (states, provinces, regions, Länder,
voivodeships, prefectures, oblasts, departments, autonomous communities) by their ISO 3166-2 names, in the
country's own form ("Niedersachsen", "Oaxaca", "Basilicata"), read at run time from pycountry 26.2.16's
iso-codes catalogue (LGPL-2.1, nothing copied into the repository; THIRD_PARTY_NOTICES.md,
``data/public/README.md``). Only entries with no parent and of an administrative kind of the first level;
municipalities, districts, counties, parishes and councils are left out (a second level's name is a town's or a
family's as often). Names also carried by persons ("Guerrero", "Mendoza", "Victoria") are guarded as the
``endonyms`` are (``_guarded``): never after a person's cue or title or joined to a capitalised word
("Ramiro Mendoza ..."), a given name only as a place in a text with no private evidence."""

from __future__ import annotations

import functools
import re

import pycountry

from ztgate.redaction.detection.public import PublicList, canonical
from ztgate.redaction.detection.public._guarded import GuardedNames

# ISO 3166-2 kinds of a first-level division.
_FIRST_LEVEL = frozenset({
    "State", "Province", "Region", "Land", "Voivodship", "Prefecture", "Autonomous community", "Autonomous region",
    "Republic", "Oblast", "Department", "Canton", "Governorate", "Territory", "Union territory", "Federal district",
    "Emirate", "Administrative region", "Regional state", "Metropolitan region", "Autonomous republic",
    "Capital territory", "Federal territory", "Autonomous province", "Capital district", "Autonomous district"})
# "Asturias, Principado de", "Catalunya [Cataluña]": the name before the comma, and each of the bracketed forms.
_FORMS = re.compile(r"\s*\[|\]\s*|,.*$")


@functools.cache
def _names() -> frozenset[str]:
    names: set[str] = set()
    for sub in pycountry.subdivisions:
        if getattr(sub, "parent_code", None) or sub.type not in _FIRST_LEVEL:
            continue
        for form in _FORMS.split(sub.name):
            form = form.strip()
            if len(form) >= 4 and not form.isupper():
                names.add(canonical(form))
    return frozenset(names)


def load() -> PublicList:
    return GuardedNames("subdivisions", frozenset({"PERSON", "LOCATION"}), _names(),
                        given_names_as_places_only=True, persons_in_clean_sentences_only=True)
