"""The name after a greeting that ends with a comma, an exclamation mark or the line ("Dear Wiktor,")."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import CuedNameRule
from ztgate.redaction.detection.names.context.shapes import CAP_WORD

_GREETING = re.compile(
    rf"(?i:\b(?:dear|hi|hello|hey|attn:?|attention:?))[ \t]+({CAP_WORD}(?: {CAP_WORD}){{0,2}})[ \t]*[,!:\n]")


class GreetingRecognizer(CuedNameRule):
    NAME = "GreetingRecognizer"
    SCORE = 0.9
    CUE = _GREETING
