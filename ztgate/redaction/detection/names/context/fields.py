"""Field names that say what their values are (``name``, ``city``, in several languages: data/words/
person_fields.txt and place_fields.txt; a person's role in a configuration, ``manager``, ``dri``,
``custodian``: person_role_fields.txt; a part of a person's name, ``given-names``, ``familyName``, ``surname``:
person_name_parts.txt, and the bare ``given``, ``family`` inside a record about a person: record_name_parts.txt),
and the test that a value is shaped like a name or a place: what the key-value, SQL and CSV recognizers share.

A person's name under a label is capitalised words and the particles names carry: a lower-case word in it
says it is something else ("name: Zuul sync", a CI step). A role's key holds teams and tools as often as
persons, so its value is a person only with two name words or more ("driver: Wouter Peeters", not "driver:
Npgsql")."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import Span
from ztgate.redaction.detection.names.context.shapes import labelled_name
from ztgate.redaction.detection.records import ROLE  # a role's key: a person, under value_span's stricter test
from ztgate.redaction.detection.text_shape import tool_or_organisation
from ztgate.redaction.detection.wordlists import words

PERSON_FIELDS = words("person_fields")
PLACE_FIELDS = words("place_fields")
PERSON_ROLE_FIELDS = words("person_role_fields")
# Keys of the parts a person's name is split into (a value there is a part: a word alone is one), and the bare
# keys that are such parts only inside a record about a person (``person_keys.record_about_a_person``).
NAME_PART_FIELDS = words("person_name_parts")
RECORD_NAME_PARTS = words("record_name_parts")
_CAMEL_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])")
_PARTICLES = frozenset(words("name_particles")) | {"van", "von", "de", "da", "di", "du", "del", "della", "der",
                                                   "den", "la", "le", "bin", "ibn", "al", "ter", "ten", "y", "zu"}


def field_key(name: str) -> str:
    """A key as the lists spell it: lower case, '_' for a blank, a hyphen or a case hump ("givenName" ->
    "given_name")."""
    return _CAMEL_HUMP.sub("_", name.strip().strip("\"'`")).casefold().replace(" ", "_").replace("-", "_")


def field_kind(name: str) -> str | None:
    key = name.strip().strip("\"'`").casefold().replace(" ", "_")
    if key in PERSON_FIELDS or key in NAME_PART_FIELDS:
        return "PERSON"
    if key in PLACE_FIELDS:
        return "LOCATION"
    if key in PERSON_ROLE_FIELDS:
        return ROLE
    return None


def value_span(text: str, start: int, value: str, kind: str) -> Span | None:
    """A field's value, when it is shaped like a name or a place (capitalised words, none technical)."""
    stripped = value.strip().strip("\"'")
    if not stripped or any(c.isdigit() or c in "@/=_{}[]<>:\"" for c in stripped) or not labelled_name(stripped):
        return None
    if kind in ("PERSON", ROLE) and any(not w[:1].isupper() and w.casefold() not in _PARTICLES
                                        for w in stripped.split()):
        return None  # "name: Zuul sync", "name: Run the linter": a step or a job, not a person
    if kind in ("PERSON", ROLE) and tool_or_organisation(stripped):
        return None  # "name: Zuul Gateway", "author: Ledger Contributors": software or an organisation
    if kind == ROLE:
        if len(stripped.split()) < 2:
            return None
        kind = "PERSON"
    offset = start + value.index(stripped)
    return offset, offset + len(stripped), kind
