"""The person (a user name) in a code comment's ``TODO(handle)``; not a ticket id (``TODO(PROJ-12)``)."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.shapes import NOT_NAMES

_TODO = re.compile(r"\b(?:TODO|FIXME|XXX|HACK|NOTE|BUG)\(([A-Za-z][\w.\-]{1,39})\)")
_TICKET = re.compile(r"[A-Z][A-Z0-9]+-\d+")


class TodoHandleRecognizer(ContextRule):
    NAME = "TodoHandleRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON",)

    def find(self, text: str) -> list[Span]:
        return [(m.start(1), m.end(1), "PERSON") for m in _TODO.finditer(text)
                if not _TICKET.fullmatch(m.group(1)) and m.group(1).casefold() not in NOT_NAMES]
