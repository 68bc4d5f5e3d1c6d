"""A relative or a friend named in the writer's own language, after a relation word in any of its inflections
("моему брату Данилке", "с подругой Алёнкой", "meiner Schwester Wiebke", "moja siostrzenica Jagódka", "ο γιος
μου ο Σπυράκος", "मेरी बहन सुहानी को"): the cues are ``language_cues.KINSHIPS``. A Turkish relation carries its
possessive as a suffix ("Oğlum Tolunay"; a name with a case suffix, "kuzenim Dilvara'nın", is ``name_forms``').
The English relation rule (``relation_first_names``) reads English words only; Japanese, Chinese and Korean
relations are the CJK rule's (``cjk_names``), Arabic ones the script rule's (``script_names``).

In cased scripts the name is the capitalised word after the relation (and a second capitalised one, a family
name), up to an apostrophe's case suffix; a lower-case word ("мой брат по оружию") is none, and a title
with the relation ("«Братья Карамазовы»") has no possessive or preposition before it. German capitalises every
noun ("meinem Sohn Mathematik erklären"), so there the word must be a known given name. In Devanagari the word
after the relation, unless a postposition, pronoun or verb (``KIN_STOPS_HI``), and a second one where a
postposition follows it."""

from __future__ import annotations

import re
import unicodedata

from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.language_cues import KIN_STOPS_HI, KINSHIPS, Kinship

_WORD = r"[^\W\d_][^\W\d_\-]*"
_DEVANAGARI_WORD = r"[\u0900-\u0963\u0971-\u097f]+"
# Capitalised words that follow a relation and are no name: pronouns of address.
_CASED_STOPS = frozenset({"Sie", "Ihnen", "Ihr", "Ihre", "Du", "Dich", "Dir", "Euch", "Вы", "Вас", "Вам", "Ви",
                          "Вас", "Usted", "Vous", "Lei", "Você"})
_AFTER_HI = frozenset(unicodedata.normalize("NFKC", w) for w in "को ने से का की के और है".split())


def _pattern(kin: Kinship) -> re.Pattern[str]:
    before = rf"(?<![^\W\d_])(?i:{kin.before})[ \t]+" if kin.before else r"(?<![^\W\d_])"
    word = _DEVANAGARI_WORD if kin.script == "uncased" else _WORD
    name = rf"({word})(?:[ \t]+({word}))?(?:[ \t]+({word}))?"
    source = rf"{before}(?i:{kin.relations})(?![^\W\d_]){kin.between}[ \t]*,?[ \t]+{name}"
    return re.compile(unicodedata.normalize("NFKC", source))


_PATTERNS: tuple[tuple[Kinship, re.Pattern[str]], ...] = tuple((kin, _pattern(kin)) for kin in KINSHIPS)


def _cased_name(kin: Kinship, m: re.Match[str]) -> tuple[int, int] | None:
    first = m.group(1)
    if not first[0].isupper() or first in _CASED_STOPS or (kin.given_name_only and not given_name(first)):
        return None
    end = m.end(1)
    second = m.group(2)
    if second and second[0].isupper() and second not in _CASED_STOPS and not kin.given_name_only:
        end = m.end(2)
    span = m.string[m.start(1):end]
    cut = re.search(r"['’]", span)  # a case suffix after an apostrophe
    return m.start(1), m.start(1) + (cut.start() if cut else len(span))


def _devanagari_name(m: re.Match[str]) -> tuple[int, int] | None:
    first, second, third = m.group(1), m.group(2), m.group(3)
    if first in KIN_STOPS_HI:
        return None
    if second and second not in KIN_STOPS_HI and third in _AFTER_HI:
        return m.start(1), m.end(2)
    return m.start(1), m.end(1)


class KinNameRecognizer(ContextRule):
    NAME = "KinNameRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON",)

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        for kin, pattern in _PATTERNS:
            for m in pattern.finditer(text):
                if kin.language == "tr" and re.match(r"[^\W\d_]+['’]", m.string[m.start(1):]):
                    continue  # a Turkish name with a case suffix is the name-form rule's
                span = _devanagari_name(m) if kin.script == "uncased" else _cased_name(kin, m)
                if span is not None and (span[0], span[1], "PERSON") not in out:
                    out.append((span[0], span[1], "PERSON"))
        return out
