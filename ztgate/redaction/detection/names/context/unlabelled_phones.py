"""A phone number written with no phone word, in the layout of a plan dialled without a trunk 0 (Portugal, Spain,
Italy's mobiles, Poland, Czechia, Slovakia, Denmark, Norway, Greece; Brazil's "(21) 99634-2817"), where the
sentence ties it to a person: a possessive, a pronoun for someone, a verb that reaches someone ("ring him") or a
name-shaped pair just before it ("My aunt Rosa Lima, 912 604 358"). The numbers with a trunk 0 are the pattern
rule ``phone_national_layout``'s: their layout is evidence alone.

Three digit groups are as often a population, a price, a part or a physical constant, so the layout alone never
counts here except Brazil's bracketed area code with its dash; the number must also be one ``phonenumbers`` holds
valid in one of those plans, and nothing may mark it as a quantity or a code: a currency, ISBN, part or reference
word before it, a unit or a counted noun after it ("299 792 458 m/s", "8 045 311 447 people"; any lower-case word but a stop word)."""

from __future__ import annotations

import re

import phonenumbers

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.name_forms import name_pairs
from ztgate.redaction.detection.wordlists import COMMON_SENTENCE_STARTS

ENTITY = "PHONE_NUMBER"
_REGIONS = ("PT", "ES", "IT", "PL", "CZ", "SK", "DK", "NO", "GR", "BR")
# 3-3-3, 3-2-2-2, 3-3-4, 2-2-2-2 and Brazil's (2) 4|5-4; one separator kind inside a number.
_LAYOUT = re.compile(
    r"(?<![\w+.,/\-])(?P<value>\d{3}(?P<s>[ .\-])\d{3}(?P=s)\d{3,4}|\d{3}(?P<t>[ .\-])\d{2}(?P=t)\d{2}(?P=t)\d{2}"
    r"|\d{2}(?P<u>[ .\-])\d{2}(?P=u)\d{2}(?P=u)\d{2}|(?P<brazil>\(\d{2}\)[ ]?9?\d{4}-\d{4}))(?![\w+/]|[.,\-]\d)")
_QUANTITY_BEFORE = re.compile(
    r"(?i)(?:(?:isbn(?:-1[03])?|issn|ean|gtin|sku|part|article|art\.?|order|serial|model|item|invoice|account|ticket|"
    r"ref(?:erence)?\.?|batch|lot|case|policy)(?:[ \t]+(?:number|no\.?|nr\.?|nummer|número|numero|code|id))?|"
    r"no\.|nr\.|n°|#|€|\$|£|¥|eur|usd|gbp|chf|pln|czk|r\$|about|approx\.?|circa|ca\.|over|under|population|"
    r"total)[ \t:#]*$")
_QUANTITY_AFTER = re.compile(
    r"(?i)^[ \t]*(?:[%‰€$£¥°]|[a-zµ]{1,3}/[a-z]{1,3}|(?:m|km|cm|mm|kg|g|t|s|ms|h|l|ml|kb|mb|gb|tb|hz|kw|kwh|eur|usd|"
    r"gbp|chf|pln|czk|brl|people|persons|inhabitants|residents|users|visitors|units|copies|votes|years|times|"
    r"habitantes|personas|pessoas|abitanti|persone|einwohner|menschen|habitants|personnes|mieszkańców|osób|"
    r"obyvatel|indbyggere|innbyggere|km/h|mph|bytes|rows|tokens|items|dollars|euros|reais)\b)")
# Who a number reaches: possessives and object pronouns of the languages read, and verbs that reach someone.
_PERSON_CUE = re.compile(
    r"(?i)(?<![\w'’])(?:my|our|his|her|their|him|them|me|ring|call|text|reach|contact|mi|mis|su|sus|mio|mia|miei|"
    r"suo|sua|lui|lei|meu|minha|seu|ele|ela|él|ella|le|la|lo|mon|ma|mes|son|sa|ses|mein|meine|sein|seine|ihr|ihre|"
    r"ihn|ihm|mijn|zijn|haar|hem|min|mitt|mine|hans|hennes|mój|moja|moje|jego|jej|můj|moje|jeho|její|mou|"
    r"liga|ligue|llama|llámale|chiama|chiamalo|chiamala|ruf|anrufen|appelle|bel|ring)(?![\w'’])")
# A lower-case word right after the digits that is no stop word is what they count ("612 345 678 calls").
_WORD_AFTER = re.compile(r"[ \t]+([^\W\d_]+)")
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)|\n")
_REACH = 120
_NAME_GAP = re.compile(r"^[ \t]*(?:[,:(–—-][ \t]*|\([ \t]*)?(?:[a-zà-ÿ]+[ \t]+){0,2}$")


def _counts(text: str, end: int) -> bool:
    m = _WORD_AFTER.match(text, end)
    return m is not None and m.group(1).islower() and m.group(1) not in COMMON_SENTENCE_STARTS


def _valid(value: str) -> bool:
    digits = re.sub(r"\D", "", value)
    for region in _REGIONS:
        try:
            number = phonenumbers.parse(digits, region)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(number):
            return True
    return False


def _clause_before(text: str, start: int) -> str:
    before = text[max(0, start - _REACH):start]
    ends = list(_SENTENCE_END.finditer(before))
    return before[ends[-1].end():] if ends else before


def _named_before(text: str, start: int) -> bool:
    """A name-shaped pair ends just before the number, a comma, a colon or a bracket and at most two lower-case
    words between ("Rosa Lima, 912 ...", "Rosa Lima (mobile) ...")."""
    window = text[max(0, start - _REACH):start]
    return any(_NAME_GAP.match(window[end:]) for _, end in name_pairs(window))


class UnlabelledPhoneRecognizer(ContextRule):
    NAME = "UnlabelledPhoneRecognizer"
    SCORE = 0.75
    ENTITIES = (ENTITY,)

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        for m in _LAYOUT.finditer(text):
            value = m.group("value")
            start, end = m.start("value"), m.end("value")
            if (_QUANTITY_BEFORE.search(text[max(0, start - 24):start]) or _QUANTITY_AFTER.match(text[end:end + 24])
                    or _counts(text, end)):
                continue
            if not _valid(value):
                continue
            if m.group("brazil") or _PERSON_CUE.search(_clause_before(text, start)) or _named_before(text, start):
                out.append((start, end, ENTITY))
        return out
