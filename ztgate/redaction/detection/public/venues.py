"""Public list ``venues``: arenas, stadiums, halls, theatres and concert houses by the shape of their names, with no
list of names (``data/public/venue_heads.txt``, written by hand): a starting word in the languages such names are
written in ("Estádio do Maracanã", "Palau de la Música Catalana") in any sentence, or an ending word ("the Nippon
Budōkan", "the Ryōgoku Kokugikan", "Hallenstadion") after "the" or in a sentence about an event (a concert, a match,
tickets), since "Hall", "Garden" and "Field" end persons' names too. Diacritics and macrons are letters of the
name. Never a name opened by a known given name ("Anna Hall"), after a cue only a person follows, a title or a
relation noun, nor before a verb of people (``_person_frame``); ``person_ties`` applies on top ("I work at the
Olympiastadion"). PERSON, LOCATION and NRP; the default policy keeps it, strict does not."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.public import PublicList, canonical, data_words, enclosing_names
from ztgate.redaction.detection.public._data import read_lines
from ztgate.redaction.detection.public._person_frame import home_before, person_frame
from ztgate.redaction.detection.text_shape import sentence_bounds

_WORD = r"[^\W\d_][\w'’.\-]*"
_SMALL = r"(?:do|da|dos|das|de|del|dels|de la|de las|de los|des|du|di|della|delle|dei|of|of the|d'|l')"
_EVENT = re.compile(r"(?i)\b(?:concerts?|gigs?|match(?:es)?|games?|tournaments?|tickets?|seats?|stage|perform\w*|"
                    r"play(?:s|ed|ing)?|venue|festival|opera|ballet|show|fight|bout|sumo|wrestling|cup|final|league|"
                    r"season|capacity|built|opened|sold[ -]out|tour)\b")
# Ending words that close a compound too ("Hallenstadion", "Olympiahalle").
_COMPOUNDS = "stadion|stadium|halle|arena|philharmonie"
_ENDS = re.compile(r"[.!?\n]")
REACH = 200


def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    words = data_words(read_lines("venue_heads.txt"))
    heads = "|".join(sorted((re.escape(w.casefold()) for w in words if not w.endswith(" *")), key=len, reverse=True))
    starts = "|".join(sorted((re.escape(w.removesuffix(" *").casefold()) for w in words if w.endswith(" *")),
                             key=len, reverse=True))
    ending = re.compile(rf"(?:{_WORD} ){{1,3}}(?:{heads})|(?:{_WORD} ){{0,3}}[^\W\d_][\w'’.\-]*?(?:{_COMPOUNDS})")
    starting = re.compile(rf"(?:{starts})(?: {_SMALL})? {_WORD}(?: (?:{_SMALL} )?{_WORD}){{0,3}}")
    return ending, starting


@dataclass(frozen=True, slots=True)
class Venues(PublicList):
    """A venue by the shape of its name (module doc)."""

    def holds_at(self, text: str, start: int, end: int, entity_type: str) -> bool:
        if entity_type not in self.entity_types or not 0 <= start < end <= len(text):
            return False
        ending, starting = self.patterns
        for a, b in ((start, end), *enclosing_names(text, start, end)):
            value = canonical(text[a:b])
            if given_name(value.split()[0]) or person_frame(text, a, b) or home_before(text, a):
                continue
            if starting.fullmatch(value) is not None:
                return True
            if ending.fullmatch(value) is not None and self._venue_sentence(text, a, b):
                return True
        return False

    @staticmethod
    def _venue_sentence(text: str, start: int, end: int) -> bool:
        if re.search(r"(?i)\bthe\s+$", text[max(0, start - 5):start]) or text[start:start + 4].casefold() == "the ":
            return True
        lo, hi = sentence_bounds(text, start, end, _ENDS, REACH)
        # The event's word outside the name: "Kaka Opera House" is no event by its own "Opera".
        return _EVENT.search(text, lo, start) is not None or _EVENT.search(text, end, hi) is not None


def load() -> PublicList:
    return Venues("venues", frozenset({"PERSON", "LOCATION", "NRP"}), frozenset(), patterns=_patterns())
