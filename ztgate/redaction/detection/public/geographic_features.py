"""Public list ``geographic_features``: well-known natural features named without a head word, a peak, a volcano, a
desert or an erg, a glacier, a river, a lake, a waterfall, a canyon, an island ("How high is Aconcagua?", "the Erg
Chebbi", "Can you hike Kilimanjaro in June?"; ``data/public/geographic_features.txt``, written by hand, source and
licence there and in THIRD_PARTY_NOTICES.md). spaCy reads many as persons. Kept where the span, or a longer name
around it, is on the list; never after a cue only a person follows ("Ask") or before a verb of people ("says"); a
person carrying such a name is a longer name off the list ("Aconcagua Pérez"); a listed word that is also a known
given name ("Ararat") is kept only in a text with no evidence of a private person. ``person_ties`` applies on top.
The default policy keeps it, strict does not."""

from __future__ import annotations

from dataclasses import dataclass

from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.public import PublicList, canonical, data_words, enclosing_names
from ztgate.redaction.detection.public._data import read_lines
from ztgate.redaction.detection.public._private_context import private_person_in_text
from ztgate.redaction.detection.text_shape import person_after, person_cue_before


@dataclass(frozen=True, slots=True)
class GeographicFeatures(PublicList):
    """A listed natural feature (module doc)."""

    def holds_at(self, text: str, start: int, end: int, entity_type: str) -> bool:
        if entity_type not in self.entity_types or not 0 <= start < end <= len(text):
            return False
        if person_cue_before(text, start) or person_after(text, end):
            return False  # "Ask Etna about it", "Denali says": a person, whatever the name
        spans = ((start, end), *enclosing_names(text, start, end))
        listed = [text[a:b] for a, b in spans if self.has(text[a:b])]
        if not listed:
            return False
        if all(" " not in v.strip() and given_name(canonical(v)) for v in listed):
            return not private_person_in_text(text, start, end)  # "Ararat" is a given name too
        return True


def load() -> PublicList:
    names = frozenset(canonical(line) for line in data_words(read_lines("geographic_features.txt")))
    return GeographicFeatures("geographic_features", frozenset({"PERSON", "LOCATION", "NRP"}), names)
