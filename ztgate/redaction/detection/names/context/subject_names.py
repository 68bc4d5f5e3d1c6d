"""Capitalised name words that end an e-mail subject ("Subject: Contract renewal - Beyler Manole")."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.shapes import CAP_WORD, trim
from ztgate.redaction.detection.text_shape import whole_name

_SUBJECT = re.compile(
    rf"(?im)^(?:subject|re|fwd?|title):[^\n]*?(?:\s[-–—:|]|\bfor|\bwith|\bfrom|\bby|\bcc|\bto|,)[ \t]+"
    rf"({CAP_WORD}(?: {CAP_WORD}){{0,2}})[ \t]*$")


class SubjectNameRecognizer(ContextRule):
    NAME = "SubjectNameRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON",)

    def find(self, text: str) -> list[Span]:
        out = []
        for m in _SUBJECT.finditer(text):
            span = trim(text, m.start(1), m.group(1))
            if span is not None:
                out.append((*whole_name(text, *span), "PERSON"))
        return out
