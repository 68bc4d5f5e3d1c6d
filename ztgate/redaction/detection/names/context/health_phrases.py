"""A health detail written as a noun phrase or an adjective of the person rather than after a health verb
(``health_details`` reads those): a possessive and a condition, an operation or an aid ("my hip operation",
"her early-onset dementia", "since my stroke", "my wheelchair", "seit meinem Schlaganfall", "su operación de
cadera", "sinds zijn herseninfarct"), and a condition's adjective right after a person's name and a comma, a
colon or a bracket ("Liesl M. (allergic to penicillin, coeliac)", "Séverine P., sourde d'une oreille", "Eero H.:
type 1 diabetic"), or after a copula with an adverb ("is partially deaf"); a named disease after "has" that no
list holds ("has motor neurone disease and ...").

The tie decides, as in ``health_details``: a first-person possessive is the writer's; a third-person one ("his",
"her", "sein", "su") only where the text names a private person of the writer's before it ("my aunt ...; her
early-onset dementia"), so "How did Stephen Hawking control his wheelchair?" and "Roosevelt's wheelchair" stay."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.health_details import (
    _BODY_CONDITION, _END as _PHRASE_END, _PHRASE as _CONDITION_PHRASE, ENTITY, HEALTH_TERMS, _a_condition, _tied)

# The head of the phrase: an operation, an event, a condition or an aid, in the languages read.
_HEADS = (r"operation|op|surgery|transplant|replacement|bypass|amputation|chemo(?:therapy)?|radiotherapy|stroke|"
          r"heart[ \t]+attack|seizures?|diagnosis|dementia|meningitis|cancer|tumou?r|wheelchair|hearing[ \t]+aids?|"
          r"pacemaker|crutches|walker|prosthesis|dialysis|disease|disorder|condition|injury|fracture|"
          r"operation|schlaganfalls?|herzinfarkts?|demenz|rollstuhl|hörgerät|krebs|op|"
          r"opération|avc|démence|fauteuil[ \t]+roulant|cancer|"
          r"operación|cirugía|ictus|infarto|demencia|marcapasos|silla[ \t]+de[ \t]+ruedas|"
          r"operazione|intervento|demenza|sedia[ \t]+a[ \t]+rotelle|pacemaker|"
          r"operatie|herseninfarct|beroerte|hartaanval|dementie|rolstoel|"
          r"cirurgia|operação|derrame|avc|cadeira[ \t]+de[ \t]+rodas")
_FIRST = (r"my|our|mein|meine|meinem|meiner|meines|unser|unsere|unserem|mon|ma|mes|notre|nos|mi|mis|nuestr[oa]s?|"
          r"mio|mia|miei|mie|nostr[oaie]|mijn|onze|meu|minha|meus|minhas|nosso|nossa|min|mitt|mina")
_THIRD = (r"his|her|their|sein|seine|seinem|seiner|ihr|ihre|ihrem|ihrer|son|sa|ses|leur|su|sus|suo|sua|suoi|"
          r"zijn|haar|hun|seu|dele|dela|hans|hennes")
_WORD = r"[^\W\d_][\w'’\-]*"
_PHRASE = re.compile(
    rf"(?<![\w'’])(?P<who>(?i:{_FIRST})|(?i:{_THIRD}))[ \t]+"
    rf"(?P<what>(?:{_WORD}[ \t]+){{0,3}}?(?:[^\W\d_]+-)?(?i:{_HEADS})(?:[ \t]+(?i:de|di|of)[ \t]+(?i:la[ \t]+)?[^\W\d_]+)?)(?![\w\-])")
# A private person of the writer's named before a third-person possessive: "my aunt", "mein Sohn", "ma fille".
_WRITERS_PERSON = re.compile(rf"(?<![\w'’])(?i:{_FIRST})[ \t]+[^\W\d_]+")
# Heads that name a topic as often as a detail where no word before them makes them medical ("my op-ed", "my
# condition for signing"): only with a medical word before them.
_VAGUE = frozenset({"op", "condition", "disease", "disorder", "replacement", "diagnosis", "injury"})
# A condition's adjective after a name and a comma, colon or bracket, or after a copula and an adverb.
_ADJECTIVES = (r"(?:partially[ \t]+|profoundly[ \t]+)?(?:deaf|blind|sourde?|taub|sord[oa]|doof|döv)"
               r"(?:[ \t]+(?:in|d['’]une?|de|auf|su|aan|op)[ \t]+(?:one|une|un|einem|uno|één|ett)[ \t]+[^\W\d_]+)?|"
               r"(?:type[ \t]+[12][ \t]+)?diabetic|coeliac|celiac|epileptic|asthmatic|"
               r"allergic[ \t]+to[ \t]+[^\W\d_]+|allergique[ \t]+(?:à|aux?)[ \t]+[^\W\d_]+")
_AFTER_PERSON = re.compile(rf"(?P<p>[,:(][ \t]*|[ \t]+(?i:is|was|am|est|ist|è|es|está|is)[ \t]+(?:\w+ly[ \t]+)?)"
                           rf"(?P<what>(?i:{_ADJECTIVES}))(?![\w\-])")
# A named disease after "has" whose words no list holds ("has motor neurone disease and ..."): the phrase ends at
# its head, so what follows it needs no stop word.
_HAS_NAMED = re.compile(rf"(?<![\w'’])(?i:has|have|had|hat|tiene|tem|ha|heeft)[ \t]+(?:(?i:been[ \t]+)?"
                        rf"(?i:diagnosed[ \t]+with)[ \t]+)?(?P<what>(?:{_WORD}[ \t]+){{0,3}}?"
                        rf"(?i:disease|syndrome|disorder|krankheit|syndrom|enfermedad|síndrome|malattia|sindrome|"
                        rf"ziekte|syndroom|doença))(?![\w\-])")
# A condition in apposition to the writer's relative, set off by commas or brackets ("My husband, Diabetes type 2
# since 2015, asks ...", "my son (exercise-induced bronchospasm) runs"; ADR 0047): a condition by its words.
_APPOSED = re.compile(rf"(?<![\w'’])(?i:{_FIRST})[ \t]+[^\W\d_]+(?:[ \t]+[A-ZÀ-Þ][^\W\d_]+)?[ \t]*[,(][ \t]*"
                      rf"{_CONDITION_PHRASE}{_PHRASE_END}")
# A possessive and a part of the body with a generic head ("my ACL reconstruction", "her macular degeneration").
_BODY_PHRASE = re.compile(rf"(?<![\w'’])(?P<who>(?i:{_FIRST})|(?i:{_THIRD}))[ \t]+(?P<what>(?i:{_BODY_CONDITION.pattern[4:]}))")
# The further items of a bracketed or listed record ("(allergic to penicillin, coeliac)").
_LIST_ITEM = re.compile(rf"[ \t]*,[ \t]*(?P<what>(?i:{_ADJECTIVES}))(?![\w\-])")
_MEDICAL_BEFORE = re.compile(r"(?i)(?:hip|knee|heart|brain|back|spine|eye|cataract|kidney|liver|lung|bowel|"
                             r"hüft|knie|herz|cadera|rodilla|anca|ginocchio|heup|knie|quadril|joelho)")


def _medical(words: str) -> bool:
    return (_MEDICAL_BEFORE.search(words) is not None
            or any(w.casefold() in HEALTH_TERMS for w in re.findall(_WORD, words)))


class HealthPhraseRecognizer(ContextRule):
    NAME = "HealthPhraseRecognizer"
    SCORE = 0.8
    ENTITIES = (ENTITY,)

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        first_persons = [m.start() for m in _WRITERS_PERSON.finditer(text)]
        for m in _PHRASE.finditer(text):
            what = m.group("what")
            head = re.search(rf"(?i:{_HEADS})$", what.split(" de ")[0].split(" of ")[0].split(" di ")[0])
            if head is not None and head.group().casefold() in _VAGUE and not _medical(what[:head.start()]):
                continue
            third = re.fullmatch(rf"(?i:{_THIRD})", m.group("who")) is not None
            if third and not any(p < m.start() for p in first_persons):
                continue
            out.append((m.start("what"), m.end("what"), ENTITY))
        for m in _BODY_PHRASE.finditer(text):
            third = re.fullmatch(rf"(?i:{_THIRD})", m.group("who")) is not None
            if not third or any(p < m.start() for p in first_persons):
                out.append((m.start("what"), m.end("what"), ENTITY))
        for m in _APPOSED.finditer(text):
            if _a_condition(m.group("what")):
                out.append((m.start("what"), m.end("what"), ENTITY))
        for m in _HAS_NAMED.finditer(text):
            if _tied(text, m.start()):
                out.append((m.start("what"), m.end("what"), ENTITY))
        for m in _AFTER_PERSON.finditer(text):
            if not _tied(text, m.start()):
                continue
            out.append((m.start("what"), m.end("what"), ENTITY))
            pos = m.end()
            while (item := _LIST_ITEM.match(text, pos)) is not None:
                out.append((item.start("what"), item.end("what"), ENTITY))
                pos = item.end()
        return out
