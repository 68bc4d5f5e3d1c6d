"""The value of a key named for a person or a place, in JSON, YAML, .env or a form ("displayName": "Rose
Tyler", city: Haderup), or for a person's role ("manager: Kofi Boateng", ``fields.PERSON_ROLE_FIELDS``). Keys
in any script ("Adresse:", "住所:"), a full-width colon too.

A bare ``name`` is a person's only outside the blocks that name software: a ``name`` whose mapping also
holds a step's, a job's or a service's keys (``run``, ``uses``, ``image``, ``on`` ...) or sits under such a
block (``service:``, ``steps:``) names a step or a service ("- name: Gerrit sync", "service: name: Zuul
Gateway"); a ``name`` beside an e-mail address or in a record whose key is a person's (``person_keys.keyed_by_person``:
``authors``, ``maintainers``, ``contact``, ``<developer>``) stays a person. A bare ``name`` set by an SQL UPDATE of
a table of things (``records``: "UPDATE jobs SET name = 'Huey'") names a thing."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.fields import field_kind, value_span
from ztgate.redaction.detection.names.context.person_keys import keyed_by_person
from ztgate.redaction.detection.records import THINGS, column_kind, sql_update_kind
from ztgate.redaction.detection.text_shape import names_software

_KEY_VALUE = re.compile(r"""(?<![\w\-])["']?([^\W\d][\w\-]{0,40})["']?[ \t]*[:=：][ \t]*["']?([^"'\n,;{}\[\]<>]{1,80})""")
_CAMEL_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])")


class KeyValueFieldRecognizer(ContextRule):
    NAME = "KeyValueFieldRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON", "LOCATION")

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        for m in _KEY_VALUE.finditer(text):
            kind = field_kind(_CAMEL_HUMP.sub("_", m.group(1)).replace("-", "_"))
            if (kind == "PERSON" and m.group(1).casefold() == "name" and names_software(text, m.start())
                    and not keyed_by_person(text, m.start(2))):
                continue  # a step's or a service's name, unless its record is a person's ("maintainers:")
            if kind == "PERSON" and sql_update_kind(text, m.start()) == THINGS and column_kind(kind, m.group(1), THINGS) is None:
                continue  # "UPDATE jobs SET name = 'Huey'": a thing's name (records)
            if kind:
                span = value_span(text, m.start(2), m.group(2).rstrip(), kind)
                if span:
                    out.append(span)
        return out

