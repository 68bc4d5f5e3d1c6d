"""The value of a key named for a person or a place, in JSON, YAML, .env or a form ("displayName": "Rose
Tyler", city: Haderup), or for a person's role ("manager: Kofi Boateng", ``fields.PERSON_ROLE_FIELDS``). Keys
in any script ("Adresse:", "住所:"), a full-width colon too.

A bare ``name`` is a person's only outside the blocks that name software (a step's, job's or service's keys or
block: "- name: Gerrit sync") and outside an SQL UPDATE of a table of things (``records``); beside an e-mail or
in a record whose key is a person's (``person_keys.keyed_by_person``: ``authors``, ``<developer>``) it stays one.
A product's ``name`` or ``displayName`` in its own manifest is no person's (``manifests``).

A name split across fields (issue #29): each part under a key of a part (``fields.NAME_PART_FIELDS``:
"given-names: X", "familyName"), as an XML element or attribute (``<surname>``, ``itemprop="familyName"``), a
Turtle "foaf:givenName", the ``value`` of an object under such a key (ORCID); a bare ``given``/``family``/
``first``/``last`` only in a record about a person (``person_keys.record_about_a_person``: a CSL author); and a
quoted person's value written "Family, Given" is one name."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.fields import (
    NAME_PART_FIELDS,
    RECORD_NAME_PARTS,
    field_key,
    field_kind,
    value_span,
)
from ztgate.redaction.detection.names.context.person_keys import keyed_by_person, record_about_a_person
from ztgate.redaction.detection.names.context.shapes import CAP_WORD, name_words
from ztgate.redaction.detection.manifests import product_name_field
from ztgate.redaction.detection.records import THINGS, column_kind, sql_update_kind
from ztgate.redaction.detection.text_shape import names_software

_KEY_VALUE = re.compile(r"""(?<![\w\-])["']?([^\W\d][\w\-]{0,40})["']?[ \t]*[:=：][ \t]*["']?([^"'\n,;{}\[\]<>]{1,80})""")
_CAMEL_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])")
# An XML element and its text, its namespace prefix apart ("<foaf:givenName>X</foaf:givenName>"), its attributes
# apart too: microdata, RDFa and microformats name the part there ("<span itemprop=\"familyName\">Y</span>", "<span
# property=\"foaf:givenName\">", "<span class=\"p-given-name\">").
_ELEMENT = re.compile(r"<(?:[A-Za-z][\w.\-]{0,30}:)?([A-Za-z][\w.\-]{0,40})((?:[ \t][^<>\n]*)?)>[ \t]*([^<>\n]{1,80}?)[ \t]*</")
_PART_ATTRIBUTE = re.compile(r"""\b(?:itemprop|property|class)[ \t]*=[ \t]*["']([^"'<>\n]{1,80})["']""")
# An RDF Turtle triple's predicate and literal ("foaf:familyName \"Y\" ;").
_TURTLE = re.compile(r"(?<![\w:\-])[A-Za-z][\w\-]{0,30}:([A-Za-z][\w\-]{0,40})[ \t]+\"([^\"\n]{1,80})\"")
# The keys whose value is the text of the object they are in ("\"given-names\": {\"value\": \"X\"}").
_VALUE_KEYS = frozenset({"value", "content", "#text", "$"})
# The object a key is in, opened under its own key ("\"family-name\": {").
_OBJECT_KEY = re.compile(r"""["']?([A-Za-z][\w\-. ]{0,40}?)["']?[ \t]*[:=][ \t]*\{[ \t]*$""")
# A given name after a family name and a comma, closing a quoted value ("Y, X\"").
_GIVEN_AFTER = re.compile(rf",[ \t]*({CAP_WORD}(?: {CAP_WORD})?)[ \t]*(?=[\"'])")
OBJECT_REACH = 80


def _object_key(text: str, pos: int) -> str | None:
    """The key of the object whose member starts at pos, when the object opened on the same line or the one before."""
    brace = text.rfind("{", max(0, pos - OBJECT_REACH), pos)
    if brace < 0 or "}" in text[brace:pos]:
        return None
    opened = _OBJECT_KEY.search(text, max(0, brace - OBJECT_REACH), brace + 1)
    return opened.group(1) if opened is not None else None


class KeyValueFieldRecognizer(ContextRule):
    NAME = "KeyValueFieldRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON", "LOCATION")

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        for m in _KEY_VALUE.finditer(text):
            key = m.group(1)
            kind = field_kind(_CAMEL_HUMP.sub("_", key).replace("-", "_"))
            if (kind == "PERSON" and key.casefold() == "name" and names_software(text, m.start())
                    and not keyed_by_person(text, m.start(2))):
                continue  # a step's or a service's name, unless its record is a person's ("maintainers:")
            if kind == "PERSON" and product_name_field(text, m.start(2)):
                continue  # a product's name or display name in its own manifest (``manifests``, ADR 0030)
            if kind == "PERSON" and sql_update_kind(text, m.start()) == THINGS and column_kind(kind, m.group(1), THINGS) is None:
                continue  # "UPDATE jobs SET name = 'Huey'": a thing's name (records)
            if kind is None and key.casefold() in _VALUE_KEYS:
                outer = _object_key(text, m.start())
                kind = "PERSON" if outer is not None and field_key(outer) in NAME_PART_FIELDS else None
            if kind is None and key.casefold() in RECORD_NAME_PARTS and record_about_a_person(text, m.start()):
                kind = "PERSON"  # "author": [{"family": "Y", "given": "X"}]
            if kind:
                span = value_span(text, m.start(2), m.group(2).rstrip(), kind)
                if span and span[2] == "PERSON":
                    span = _with_given_after(text, span)
                if span:
                    out.append(span)
        for m in _ELEMENT.finditer(text):
            if _names_a_part(m.group(1), m.group(2)):
                span = value_span(text, m.start(3), m.group(3), "PERSON")
                if span:
                    out.append(span)
        for m in _TURTLE.finditer(text):
            if field_key(m.group(1)) in NAME_PART_FIELDS:
                span = value_span(text, m.start(2), m.group(2), "PERSON")
                if span:
                    out.append(span)
        return out


def _names_a_part(tag: str, attributes: str) -> bool:
    """An element is a name part by its tag or by an itemprop, property or class of its (prefixes "foaf:" and "p-"
    apart)."""
    if field_key(tag) in NAME_PART_FIELDS:
        return True
    return any(field_key(token.rsplit(":", 1)[-1].removeprefix("p-")) in NAME_PART_FIELDS
               for a in _PART_ATTRIBUTE.finditer(attributes) for token in a.group(1).split())


def _with_given_after(text: str, span: Span) -> Span:
    """A quoted value written "Family, Given" is one name: the span grows over the comma and the given name."""
    start, end, kind = span
    given = _GIVEN_AFTER.match(text, end)
    if given is None or not name_words(given.group(1)):
        return span
    return start, given.end(1), kind
