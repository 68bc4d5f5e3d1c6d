"""The speaker of a chat log, a mailing-list quote or a review thread, written without a time stamp (issue #29):
a name-shaped pair (``person_pairs``) in a speaker's position.

* at the start of a line (after a comment opener, quote markers ``>`` and markdown emphasis), as ``<NAME>``,
  ``[NAME]``, ``@NAME`` or bare, then a colon, a role in brackets and a colon, or a verb of speech ("NAME:
  agreed", "**NAME**: can we", "<NAME> the deploy", "NAME (reviewer): please", "NAME wrote:", "NAME
  commented: ...");
* anywhere, before "wrote:" ("On Tue, 5 Mar 2024, NAME wrote:");
* after a dash and before a time ("— NAME, 14:32").

The time-stamped speakers are ``chat_lines``'s.
"""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.comment_subjects import COMMENT_OPENER
from ztgate.redaction.detection.names.context.person_pairs import pairs
from ztgate.redaction.detection.text_shape import line_bounds

_LEAD = re.compile(rf"(?:{COMMENT_OPENER.pattern})?[ \t]*(?:>[ \t]*)*(?:\*\*|__)?(?P<open>[<\[@])?")
_SPEECH = r"(?:wrote|writes|said|says|commented|replied|responded|asked|answered)"
_AFTER_LEAD = re.compile(
    rf"(?:\*\*|__)?(?:(?P<close>[>\]])|(?:[ \t]*\([^()\n]{{1,30}}\))?[ \t]*:(?=\s|$)|[ \t]+{_SPEECH}\b)")
_WROTE = re.compile(r"[ \t]+(?:wrote|writes)[ \t]*:")
_DASH_BEFORE = re.compile(r"[—–][ \t]*$")
_TIME_AFTER = re.compile(r",?[ \t]+\d{1,2}:\d{2}")


class TranscriptSpeakerRecognizer(ContextRule):
    NAME = "TranscriptSpeakerRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON",)

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        for start, end in sorted(set(pairs(text))):
            lo, hi = line_bounds(text, start)
            if (self._leads_line(text, lo, start, end, hi) or _WROTE.match(text, end, hi)
                    or (_DASH_BEFORE.search(text, max(lo, start - 4), start) and _TIME_AFTER.match(text, end, hi))):
                out.append((start, end, "PERSON"))
        return out

    @staticmethod
    def _leads_line(text: str, lo: int, start: int, end: int, hi: int) -> bool:
        lead = _LEAD.fullmatch(text, lo, start)
        if lead is None:
            return False
        after = _AFTER_LEAD.match(text, end, hi)
        if after is None:
            return False
        opener, closer = lead.group("open"), after.group("close")
        return (opener, closer) in ((None, None), ("@", None), ("<", ">"), ("[", "]"))
