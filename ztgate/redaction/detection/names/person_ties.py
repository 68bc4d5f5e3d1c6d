"""Whether a text ties a name, a place or a nationality to a person: the test that overrides a public list.

"Paris" is public knowledge in "What is the capital of France? Paris?" and identifies someone in "I live in
Paris"; "Newton" is a topic in "Newton's laws" and a person in "Mrs Newton called". A detection is tied to a
person when any of these hold (each is evidence about a person, not about the shape of the line):

* it was found by a context recognizer (field values, address labels, signatures, "lives in" cues) or is an
  item of a private person's contact block (``block_items``): their findings are about a person by construction, except a place cued as an organisation's or a group's
  ("our office in", "our team flew to": ``public/organisation_places``) or by a cue that is no residence
  ("a day trip to", "visiting", "located in") in a sentence that names no one, which the rules below decide
  where the policy keeps places by their frame, or a stay with a visit's words ("staying in Colmar for three
  days") in a text with no private evidence, where the policy keeps places after a travel frame
  (``public/travel_places``);
* a contact or identity value (e-mail address, phone number, IBAN, SSN) stands on its line, in its sentence, but
  not in a clause of the asker's own beside a clause that asks of the value ("Email me at ADDRESS: who was
  Ashoka?": ``_private_context.asker_scoped``, docs/adr/0042);
* a field label for a person or a place is right before it ("name: ", "city = "), or its line is labelled as
  an address or a place in any language ("Anschrift: Hauptstraße 12, Krakow");
* a LOCATION or an NRP: a private person is named in the same sentence ("My name is Maria Gonzalez and I
  manage our office in Lisbon"), but not in a clause of the asker's own, as for a contact value, nor before a
  question that the place is asked in ("NAME wants to know who built the pyramids of Giza", ADR 0047);
* a PERSON: a personal title ("Mrs", "Dr"), a greeting ("Dear", "Hi"), a relation ("my colleague", "our
  landlord") or a self-introduction ("I am", "my name is") is right before it;
* a LOCATION: a phrase that locates someone ("born in", "lives in", "is from", "moved to":
  ``data/words/person_place_cues.txt``) is right before it, unless its subject is people in general ("how many
  people live in") or a group ("our team is moving to"), or it is part of an address (a street and number, or a postcode, right before it on its line);
* an NRP: it is said of someone ("I am", "she is", "my father is", "as a") right before it.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence

from ztgate.redaction.detection.block_items import BLOCK_RECOGNIZER
from ztgate.redaction.detection.names.context import CONTEXT_RECOGNIZER_NAMES
from ztgate.redaction.detection.names.context.cued_places import said_of_a_person
from ztgate.redaction.detection.public._private_context import asker_clauses
from ztgate.redaction.detection.public.company_frames import company_seat
from ztgate.redaction.detection.public.organisation_places import cue as organisation_place_cue
from ztgate.redaction.detection.public.topic_places import names_no_one
from ztgate.redaction.detection.public.travel_places import visit
from ztgate.redaction.detection.text_shape import contacts_in_sentence, strong_place_cue
from ztgate.redaction.detection.wordlists import phrases, words
from ztgate.redaction.types import Detection

# Recognizers whose findings are about a person by construction: the context rules and a contact block's items.
_BY_CONSTRUCTION = CONTEXT_RECOGNIZER_NAMES | {BLOCK_RECOGNIZER}
# How far before a value the cues are looked for.
REACH = 48

_FIELD_LABEL = re.compile(
    r"(?i)\b(?:full_?name|display_?name|first_?name|last_?name|surname|name|author|owner|assignee|reporter|"
    r"patient|customer|employee|contact|city|town|village|address|birthplace|hometown|residence|location)"
    r"['\"]?\s*[:=]\s*['\"]?$")
_TITLE = re.compile(r"(?:\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Professor|Doctor|Madam|Mister)\.?)\s+$")
_RELATIONS = "|".join(sorted((re.escape(w) for w in words("relation_cues")), key=len, reverse=True))
_PERSON_CUE = re.compile(
    rf"(?i)(?:\b(?:dear|hi|hello|hey|attn:?)|\b(?:my|our|your|his|her|their)\s+(?:[a-z]+\s+)?(?:{_RELATIONS})"
    rf"|\b(?:i\s+am|i'm|i’m|my\s+name\s+is|this\s+is|patient|client|employee|tenant|applicant))[,:]?\s+$")
_PLACE_OF_PERSON = re.compile(
    r"(?i)(?<![^\W\d_])(" + "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in phrases("person_place_cues"))
    + r")\s+(?:the\s+)?$")
# The label that starts a line of a form or a contact block ("Anschrift: ", "住所："), and the place fields.
_LINE_LABEL = re.compile(r"[ \t]*([^\W\d][\w\-]{0,30}(?: [^\W\d][\w\-]{0,30})?)[ \t]*[:：=]")
PLACE_FIELDS = words("place_fields") | {"address", "addr"}
# A subject that is no one in particular ("people live in", "most residents come from").
_GENERIC_SUBJECT = re.compile(
    r"(?i)\b(?:people|persons|residents|citizens|inhabitants|immigrants|tourists|visitors|many|most|millions|"
    r"thousands|hundreds|animals|species|plants|birds|who)\s+(?:\w+\s+)?$")
_ADDRESS_BEFORE = re.compile(
    r"(?i)(?:\b\d{1,6}[a-z]?\s+(?:[^\W\d_][\w'.-]*\s+){0,4}?(?:street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|"
    r"drive|dr|court|ct|way|place|pl|terrace|close|row|square|sq|straße|strasse|str|weg|gasse|rue|via|calle)\.?"
    r"|\b\d{5,6}|(?:^|[,\n])[ \t]*\d{4}|\b[A-Z]{1,2}\d[A-Z\d]?\s+\d[A-Z]{2}"
    r"|(?:^|[\s,])(?!(?:1\d|20)\d\d\b)\d{1,6}[a-z]?,?\s+[^\W\d_][^\n,;:.!?]{1,40},"  # "4 Rue de la Paix, Paris", not a year
    r"|[^\W\d_]{3,}\.?\s+\d{1,5}[a-z]?,"  # "Hauptstraße 12, Krakow"
    r"|(?i:\baddress(?:es)?\b)[^\n]{0,40})[,\s]*$")
_SAID_OF = re.compile(
    r"(?i)\b(?:i\s+am|i'm|i’m|im|i\s+was|he\s+is|she\s+is|he's|she's|they\s+are|we\s+are|you\s+are|"
    r"my\s+[a-z]+\s+(?:is|was)|as\s+an?|patient\s+is)\s+(?:an?\s+)?(?:[a-z]+\s+)?$")


def ties_to_person(text: str, detection: Detection, persons: Sequence[Detection] | PersonIndex = (), *,
                   group_places: bool = False, visits: bool = False) -> bool:
    """Whether the text ties the detected value to a person (module doc); ``persons`` are the private persons
    found in the text (for a place or a nationality in their sentence); ``group_places``: the policy keeps
    places named for an organisation or a group (``organisation_places``), so a cued place after such a cue
    is decided by the rules below, not tied by construction; ``visits``: the policy keeps places after a travel
    frame (``travel_places``), so a stay with a visit's words in a text with no private evidence ("staying in
    Colmar for three days") is no residence. Fails closed on odd offsets."""
    start, end = detection.start, detection.end
    if not 0 <= start < end <= len(text):
        return True
    before = text[max(0, start - REACH):start]
    asker = asker_clauses(text, start, end)
    if any(not _inside(asker, lo, hi) for lo, hi in contacts_in_sentence(text, start, end)) or (
            detection.recognizer in _BY_CONSTRUCTION
            and not (group_places and _group_place(text, detection, before))
            and not (visits and detection.entity_type == "LOCATION" and visit(text, start, end))):
        return True
    if _FIELD_LABEL.search(before) or _place_field_line(text, start):
        return True
    kind = detection.entity_type
    if kind != "PERSON" and persons:
        index = persons if isinstance(persons, PersonIndex) else PersonIndex(persons)
        if asker:  # a person in the asker's own clause is no tie of the question's place
            index = PersonIndex([p for p in index if not _inside(asker, p.start, p.end)])
        # nor a person before the question the place is asked in ("NAME, my daughter, wants to know who built
        # the pyramids of Giza", "Please pass this to NAME: who was the first Emperor of Rome?"; ADR 0047)
        index = PersonIndex([p for p in index if not _asked_after(text, p.end, start)])
        if index.in_sentence_of_one(text, start):
            return True
    if kind == "PERSON":
        return _TITLE.search(before) is not None or _PERSON_CUE.search(before) is not None
    if kind == "LOCATION":
        return (((_locates_someone(before) or said_of_a_person(text, start))
                 and not (group_places and company_seat(text, start))
                 and not (visits and visit(text, start, end)))
                or _ADDRESS_BEFORE.search(before) is not None)
    if kind == "NRP":
        return _SAID_OF.search(before) is not None
    return True


# A question opened between a person and a place: after a clause's end or a verb of asking or knowing.
_QUESTION_OPENS = re.compile(
    r"(?:[:;—–?]|\s[-–]\s|\b(?:know|knows|ask|asks|asked|asking|wonder|wonders|wondered|wondering|learn|"
    r"find\s+out|tell\s+(?:me|us|him|her|them)|explain|curious|disagree|argue|arguing|bet\s+me|"
    r"want\s+to\s+know|wants\s+to\s+know))\s*(?:(?i:who|what|which|where|when|why|how|whether))\b", re.IGNORECASE)
_QUESTION_REACH = 200


def _asked_after(text: str, person_end: int, place_start: int) -> bool:
    """A question opens between a person ending at person_end and a place starting at place_start, after it."""
    return (person_end <= place_start and place_start - person_end <= _QUESTION_REACH
            and _QUESTION_OPENS.search(text, person_end, place_start) is not None)


def _inside(spans: Sequence[tuple[int, int]], start: int, end: int) -> bool:
    return any(lo <= start and end <= hi for lo, hi in spans)


def _group_place(text: str, detection: Detection, before: str) -> bool:
    """A place a cue recognizer found right after an organisation's or a group's cue ("our office in"), or after
    a cue that says only that a place follows, not that someone lives there ("a day trip to", "visiting",
    "located in", "near": ``strong_place_cues`` that are not ``person_place_cues``) in a sentence that names no
    one (``public/topic_places``: "I'm flying to Lyon" stays tied)."""
    return (detection.recognizer == "CuedPlaceRecognizer" and detection.entity_type == "LOCATION"
            and (organisation_place_cue().search(before) is not None or company_seat(text, detection.start)
                 or (strong_place_cue(text, detection.start) and _PLACE_OF_PERSON.search(before) is None
                     and names_no_one(text, detection.start, detection.end))))


def _locates_someone(before: str) -> bool:
    """A residence or origin phrase ends `before`, and its subject is not people in general, nor an
    organisation or a group ("our team is moving to": ``organisation_places``)."""
    cue = _PLACE_OF_PERSON.search(before)
    return (cue is not None and _GENERIC_SUBJECT.search(before, 0, cue.start()) is None
            and organisation_place_cue().search(before) is None)


_SENTENCE_END = re.compile(r"[.!?。！？]\s|\n")


class PersonIndex:
    """The private persons of a text, sorted, so that "is pos in a sentence of one of them" looks at two of them,
    not all: a text naming a person and a place thousands of times asked it of every pair."""

    __slots__ = ("_persons", "_starts", "_max_ends")

    def __init__(self, persons: Sequence[Detection]) -> None:
        self._persons = sorted(persons, key=lambda p: p.start)
        self._starts = [p.start for p in self._persons]
        self._max_ends: list[int] = []  # the largest end among the first i + 1 persons
        for person in self._persons:
            self._max_ends.append(max(person.end, self._max_ends[-1] if self._max_ends else person.end))

    def __len__(self) -> int:
        return len(self._persons)

    def __iter__(self) -> Iterator[Detection]:
        return iter(self._persons)

    def in_sentence_of_one(self, text: str, pos: int) -> bool:
        """Whether nothing ends a sentence between pos and some person's name (or a name runs over pos). Of the
        names before pos the one ending last is nearest, of those after it the first: if no sentence end lies
        between pos and them, none lies between pos and the others either."""
        i = bisect.bisect_right(self._starts, pos)
        if i and (self._max_ends[i - 1] > pos or _SENTENCE_END.search(text, self._max_ends[i - 1], pos) is None):
            return True
        return i < len(self._persons) and _SENTENCE_END.search(text, pos, self._persons[i].start) is None


def _place_field_line(text: str, start: int) -> bool:
    """The value stands on a line labelled as an address or a place, in any language ("Indirizzo: ...")."""
    line_start = text.rfind("\n", 0, start) + 1
    label = _LINE_LABEL.match(text, line_start, start)
    return label is not None and label.group(1).casefold().replace(" ", "_") in PLACE_FIELDS
