"""Public list ``eponyms``: a name that the words after it make a law, an effect, a constant or another thing
of science named after a person ("Ohm's law", "the Doppler effect", "the Krebs cycle",
"the Pauli exclusion principle"). The name is kept as a topic: the sentence is about the law, not the person.
The heads are ``data/public/eponym_heads.txt`` (written by hand). Holds for PERSON, LOCATION and NRP (spaCy
reads "Pauli" as a place); a title or a greeting before the name still ties it to a person (``person_ties``)."""

from __future__ import annotations

import re

from ztgate.redaction.detection.public import PublicList, data_words
from ztgate.redaction.detection.public._data import read_lines


def load() -> PublicList:
    heads = "|".join(sorted((re.escape(h.casefold()) for h in data_words(read_lines("eponym_heads.txt"))),
                            key=len, reverse=True))
    # "'s law", " effect", "'s third law", " exclusion principle": at most one word before the head.
    after = re.compile(rf"(?i)(?:['’]s?)?[ \t]+(?:[a-z][\w\-]*[ \t]+)?(?:{heads})\b")
    return PublicList("eponyms", frozenset({"PERSON", "LOCATION", "NRP"}), frozenset(), followed_by=after)
