"""A first name before the writer's relation set off by commas ("Ambrosine, my daughter, wants to know ...",
"Linnéa, our little one, saw swans", "Benedikt Amoah-Sørensen, my brother-in-law, says ..."): the relation after
the name says whose it is, where NER and the given-name list know neither name (ADR 0047). The relation words are
``relation_first_names``' (the family, friends, colleagues, people one hires, a child by rank); a public figure
follows no possessive of the writer's ("Bach, my favourite composer," names a taste: a word of taste is no
relation)."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import CuedNameRule
from ztgate.redaction.detection.names.context.relation_first_names import PERSONS
from ztgate.redaction.detection.names.context.shapes import CAP_WORD

_CUE = re.compile(
    rf"(?<![\w'’])({CAP_WORD}(?:[ \t]+{CAP_WORD}){{0,2}})[ \t]*,[ \t]+(?i:my|our)[ \t]+"
    rf"(?:(?i:little|older|younger|big|baby|eldest|youngest|oldest|twin)[ \t]+)?(?i:{PERSONS})(?:['’]s)?[ \t]*[,;:.)!?]")


class KinAppositionRecognizer(CuedNameRule):
    NAME = "KinAppositionRecognizer"
    SCORE = 0.9
    CUE = _CUE
