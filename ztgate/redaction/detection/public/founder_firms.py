"""Public list ``founder_firms``: a company named after its founders by its suffix, with no list of names: "& Co.",
"& Sons", "& Partners", "Brothers", "Bros." and the like right after the name or ending it ("Tiffany & Co.",
"Salomon Brothers", "John Lewis & Partners"), or two surnames joined by "&" ("Abercrombie & Fitch"; neither a
known given name: "Anna & Tom" are two persons). spaCy reads the founders' names as persons and leaves the suffix
out. Never after a cue only a person follows, a title or a relation noun ("my neighbour"), nor before a verb of
people (``_person_frame``), nor where the firm is someone's ("my uncle's company", ``owned_firms.OWNED_FIRM``); a hyphenated surname is no suffix ("Brothers-Nakamura"); a name opened by a known given
name ("Tom Baker & Sons", a family business as often as a brand) only in a text with no evidence of a private
person. ``person_ties`` applies on
top. PERSON, LOCATION and NRP; the default policy keeps it, strict does not. Cue words written by hand for
ztgate."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.names.context.owned_firms import OWNED_FIRM
from ztgate.redaction.detection.public import FramePublicList, PublicList
from ztgate.redaction.detection.public._person_frame import person_frame
from ztgate.redaction.detection.public._private_context import private_person_in_text

# A firm's suffix after the founders' names; the name must end where the suffix ends (no hyphen or letter after).
_PARTNERS = r"(?:Co|Cie|Company|Sons|Son|Daughters|Partners|Associates|Brothers|Bros)"
SUFFIX = re.compile(rf"(?:[ \t]*(?:&|and)[ \t]+{_PARTNERS}\.?|[ \t]+(?:Brothers|Bros\.?|Frères|Hermanos|Fratelli|"
                    rf"Gebrüder))(?![\w\-])")
# The name itself ends with such a suffix ("Salomon Brothers", "Smith & Sons").
_ENDS_WITH = re.compile(rf"(?:\S[ \t]+(?:Brothers|Bros\.?|Frères|Hermanos|Fratelli)|[ \t]*(?:&|and)[ \t]+{_PARTNERS}\.?)$")
# A second founder's surname after "&", and the first before it.
_AND_SURNAME = re.compile(r"[ \t]*&[ \t]+([A-Z][\w'’\-]+)(?![\w\-])")
_SURNAME_AND = re.compile(r"([A-Z][\w'’\-]+)[ \t]*&[ \t]+$")


def _surnames(*names: str) -> bool:
    return all(not given_name(n) for n in names)


def founder_firm(text: str, start: int, end: int) -> bool:
    """text[start:end] names a firm by its founders' suffix (module doc)."""
    value = text[start:end].rstrip()
    if not value or person_frame(text, start, end):
        return False
    if given_name(value.split()[0]) and private_person_in_text(text):
        return False
    if OWNED_FIRM.search(text, max(0, start - 60), start) is not None:
        return False  # "my uncle's company Brannigan & Sons": someone's own firm
    if _ENDS_WITH.search(value) is not None or " & " in value:
        return True
    tail = SUFFIX.match(text, start + len(value))
    if tail is not None and not person_frame(text, start, tail.end()):
        return True
    words_of = value.split()
    if len(words_of) == 1:
        second = _AND_SURNAME.match(text, end)
        first = _SURNAME_AND.search(text, max(0, start - 40), start)
        if second is not None:
            return _surnames(words_of[0], second.group(1)) and not person_frame(text, start, second.end())
        if first is not None:
            return _surnames(first.group(1), words_of[0]) and not person_frame(text, first.start(1), end)
    return False


@dataclass(frozen=True, slots=True)
class FounderFirms(FramePublicList):
    """A firm named after its founders is kept (module doc)."""

    def in_frame(self, text: str, start: int, end: int, entity_type: str) -> bool:
        return founder_firm(text, start, end)


def load() -> PublicList:
    return FounderFirms("founder_firms", frozenset({"PERSON", "LOCATION", "NRP"}), frozenset())
