"""A known given name before a double-barrelled surname ("Fenwick Adeyinka-Threlfall", "Elspeth Magagula-Carrow"):
the shape is a person's, where NER reads the run as a place ("Quick one from Fenwick Adeyinka-Threlfall: ...") and a
place list would keep it (ADR 0047). Both parts of the surname are capitalised words of two letters or more; a
place joined by a hyphen follows no given name ("Baden-Württemberg", "Stoke-on-Trent" has lower-case joiners), and
a public figure of that shape ("Olivia Newton-John") is still kept by the public lists: this rule decides the
type, not whether the name is private."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.shapes import LATIN, UP

_PART = rf"[{UP}][{LATIN}]+"
_NAME = re.compile(rf"(?<![\w\-])({_PART})[ \t]+({_PART}-{_PART})(?![\w\-])")


class BarrelledNameRecognizer(ContextRule):
    NAME = "BarrelledNameRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON",)

    def find(self, text: str) -> list[Span]:
        return [(m.start(1), m.end(2), "PERSON") for m in _NAME.finditer(text) if given_name(m.group(1))]
