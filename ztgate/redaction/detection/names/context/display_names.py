"""The display name before an e-mail address in angle brackets (RFC 5322: "From: Cliff Turner <c@x.org>")."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.shapes import LATIN, NAME_RUN, trim

_DISPLAY_NAME = re.compile(rf"(?<![{LATIN}])[\"']?({NAME_RUN})[\"']?[ \t]*<[^<>\s@]+@[^<>\s]+>")


class DisplayNameRecognizer(ContextRule):
    NAME = "DisplayNameRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON",)

    def find(self, text: str) -> list[Span]:
        out = []
        for m in _DISPLAY_NAME.finditer(text):
            span = trim(text, m.start(1), m.group(1))
            if span is not None:
                out.append((*span, "PERSON"))
        return out
