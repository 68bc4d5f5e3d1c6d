"""Public list ``organisation_places``: a place named for an organisation or a group, by the words right before
it, with no list of places: an organisation's premises ("our office in Lyon", "the company's plant near Turin",
"headquartered in Haderup"), a trading company's seat ("our distributor in Tuttlingen", "the toolmaker in
Remscheid", "our partner in Sassuolo": a partner after "our" only), where a group goes or is ("our team flew to
Valencia") or a gathering is held ("the conference will be held in Porto"); the cue words are
``data/public/organisation_place_cues.txt``. Such a place locates no one; a private person named in the sentence,
or a phrase that locates someone ("I live in"), still ties it to a person (``person_ties``). The list holds for
LOCATION and NRP (spaCy reads "Remscheid" as either). ``strict`` does not keep it: under HIPAA Safe Harbor a city
is an identifier whoever it is named for."""

from __future__ import annotations

import functools
import re

from ztgate.redaction.detection.public import PublicList
from ztgate.redaction.detection.public._data import read_lines


def _alternatives(kind: str) -> str:
    words = [line.split(None, 1)[1].strip() for line in read_lines("organisation_place_cues.txt")
             if line.strip() and not line.lstrip().startswith("#") and line.split(None, 1)[0] == kind]
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))


@functools.cache
def cue() -> re.Pattern[str]:
    """The cue, searched in the text right before a place (it must end there)."""
    owner = r"(?:our|their|its|the|the\s+[\w-]+['’]s)"
    return re.compile(
        rf"(?:\b(?i:{owner})\s+(?:[\w-]+\s+){{0,2}}(?i:{_alternatives('site')}|{_alternatives('seat')})\s+"
        rf"(?i:in|at|near|outside|based\s+in|from)"
        # "our partner in Sassuolo": a partner of "our" firm only (a person's partner is "my" or "their")
        rf"|\b(?i:our)\s+(?:[\w-]+\s+){{0,2}}?(?i:partners?)\s+(?i:in|at|near|outside|based\s+in)"
        rf"|\b(?i:headquartered|headquarters\s+are|headquarters\s+is)\s+(?i:in|at)"
        rf"|\b(?i:our|their|the)\s+(?i:{_alternatives('group')})\s+(?:[\w'’-]+\s+){{0,4}}?(?i:to|in|at|from)"
        rf"|\b(?i:{_alternatives('event')})\b[^.!?\n]{{0,40}}?\b(?i:in|at))\s+(?:the\s+)?$")


def load() -> PublicList:
    return PublicList("organisation_places", frozenset({"LOCATION", "NRP"}), frozenset(), preceded_by=cue())
