"""Public list ``materials``: a place's or a people's name that names a material, a fabric or a ware, by the
head noun after it ("Carrara marble", "Murano glass", "Shetland wool", "Bohemian crystal", "Shetland-Wolle") or
the head and a preposition before it ("toile de Jouy", "vetro di Murano"), and a German compound ending in a head
("Merinowolle"), with no list of materials: the heads
are ``data/public/material_heads.txt`` (written by hand). Never a possessive, a multi-word PERSON or a known given
name read as a PERSON, a value with digits, or a name after a cue only a person follows; ``person_ties`` applies on
top. PERSON, LOCATION and NRP; the default policy keeps it, strict does not."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.names.context.owned_firms import OWNED_FIRM
from ztgate.redaction.detection.public import FramePublicList, PublicList, data_words
from ztgate.redaction.detection.public._data import read_lines
from ztgate.redaction.detection.text_shape import person_after, person_cue_before

_NAME = re.compile(r"[^\W\d_][\w'’\-]*")
# A German compound that ends in a material's head is the material itself, no name ("Merinowolle", "Bleikristall").
_COMPOUND = re.compile(r"[A-ZÄÖÜ][a-zäöüß]{2,}(?:wolle|glas|marmor|seide|spitze|porzellan|kristall|leinen|stoff)")
# Prepositions that join a head before the place's name ("toile de Jouy", "vetro di Murano", "mármol de Macael").
_OF = r"(?:de|di|da|du|d['’]|del|della|do|dos|aus|von)"


@functools.cache
def _heads() -> tuple[re.Pattern[str], re.Pattern[str]]:
    heads = "|".join(sorted((re.escape(h) for h in data_words(read_lines("material_heads.txt"))), key=len,
                            reverse=True))
    # A lower-case head after a space, or any head after a hyphen (German compounds: "Shetland-Wolle").
    after = re.compile(rf"(?:[ \t]+(?-i:(?:{heads.lower()})s?)|-(?i:{heads})s?)\b")
    before = re.compile(rf"(?i)\b(?:toile|{heads})[ \t]+{_OF}[ \t]*$")
    return after, before


@dataclass(frozen=True, slots=True)
class Materials(FramePublicList):
    """A place's name that names a material, a fabric or a ware is kept (module doc)."""

    def in_frame(self, text: str, start: int, end: int, entity_type: str) -> bool:
        if _COMPOUND.fullmatch(text, start, end) is not None:
            return True
        after, before = _heads()
        hyphen = text.find("-", start, end)
        if hyphen > start and after.fullmatch(text, hyphen, end) is not None:
            end = hyphen  # NER took the compound whole: "Shetland-Wolle"
        value = text[start:end]
        if (_NAME.fullmatch(value) is None or text[end:end + 1] in ("'", "’")
                or person_cue_before(text, start) or person_after(text, end)
                or OWNED_FIRM.search(text, max(0, start - 60), start) is not None):
            return False  # (a firm that is someone's: "my uncle's company NAME pottery", ADR 0044)
        if entity_type == "PERSON" and given_name(value):
            return False
        return after.match(text, end, min(len(text), end + 30)) is not None or \
            before.search(text, max(0, start - 30), start) is not None


def load() -> PublicList:
    return Materials("materials", frozenset({"PERSON", "LOCATION", "NRP"}), frozenset())
