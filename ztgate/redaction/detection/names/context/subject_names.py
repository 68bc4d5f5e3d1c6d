"""Capitalised name words that end an e-mail subject ("Subject: Contract renewal - Beyler Manole")."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import CuedNameRule
from ztgate.redaction.detection.names.context.shapes import CAP_WORD

_SUBJECT = re.compile(
    rf"(?im)^(?:subject|re|fwd?|title):[^\n]*?(?:\s[-–—:|]|\bfor|\bwith|\bfrom|\bby|\bcc|\bto|,)[ \t]+"
    rf"({CAP_WORD}(?: {CAP_WORD}){{0,2}})[ \t]*$")


class SubjectNameRecognizer(CuedNameRule):
    NAME = "SubjectNameRecognizer"
    SCORE = 0.9
    CUE = _SUBJECT
