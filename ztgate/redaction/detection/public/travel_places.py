"""Public list ``travel_places``: a place on no list is kept where a travel or visit frame stands right before it
("We're staying in Colmar for three days", "a night in Alberobello", "our trip to Cappadocia", "hike the Inca
Trail", "visiting Ronda", "quiet beaches near Tavira", "a day trip from Ortisei", "What is there to see in Jerash",
"Is Jerash worth a day trip") and the text holds no evidence of a private person anywhere
(``_private_context.private_person_in_text``: no relation, contact value, identifier, home, booking or member words,
greeting, signature ...). A visit locates no one's home; a stay is read as a visit only with a visit's words
("staying in X for three days", "staying in X:"), never "staying in X" alone, and "lives in", "moved to", "born in"
are residence (``person_ties`` still ties them). LOCATION, and PERSON where spaCy mistypes a town after such a
frame. ``person_ties`` applies on top, told by ``visit`` that a stay with a visit's words is no residence. The
default policy keeps it; ``strict`` does not (under HIPAA Safe Harbor a town is an identifier whatever the sentence
says). Cue words written by hand for ztgate."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.public import FramePublicList, PublicList
from ztgate.redaction.detection.public._private_context import private_person_in_text

_COUNT = r"(?:a|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|several|\d{1,2})"
# Frames right before the place that say a visit follows.
_VISIT_BEFORE = re.compile(
    rf"(?i)(?:\b(?:visit|visiting|visited|tour(?:ing)?|explor(?:e|ing)|hik(?:e|ing)|walk(?:ing)?|trek(?:king)?|"
    rf"(?:day|road|school|weekend|family)?\s*trips?\s+to|travel(?:l?ing)?\s+to|holiday\s+(?:in|to)|vacation\s+in|"
    rf"honeymoon\s+in|excursion\s+to|stopover\s+in|layover\s+in|spend(?:ing)?\s+(?:{_COUNT}\s+)?(?:night|nights|"
    rf"day|days|week|weeks|weekend|morning|afternoon|evening)\s+in|{_COUNT}\s+(?:night|nights|day|days|week|"
    rf"weeks)\s+in|(?:a|the)\s+(?:night|day|weekend|week)\s+in|(?:fly(?:ing)?|driv(?:e|ing)|cycl(?:e|ing)|"
    rf"sail(?:ing)?|tak(?:e|ing)\s+the\s+train)\s+to|hike\s+to|road\s+trip\s+through|"
    rf"stay(?:ing)?\s+(?:in|at)|"
    # a traveller's question about what is near a place or how to go on from it
    rf"(?:beach|beaches|hotels?|villages?|towns?|walks|hikes|trails?|restaurants|sights|things\s+to\s+(?:see|do)|"
    rf"campsites?|vineyards|wineries|day\s+trips?|excursions?|viewpoints?)\s+(?:near|around|outside|close\s+to)|"
    rf"(?:day\s+trips?|excursions?|road\s+trip|train|bus|ferry|boat|drive|hike|walk)\s+from|"
    rf"base\s+(?:ourselves|myself|themselves)\s+in|(?:a|the)\s+(?:good|best)\s+base\s+for(?:\s+exploring)?|"
    # what a traveller sees or does there ("What is there to see in", "things to do in", "worth visiting")
    rf"(?:what\s+is\s+there|what['’]s\s+there|is\s+there\s+(?:much|anything)|things|anything|what)\s+to\s+"
    rf"(?:see|do|visit|eat)\s+(?:in|around|near)|(?:sights|sightseeing)\s+in|worth\s+(?:visiting|seeing))"
    rf"\s+(?:the\s+)?)$")
# "Is NAME worth a day trip / two days / the detour": the question around the place says a visit.
_WORTH_BEFORE = re.compile(r"(?i)\b(?:is|are)\s+(?:the\s+)?$")
_WORTH_AFTER = re.compile(
    rf"(?i)[ \t]+(?:really\s+|still\s+)?worth\s+(?:(?:a|an|the|{_COUNT})\s+(?:full\s+|half\s+)?(?:day\s+trip|"
    rf"trip|visit|detour|stop|stopover|drive|night|nights|day|days|week|weekend)|visiting|seeing|the\s+(?:detour|"
    r"drive|trip|hype))")
# A stay reads as a visit only with a visit's words after the place (a duration, a question about it).
_STAY_BEFORE = re.compile(r"(?i)\bstay(?:ing)?\s+(?:in|at)\s+(?:the\s+)?$")
_VISIT_AFTER = re.compile(
    rf"(?i)\s*(?::|\s+for\s+(?:{_COUNT}|the)\s+(?:night|nights|day|days|week|weeks|weekend)|\s+(?:on|during)\s+"
    r"(?:our|the)\s+(?:trip|holiday|vacation|honeymoon)|\s+(?:next|this)\s+(?:week|weekend|month|summer|"
    r"winter|spring|autumn))")
# How far before the place the frame is read.
REACH = 60


def visit(text: str, start: int, end: int) -> bool:
    """A travel or visit frame stands right before text[start:end] (a stay only with a visit's words after the
    place), and the text holds no evidence of a private person (module doc)."""
    if not 0 <= start < end <= len(text) or private_person_in_text(text):
        return False
    before = text[max(0, start - REACH):start]
    if _VISIT_BEFORE.search(before) is None:
        # "Is NAME worth a day trip": never a known given name ("Is Tom worth a visit?" reads as a person)
        return (_WORTH_BEFORE.search(before) is not None and not given_name(text[start:end].split()[0])
                and _WORTH_AFTER.match(text, end, min(len(text), end + 40)) is not None)
    return _STAY_BEFORE.search(before) is None or _VISIT_AFTER.match(text, end) is not None


@dataclass(frozen=True, slots=True)
class TravelPlaces(FramePublicList):
    """A place is kept where a travel frame stands before it and the text has no private evidence."""

    def in_frame(self, text: str, start: int, end: int, entity_type: str) -> bool:
        value = text[start:end]
        if value[:4].casefold() == "the ":
            value = value[4:]
        return value[:1].isupper() and not any(c.isdigit() for c in value) and visit(text, start, end)


def load() -> PublicList:
    return TravelPlaces("travel_places", frozenset({"LOCATION", "PERSON"}), frozenset())
