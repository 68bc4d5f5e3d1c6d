"""Public list ``landmarks``: landmarks, buildings, natural features and celestial bodies known to the public
(``data/public/landmarks.txt``, written by hand); spaCy reads some as a person ("Kilimanjaro"), so the list
holds for PERSON detections too. Instruments and craft are named by shape: words and then a head ("the James Webb
Space Telescope", "the Arecibo Observatory", "the Perseverance Rover"), which spaCy cuts or reads as a person."""

from __future__ import annotations

from ztgate.redaction.detection.public import PublicList, from_lines, heads_pattern
from ztgate.redaction.detection.public._data import read_lines


HEADS = ["Space Telescope", "Telescope", "Observatory", "Space Station", "Space Center", "Space Centre", "Rover",
         "Space Probe", "Lander", "Orbiter"]


def load() -> PublicList:
    return from_lines("landmarks", frozenset({"LOCATION", "PERSON"}), read_lines("landmarks.txt"),
                      patterns=(heads_pattern(HEADS),))
