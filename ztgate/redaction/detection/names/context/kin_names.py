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
from ztgate.redaction.detection.names.context.self_introductions import THAI_CLAUSE, thai_name

_WORD = r"[^\W\d_][^\W\d_\-]*"
_DEVANAGARI_WORD = r"[\u0900-\u0963\u0971-\u097f]+"
# Capitalised words that follow a relation and are no name: pronouns of address.
_CASED_STOPS = frozenset({"Sie", "Ihnen", "Ihr", "Ihre", "Du", "Dich", "Dir", "Euch", "Вы", "Вас", "Вам", "Ви",
                          "Вас", "Usted", "Vous", "Lei", "Você"})
# Thai titles before a name (นางสาว, นาง, นาย; ด.ช./ด.ญ. for children), read as part of the name's run.
_THAI_TITLES = r"(?:นางสาว|นาง|นาย|ด\.ช\.|ด\.ญ\.|คุณ)"
_AFTER_HI = frozenset(unicodedata.normalize("NFKC", w) for w in "को ने से का की के और है".split())


def _pattern(kin: Kinship) -> re.Pattern[str]:
    before = rf"(?<![^\W\d_])(?i:{kin.before})[ \t]+" if kin.before else r"(?<![^\W\d_])"
    if kin.script == "thai":  # words touch in Thai; the name is read after the cue, as a self-introduction's is
        source = rf"(?:{kin.relations}){kin.between}(?={_THAI_TITLES}?[\u0e01-\u0e4e])"
        return re.compile(unicodedata.normalize("NFKC", source))
    word = _DEVANAGARI_WORD if kin.script == "uncased" else _WORD
    name = rf"({word})(?:[ \t]+({word}))?(?:[ \t]+({word}))?(?:[ \t]+({word}))?"
    source = rf"{before}(?i:{kin.relations})(?![^\W\d_]){kin.between}[ \t]*,?[ \t]+{name}"
    return re.compile(unicodedata.normalize("NFKC", source))


_PATTERNS: tuple[tuple[Kinship, re.Pattern[str]], ...] = tuple((kin, _pattern(kin)) for kin in KINSHIPS)


def _cased_name(kin: Kinship, m: re.Match[str]) -> tuple[int, int] | None:
    first = m.group(1)
    if not first[0].isupper() or first in _CASED_STOPS or (kin.given_name_only and not given_name(first)):
        return None
    end = m.end(1)
    # a family name, and a third word after a patronymic or a middle name ("Ирина Валерьевна Соколова")
    for group in (2, 3):
        word = m.group(group)
        if not word or not word[0].isupper() or word in _CASED_STOPS or kin.given_name_only:
            break
        end = m.end(group)
    span = m.string[m.start(1):end]
    cut = re.search(r"['’]", span)  # a case suffix after an apostrophe
    return m.start(1), m.start(1) + (cut.start() if cut else len(span))


def _devanagari_name(m: re.Match[str]) -> tuple[int, int] | None:
    """The first word, or two or three where a postposition follows them ("दिनेश चंद्र पांडे ने")."""
    words = [m.group(i) for i in (1, 2, 3, 4)]
    if words[0] in KIN_STOPS_HI:
        return None
    for n in (3, 2):
        if words[n] in _AFTER_HI and all(w and w not in KIN_STOPS_HI for w in words[1:n]):
            return m.start(1), m.end(n)
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
                if kin.script == "thai":
                    found = thai_name(text, m.end())
                    span = None if found is None or text[found[0]:].startswith(THAI_CLAUSE) else found[:2]
                else:
                    span = _devanagari_name(m) if kin.script == "uncased" else _cased_name(kin, m)
                if span is not None and (span[0], span[1], "PERSON") not in out:
                    out.append((span[0], span[1], "PERSON"))
        return out
