"""Public list ``facilities``: a named facility, structure or instrument by its shape, with no list of names:
a definite article, one to four capitalised words and a head (``data/public/facility_heads.txt``): "the Millau
Viaduct", "the Large Hadron Collider", "the Relativistic Heavy Ion Collider". spaCy reads such names as a place
(FAC) or cuts them into a person ("Hadron Collider"), so the list holds for LOCATION and PERSON. A street is
not a head, and a text that ties the name to a person ("I live near the Millau Viaduct") still hides it
(``person_ties``)."""

from __future__ import annotations

from ztgate.redaction.detection.public import PublicList, data_words, heads_pattern
from ztgate.redaction.detection.public._data import read_lines


def load() -> PublicList:
    return PublicList("facilities", frozenset({"LOCATION", "PERSON"}), frozenset(),
                      patterns=(heads_pattern(data_words(read_lines("facility_heads.txt")), words_before=4),),
                      after_the=True)
