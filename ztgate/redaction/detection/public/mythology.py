"""Public list ``mythology``: names of mythology, religion and legend, gods, heroes, world trees, realms and mythical
places ("Valhalla", "Quetzalcoatl", "Avalon"; ``data/public/mythology.txt``, written by hand, source and licence
there and in THIRD_PARTY_NOTICES.md). spaCy reads many as persons or places. Kept as ``_guarded`` says: never after
a cue only a person follows or before a verb of people, never a listed word a capitalised word joins into a
person's name ("Freya Lindqvist"), and a listed word that is also a known given name ("Odin", "Athena") only in a
text with no evidence of a private person. ``person_ties`` applies on top. The default policy keeps it, strict
does not."""

from __future__ import annotations

from ztgate.redaction.detection.public import PublicList, canonical, data_words
from ztgate.redaction.detection.public._data import read_lines
from ztgate.redaction.detection.public._guarded import GuardedNames


def load() -> PublicList:
    names = frozenset(canonical(line) for line in data_words(read_lines("mythology.txt")))
    return GuardedNames("mythology", frozenset({"PERSON", "LOCATION", "NRP"}), names)
