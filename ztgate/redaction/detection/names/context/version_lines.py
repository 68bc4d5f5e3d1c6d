"""A person closing a program header's version line (issue #29, ADR 0038): a comment line that carries a version
and a date and ends with a person-shaped value, the way statistics, Fortran, shell and SAS programs record who cut
a revision ("C     VERSION 2.3   11-MAR-1994   NAME", "* recode.sps  v1.3  14-03-2024  NAME.", "# sync.sh  0.4.1
2025-01-09  NAME <mail>").

The line opens with a comment leader (``#``, ``//``, ``*``, ``/*``, ``*!``, ``%``, ``;``, ``--``, ``!``, ``REM``,
Fortran's ``C`` column), holds a version (``v1.3``, ``version 2.3``, ``0.4.1``) and then a date (ISO, day-month-year
with digits or a month's abbreviation, ``01jan2020``) right before the value, and nothing but an address, a handle, a
full stop or a comment's close follows the value. The value is read as ``author_slots`` reads one: two to four
capitalised name words, no common or technical word, not a team's, a bot's or an organisation's name."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.author_slots import slot_persons
from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.text_shape import line_bounds

_LEADER = re.compile(r"[ \t]*(?:#+!?|//+|/?\*+!?|%+|;+|--|!|REM\b|[Cc](?=[ \t]))")
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)"
_VERSION = re.compile(r"(?i)(?<![\w.\-])(?:v(?:ersion)?[ \t]*)?\d+(?:\.\d+){1,3}[a-z]?(?![\w.\-])")
_DATE = re.compile(
    rf"(?i)(?<![\w.\-])(?:\d{{4}}-\d{{2}}-\d{{2}}|\d{{1,2}}[-/.]\d{{1,2}}[-/.]\d{{2,4}}|\d{{1,2}}[-/ ]?{_MONTH}[-/ ]?\d{{2,4}}"
    rf"|{_MONTH}[a-z]*[ \t]+\d{{1,2}},?[ \t]+\d{{4}})(?![\w\-])")
# Between the date and the value: blanks and separators only (the value is the whole run after the date).
_GAP = re.compile(r"[ \t,;:\-–—]+")
# What may follow the value on its line: an address or a handle, a full stop, a comment's close.
_TAIL = re.compile(r"[ \t]*(?:[<(\[][^\n<>()\[\]]{1,80}[>)\]])?[ \t]*[.;,]?[ \t]*(?:\*+/|-->)?[ \t]*$")


def version_line_value(text: str, start: int, end: int) -> bool:
    """text[start:end] closes a comment line that holds a version and then a date before it (module doc)."""
    lo, hi = line_bounds(text, start)
    lead = _LEADER.match(text, lo, start)
    if lead is None or _TAIL.fullmatch(text, end, hi) is None:
        return False
    version = _VERSION.search(text, lead.end(), start)
    if version is None:
        return False
    dates = list(_DATE.finditer(text, version.end(), start))
    return bool(dates) and _GAP.fullmatch(text, dates[-1].end(), start) is not None


class VersionLineRecognizer(ContextRule):
    NAME = "VersionLineRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON",)

    def find(self, text: str) -> list[Span]:
        return slot_persons(text, lambda t, start, end: version_line_value(t, start, end))
