"""Public list ``public_figures``: well-known public and historical figures (``data/public/public_figures.txt``,
written by hand). A figure's name is kept as a topic; a person who shares it is still hidden when the text ties
the name to a person (a title, a relation, a contact value: ``person_ties``)."""

from __future__ import annotations

from ztgate.redaction.detection.public import PublicList, from_lines
from ztgate.redaction.detection.public._data import read_lines


def load() -> PublicList:
    return from_lines("public_figures", frozenset({"PERSON"}), read_lines("public_figures.txt"))
