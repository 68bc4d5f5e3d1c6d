"""Public list ``natural_features``: named deserts, trenches, seas, straits, rivers, lakes, mountains, reefs and
the like, by shape (``data/public/natural_features.txt``, written by hand: the words that end or start such a
name): "the Sahara Desert", "the Mariana Trench", "Mount Kilimanjaro", "the Strait of Gibraltar". Holds for
LOCATION and PERSON (spaCy reads some as a person); an address or a residence is caught by ``person_ties``."""

from __future__ import annotations

import re

from ztgate.redaction.detection.public import PublicList, data_words, heads_pattern
from ztgate.redaction.detection.public._data import read_lines


def load() -> PublicList:
    words = data_words(read_lines("natural_features.txt"))
    heads = [w for w in words if not w.endswith(" *")]
    starts = "|".join(re.escape(w.removesuffix(" *").casefold()) for w in words if w.endswith(" *"))
    start_pattern = re.compile(rf"(?:{starts}) [^\W\d_][\w'’.\-]*(?: [^\W\d_][\w'’.\-]*){{0,2}}")
    return PublicList("natural_features", frozenset({"LOCATION", "PERSON"}), frozenset(),
                      (heads_pattern(heads), start_pattern))
