"""The name after a sign-off, on its own line or after its comma at a line's end ("Thanks,\\nMaria")."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.shapes import CAP_WORD, trim
from ztgate.redaction.detection.text_shape import whole_name
from ztgate.redaction.detection.wordlists import phrases

_SIGN_OFF = re.compile(
    r"(?im)^[ \t>]*(?:" + "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in phrases("sign_offs"))
    + rf")\s*[,!.\-—]*[ \t]*(?:\n[ \t>]*|(?<=,)[ \t]*)({CAP_WORD}(?: {CAP_WORD}){{0,2}})[ \t.!]*$")


class SignOffRecognizer(ContextRule):
    NAME = "SignOffRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON",)

    def find(self, text: str) -> list[Span]:
        out = []
        for m in _SIGN_OFF.finditer(text):
            span = trim(text, m.start(1), m.group(1))
            if span is not None:
                out.append((*whole_name(text, *span), "PERSON"))
        return out
