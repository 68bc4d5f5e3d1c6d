"""Public list ``name_origins``: a brand's or a company's name asked about by its origin or history, with no list of
brands: "how NAME got its name", "why is NAME called NAME", "what NAME's name means" (a thing's frames: "its", the
name repeated), and "where does the name NAME come from", "the story behind the name NAME", "the origin of the name
NAME", "the history of NAME" (the name's frames, read only in a text with no evidence of a private person,
``private_person_in_text``, and never for a known given name: "Where does the name Siobhan come from? My niece ..."
stays hidden). The name is one to three words with no digits; a cue only a person follows or a verb of people after
it is never read so, and ``person_ties`` applies on top. PERSON, LOCATION and NRP (spaCy reads brands as any); the
default policy keeps it, strict does not. Cue words written by hand for ztgate."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.public import FramePublicList, PublicList
from ztgate.redaction.detection.public._private_context import private_person_in_text
from ztgate.redaction.detection.text_shape import person_after, person_cue_before

_NAME = re.compile(r"[^\W\d_][\w'’&.\-]*(?:[ \t]+[^\W\d_][\w'’&.\-]*){0,2}")
# A thing's frames around the name: "its" name, or the name repeated after "called".
_THING_AFTER = re.compile(
    r"(?i)[ \t]+(?:got|gets|get|came\s+by|took|takes|chose|picked)\s+its\s+(?:name|brand\s+name)\b"
    r"|['’]s\s+name\s+(?:mean|means|come|comes|came|derive)")
_CALLED_AGAIN = re.compile(r"(?i)[ \t]+called[ \t]+")
_WHY_BEFORE = re.compile(r"(?i)\bwhy\s+(?:is|was)\s+$")
_CALLED_BEFORE = re.compile(r"(?i)\bwhy\s+(?:is|was)\s+(?P<name>\S.{0,40}?)\s+called\s+$")
# The name's frames, right before it.
_NAME_BEFORE = re.compile(
    r"(?i)\b(?:(?:origin|origins|story|meaning|history|etymology)\s+(?:of|behind)\s+(?:the\s+)?(?:brand\s+|company\s+)?"
    r"names?|(?:where|how)\s+(?:does|did)\s+(?:the\s+)?(?:brand\s+|company\s+)?names?|(?:where|how)\s+(?:the\s+)?"
    r"(?:brand\s+|company\s+)?names?|what\s+(?:does|did)\s+(?:the\s+)?(?:brand\s+|company\s+)?names?|"
    r"(?:history|founding|origins?|story)\s+of(?:\s+the\s+(?:brand|company|firm|maker))?|"
    r"(?:who|when)\s+(?:founded|started|named))\s+$")
REACH = 60


@dataclass(frozen=True, slots=True)
class NameOrigins(FramePublicList):
    """A brand or a company asked about by its name's origin or its history is kept (module doc)."""

    def in_frame(self, text: str, start: int, end: int, entity_type: str) -> bool:
        value = text[start:end]
        if _NAME.fullmatch(value) is None or person_cue_before(text, start) or person_after(text, end):
            return False
        if _THING_AFTER.match(text, end, min(len(text), end + 40)) is not None:
            return True
        called = _CALLED_AGAIN.match(text, end, min(len(text), end + 20))
        if (called is not None and _WHY_BEFORE.search(text, max(0, start - 12), start) is not None
                and text[called.end():called.end() + len(value)] == value):
            return True  # "Why is Nivea called Nivea?"
        again = _CALLED_BEFORE.search(text, max(0, start - 60), start)
        if again is not None and again.group("name") == value:
            return True  # the second "Nivea" of the same question
        return (_NAME_BEFORE.search(text, max(0, start - REACH), start) is not None
                and not any(given_name(w) for w in value.split()) and not private_person_in_text(text, start, end))


def load() -> PublicList:
    return NameOrigins("name_origins", frozenset({"PERSON", "LOCATION", "NRP"}), frozenset())
