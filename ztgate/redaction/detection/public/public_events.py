"""Public list ``public_events``: a name that is part of a historical event's or a gathering's name, by the
words right around it, with no list of events: "the Siege of Antioch", "the siege of Leningrad" (in lower case
too), "the Council of Nicaea", "the Congress of Vienna", "the Treaty of Utrecht", "the Diet of Worms"; or a head
right after it ("the Yalta Conference", "the Dreyfus Affair", "the Scopes Trial", "the Louisiana Purchase").
``historical`` keeps such names where the whole name is one span ("Battle of Hastings"); this list decides a
span that is only the place or the person inside the event's name, by the event's words. Nothing in the
paragraph or at another mention of the name may point to a private person (``_private_context``), and
``person_ties`` applies on top: "my neighbour from the Council of Hexworth" stays hidden. PERSON, LOCATION and
NRP (spaCy reads "Nicaea" or "Worms" as either). The default policy keeps it, strict does not. Cue words
written by hand for ztgate."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ztgate.redaction.detection.public import FramePublicList, PublicList
from ztgate.redaction.detection.public._private_context import private_evidence

# Words that open an event's name before "of" ("the Siege of", "the Diet of"), either case; no word said as
# often of a private person ("the trial of", "the evacuation of", "the founding of").
EVENT_HEADS = (r"battles?|siege|sack|fall|invasion|conquest|occupation|liberation|blockade|massacre|revolt|uprising|"
               r"rebellion|treaty|peace|truce|armistice|congress|council|synod|diet|edict|concordat|declaration|"
               r"proclamation|charter|partition|unification|union|annexation|assembly|convention|conference|summit|"
               r"bombing|burning")
# Heads right after the name, capitalised, that make it an event's or a gathering's ("the Yalta Conference"); no
# word a private matter is named with as often ("Plan", "Agreement", "Fire").
EVENT_AFTER = (r"Conference|Summit|Congress|Council|Accords?|Declaration|Convention|Compromise|Purchase|Affair|"
               r"Incident|Trials?|Riots?|Raid|Siege|Offensive|Landings|Airlift|Treaty|Tea\s+Party|Commune|Putsch|"
               r"Coup|Uprising|Mutiny|Disaster|Manifesto|Edict|Doctrine|Expedition|Crusade")
# Before the name: an event's head opened by "the" (or capitalised), then "of"/"at"/"for" ("the siege of",
# "Battle of", "the Second Council of"); "a council of" and "my trial of" are no event's name.
_BEFORE = re.compile(
    rf"(?:\b(?i:the)\s+(?:(?i:first|second|third|fourth|fifth|great|last|final)\s+)?(?i:{EVENT_HEADS})"
    rf"|\b(?-i:(?=[A-Z]))(?i:{EVENT_HEADS}))\s+(?i:of|at|for)\s+(?:(?i:the)\s+)?$")
_AFTER = re.compile(rf"\s+(?:{EVENT_AFTER})\b")
# The span is a name: capitalised words, connectors between them, no digits.
_NAME = re.compile(r"(?:the\s+)?[A-Z][\w'’.\-]*(?:\s+(?:[A-Z][\w'’.\-]*|of|the|de|del|la|le|von|van|upon|on)){0,5}")


@dataclass(frozen=True, slots=True)
class PublicEvents(FramePublicList):
    """A name inside an event's name is kept (module doc)."""

    def in_frame(self, text: str, start: int, end: int, entity_type: str) -> bool:
        if _NAME.fullmatch(text, start, end) is None:
            return False
        lo = max(0, start - 60)
        framed = (_BEFORE.search(text, lo, start) is not None
                  or (_AFTER.match(text, end, min(len(text), end + 30)) is not None
                      and text[max(0, start - 4):start].casefold() == "the "))
        return framed and not private_evidence(text, start, end)


def load() -> PublicList:
    return PublicEvents("public_events", frozenset({"PERSON", "LOCATION", "NRP"}), frozenset())
