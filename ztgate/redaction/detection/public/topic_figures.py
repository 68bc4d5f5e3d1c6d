"""Public list ``topic_figures``: a figure known by one name (or a name of capitals in any Latin script,
"Ödön Lechner") kept where the question's frame can only be about a figure of history or science, by the frame,
never by the name: a ruler's frame ("the reign of NAME", "the empire of NAME", "NAME's reign"), a figure's
instrument or expedition ("NAME's pendulum", "NAME's chronometer", "NAME's expedition"), or "Who was NAME?" asked
alone. spaCy reads many such names as places ("Who was Ashoka?"), so PERSON, LOCATION and NRP.

No private person has a reign, so the ruler's frames hold for any name, whatever the other sentences say
(the asker's landlord asking), unless the name's own sentence names a private person
(``private_person_in_sentence``). The instrument frames and "Who was" hold where the paragraph holds no private
evidence about the name (``private_evidence``), and for a given name ("Who was Cyrus?") only in a text with no
evidence of a private person (``private_person_in_text``). Never after a relation or a title ("my neighbour",
"Mr") or before a verb of people (``person_frame``); ``person_ties`` applies on top. The default policy keeps it, strict does not. Cue
words written by hand for ztgate."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.public import FramePublicList, PublicList
from ztgate.redaction.detection.public._person_frame import person_frame
from ztgate.redaction.detection.public._private_context import (private_evidence, private_person_in_sentence,
                                                                 private_person_in_text)
from ztgate.redaction.detection.public.encyclopedic_persons import UPPER, asks

_CAP = f"[{re.escape(UPPER)}]"
# One name: capitalised words, hyphens inside ("Jean-Baptiste"), particles between ("du", "de", "d'").
NAME = (rf"{_CAP}[\w’'.\-]*(?:[ \t]+(?:(?:de|du|da|di|del|della|des|van|von|der|den|la|le|al|ibn|bin)[ \t]+|"
        rf"d['’])?{_CAP}[\w’'.\-]*){{0,3}}")
_NAME_RE = re.compile(NAME)

# What only a ruler has: "the reign of NAME", "the empire of NAME", "under the rule of NAME".
# (Not "tomb", "court", "descendants", "successors": a family's history asks of those of a private person.)
_REALM = r"reign|rule|empire|dynasty|kingdom|realm|conquests?|coronation|edicts?|inscriptions?"
_REALM_OF = re.compile(rf"(?i)\bthe\s+(?:(?:early|late|later|long|short|great|vast)\s+)?(?:{_REALM})\s+of\s+$")
# After a possessive, only what no one owns as a thing ("NAME's empire" or "NAME's telescope" may be anyone's lost
# object: "Where did NAME's telescope go?", public_terms' own test).
_REALM_OWNED = r"reign|conquests|coronation|edicts|inscriptions"
_REALM_AFTER = re.compile(rf"(?i)['’]s?[ \t]+(?:(?:early|late|later|long|short|great)[ \t]+)?(?:{_REALM_OWNED})\b")
# A figure's instrument or expedition: "NAME's pendulum", "NAME's Fram expedition" (not a theory, a map or an
# experiment: work talk says those of a colleague's surname; not a telescope or a pendulum clock: anyone's).
_INSTRUMENTS = (r"pendulum(?!\s+clock)|chronometers?|escapement|sextant|"
                r"orrery|astrolabe|spectroscope|galvanometer|electroscope|calculating\s+machine|"
                r"difference\s+engine|analytical\s+engine|expeditions?|voyages?|circumnavigation")
_INSTRUMENT_AFTER = re.compile(
    rf"['’]s?[ \t]+(?:(?:first|second|third|last|famous|marine|lever|reflecting|refracting|polar|"
    rf"Antarctic|Arctic|{_CAP}[\w\-]*)[ \t]+)?(?i:{_INSTRUMENTS})\b")
# "Who was NAME?" alone: the name ends the question.
_WHO_WAS = re.compile(r"(?i)(?:^|[\s¿\"“(])who\s+(?:was|were)\s+$")
_AFTER_WHO = re.compile(r"[ \t]*(?:\?|$|,?[ \t]+and[ \t]+(?:what|why|how|when|where|which)\b)")


def topic_figure(text: str, start: int, end: int) -> bool:
    """text[start:end] is a figure in a ruler's, an instrument's or a lone "Who was" frame (module doc)."""
    value = text[start:end]
    value = value[:-2] if value.endswith(("'s", "’s")) else value
    name_end = start + len(value)
    if _NAME_RE.fullmatch(value) is None or person_frame(text, start, name_end):
        return False
    ruler = (_REALM_OF.search(text, max(0, start - 40), start) is not None
             or _REALM_AFTER.match(text, name_end, min(len(text), name_end + 40)) is not None)
    other = (_INSTRUMENT_AFTER.match(text, name_end, min(len(text), name_end + 60)) is not None
             or (_WHO_WAS.search(text, max(0, start - 20), start) is not None
                 and _AFTER_WHO.match(text, name_end, min(len(text), name_end + 30)) is not None))
    if ruler:
        return not private_person_in_sentence(text, start, end)
    if not (other and asks(text, start, name_end)) or private_evidence(text, start, end):
        return False
    return not (given_name(value.split()[0]) and private_person_in_text(text, start, end))


@dataclass(frozen=True, slots=True)
class TopicFigures(FramePublicList):
    """A figure in a frame only a figure of history or science stands in is kept (module doc)."""

    def in_frame(self, text: str, start: int, end: int, entity_type: str) -> bool:
        return topic_figure(text, start, end)


def load() -> PublicList:
    return TopicFigures("topic_figures", frozenset({"PERSON", "LOCATION", "NRP"}), frozenset())
