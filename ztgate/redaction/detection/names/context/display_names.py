"""The display name before an e-mail address in angle brackets (RFC 5322: "From: Cliff Turner <c@x.org>")."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import CuedNameRule
from ztgate.redaction.detection.names.context.shapes import LATIN, NAME_RUN

_DISPLAY_NAME = re.compile(rf"(?<![{LATIN}])[\"']?({NAME_RUN})[\"']?[ \t]*<[^<>\s@]+@[^<>\s]+>")


class DisplayNameRecognizer(CuedNameRule):
    NAME = "DisplayNameRecognizer"
    SCORE = 0.9
    CUE = _DISPLAY_NAME
    WHOLE_NAME = False
