"""The person a Git trailer or a header names, to the end of its line ("Reviewed-by: Óscar Sanmartín
Sánchez", "Assignee: Rose Tyler")."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.shapes import NAME_RUN, trim

_TRAILER = re.compile(
    rf"(?im)^[ \t]*(?:reviewed-by|signed-off-by|co-authored-by|reported-by|acked-by|tested-by|suggested-by|"
    rf"helped-by|author|committer|assignee|reporter|owner|from|to|cc|attn)[ \t]*:[ \t]*({NAME_RUN})[ \t]*(?:$|<)")


class HeaderNameRecognizer(ContextRule):
    NAME = "HeaderNameRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON",)

    def find(self, text: str) -> list[Span]:
        out = []
        for m in _TRAILER.finditer(text):
            span = trim(text, m.start(1), m.group(1))
            if span is not None:
                out.append((*span, "PERSON"))
        return out
