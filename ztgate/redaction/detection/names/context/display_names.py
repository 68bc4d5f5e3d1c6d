"""The display name before an e-mail address in angle brackets (RFC 5322: "From: Cliff Turner <c@x.org>").

A display name that names a team, a bot or a piece of software ("Packaging Team <packaging@x.org>", "Release
Bot <bot@x.org>", "Ledger API <api@x.org>": ``text_shape.tool_or_organisation``) is no person, as everywhere
else; its address is still a contact value, hidden by tier 1."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import CuedNameRule
from ztgate.redaction.detection.names.context.shapes import LATIN, NAME_RUN
from ztgate.redaction.detection.text_shape import tool_or_organisation

_DISPLAY_NAME = re.compile(rf"(?<![{LATIN}])[\"']?({NAME_RUN})[\"']?[ \t]*<[^<>\s@]+@[^<>\s]+>")


class DisplayNameRecognizer(CuedNameRule):
    NAME = "DisplayNameRecognizer"
    SCORE = 0.9
    CUE = _DISPLAY_NAME
    WHOLE_NAME = False

    def accept(self, match: re.Match[str]) -> bool:
        return not tool_or_organisation(match.group(1))
