"""Public list ``landmarks``: landmarks, buildings, natural features and celestial bodies known to the public
(``data/public/landmarks.txt``, written by hand); spaCy reads some as a person ("Kilimanjaro"), so the list
holds for PERSON detections too."""

from __future__ import annotations

from ztgate.redaction.detection.public import PublicList, from_lines
from ztgate.redaction.detection.public._data import read_lines


def load() -> PublicList:
    return from_lines("landmarks", frozenset({"LOCATION", "PERSON"}), read_lines("landmarks.txt"))
