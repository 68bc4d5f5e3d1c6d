"""The speaker of a chat log pasted into code or docs: a name after a time stamp and before a colon
("# [14:02] Kofi Boateng: restarting the worker", "08:30 NAME: ...", "[2024-05-03 11:20] <kboateng> NAME:
..."), or a name before a time ("Kofi Boateng — 3:41 PM", "NAME [2:17 PM]", Slack's and Teams' exports).

A speaker is a name of two words or more, every one a name word (``shapes.name_words``): bots and services
speak in lower case or with a bracket ("deploy-bot:", "renovate[bot]:") and a lone capitalised word there is
as often a tool ("[10:02] Jenkins: build green") as a person.
"""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import CuedNameRule, Span
from ztgate.redaction.detection.names.context.shapes import NAME_RUN, name_words
from ztgate.redaction.detection.text_shape import tool_or_organisation

_TIME = r"\d{1,2}:\d{2}(?::\d{2})?(?:[ \t]?[AaPp]\.?[Mm]\.?)?"
_STAMP = rf"(?:\[[ \t]*(?:\d{{4}}-\d{{2}}-\d{{2}}[ T])?{_TIME}[ \t]*\]|(?:\d{{4}}-\d{{2}}-\d{{2}}[ T])?{_TIME})"
# A line's comment or quote markers, a time stamp, an IRC handle, then the speaker and a colon.
_AFTER_STAMP = rf"^[ \t]*(?:#+|//+|/?\*+|--|;+|>+|<!--)?[ \t]*{_STAMP}[ \t]+(?:<[\w.\-]{{1,40}}>[ \t]+)?({NAME_RUN}):[ \t]"
# The speaker, then a dash, a bar or a bracket and the time ("NAME — 10:05 AM", "NAME [2:17 PM]").
_BEFORE_TIME = rf"^[ \t]*(?:#+|//+|/?\*+|--|>+)?[ \t]*({NAME_RUN})[ \t]+(?:[—–|·\-][ \t]*{_TIME}|\[{_TIME}\])[ \t]*$"


class ChatSpeakerRecognizer(CuedNameRule):
    NAME = "ChatSpeakerRecognizer"
    SCORE = 0.9
    CUE = re.compile(f"{_AFTER_STAMP}|{_BEFORE_TIME}", re.MULTILINE)

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        for m in self.CUE.finditer(text):
            group = 1 if m.group(1) is not None else 2
            start, end = m.span(group)
            if len(m.group(group).split()) < 2:
                continue
            span = _trimmed(text, start, m.group(group))
            if span is not None and len(text[span[0]:span[1]].split()) >= 2:
                out.append((span[0], span[1], "PERSON"))
        return out


def _trimmed(text: str, start: int, run: str) -> tuple[int, int] | None:
    if not name_words(run) or tool_or_organisation(run):
        return None
    return start, start + len(run)
