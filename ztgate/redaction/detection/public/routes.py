"""Public list ``routes``: historical routes, roads, trails, canals, marches and expeditions by the shape of their
names, with no list of names: a definite article, one to four capitalised words and a route's head ("the Ledo
Road", "the Long Walk", "the Göta Canal", "the Lewis and Clark Expedition"), or a route's head and "of"/"to" and a
name ("the Road of Life", "the Trail of Tears", "the Road to Mandalay"). Named trade routes are ``trade_routes``'.
An address has a number and no article ("Road 5", "14 Larch Row"): never read so, nor a route after a home's or a
workplace's words ("I live on the", "our farm along the"; ``_person_frame.home_before``), nor a street naming a
place on it ("the Mill Road depot", "the Station Road surgery": a lower-case place noun right after it);
``person_ties`` applies on top. PERSON, LOCATION and NRP (spaCy reads "Road
of Life" as a person); the default policy keeps it, strict does not. Head words written by hand for ztgate."""

from __future__ import annotations

import re

from dataclasses import dataclass

from ztgate.redaction.detection.public import PublicList, heads_pattern
from ztgate.redaction.detection.public._person_frame import home_before, person_frame

HEADS = ["Road", "Trail", "Route", "Way", "Walk", "March", "Highway", "Passage", "Track", "Path", "Canal",
         "Expedition", "Railway", "Crossing", "Airlift", "Causeway", "Pilgrimage"]
ROUTE_OF = re.compile(r"(?:road|trail|route|way|march|walk|path|highway|passage|canal|railway) (?:of|to) (?:the )?"
                      r"[^\W\d_][\w'’.\-]*(?: [^\W\d_][\w'’.\-]*){0,3}")
# "the Lewis and Clark Expedition": two names joined by "and" before the head.
JOINED = re.compile(r"[^\W\d_][\w'’.\-]* and [^\W\d_][\w'’.\-]* (?:expedition|trail|road|route|canal|railway)")


# A place on a street right after its name: the name is an address's street, not a route.
_PLACE_AFTER = re.compile(
    r"[ \t]+(?:depot|station|stop|junction|roundabout|area|branch|office|store|shop|site|car[ \t]?park|entrance|exit|"
    r"end|side|corner|post[ \t]+office|surgery|clinic|school|campus|flat|house|estate|address|apartment|building|"
    r"market|pub|caf[eé]|restaurant|hotel|warehouse|garage|centre|center|library|church|branch|gym|bakery|"
    r"pharmacy|practice|allotments?|flats|houses|home|studio|workshop|yard|unit)\b")


@dataclass(frozen=True, slots=True)
class Routes(PublicList):
    """A route by the shape of its name, not someone's home on it (module doc)."""

    def holds_at(self, text: str, start: int, end: int, entity_type: str) -> bool:
        if not 0 <= start < end <= len(text) or person_frame(text, start, end):
            return False
        opening = start - 4 if text[max(0, start - 4):start].casefold() == "the " else start
        if home_before(text, opening) or home_before(text, start) or _PLACE_AFTER.match(text, end) is not None:
            return False
        return PublicList.holds_at(self, text, start, end, entity_type)


def load() -> PublicList:
    return Routes("routes", frozenset({"PERSON", "LOCATION", "NRP"}), frozenset(),
                      patterns=(heads_pattern(HEADS, words_before=4), ROUTE_OF, JOINED), after_the=True)
