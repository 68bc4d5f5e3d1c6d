"""A name set off by commas after a role of one's own organisation ("our CFO, Mira Patel, signed", "the head
nurse, Tomas Ruiz, said"): the role says the words are a person's name (issue #29). Roles are those of
data/words/person_roles.txt; a public office ("the president") is none of them."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import CuedNameRule
from ztgate.redaction.detection.names.context.shapes import CAP_WORD
from ztgate.redaction.detection.wordlists import words

_ROLES = "|".join(sorted((re.escape(w) for w in words("person_roles")), key=len, reverse=True))
_APPOSITION = re.compile(
    rf"\b(?i:our|my|the|their|your|his|her)[ \t]+(?:[a-z\-]+[ \t]+){{0,2}}(?i:{_ROLES})[ \t]*,[ \t]+"
    rf"({CAP_WORD}(?: {CAP_WORD}){{1,2}})[ \t]*[,(]")


class RoleAppositionRecognizer(CuedNameRule):
    NAME = "RoleAppositionRecognizer"
    SCORE = 0.9
    CUE = _APPOSITION
    GROUP_IS_NAME = True  # the commas close the name
