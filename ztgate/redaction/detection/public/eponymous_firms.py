"""Public list ``eponymous_firms``: a company or a maker's brand named after a person (a jeweller, a glassworks,
a porcelain or pottery factory, a fashion house), kept where the words around the name speak of the firm, its
products or its history, by the frame, never by the name: a maker's noun right after it ("the Fabergé workshop",
"Wedgwood pottery", "Gallé glass", "the Zsolnay factory"; hyphened and inflected in Hungarian: "a Zwack-cég",
"a Zsolnay-gyárat", "Herendi-porcelánt"), or a firm's noun right before it in a firm's frame ("die Firma Steiff",
"la maison Boucheron", "la manifattura Ginori", "the House of Worth", "a empresa ..."). spaCy reads such names as
persons.

Never where the firm is someone's ("my uncle's company", "his firm", "meine Firma"; ``owned_firms.OWNED_FIRM``), after a
relation or a title or before a verb of people (``person_frame``), where a capitalised word joins the name as a
person's given name before a surname ("the Tom Brannigan workshop"), or where the paragraph holds private
evidence about the name (``private_evidence``); ``person_ties`` applies on top. PERSON, LOCATION and NRP; the
default policy keeps it, strict does not. Cue words written by hand for ztgate."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.names.context.owned_firms import OWNED_FIRM
from ztgate.redaction.detection.public import FramePublicList, PublicList
from ztgate.redaction.detection.public._person_frame import person_frame
from ztgate.redaction.detection.public._private_context import private_evidence
from ztgate.redaction.detection.public.encyclopedic_persons import UPPER

_CAP = f"[{re.escape(UPPER)}]"
_NAME = re.compile(rf"{_CAP}[\w’'.]*(?:[ \t]+{_CAP}[\w’'.]*){{0,2}}")
# A maker's noun right after the name: what the firm made or was (not a family, "dynasty", "-család": a private
# person's family is named so too).
_MAKER = (r"workshops?|ateliers?|glassworks|glass|crystal|porcelain|china|pottery|potteries|faience|ceramics|"
          r"stoneware|majolica|jewell?ery|jewels|eggs|silverware|silver|cutlery|watches|clocks|perfumes?|"
          r"manufactory|factory|factories|works|brewery|distillery|fashion\s+house|couture|brand|label|"
          r"company|firm|vases?|figurines|tiles|chandeliers|pianos|teddy\s+bears?|toys")
_MAKER_AFTER = re.compile(rf"(?i)[ \t]+(?:{_MAKER})\b")
# Hungarian: the maker's noun hyphened to the name and inflected ("Zsolnay-gyárat", "Zwack-céget").
_HU_MAKER_AFTER = re.compile(r"(?i)-(?:gyár|cég|porcelán|manufaktúr|üzem|márk|kerámi|üveg|ékszer)\w*")
# A firm's noun right before the name, in the languages read: "die Firma", "la maison", "the House of".
_FIRM_BEFORE = re.compile(
    r"(?i)(?:\b(?:the\s+)?house\s+of|\b(?:die|der)\s+(?:Firma|Manufaktur|Porzellanmanufaktur|Glashütte|"
    r"Schmuckmanufaktur|Marke|Modehaus)|\bdas\s+(?:Unternehmen|Modehaus|Haus)|"
    r"\b(?:la|une)\s+(?:maison|manufacture|cristallerie|faïencerie|marque|firme|société)|"
    r"\b(?:les)\s+(?:cristalleries|manufactures|établissements)|"
    r"\b(?:la)\s+(?:manifattura|ditta|casa\s+di\s+moda|vetreria|fabbrica|maison)|"
    r"\b(?:la)\s+(?:casa|empresa|firma|marca|fábrica)|\ba\s+(?:empresa|fábrica|marca|casa)|"
    r"\bo\s+(?:ateliê|atelier))[ \t]+$")
# The firm's noun where spaCy took it in with the name ("Firma Steiff", "Maison Boucheron").
_FIRM_LEAD = re.compile(r"(?i)(?:Firma|Manufaktur|Porzellanmanufaktur|Modehaus|Unternehmen|Maison|Manufacture|"
                        r"Cristallerie|Manifattura|Ditta|Empresa|Casa)[ \t]+")
_WORD_BEFORE = re.compile(rf"({_CAP}[\w’'\-]*)[ \t]+$")


def eponymous_firm(text: str, start: int, end: int) -> bool:
    """text[start:end] names a firm named after a person, in a firm's frame (module doc)."""
    value = text[start:end]
    hu = re.fullmatch(r"(.+?)(-\w+)", value)
    if hu is not None and _HU_MAKER_AFTER.fullmatch(hu.group(2)) is not None:
        value, end = hu.group(1), start + len(hu.group(1))  # spaCy took the maker's noun in ("Zwack-cég")
    lead = _FIRM_LEAD.match(value)
    led = lead is not None and _FIRM_BEFORE.search(text, max(0, start - 60), start + lead.end()) is not None
    if led and lead is not None:
        value, start = value[lead.end():], start + lead.end()  # spaCy took the firm's noun in ("Firma Steiff")
    if _NAME.fullmatch(value) is None or person_frame(text, start, end):
        return False
    before_lo = max(0, start - 60)
    if OWNED_FIRM.search(text, before_lo, start) is not None:
        return False
    after = text[end:min(len(text), end + 40)]
    firm_before = led or _FIRM_BEFORE.search(text, before_lo, start) is not None
    if not (firm_before or _MAKER_AFTER.match(after) is not None or _HU_MAKER_AFTER.match(after) is not None):
        return False
    joined = None if firm_before else _WORD_BEFORE.search(text, max(0, start - 30), start)
    if joined is not None and given_name(joined.group(1)) and joined.start() > 0 \
            and text[:joined.start()].rstrip()[-1:] not in ".!?":
        return False  # "the Tom Brannigan workshop": a person's given name before the surname
    return not private_evidence(text, start, end)


@dataclass(frozen=True, slots=True)
class EponymousFirms(FramePublicList):
    """A firm named after a person is kept in a firm's frame (module doc)."""

    def in_frame(self, text: str, start: int, end: int, entity_type: str) -> bool:
        return eponymous_firm(text, start, end)


def load() -> PublicList:
    return EponymousFirms("eponymous_firms", frozenset({"PERSON", "LOCATION", "NRP"}), frozenset())
