"""A person in a publisher-like slot of any syntax (issue #29, ADR 0038): an installer's ``!define
PRODUCT_PUBLISHER "NAME"``, a WiX ``Manufacturer="NAME"``, an .rc ``VALUE "CompanyName", "NAME"``, a JAR's
``Implementation-Vendor: NAME``, an MSIX ``<PublisherDisplayName>NAME</...>``, a Kodi ``provider-name="NAME"``,
an SPDX ``PackageSupplier: Person: NAME``.

The slot is a key with a word of ``data/words/publisher_slot_words.txt`` (publisher, vendor, manufacturer,
provider, company, supplier ...), found as ``person_keys.keyed_by_person`` finds a key, so every syntax it reads
counts. Such a slot usually holds a company, and a company stays: the value is read by its own evidence, the
person-shaped form ``author_slots`` reads (two to four capitalised name words, no common, technical or stop word,
particles between), and it stays when it or the word after it ends like an organisation or a piece of software
("Saltfen Software Ltd", "X Media", "X Games": ``organisation_suffixes.txt``) or is one word ("Microsoft")."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.author_slots import slot_persons
from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.person_keys import keyed_by_person
from ztgate.redaction.detection.text_shape import line_bounds
from ztgate.redaction.detection.wordlists import words

PUBLISHER_WORDS = words("publisher_slot_words")
_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])")
# A kind tag between a slot and its value (SPDX "PackageSupplier: Person: NAME").
_KIND_TAG = re.compile(r"(?:Person|Individual)[ \t]*:[ \t]*$", re.IGNORECASE)
KIND_REACH = 20


def publisher_slot_key(key: str) -> bool:
    """A key is a publisher-like slot: one of its parts, split at case humps, '_', '-', '.' and blanks, is a word of
    ``publisher_slot_words.txt``, alone or glued to "name" (an upper-case ``ORGANIZATIONNAME``, ``COMPANYNAME``)."""
    parts = [p for p in re.split(r"[_\-./\s]+", _HUMP.sub("_", key).casefold()) if p]
    return any(p in PUBLISHER_WORDS or p.removesuffix("name") in PUBLISHER_WORDS for p in parts)


def in_publisher_slot(text: str, start: int) -> bool:
    """The value starting at start is a publisher-like slot's, a kind tag read over."""
    lo = line_bounds(text, start)[0]
    tag = _KIND_TAG.search(text, max(lo, start - KIND_REACH), start)
    return keyed_by_person(text, tag.start() if tag is not None else start, publisher_slot_key)


class PublisherSlotRecognizer(ContextRule):
    NAME = "PublisherSlotRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON",)

    def find(self, text: str) -> list[Span]:
        return slot_persons(text, lambda t, start, _end: in_publisher_slot(t, start))
