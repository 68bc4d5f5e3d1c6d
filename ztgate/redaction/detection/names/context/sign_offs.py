"""The name after a sign-off, on its own line or after its comma at a line's end ("Thanks,\\nMaria")."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import CuedNameRule
from ztgate.redaction.detection.names.context.shapes import CAP_WORD
from ztgate.redaction.detection.wordlists import phrases

_SIGN_OFF = re.compile(
    r"(?im)^[ \t>]*(?:" + "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in phrases("sign_offs"))
    + rf")\s*[,!.\-—]*[ \t]*(?:\n[ \t>]*|(?<=,)[ \t]*)({CAP_WORD}(?: {CAP_WORD}){{0,2}})[ \t.!]*$")


class SignOffRecognizer(CuedNameRule):
    NAME = "SignOffRecognizer"
    SCORE = 0.9
    CUE = _SIGN_OFF
