"""Public list ``organisations``: companies, institutions, brands, products and software known to the public
(``data/public/organisations.txt``, written by hand). spaCy's small model reads many of them as a person or a
place, so the list holds for PERSON, LOCATION and NRP detections alike."""

from __future__ import annotations

from ztgate.redaction.detection.public import PublicList, from_lines
from ztgate.redaction.detection.public._data import read_lines


def load() -> PublicList:
    return from_lines("organisations", frozenset({"PERSON", "LOCATION", "NRP"}), read_lines("organisations.txt"))
