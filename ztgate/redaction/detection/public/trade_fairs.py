"""Public list ``trade_fairs``: a trade fair, by the words around it, with no list of fairs: a stand, a booth or
exhibiting "at" it ("our stand at EuroShop", "their booth at EMO Hannover", "exhibiting at Cersaie"), a fair's noun
right after it ("the Cersaie fair"), or a meeting "at" it in a text about trade, which names a supplier, a
distributor, a partner, a fair or a booth ("Draft an e-mail to our distributor in Tuttlingen about meeting at
Cersaie"; one word there, or a name opened by capitals: "MEDICA", "EMO Hannover"). A fair is an event open to a
trade, not a person's place: a name whose first word is a given name, a street, a possessive or a value with digits
is never read so, and ``person_ties`` applies on top. PERSON, LOCATION and NRP (spaCy reads "Cersaie" or "MEDICA" as
any of them). The default policy keeps it, strict does not. Cue words written by hand for ztgate."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.public import FramePublicList, PublicList

# Right before the fair: a stand, a booth or exhibiting at it.
_EXHIBIT_BEFORE = re.compile(
    r"(?i)\b(?:stands?|booths?|pavilion|exhibit(?:s|ed|ing)?|exhibitors?|exhibition\s+space|showcas(?:e|ing)|"
    r"launch(?:ing)?\s+(?:\w+\s+){0,2}?|present(?:ing)?\s+(?:\w+\s+){0,2}?)\s+at\s+(?:the\s+)?$")
# Right before the fair: a meeting at it (read only in a text about trade, ``_TRADE``).
_MEET_BEFORE = re.compile(
    r"(?i)\b(?:meet(?:s|ing)?|see(?:ing)?|catch(?:ing)?\s+up|visit(?:s|ing)?|talk(?:s|ing)?)\s+"
    r"(?:(?:with\s+)?(?:you|them|us|him|her)\s+)?at\s+(?:the\s+)?$")
# Right after the fair: a fair's noun ("the Cersaie fair", "Fruit Logistica trade show").
_FAIR_AFTER = re.compile(r"(?i)[ \t]+(?:trade[ \t]+(?:fair|show)|fair|expo|exhibition|trade[ \t]+exhibition)\b")
# A text about trade: a trading company's role, a fair, a booth.
_TRADE = re.compile(
    r"(?i)\b(?:suppliers?|distributors?|manufacturers?|makers?|toolmakers?|importers?|exporters?|dealers?|"
    r"resellers?|wholesalers?|vendors?|partners?|buyers?|exhibitors?|trade\s+(?:fair|show)|fairs?|expo|booths?|"
    r"stands?|samples?|catalogues?|catalogs?|product\s+launch|new\s+range|price\s+list)\b")
# What a fair's name is not: a street, a possessive after it.
_STREET = re.compile(r"(?i)\b(?:street|road|lane|avenue|way|drive|close|court|place|square|st|rd|ave)\.?$")
_POSSESSIVE_AFTER = re.compile(r"['’]s?\b")
_NAME = re.compile(r"[^\W\d_][\w&.\-]*(?:[ \t]+[^\W\d_][\w&.\-]*){0,3}")
_ONE_NAME = re.compile(r"[^\W\d_][\w&.\-]*|(?:[A-Z]{2,}|[A-Z][a-z]+[A-Z][\w&.\-]*)(?:[ \t]+[^\W\d_][\w&.\-]*){1,2}")
# How far before the fair the cue and the text's trade words are read.
REACH = 60
TRADE_REACH = 300


@dataclass(frozen=True, slots=True)
class TradeFairs(FramePublicList):
    """A trade fair named in a trade's frame is kept (module doc)."""

    def in_frame(self, text: str, start: int, end: int, entity_type: str) -> bool:
        value = text[start:end]
        if (_NAME.fullmatch(value) is None or given_name(value.split()[0]) or _STREET.search(value)
                or _POSSESSIVE_AFTER.match(text, end) is not None):
            return False
        before = max(0, start - REACH)
        if _EXHIBIT_BEFORE.search(text, before, start) is not None:
            return True
        if (_FAIR_AFTER.match(text, end, min(len(text), end + 30)) is not None
                and text[max(0, start - 4):start].casefold() == "the "):
            return True
        # A meeting's place is a fair only as one word, or a name opened by capitals ("MEDICA", "EuroShop",
        # "EMO Hannover"): two capitalised words after "meeting at" read as a person's name.
        return (_ONE_NAME.fullmatch(value) is not None and _MEET_BEFORE.search(text, before, start) is not None
                and _TRADE.search(text, max(0, start - TRADE_REACH), min(len(text), end + TRADE_REACH)) is not None)


def load() -> PublicList:
    return TradeFairs("trade_fairs", frozenset({"PERSON", "LOCATION", "NRP"}), frozenset())
