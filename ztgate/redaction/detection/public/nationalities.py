"""Public list ``nationalities``: nationalities, religions and political groups as topics ("the French
Revolution", "Roman law"), from the gazetteer's own list (``data/nrp.txt``, written by hand) and its plurals.
Said of a person ("I am Catholic", "she is Kurdish") they are hidden (``person_ties``)."""

from __future__ import annotations

from ztgate.redaction.data_dirs import DATA_DIR
from ztgate.redaction.detection.public import PublicList, from_lines

_NRP_FILE = DATA_DIR / "nrp.txt"


def load() -> PublicList:
    lines = [line for line in _NRP_FILE.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    words = [w.strip() for w in lines if w.strip()]
    return from_lines("nationalities", frozenset({"NRP"}), words + [w + "s" for w in words])
