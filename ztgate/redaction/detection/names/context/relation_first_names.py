"""A first name alone after the writer's relation or the person they hire ("our carpenter Zé", "my neighbour
Aiko", "ask our nanny Precious"): the possessive and the word for a person say the capitalised word after them
is a private person's name, where NER and the given-name list know neither. A public figure follows "the" or a
word of taste ("the painter Frida Kahlo", "my favourite composer Bach"), and a tool follows the possessive with
no word for a person ("our Jenkins", "our Kafka cluster"); neither is read."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import CuedNameRule
from ztgate.redaction.detection.names.context.shapes import CAP_WORD, END_OF_RUN
from ztgate.redaction.detection.names.context.health_details import HEALTH_TERMS
from ztgate.redaction.detection.wordlists import words

# People one hires or lives next to, beside ``relation_cues`` (the family, friends and colleagues).
_TRADES = {"carpenter", "joiner", "plumber", "electrician", "builder", "gardener", "cleaner", "housekeeper",
           "nanny", "babysitter", "childminder", "au pair", "tutor", "driver", "chauffeur", "mechanic",
           "hairdresser", "barber", "dentist", "physio", "physiotherapist", "therapist", "vet", "midwife",
           "caretaker", "handyman", "painter", "decorator", "cook", "maid", "courier", "postman", "postwoman",
           "coach", "trainer", "teacher", "instructor", "nurse", "doctor", "gp", "secretary", "assistant",
           "intern", "receptionist", "tailor", "seamstress", "florist", "baker", "butcher", "roofer", "tiler",
           "locksmith", "bookkeeper", "accountant", "notary", "solicitor", "architect", "cleaning lady",
           "neighbour", "neighbor", "landlady", "landlord", "tenant", "lodger", "carer", "caregiver"}
# A child of the writer's by rank or age ("my youngest, Peregrin", "our eldest, Isembard") and the family by
# marriage ("my brother-in-law, Benedikt"; ADR 0047).
CHILDREN = {"youngest", "eldest", "oldest", "middle one", "middle child", "little one", "firstborn", "first-born",
            "baby", "toddler", "teenager", "stepchild", "godchild", "godson", "goddaughter", "grandchild",
            "brother-in-law", "sister-in-law", "mother-in-law", "father-in-law", "son-in-law", "daughter-in-law",
            "stepson", "stepdaughter", "stepmother", "stepfather", "stepbrother", "stepsister"}
_PERSONS = "|".join(sorted({re.escape(w).replace(r"\ ", "[ \t]") for w in
                            (words("relation_cues") - {"named", "called"}) | _TRADES | CHILDREN}, key=len,
                           reverse=True))
PERSONS = _PERSONS
# Words that may stand between the possessive and the person ("our old carpenter"); a word of taste may not
# ("my favourite painter" names a public figure as often).
_BETWEEN = r"(?:(?i:new|old|local|regular|usual|former|family|own|lovely|trusty|dear|next-door|downstairs|upstairs)[ \t]+)?"
_CUE = re.compile(
    rf"\b(?i:my|our|his|her|their)[ \t]+{_BETWEEN}(?i:{_PERSONS})[ \t]*,?[ \t]+({CAP_WORD}){END_OF_RUN}")


class RelationFirstNameRecognizer(CuedNameRule):
    NAME = "RelationFirstNameRecognizer"
    SCORE = 0.9
    CUE = _CUE

    def accept(self, match: re.Match[str]) -> bool:
        """A condition after the relation is a health detail's apposition ("My husband, Diabetes type 2 ...")."""
        return match.group(1).casefold() not in HEALTH_TERMS
