"""Public list ``protected_designations``: protected names of food and drink (designations of origin, geographical
indications, traditional specialities: "Parmigiano Reggiano", "Roquefort", "Champagne", "Tokaji"), kept where a
PERSON, LOCATION or NRP span is one of them, or is one with the product noun right after it ("Serrano ham", "Comté
cheese"), or is part of one ("Bufala" in "Mozzarella di Bufala Campana"), or opens the span with its grade after it
in lower case ("Jamón ibérico de bellota"). spaCy reads such names as persons or places. The names are
``data/public/protected_designations.txt`` (written by hand from general knowledge of the EU's register and national
laws; source and licence there and in THIRD_PARTY_NOTICES.md). A cue only a person follows ("Ask", "paged") or a
verb of people after it ("says") is never read so, and a title, a greeting or a relation before the name still ties
it to a person (``person_ties``). The default policy keeps it, strict does not (it keeps only countries and
regions)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ztgate.redaction.detection.public import PublicList, canonical, data_words, enclosing_names
from ztgate.redaction.detection.public._data import read_lines
from ztgate.redaction.detection.text_shape import person_after, person_cue_before

# Product nouns that may follow a protected name in English ("Serrano ham", "Kalamata olives").
_PRODUCT_AFTER = re.compile(
    r"[ \t]+(?:cheese|ham|wine|wines|olives|olive\s+oil|oil|vinegar|sausages?|salami|pie|pies|potatoes|beef|lamb|"
    r"cream|honey|tea|coffee|rice|brandy|whisky|whiskey|liqueur|beer|ale|cider|gin|pepper|peppers|saffron|"
    r"lentils|prunes|tomatoes|onions|bread)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ProtectedDesignations(PublicList):
    """A protected name of food or drink (module doc)."""

    def holds_at(self, text: str, start: int, end: int, entity_type: str) -> bool:
        if entity_type not in self.entity_types or not 0 <= start < end <= len(text):
            return False
        if person_cue_before(text, start) or person_after(text, end):
            return False  # "Ask Roquefort about it", "Chablis says": a person, whatever the name
        if self.has(text[start:end]) or any(self.has(text[a:b]) for a, b in enclosing_names(text, start, end)):
            return True
        after = _PRODUCT_AFTER.match(text, end, min(len(text), end + 30))
        if after is not None and self.has(text[start:after.end()]):
            return True
        return self._graded(text[start:end])

    def _graded(self, value: str) -> bool:
        """A listed name with its grade or style after it in lower-case words only ("Jamón ibérico de bellota",
        "Jamón Ibérico de cebo de campo"): no capitalised word, so no private name, is kept by it."""
        words = value.split()
        for cut in range(len(words) - 1, 0, -1):
            if all(w[:1].islower() for w in words[cut:]) and self.has(" ".join(words[:cut])):
                return True
        return False


def load() -> PublicList:
    names = frozenset(canonical(line) for line in data_words(read_lines("protected_designations.txt")))
    return ProtectedDesignations("protected_designations", frozenset({"PERSON", "LOCATION", "NRP"}), names)
