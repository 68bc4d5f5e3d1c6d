"""Public list ``trade_routes``: historical and modern trade routes, roads, trails and sea lanes
(``data/public/trade_routes.txt``, written by hand): "the Silk Road" is a topic, not an address. Holds for
LOCATION and PERSON (spaCy reads some as a person)."""

from __future__ import annotations

from ztgate.redaction.detection.public import PublicList, from_lines
from ztgate.redaction.detection.public._data import read_lines


def load() -> PublicList:
    return from_lines("trade_routes", frozenset({"LOCATION", "PERSON"}), read_lines("trade_routes.txt"))
