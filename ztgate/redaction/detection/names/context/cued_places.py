"""A place no list holds, named right after a strong place cue ("lives in Haderup", "I'm from West
Davidmouth"); and a town said of a person in prose outside an address: a relation of the writer's and "in"
("my mum in Ystad", "my gran out in Tarnów", "our daughter, who lives in Kuopio"), or the writer's own work
there ("I teach year 7 in Sandomierz", "I nurse at the clinic in Ballina"), a home of theirs there ("our street in
Haltwhistle", "my grandfather's house in Tokat"), the writer's life around it ("we farm just outside Builth", "I
commute from São Gonçalo", "home for me is Kirkby Stephen") or a clause of it after the town ("Frederikshavn,
where I grew up"). A context rule's place is tied to a
person by construction, so these override the public lists (a town on the cities list included); a town as
a topic or a trip has neither cue ("our conference in Kyoto", "a night in Matera") and stays."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.shapes import CAP_RUN, END_OF_RUN, trim
from ztgate.redaction.detection.text_shape import strong_place_cue
from ztgate.redaction.detection.wordlists import words

_CAP_RUN_AFTER_CUE = re.compile(rf"(?i:in|to|from|near|of|visiting|is) ({CAP_RUN.pattern}){END_OF_RUN}")


# Relations of the writer's (``relation_cues`` and the family words it leaves out), after a possessive; "our
# partner" is a business's (``organisation_places``: "our partner in Sassuolo"), "my partner" a person's.
_KIN = "|".join(sorted({re.escape(w) for w in words("relation_cues") - {"named", "called", "manager", "boss"}} | {
    "gran", "granny", "nan", "nana", "nanna", "grandad", "granddad", "grandparents", "parents", "folks", "family",
    "in-laws", "mother-in-law", "father-in-law", "sister-in-law", "brother-in-law", "kids", "children",
    "child", "sons", "daughters", "brothers", "sisters", "cousins", "mam", "mammy", "mummy", "mommy", "daddy",
    "stepmother", "stepfather", "stepson", "stepdaughter", "godmother", "godfather", "twin", "ex"},
    key=len, reverse=True))
# Words that may stand between the relation and "in": who lives there, still, now, back, out, up, down, over.
_BETWEEN = r"(?:[ \t]*,?[ \t]+(?:who|that|still|now|back|out|up|down|over|there|all|lives|living|live|works|working|is|are|stays?|staying|based|settled))*"
_RELATION_IN = re.compile(
    rf"\b(?:(?i:my|his|her|their)[ \t]+|(?i:our)[ \t]+(?!(?i:partners?)\b))(?i:{_KIN})(?:['’]s)?{_BETWEEN}"
    rf"[ \t]+(?i:in|at)[ \t]+"
    rf"({CAP_RUN.pattern}){END_OF_RUN}")
# The writer's own work or study in a town: "I teach year 7 in ...", "I work as a nurse in ...", "I coach the
# under-12s at ... in ...", within the clause (no sentence end between); "in" only ("I work at Siemens" names an
# employer, an organisation the policy keeps).
_WORK_IN = re.compile(
    rf"\b(?:I|I['’]m|[Ww]e|[Ww]e['’]re)[ \t]+(?:(?:still|now|also|currently)[ \t]+)?(?i:teach(?:ing)?|work(?:ing)?|"
    rf"coach(?:ing)?|nurse|nursing|stud(?:y|ying)|practi[cs]e|practi[cs]ing|farm(?:ing)?|volunteer(?:ing)?|"
    rf"commute|commuting|run[ \t]+a|own[ \t]+a|rent|rent(?:ing)?)\b[^.!?;\n]{{0,60}}?[ \t](?i:in)[ \t]+"
    rf"({CAP_RUN.pattern}){END_OF_RUN}")
# A home of the writer's or a relative's and where it stands: "our street in ...", "my flat in ...", "my
# grandfather's house in ...", "our farm just outside ...", "our house sits near ..." (ADR 0047). Only nouns of a
# home: "our hotel in Rome" or "my trip to Crete" is a stay, not a residence.
_HOME_NOUNS = (r"house|home|flat|apartment|cottage|farm|farmhouse|croft|smallholding|street|road|village|bungalow|"
               r"garden|allotment|terrace|semi|hometown|home[ \t]+town|neighbourhood|neighborhood|parish|estate")
_HOME_NEAR = re.compile(
    rf"\b(?:(?i:my|our|his|her|their)(?:[ \t]+(?i:{_KIN})['’]s)?)[ \t]+"
    rf"(?:(?i:old|new|little|family|own|childhood|rented|parents['’])[ \t]+)?(?i:{_HOME_NOUNS})"
    rf"(?:[ \t]+(?i:is|was|sits|sat|lies|stands|stood|backs[ \t]+onto))?"
    rf"(?:[ \t]+(?i:just|right|somewhere|up|down|out|over|back))?[ \t]+"
    rf"(?i:in|at|near|outside(?:[ \t]+of)?|by|on[ \t]+the[ \t]+(?:edge|outskirts)[ \t]+of)[ \t]+"
    rf"({CAP_RUN.pattern}){END_OF_RUN}")
# The writer's life around a town with a preposition "in" does not take: "we farm just outside ...", "I commute
# from ...", "I grew up near ...", "I'm back home in ...", "home for me is ...".
_LIFE_NEAR = re.compile(
    rf"\b(?:I|I['’]m|I['’]ve|[Ww]e|[Ww]e['’]re|[Ww]e['’]ve)[ \t]+(?:(?:still|now|also|currently|just|both|always|"
    rf"finally|all)[ \t]+)?(?i:farm(?:ed|ing)?|commut(?:e|ed|ing)|grew[ \t]+up|was[ \t]+raised|were[ \t]+raised|"
    rf"back[ \t]+home|home|went[ \t]+home|going[ \t]+home|go[ \t]+home|live|lived|settled|retired)"
    rf"(?:[ \t]+(?i:just|right|somewhere|daily|every[ \t]+day|on[ \t]+a[ \t]+farm|in[ \t]+a[ \t]+village|again|"
    rf"for[ \t]+now))*[ \t]+(?i:in|from|near|outside(?:[ \t]+of)?|around|at)[ \t]+"
    rf"({CAP_RUN.pattern}){END_OF_RUN}")
_HOME_IS = re.compile(
    rf"\b(?i:home|home[ \t]+for[ \t]+(?:me|us)|my[ \t]+home[ \t]*town|our[ \t]+home[ \t]*town)[ \t]+(?i:is|was)[ \t]+"
    rf"(?:(?i:still|now)[ \t]+)?({CAP_RUN.pattern}){END_OF_RUN}")
# A town before a clause of the writer's life there: "... from Frederikshavn, where I grew up", "Haltwhistle,
# where my parents live".
_WHERE_WE = re.compile(
    rf"({CAP_RUN.pattern})[ \t]*,?[ \t]+(?i:where)[ \t]+(?:I|we|(?i:my|our)[ \t]+[^\W\d_]+)[ \t]+"
    rf"(?:(?:still|now|both|all)[ \t]+)?(?i:grew[ \t]+up|live|lives|lived|was[ \t]+born|were[ \t]+born|"
    rf"am[ \t]+from|come[ \t]+from|farm|farms|work|works|went[ \t]+to[ \t]+school|spent[ \t]+my[ \t]+childhood|"
    rf"was[ \t]+raised|were[ \t]+raised)\b")
_LIFE_RULES = (_RELATION_IN, _WORK_IN, _HOME_NEAR, _LIFE_NEAR, _HOME_IS, _WHERE_WE)
# Capitalised times a life's preposition takes that are no town ("home at Christmas", "my garden in June", "sto a
# Natale"): months, days and feasts in the languages the rules read.
TIME_WORDS = frozenset("""january february march april may june july august september october november december
monday tuesday wednesday thursday friday saturday sunday christmas xmas easter whitsun pentecost advent lent
ramadan eid diwali hanukkah thanksgiving halloween midsummer natale pasqua capodanno ferragosto weihnachten
ostern pfingsten silvester navidad pascua nochebuena noël pâques toussaint natal páscoa carnaval kerst kerstmis
pasen jul påske pinse sommer""".split())
_LANGUAGES = words("language_nrp")




def said_of_a_person(text: str, start: int) -> bool:
    """A relation's or the writer's work cue ends right before start ("my mum in ", "I teach year 7 in "): the
    place there locates a person. ``person_ties`` asks this of a place another recognizer reported (a town on the
    gazetteer scores above this rule, and the finding keeps the gazetteer's name)."""
    lo = max(0, start - 160)
    if text[start:start + 20].split()[:1] and text[start:start + 20].split()[0].casefold() in TIME_WORDS:
        return False
    return any(m.start(1) == start for pattern in _LIFE_RULES
               for m in pattern.finditer(text, lo, min(len(text), start + 160)))


class CuedPlaceRecognizer(ContextRule):
    NAME = "CuedPlaceRecognizer"
    SCORE = 0.9
    ENTITIES = ("LOCATION",)

    def find(self, text: str) -> list[Span]:
        """A capitalised run right after a strong place cue."""
        out = []
        for m in _CAP_RUN_AFTER_CUE.finditer(text):
            start = m.start(1)
            if not strong_place_cue(text, start):
                continue
            span = trim(text, start, m.group(1))
            if span is not None:
                out.append((*span, "LOCATION"))
        for pattern in _LIFE_RULES:
            for m in pattern.finditer(text):
                span = trim(text, m.start(1), m.group(1))
                if (span is not None and text[span[0]:span[1]].casefold() not in _LANGUAGES
                        and text[span[0]:span[1]].split()[0].casefold() not in TIME_WORDS):
                    out.append((*span, "LOCATION"))
        return out
