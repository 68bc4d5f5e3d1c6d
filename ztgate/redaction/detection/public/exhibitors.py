"""Public list ``exhibitors``: a company and its seat named before its stand at a trade fair, with no list of
companies: "to Festo in Esslingen asking whether meetings at their Hannover Messe stand can be booked", "Festo from
Esslingen at stand B12", "whether Wago from Minden will be at stand C07". The company is one word (or more with a
company's suffix or in capitals) after a word of writing, visiting or meeting ("to", "from", "visit", "meet",
"whether") or opening the sentence, with its seat ("in"/"from" a place) or not, and then, in the same sentence,
"their"/"its" stand, booth or pavilion, or "at stand"/"booth"/"hall" and a stand's code; the seat is the place right
after such a company. A person has "her"/"his" stand: never read so, nor a name opened by a known given name, a
value with digits, or a cue only a person follows; ``person_ties`` applies on top. PERSON, LOCATION and NRP (spaCy
reads "Festo" or "Esslingen" as any); the default policy keeps it, strict does not. Cue words written by hand for
ztgate."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.public import FramePublicList, PublicList
from ztgate.redaction.detection.text_shape import person_after, person_cue_before

_NAME = r"[A-Z][\w&.\-]*(?:[ \t]+[A-Z][\w&.\-]*){0,2}"
_ONE = re.compile(_NAME)
# A company of more than one word only with a company's suffix or in capitals ("Carl Zeiss AG", "SICK AG"): two
# capitalised words before "their stand" are as often a person.
_COMPANY = re.compile(r"[A-Z][\w&.\-]*|(?:[A-Z][\w&.\-]*[ \t]+){1,2}(?:GmbH|AG|SE|KG|Ltd|Inc|S\.p\.A\.|SpA|SA|S\.A\.|BV|"
                      r"NV|Oy|AB|AS|A/S|Group|Holding)|[A-Z0-9&]{2,}(?:[ \t]+[A-Z0-9&]{2,}){1,2}")
# Right before the company: a word of writing, visiting or meeting, or a sentence's start.
_BEFORE = re.compile(
    r"(?i)(?:\b(?:to|from|with|visit|visiting|meet|meeting|see|contact|whether|if|ask\s+whether|invite|thank)[ \t]+"
    r"|(?:^|[.!?][ \t]+))$")
# After the company (and its seat): the fair's stand of the company, in the same sentence.
_STAND = re.compile(
    r"[^.!?\n]{0,120}?(?:\b(?i:their|its)[ \t]+(?:[\w&+.\-]+[ \t]+){0,4}?(?i:stand|booth|pavilion|exhibit)\b"
    r"|\b(?i:at|on)[ \t]+(?i:the[ \t]+)?(?i:stand|booth|hall)[ \t]+[A-Z]?\d)")
_SEAT = re.compile(rf"[ \t]+(?:in|from)[ \t]+(?P<seat>{_NAME})")
REACH = 40


def _exhibitor(text: str, start: int, end: int) -> bool:
    """text[start:end] is a company named before its stand (module doc)."""
    value = text[start:end]
    if (_COMPANY.fullmatch(value) is None or given_name(value.split()[0]) or person_cue_before(text, start)
            or person_after(text, end) or _BEFORE.search(text, max(0, start - REACH), start) is None):
        return False
    after = end
    seat = _SEAT.match(text, end)
    if seat is not None:
        after = seat.end()
    return _STAND.match(text, after) is not None


@dataclass(frozen=True, slots=True)
class Exhibitors(FramePublicList):
    """A company before its stand at a fair, and its seat, are kept (module doc)."""

    def in_frame(self, text: str, start: int, end: int, entity_type: str) -> bool:
        if _exhibitor(text, start, end):
            return True
        # The seat: a place right after "COMPANY in|from", where the company is an exhibitor.
        value = text[start:end]
        if _ONE.fullmatch(value) is None or any(c.isdigit() for c in value):
            return False
        lead = re.search(rf"(?P<company>{_NAME})[ \t]+(?:in|from)[ \t]+$", text[max(0, start - REACH):start])
        if lead is None:
            return False
        base = max(0, start - REACH)
        company_start, company_end = base + lead.start("company"), base + lead.end("company")
        seat = _SEAT.match(text, company_end)
        return seat is not None and seat.end() == end and _exhibitor(text, company_start, company_end)


def load() -> PublicList:
    return Exhibitors("exhibitors", frozenset({"PERSON", "LOCATION", "NRP"}), frozenset())
