"""Public list ``public_terms``: a term named after a person or a place, by its shape, with no list of names: a
capitalised name right before a head noun of such a term (``data/public/term_heads.txt``: "the Fahrenheit
scale", "a Bunsen burner", "the Ming dynasty", "the Oort Cloud", "the Gold Rush", "Down syndrome", "the Stanley
Cup", "the Hubble Space Telescope"), and a feature "of" a named thing ("the Valley of the Queens", "the Gulf of
Aden", "Cape of Good Hope"). spaCy takes the name part as a person or a place; the whole term is public. A
possessive is no such term ("Anna's cup"), and a title, a greeting or a relation before the name still ties it
to a person (``person_ties``)."""

from __future__ import annotations

import re

from ztgate.redaction.detection.public import PublicList, data_words, heads_pattern
from ztgate.redaction.detection.public._data import read_lines

# The words that open a named feature "of" something ("Valley of the Kings").
FEATURE_STARTS = ("valley", "gulf", "cape", "bay", "lake", "mount", "isle", "sea", "strait", "straits", "cliffs",
                  "pillars", "rock", "hill", "vale")


def load() -> PublicList:
    heads = data_words(read_lines("term_heads.txt"))
    alternatives = "|".join(sorted((re.escape(h.casefold()) for h in heads), key=len, reverse=True))
    # Right after the name: a space and the head, not a possessive ("Geiger counter", not "Anna's cup").
    after = re.compile(rf"(?i)[ \t]+(?:{alternatives})\b")
    starts = "|".join(FEATURE_STARTS)
    feature_of = re.compile(rf"(?:{starts}) of (?:the )?[^\W\d_][\w'’.\-]*(?: [^\W\d_][\w'’.\-]*){{0,2}}")
    return PublicList("public_terms", frozenset({"PERSON", "LOCATION", "NRP"}), frozenset(),
                      patterns=(heads_pattern(heads, words_before=3), feature_of), followed_by=after)
