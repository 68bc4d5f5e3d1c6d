"""A place no list holds, named right after a strong place cue ("lives in Haderup", "I'm from West
Davidmouth")."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.shapes import CAP_RUN, END_OF_RUN, trim
from ztgate.redaction.detection.text_shape import strong_place_cue

_CAP_RUN_AFTER_CUE = re.compile(rf"(?i:in|to|from|near|of|visiting|is) ({CAP_RUN.pattern}){END_OF_RUN}")


class CuedPlaceRecognizer(ContextRule):
    NAME = "CuedPlaceRecognizer"
    SCORE = 0.9
    ENTITIES = ("LOCATION",)

    def find(self, text: str) -> list[Span]:
        """A capitalised run right after a strong place cue."""
        out = []
        for m in _CAP_RUN_AFTER_CUE.finditer(text):
            start = m.start(1)
            if not strong_place_cue(text, start):
                continue
            span = trim(text, start, m.group(1))
            if span is not None:
                out.append((*span, "LOCATION"))
        return out
