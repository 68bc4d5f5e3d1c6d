"""Public list ``company_frames``: a company or a brand on no list, by the words around it, with no list of
names: a company's noun right before or after it ("the Danish brewery Carlsberg", "Who is the Guinness brewery
named after?", "Hasselblad AB"), a company's facts after it confirmed by the paragraph ("Leica is based in
Wetzlar. What cameras does it make?", "Heineken started in Amsterdam ... What did the company make?"), or a list
with a company on ``organisations`` or ``products`` in a company's sentence ("Both Puma and Adidas are based in
Herzogenaurach"). A full name whose first word is a given name, or a given name alone, is never read so ("Anna
Berg is based in Leeds"), and nothing in the paragraph or at another mention of the name may point to a private
person (``_private_context``: "my husband's firm Ferrow Ltd" stays hidden); ``person_ties`` applies on top.
PERSON, LOCATION and NRP (spaCy reads brands as any of them). The default policy keeps it, strict does not. Cue
words written by hand for ztgate."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.public import FramePublicList, PublicList, load as load_list
from ztgate.redaction.detection.public._private_context import private_evidence
from ztgate.redaction.detection.text_shape import sentence_bounds

COMPANY_NOUNS = (r"company|companies|firm|brand|brewery|breweries|distillery|winery|carmaker|automaker|car\s+maker|"
                 r"manufacturer|maker|retailer|chain|label|start-?up|conglomerate|airline|publisher|publishing\s+house|"
                 r"fashion\s+house|watchmaker|toymaker|shipbuilder|chocolatier|multinational|corporation|"
                 r"supermarket|group|camera\s+maker|electronics\s+maker|software\s+company|tech\s+company")
LEGAL_FORMS = (r"Inc\.?|Ltd\.?|AG|GmbH|S\.?A\.?|plc|PLC|LLC|Corp\.?|Corporation|Co\.|N\.?V\.?|AB|ASA|Oyj?|KK|"
               r"S\.?p\.?A\.?|SE|Group|Holdings?|Brewery|Company")
_NOUN_BEFORE = re.compile(rf"(?i)\b(?:the|a|an)\s+(?:[\w\-]+\s+){{0,2}}?(?:{COMPANY_NOUNS})\s+$")
_NOUN_AFTER = re.compile(rf"\s+(?:(?i:{COMPANY_NOUNS})\b|(?:{LEGAL_FORMS})(?![\w]))")
_LEGAL_AFTER = re.compile(rf"\s+(?:{LEGAL_FORMS})(?![\w])")
# A company's facts right after the name.
_FACTS_AFTER = re.compile(
    r"(?i)\s+(?:(?:(?:is|are|was|were)\s+)?(?:(?:still|now|originally|also)\s+)?(?:based|headquartered)\s+(?:in|at|near)|"
    r"(?:was\s+)?founded\s+(?:in|by)|(?:started|began)\s+(?:in|as|out)|(?:first\s+)?(?:makes|made|manufactures|"
    r"manufactured|produces|produced|brews|brewed|sells|sold)\b)")
# The paragraph says the name is a company's: "the company", "its products", "it" and a company's verb.
_CONFIRMS = re.compile(
    rf"(?i)\b(?:the\s+(?:{COMPANY_NOUNS})\b|its\s+(?:products?|headquarters|factory|factories|cameras|cars|beers?|"
    r"brands?|founder|founders|first\s+\w+)|(?:is|was)\s+it\s+(?:founded|based|started)|"
    r"(?:does|did|do)\s+it\s+(?:make|produce|sell|brew|manufacture)|it\s+(?:was\s+)?(?:founded|started|makes|made|"
    r"produces|produced|sells|sold|brews|brewed|manufactures)|companies)\b")
# Company words in the sentence of a list of names ("Both Puma and Adidas are based in ...").
_COMPANY_SENTENCE = re.compile(
    rf"(?i)\b(?:based|headquartered|founded|brands?|(?:{COMPANY_NOUNS})|makes?|made|manufactur\w*|produc\w*|"
    r"shares?|stock|sponsors?|rivals?|competitors?|merged?|acquired)\b")
_LIST_WORD = re.compile(r"[A-Z][\w'’&\-]*(?:\s+[A-Z][\w'’&\-]*){0,2}")
_SEP_AFTER = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&|vs\.?|versus)\s+)")
_SEP_BEFORE = re.compile(r"(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&|vs\.?|versus)\s+)$")
_SENTENCE_END = re.compile(r"[.!?;:](?:\s|$)|\n")
_LAST_NAME_WORDS = re.compile(r"([A-Z][\w'’&\-]*(?:\s+[A-Z][\w'’&\-]*){0,2})$")
_NAME = re.compile(r"[A-Z][\w'’&.\-]*(?:\s+[A-Z][\w'’&.\-]*){0,3}")
# How far around the name its paragraph's confirmation is read.
CONFIRM_REACH = 200


def _person_shaped(value: str) -> bool:
    """A given name alone, or a full name opened by a given name ("Anna", "Anna Berg")."""
    words = value.split()
    return bool(words) and given_name(words[0].rstrip("'’s"))


def _listed(value: str) -> bool:
    return any(load_list(name).has(value) for name in ("organisations", "products"))


def _in_list_with_company(text: str, start: int, end: int, lo: int, hi: int) -> bool:
    """The name stands in a list ("A and B", "A, B and C") with a company on ``organisations``/``products``."""
    after = _SEP_AFTER.match(text, end, hi)
    if after is not None:
        other = _LIST_WORD.match(text, after.end(), hi)
        if other is not None and _listed(other.group()):
            return True
    before = _SEP_BEFORE.search(text, max(lo, start - 12), start)
    if before is not None:
        words = _LAST_NAME_WORDS.search(text[max(lo, before.start() - 40):before.start()])
        if words is not None and _listed(words.group(1)):
            return True
    return False


@dataclass(frozen=True, slots=True)
class CompanyFrames(FramePublicList):
    """A company or a brand named in a company's frame is kept (module doc)."""

    def in_frame(self, text: str, start: int, end: int, entity_type: str) -> bool:
        value = text[start:end]
        if _NAME.fullmatch(value) is None or _person_shaped(value):
            return False
        lo, hi = sentence_bounds(text, start, end, _SENTENCE_END, CONFIRM_REACH)
        framed = (_NOUN_BEFORE.search(text, max(0, start - 60), start) is not None
                  or (_NOUN_AFTER.match(text, end, min(len(text), end + 30)) is not None
                      and (text[max(0, start - 4):start].casefold() == "the "
                           or _LEGAL_AFTER.match(text, end, min(len(text), end + 30)) is not None))
                  or (_FACTS_AFTER.match(text, end, min(len(text), end + 60)) is not None
                      and _CONFIRMS.search(text, max(0, start - CONFIRM_REACH), min(len(text), end + CONFIRM_REACH))
                      is not None)
                  or (_COMPANY_SENTENCE.search(text, lo, hi) is not None
                      and _in_list_with_company(text, start, end, lo, hi)))
        return framed and not private_evidence(text, start, end)


# Before a place: a company's name (or a list of them) and "is based in" ("Nestlé is based in Vevey").
_SEAT_BEFORE = re.compile(
    r"(?<![\w'’&.\-])(?:(?:Both|Either|Neither|The)\s+)?([A-Z][\w'’&.\-]*(?:\s+[A-Z][\w'’&.\-]*){0,2})"
    r"(?:(?:,\s*|\s+and\s+)[A-Z][\w'’&.\-]*(?:\s+[A-Z][\w'’&.\-]*){0,2})*"
    r"\s+(?:is|are|was|were)\s+(?:(?:still|now|originally|also|both|all)\s+)?(?:based|headquartered|located)\s+"
    r"(?:in|at|near)\s+(?:the\s+(?:(?:small|little|tiny|quiet|sleepy)\s+)*(?:town|village|city)\s+of\s+)?$")
# The same in a question: "Why is Audi based in ...?"
_SEAT_ASKED = re.compile(
    r"\b(?i:is|are|was|were)\s+([A-Z][\w'’&.\-]*(?:\s+[A-Z][\w'’&.\-]*){0,2})\s+(?:(?:still|now|originally)\s+)?"
    r"(?:based|headquartered|located)\s+(?:in|at|near)\s+(?:the\s+)?$")


def company_seat(text: str, start: int) -> bool:
    """The place at text[start:] is where a company is based: "<company> is based in" right before it, the company
    on ``organisations``/``products`` or kept by this list's frames ("Leica is based in Wetzlar. What cameras does
    it make?"). A person's "based in" is not one ("Anna is based in Leeds")."""
    found = (_SEAT_BEFORE.search(text, max(0, start - 120), start)
             or _SEAT_ASKED.search(text, max(0, start - 80), start))
    if found is None:
        return False
    name_start, name_end = found.span(1)
    value = text[name_start:name_end]
    if _person_shaped(value):
        return False
    # The first name of a list ("Both Rolex and Swatch are based in"): on a list, or kept by the frames (a list
    # with a listed company is one of them).
    return _listed(value) or COMPANY_FRAMES.in_frame(text, name_start, name_end, "PERSON")


def load() -> PublicList:
    return COMPANY_FRAMES


COMPANY_FRAMES = CompanyFrames("company_frames", frozenset({"PERSON", "LOCATION", "NRP"}), frozenset())
