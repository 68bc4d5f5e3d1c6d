"""Public list ``dish_names``: a dish or a food named for a people or a place, by its head noun, with no list of
dishes: a demonym, a people's or a place's name right before a dish's head, with at most two food words between
("Hainanese chicken rice", "Neapolitan pizza", "Peking duck", "Wiener Schnitzel", "Welsh rarebit", "Nashville hot
chicken"; the heads are ``data/public/dish_heads.txt``, written by hand, source and licence there and in
THIRD_PARTY_NOTICES.md). The name is kept for the dish it opens, never by itself: a possessive after it ("Anna's
curry"), a PERSON span of more than one word or a known given name, a value with digits, a cue only a person
follows, or a verb of addressing before it ("Tell Okafor rice is ready") is never read so; ``person_ties`` applies
on top. PERSON, LOCATION and NRP; the default policy keeps it, strict does not."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.public import FramePublicList, PublicList, data_words
from ztgate.redaction.detection.public._data import read_lines
from ztgate.redaction.detection.text_shape import person_after, person_cue_before

_NAME = re.compile(r"[^\W\d_][\w'’\-]*(?:[ \t]+(?:de|di|del|la|[^\W\d_][\w'’\-]*)){0,2}")
# A verb of addressing right before the name: what follows is a person, whatever comes after.
_ADDRESSED = re.compile(
    r"(?i)\b(?:tell|told|ask|asked|call|called|text|e-?mail|remind|thank|ping|cc|invite|give|gave|send|sent|bring|"
    r"brought|let)\s+$")
# Words of food that may stand between the name and the head ("hot", "chilli", "fried", "roast").
_BETWEEN = r"(?:[a-zà-ÿ][\w\-]*[ \t]+){0,2}?"


@functools.cache
def _heads() -> re.Pattern[str]:
    heads = sorted((re.escape(h).replace(r"\ ", r"[ \t]+") for h in data_words(read_lines("dish_heads.txt"))),
                   key=len, reverse=True)
    return re.compile(rf"(?i:[ \t]+{_BETWEEN}(?:{'|'.join(heads)})(?:e?s)?)\b")


@dataclass(frozen=True, slots=True)
class DishNames(FramePublicList):
    """A people's or a place's name that opens a dish's name is kept (module doc)."""

    def in_frame(self, text: str, start: int, end: int, entity_type: str) -> bool:
        value = text[start:end]
        if (_NAME.fullmatch(value) is None or text[end:end + 1] in ("'", "’")
                or person_cue_before(text, start) or person_after(text, end)):
            return False
        if entity_type == "PERSON" and given_name(value.split()[0]):
            return False
        if _ADDRESSED.search(text, max(0, start - 20), start) is not None and entity_type == "PERSON":
            return False  # "cook for Okafor", "bring Mensah": a person
        return _heads().match(text, end, min(len(text), end + 40)) is not None


def load() -> PublicList:
    return DishNames("dish_names", frozenset({"PERSON", "LOCATION", "NRP"}), frozenset())
