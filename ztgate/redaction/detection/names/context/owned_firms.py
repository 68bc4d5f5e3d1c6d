"""A family firm that is someone's, named by its founders' surname and a founder's suffix: "my uncle's company
Pettigrew & Sons", "his firm, Okafor Brothers", "eine Firma, Quast & Söhne", "son entreprise Maréchaux Frères".
The surname is a private person's (the owner's family), and NER, seeing a company, leaves it; the owner's words
before it ("my", "his", "NAME's", "meine", "mon") say the firm is a private person's. ``OWNED_FIRM`` is the same
cue the public lists of firms (``founder_firms``, ``eponymous_firms``) refuse a name after."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.shapes import CAP_WORD

# (a possessive's word is tried from a word's start only: a scan stays linear in a long word)
_OWNER_EN = (r"(?:\b(?i:my|our|his|her|their|your)|(?<![\w\-])[\w\-]+['’]s)[ \t]+(?i:(?:own|family|little|small|new|old)[ \t]+)*"
             r"(?i:company|firm|business|shop|workshop|factory|brand|label|studio)")
_OWNER_OTHER = (r"\b(?i:mein|meine|meiner|unser|unsere|sein|seine|ihr|ihre|eine)[ \t]+(?:Firma|Werkstatt|Manufaktur)"
                r"|\b(?i:mon|ma|notre|son|sa|leur)[ \t]+(?i:entreprise|société|maison|atelier|boutique)"
                r"|\b(?i:mi|su|nuestra|nuestro)[ \t]+(?i:empresa|firma|taller|tienda)")
# Someone's firm, right before its name (an optional comma, "called", "named").
OWNED_FIRM = re.compile(rf"(?:{_OWNER_EN}|{_OWNER_OTHER})[ \t]*,?[ \t]*(?:(?i:called|named|namens|appelée)[ \t]+)?$")
_SUFFIX = (r"(?:[ \t]*(?:&|and|und|et|e|y)[ \t]+(?:Sons?|Söhne|Sohn|Fils|Figli|Hijos|Filhos|Daughters|Co\.?|Cie\.?)"
           r"|[ \t]+(?:Frères|Brothers|Bros\.?|Gebrüder|Hermanos|Fratelli|Irmãos))(?![\w\-])")
_FIRM = re.compile(rf"(?:{_OWNER_EN}|{_OWNER_OTHER})[ \t]*,?[ \t]*(?:(?i:called|named|namens|appelée)[ \t]+)?"
                   rf"(?P<name>{CAP_WORD}(?:[ \t]+{CAP_WORD}){{0,2}}){_SUFFIX}")


class OwnedFirmRecognizer(ContextRule):
    """The founders' surname of a private person's family firm (module doc)."""

    NAME = "OwnedFirmRecognizer"
    SCORE = 0.85
    ENTITIES = ("PERSON",)

    def find(self, text: str) -> list[Span]:
        return [(m.start("name"), m.end("name"), "PERSON") for m in _FIRM.finditer(text)]
