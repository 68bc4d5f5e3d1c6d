"""The person a Git trailer or a header names, to the end of its line ("Reviewed-by: Óscar Sanmartín
Sánchez", "Assignee: Rose Tyler"); not a team's, a bot's or a tool's name ("From: Vera Bot <noreply@x.org>",
``text_shape.tool_or_organisation``)."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import CuedNameRule
from ztgate.redaction.detection.names.context.shapes import NAME_RUN
from ztgate.redaction.detection.text_shape import tool_or_organisation

_TRAILER = re.compile(
    rf"(?im)^[ \t]*(?:reviewed-by|signed-off-by|co-authored-by|reported-by|acked-by|tested-by|suggested-by|"
    rf"helped-by|author|committer|assignee|reporter|owner|from|to|cc|attn)[ \t]*:[ \t]*({NAME_RUN})[ \t]*(?:$|<)")


class HeaderNameRecognizer(CuedNameRule):
    NAME = "HeaderNameRecognizer"
    SCORE = 0.9
    CUE = _TRAILER
    WHOLE_NAME = False

    def accept(self, match: re.Match[str]) -> bool:
        return not tool_or_organisation(match.group(1))
