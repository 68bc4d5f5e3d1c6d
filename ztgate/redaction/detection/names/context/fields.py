"""Field names that say what their values are (``name``, ``city``, in several languages: data/words/
person_fields.txt and place_fields.txt), and the test that a value is shaped like a name or a place: what
the key-value, SQL and CSV recognizers share."""

from __future__ import annotations

from ztgate.redaction.detection.names.context.base import Span
from ztgate.redaction.detection.names.context.shapes import labelled_name
from ztgate.redaction.detection.wordlists import words

PERSON_FIELDS = words("person_fields")
PLACE_FIELDS = words("place_fields")


def field_kind(name: str) -> str | None:
    key = name.strip().strip("\"'`").casefold().replace(" ", "_")
    if key in PERSON_FIELDS:
        return "PERSON"
    if key in PLACE_FIELDS:
        return "LOCATION"
    return None


def value_span(text: str, start: int, value: str, kind: str) -> Span | None:
    """A field's value, when it is shaped like a name or a place (capitalised words, none technical)."""
    stripped = value.strip().strip("\"'")
    if not stripped or any(c.isdigit() or c in "@/=_{}[]<>:\"" for c in stripped) or not labelled_name(stripped):
        return None
    offset = start + value.index(stripped)
    return offset, offset + len(stripped), kind
