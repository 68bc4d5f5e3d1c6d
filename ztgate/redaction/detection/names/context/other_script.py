"""Two or three capitalised Latin words inside a line mostly in another script: a name written as is
("Свяжитесь с Pieter de Vries", "请联系John Smith确认")."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.shapes import CAP_WORD, LATIN, name_words
from ztgate.redaction.detection.text_shape import line_bounds

_LATIN_RUN = re.compile(
    rf"(?<![{LATIN}]){CAP_WORD}(?:(?: (?:van der|van|von|de|da|di|del|la|le))? {CAP_WORD}){{1,2}}(?![{LATIN}])")
_NON_LATIN_LETTER = re.compile(rf"[^\W\d_{LATIN}]")
# Share of a line's letters in another script for a Latin run in it to count as foreign.
OTHER_SCRIPT_SHARE = 0.2


class LatinNameInOtherScriptRecognizer(ContextRule):
    NAME = "LatinNameInOtherScriptRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON",)

    def find(self, text: str) -> list[Span]:
        if _NON_LATIN_LETTER.search(text) is None:
            return []
        out = []
        for m in _LATIN_RUN.finditer(text):
            lo, hi = line_bounds(text, m.start())
            line = text[lo:hi]
            letters = sum(c.isalpha() for c in line)
            other = len(_NON_LATIN_LETTER.findall(line))
            if letters and other / letters >= OTHER_SCRIPT_SHARE and name_words(m.group()):
                out.append((m.start(), m.end(), "PERSON"))
        return out
