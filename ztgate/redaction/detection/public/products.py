"""Public list ``products``: products, devices, software and services known by name (``data/public/products.txt``,
written by hand; trademarks belong to their owners). spaCy reads some as a person or a place ("Kindle
Paperwhite", "Galaxy"), so the list holds for PERSON, LOCATION and NRP."""

from __future__ import annotations

from ztgate.redaction.detection.public import PublicList, from_lines
from ztgate.redaction.detection.public._data import read_lines


def load() -> PublicList:
    return from_lines("products", frozenset({"PERSON", "LOCATION", "NRP"}), read_lines("products.txt"))
