"""Public list ``foreign_questions``: a name asked about in a question written in another language than English, in
a text with no evidence of a private person: the frame rules of ``encyclopedic_persons`` and
``knowledge_requests`` for Spanish, Portuguese, Italian, French, German, Dutch, Polish, Czech, Russian and
Japanese, by the question's words, never by the name. Kept when the text holds no private evidence
(``_private_context.private_person_in_text``) and either the name follows "who was" of that language ("¿Quién fue",
"Kim był", "Quem foi", "Chi era", "Wer war", "Qui était", "Кем был", "Wie was", "Kdo byl"; "NAME とは誰ですか"), or
a deed verb of that language right before it ("¿Qué descubrió NAME", "Co odkrył NAME"), or, for a place or a thing
NER read as a person, the question asks of a thing (built, high, erupted, capital, inhabitants, a year or a
century). Only the past "who was": "¿Quién es NAME?" asks of a living person as often as of a private one.
``person_ties`` applies on top. The default policy keeps it; ``strict`` does not. Cue words written by hand."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ztgate.redaction.detection.public import FramePublicList, PublicList
from ztgate.redaction.detection.public._private_context import private_person_in_text
from ztgate.redaction.detection.text_shape import sentence_bounds

# A name and the names of a list before the one decided ("Chi erano Dante, Petrarca e ...").
_NAME = (r"(?:[^\W\d_][\w'’.\-]*(?:\s+(?:[^\W\d_][\w'’.\-]*|y|e|i|de|da|do|dos|das|del|della|di|von|van|der|den|"
         r"la|le|du|des))*)")
_LIST = rf"(?:{_NAME}\s*(?:,|\by\b|\be\b|\bi\b|\bund\b|\bet\b|\ben\b|\ba\b)\s*)*"
# "Who was" in the languages read, past forms only (module doc).
_WHO_WAS = (r"quién\s+(?:fue|era)|quiénes\s+(?:fueron|eran)|quem\s+(?:foi|era|foram)|chi\s+(?:era|fu|erano|furono)|"
            r"wer\s+(?:war|waren)|qui\s+(?:était|fut|étaient)|kim\s+(?:był|była|byli|były)|kto\s+to\s+(?:był|była)|"
            r"кем\s+(?:был|была|были)|кто\s+(?:был|была|такой|такая)|wie\s+(?:was|waren)|kdo\s+(?:byl|byla|byli)")
# Deed verbs of a public figure, past forms, in the same languages.
_DEEDS = (r"descubri[óo]|invent(?:ó|ou|ò|a)|pint(?:ó|ou)|escribi[óo]|escreveu|compus[oe]|compôs|fund(?:ó|ou|ò|a)|"
          r"constru(?:yó|iu|ì)|conquist(?:ó|ou|ò)|dirigi[óo]|gan(?:ó)|scopr[ìi]|scrisse|dipinse|compose|"
          r"découvrit|inventa|écrivit|peignit|fonda|construisit|a\s+(?:découvert|inventé|écrit|peint|fondé|construit)|"
          r"entdeckte|erfand|schrieb|malte|komponierte|gründete|baute|ontdekte|vond|schreef|schilderde|bouwde|"
          r"odkrył[ao]?|wynalazł[ao]?|napisał[ao]?|namalował[ao]?|skomponował[ao]?|założył[ao]?|zbudował[ao]?|"
          r"objevil[ao]?|vynalezl[ao]?|napsal[ao]?|namaloval[ao]?|založil[ao]?|postavil[ao]?|"
          r"открыл[аи]?|изобр[её]л[аи]?|написал[аи]?|сочинил[аи]?|основал[аи]?|построил[аи]?")
_INTERROGATIVE = (r"qu[ée]|cu[áa]l|cu[áa]ndo|c[óo]mo|d[óo]nde|o\s+que|que|quando|onde|qual|cosa|che|quale|dove|"
                  r"qu['’]|quel(?:le)?s?|quand|où|was|welche[snmr]?|wann|wo|wat|welke|wanneer|waar|co|jak[iae]?|"
                  r"kiedy|gdzie|jaký|jaká|jaké|kdy|kde|что|какой|какая|какие|когда|где")
_BEFORE_WHO = re.compile(rf"(?i)(?:^|[¿¡\s])(?:{_WHO_WAS})\s+(?-i:{_LIST})$")
_BEFORE_DEED = re.compile(rf"(?i)(?:^|[¿¡\s])(?:{_INTERROGATIVE})(?:\s+|(?<=['’]))(?:\w+\s+)?(?:{_DEEDS})\s+(?-i:{_LIST})$")
_AFTER_WHO_JA = re.compile(r"\s*(?:とは|は)(?:誰|だれ|どんな人|何を(?:発明|発見|書い|描い|作曲)|なぜ有名)")
# A question that asks of a thing: built, high, erupted, founded, a capital, inhabitants, a year, a century.
_THING = re.compile(
    r"(?i)\b(?:constru\w*|edific\w*|erupci\w*|erupç\w*|eruzion\w*|éruption|ausbr\w*|uitbarst\w*|erupc\w*|"
    r"извер\w*|alt[oa]s?|altura|alto|haut(?:e|eur)?|hoch|hohe?|hoog|wysok\w*|vysok\w*|высот\w*|capital|capitale|"
    r"capoluogo|hauptstadt|hoofdstad|stolic\w*|hlavní|столиц\w*|habitantes|abitanti|habitants|einwohner|inwoners|"
    r"mieszkańc\w*|obyvatel\w*|жител\w*|gebaut|gebouwd|zbudowan\w*|postaven\w*|построен\w*|bâti|visiteurs|"
    r"visitantes|visitatori|besucher|bezoekers|siglo|século|secolo|jahrhundert|siècle|eeuw|wie[kc]u?|století|"
    r"век[аеу]?|provincia|província|provinz|estado|bundesland|región|regione|région|region)\b"
    r"|\b1\d\d\d\b")
_ENGLISH = re.compile(r"(?i)\b(?:the|what|who|which|when|where|how|did|does)\b")
_SENTENCE_END = re.compile(r"[!?？！。\n]|(?<![A-Z])\.(?=\s|$)")
SENTENCE_REACH = 200


def in_frame(text: str, start: int, end: int, entity_type: str) -> bool:
    """Whether text[start:end] is asked about in another language's question in a text with no private evidence
    (module doc); nothing about ``person_ties``."""
    if private_person_in_text(text, start, end):
        return False
    lo, hi = sentence_bounds(text, start, end, _SENTENCE_END, SENTENCE_REACH, with_end=True)
    if "?" not in text[end:hi + 1] and "？" not in text[end:hi + 1]:
        return False
    if _BEFORE_WHO.search(text, lo, start) is not None or _BEFORE_DEED.search(text, lo, start) is not None:
        return True
    if _AFTER_WHO_JA.match(text, end, hi) is not None:
        return True
    if _ENGLISH.search(text, lo, hi) is not None:
        return False  # an English question: knowledge_requests reads it
    return _THING.search(text, lo, hi) is not None


@dataclass(frozen=True, slots=True)
class ForeignQuestions(FramePublicList):
    """A name asked about in another language's question, in a text with no private evidence."""

    def in_frame(self, text: str, start: int, end: int, entity_type: str) -> bool:
        return in_frame(text, start, end, entity_type)


def load() -> PublicList:
    return ForeignQuestions("foreign_questions", frozenset({"PERSON", "LOCATION", "NRP"}), frozenset())
