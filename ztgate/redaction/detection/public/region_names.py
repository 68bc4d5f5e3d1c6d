"""Public list ``region_names``: regions, coasts, archipelagos, provinces and the like by the shape of their names,
with no list of names: a region's starting word (``data/public/region_starts.txt``: "Costa", "Islas", "Ribera",
"Bay", "Isles"), a small word ("del", "de la", "de los", "do", "of", "of the") and one to three capitalised words
("Costa del Sol", "Islas de la Bahía", "Ribera del Duero", "Isles of Scilly", "Río de la Plata" is a river's). spaCy
reads many as persons. Never after a cue only a person follows, a title or a relation noun, nor before a verb of
people, nor after a home's words (``_person_frame``); a name opened by a starting word that is also a known given
name ("Isla de la Cruz", "Tierra del ...") only in a text with no evidence of a private person. ``person_ties`` applies on top ("I live on the Costa del
Sol"). PERSON, LOCATION and NRP; the default policy keeps it, strict does not."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.public import PublicList, canonical, data_words, enclosing_names
from ztgate.redaction.detection.public._data import read_lines
from ztgate.redaction.detection.public._person_frame import home_before, person_frame
from ztgate.redaction.detection.public._private_context import private_person_in_text

_SMALL = r"(?:del|dels|de la|de las|de los|de|des|du|do|da|dos|das|di|della|dei|of the|of|d'|l')"
_WORD = r"[^\W\d_][\w'’.\-]*"


def _pattern() -> re.Pattern[str]:
    starts = "|".join(sorted((re.escape(w.casefold()) for w in data_words(read_lines("region_starts.txt"))),
                             key=len, reverse=True))
    return re.compile(rf"(?:{starts}) {_SMALL} ?{_WORD}(?:[ \-](?:(?:de|del|la|y|e|i|and) )?{_WORD}){{0,2}}")


@dataclass(frozen=True, slots=True)
class RegionNames(PublicList):
    """A region by the shape of its name (module doc)."""

    def holds_at(self, text: str, start: int, end: int, entity_type: str) -> bool:
        if entity_type not in self.entity_types or not 0 <= start < end <= len(text):
            return False
        (pattern,) = self.patterns
        for a, b in ((start, end), *enclosing_names(text, start, end)):
            value = canonical(text[a:b])
            if pattern.fullmatch(value) is None or person_frame(text, a, b) or home_before(text, a):
                continue
            return not given_name(value.split()[0]) or not private_person_in_text(text)
        return False


def load() -> PublicList:
    return RegionNames("region_names", frozenset({"PERSON", "LOCATION", "NRP"}), frozenset(), patterns=(_pattern(),))
