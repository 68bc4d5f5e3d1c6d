"""The name after a greeting that ends with a comma, an exclamation mark or the line ("Dear Wiktor,")."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.shapes import CAP_WORD, trim
from ztgate.redaction.detection.text_shape import whole_name

_GREETING = re.compile(
    rf"(?i:\b(?:dear|hi|hello|hey|attn:?|attention:?))[ \t]+({CAP_WORD}(?: {CAP_WORD}){{0,2}})[ \t]*[,!:\n]")


class GreetingRecognizer(ContextRule):
    NAME = "GreetingRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON",)

    def find(self, text: str) -> list[Span]:
        out = []
        for m in _GREETING.finditer(text):
            span = trim(text, m.start(1), m.group(1))
            if span is not None:
                out.append((*whole_name(text, *span), "PERSON"))
        return out
