"""What makes a name in a public shape a person's all the same, shared by the shape lists of ADR 0034
(``founder_firms``, ``venues``, ``region_names``, ``routes``): a cue only a person follows ("Ask"), a verb of
people after it ("says"), a personal title or a relation noun right before it ("Mr", "my neighbour"); and what
makes a place someone's home: a residence's verb or a house number right before it ("I live on the", "our flat
off", "14"), which ``person_ties`` reads for "live in" but not for a road's "on" or "along"."""

from __future__ import annotations

import re

from ztgate.redaction.detection.text_shape import person_after, person_cue_before
from ztgate.redaction.detection.wordlists import words

_RELATIONS = "|".join(sorted((re.escape(w) for w in words("relation_cues")), key=len, reverse=True))
_BEFORE = re.compile(rf"(?i)(?:\b(?:{_RELATIONS})|\b(?:mr|mrs|ms|mx|dr|prof|sir|dame|lady|lord)\.?)[ \t]*,?[ \t]+$")


_HOME_BEFORE = re.compile(
    r"(?i)(?:\b(?:live[sd]?|living|reside[sd]?|residing|stay(?:s|ed|ing)?|moved|moving|settled|address\s+is|house|"
    r"flat|apartment|home|farm|shop|office|work(?:s|ed|ing)?)(?:\s+(?:is|are|was|were))?\s+(?:on|at|along|by|off|near|in|beside|opposite)"
    r"(?:\s+the)?|\b\d+[a-z]?,?)\s+$")


def home_before(text: str, start: int) -> bool:
    """A residence's or a workplace's words or a house number right before start (module doc)."""
    return _HOME_BEFORE.search(text, max(0, start - 40), start) is not None


def person_frame(text: str, start: int, end: int) -> bool:
    """A person's cue around text[start:end] (module doc)."""
    return (person_cue_before(text, start) or person_after(text, end)
            or _BEFORE.search(text, max(0, start - 40), start) is not None)
