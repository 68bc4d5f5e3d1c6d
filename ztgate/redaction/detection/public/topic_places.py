"""Public list ``topic_places``: a place on no list, kept where its sentence says nothing about a person, with no
list of places: "Which palace in Sintra is the most famous?", "The supplier near Veldhoven ships on Monday".
A place is private when it locates a person (issue #29), and a sentence that names no one, holds no personal or
possessive pronoun but a group's ("our", "we"), no relation or person-record word (``colleague``, ``patient``),
no home word ("house", "village", "hometown"), no verb of a life ("born", "lives", "grew up"), no title, no
contact value or ID-like number and no address number locates no one. A record row (a line of fields with a
number in it), a signature or a heading (fewer than three lower-case words around the place) is never such a
sentence, nor one where the place reads as someone ("Review by Haskell", "**Haskell** commented"); and a text
that names a private person anywhere (a letter's "Dear Anna", a signature) keeps no place by this list
(``anonymize``); ``person_ties`` applies on top (an address, "lives in").
LOCATION only, for names of capitalised words without digits and without a street's head ("Elm Street").
``strict`` does not keep it: under HIPAA Safe Harbor a town is an identifier whatever the sentence says. Cue
words written by hand for ztgate."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ztgate.redaction.detection.public import FramePublicList, PublicList
from ztgate.redaction.detection.text_shape import sentence_bounds
from ztgate.redaction.detection.wordlists import words

_RELATIONS = "|".join(sorted((re.escape(w) for w in words("relation_cues") - {"named", "called"}), key=len,
                             reverse=True))
_PEOPLE = (r"i|i'm|i’m|im|i've|i’ve|i'd|i’d|me|my|mine|myself|you're|your|yours|he|she|he's|she's|him|her|hers|"
           r"his|himself|herself|they|them|their|theirs")
_PERSON_WORDS = (r"patients?|clients?|customers?|employees?|tenants?|applicants?|residents?|guests?|students?|"
                 r"pupils?|members?|users?|subscribers?|candidates?|passengers?|visitors?|child|children|kids?|"
                 r"baby|family|families|person|someone|somebody|man|woman|men|women|boy|"
                 r"girl|guy|lady|sir|madam|name|names|named|age|aged|years?\s+old|birthday|born|birth|"
                 r"birthplace|hometown|home(?!\s+to\b)|homes|house|houses|flat|apartment|farm|village|cottage|"
                 r"neighbou?rhood|address|addresses|postcode|zip|resides?|residing|"
                 r"residence|lives?|lived|living|grew|grown|raised|moved|moving|relocated|settled|stays?|staying|"
                 r"stayed|native|hails|signed|regards|sincerely|cheers|thanks")
_PRIVATE = re.compile(
    rf"(?i)(?<![\w'’])(?:{_PEOPLE}|{_PERSON_WORDS}|{_RELATIONS})(?:['’]s)?(?![\w'’])"
    r"|(?-i:\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Madam|Dame|Lord|Lady)\b\.?)|@|\+?\d[\d\s().\-]{6,}\d"
    r"|\b[A-Z]{1,4}-?\d{4,}\b|\b\d{1,6}[a-z]?\s+[A-Z]")
_SENTENCE_END = re.compile(r"[.!?;。！？](?:\s|$)|\n")
_LOWER_WORD = re.compile(r"(?<![\w'’])[a-z][a-z'’\-]*")
_FIELD_SEPARATORS = re.compile(r"[,;|\t]")
_STREET_HEAD = re.compile(
    r"(?i)\s(?:street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|court|ct|way|place|pl|terrace|close|"
    r"row|square|sq|straße|strasse|str|weg|gasse|rue|via|calle|alley|crescent|gardens|mews|hill|park)\.?$")
_NAME = re.compile(r"[^\W\d_][\w'’.\-]*(?:\s[^\W\d_][\w'’.\-]*){0,4}")
# How far around the place its sentence is looked for.
REACH = 240


def _sentence(text: str, start: int, end: int) -> tuple[int, int]:
    return sentence_bounds(text, start, end, _SENTENCE_END, REACH)


def _line(text: str, start: int, end: int) -> str:
    lo = text.rfind("\n", 0, start) + 1
    hi = text.find("\n", end)
    return text[lo:hi if hi >= 0 else len(text)]


_PERSON_VERB = "|".join(sorted(words("person_verbs"), key=len, reverse=True))
# The place read as someone: right after "by" or "review from" ("Review by Haskell", a given name between), or
# opening its sentence (after markup and a given name) as the subject of a verb of people ("**Haskell**
# commented on ...", "> Anna Haskell replied").
_NAME_WORDS = r"(?:[A-Z][\w'’\-]*\s+){0,3}"  # a given name before a surname read as a place
_BY_BEFORE = re.compile(
    rf"(?:\b(?i:by)|\b(?i:review|reviews|comments?|feedback|approval|message|note|reply|request)\s+(?i:from))"
    rf"\s+{_NAME_WORDS}$")
_MARKUP_ONLY = re.compile(rf"[\s*_>#\-`]*{_NAME_WORDS}")
_VERB_AFTER = re.compile(rf"[*_`]*\s+(?:{_PERSON_VERB}|left)\b", re.IGNORECASE)


def names_no_one(text: str, start: int, end: int) -> bool:
    """The sentence around text[start:end] says nothing about a person, and it is prose (module doc)."""
    lo, hi = _sentence(text, start, end)
    if _PRIVATE.search(text, lo, hi) is not None or _BY_BEFORE.search(text, lo, start) is not None:
        return False
    if _MARKUP_ONLY.fullmatch(text, lo, start) is not None and _VERB_AFTER.match(text, end, hi) is not None:
        return False
    if len(_LOWER_WORD.findall(text[lo:start] + " " + text[end:hi])) < 3:
        return False  # a heading, a signature, a lone value
    line = _line(text, start, end)
    return not (len(_FIELD_SEPARATORS.findall(line)) >= 2 and any(c.isdigit() for c in line))


@dataclass(frozen=True, slots=True)
class TopicPlaces(FramePublicList):
    """A place is kept where its sentence names no one (module doc)."""

    def in_frame(self, text: str, start: int, end: int, entity_type: str) -> bool:
        value = text[start:end]
        if not value[:1].isupper() or _NAME.fullmatch(value) is None or _STREET_HEAD.search(value):
            return False
        return names_no_one(text, start, end)


def load() -> PublicList:
    return TopicPlaces("topic_places", frozenset({"LOCATION"}), frozenset())
