"""The name a writer gives as their own ("my name is Nguyen Van An", "I'm Tanaka Yui, the new tenant"): two or
three name words after "I'm"/"I am"/"my name is", whatever their order, so a family name written first (East
Asian order) is a person's name too, where NER and the given-name list know neither word (issue #29).

The same frame in other languages ("Меня зовут", "Ich heiße", "मेरा नाम ... है", "שמי", "ผมชื่อ": the table
``language_cues.INTRODUCTIONS``) names the writer too, with one to three words: capitalised ones in a cased
script (so "Меня зовут на работу", "they call me to work", has none), the words up to a copula, a pronoun or
punctuation in Hebrew and Devanagari, and in Thai, which puts no space between words, the run after the frame
and one more run after a single space (a Thai family name) unless that run opens a clause. Chinese, Japanese,
Korean and Arabic introductions are the script rules' (``cjk_names``, ``script_names``)."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import CuedNameRule, Span
from ztgate.redaction.detection.names.context.language_cues import INTRODUCTIONS, Introduction, nfkc
from ztgate.redaction.detection.names.context.shapes import CAP_WORD, END_OF_RUN
from ztgate.redaction.detection.wordlists import words

# "I'm Senior Engineer at Acme": a job title, no name.
_TITLE_WORDS = words("person_roles") | {"senior", "junior", "chief", "principal", "staff", "associate", "assistant"}

_INTRODUCTION = re.compile(
    rf"(?:\b(?i:my[ \t]+name[ \t]+is|my[ \t]+name's)|\bI[ \t]+am|\bI['’]m)[ \t]+"
    rf"({CAP_WORD}(?: {CAP_WORD}){{1,2}}){END_OF_RUN}")

# Each language's frames, then the text after them (a name is read from it word by word).
_FRAMES: tuple[tuple[Introduction, re.Pattern[str]], ...] = tuple(
    (intro, re.compile(rf"(?<![^\W\d_])(?i:{'|'.join(nfkc(intro.frames))})" + ("" if intro.script == "thai" else
                                                                         r"(?![^\W\d_])[ \t]*[:：]?")))
    for intro in INTRODUCTIONS)
# A word of a cased or uncased script: letters and their marks (Devanagari vowel signs are marks, not \w), with
# inner hyphens or apostrophes.
_WORD = re.compile(r"[^\W\d_][\w\u0900-\u097f\u0591-\u05c7'’\-]*")
_THAI_RUN = re.compile(r"[\u0e01-\u0e4e]{2,30}")
# Thai particles a name may carry at its end ("ธนากรครับ") and words that open a clause after a given name.
_THAI_PARTICLES = nfkc(("ครับ", "ค่ะ", "คะ", "นะคะ", "นะครับ", "จ้ะ", "จ้า", "นะ"))
THAI_CLAUSE = nfkc(("จะ", "เป็น", "อายุ", "อยู่", "มา", "ทำ", "และ", "กำลัง", "เรียน", "ชอบ", "ได้", "ไป", "ยินดี", "อยาก",
                "ต้องการ", "ขอ", "มี", "ซึ่ง", "ที่", "เกิด", "ครับ", "ค่ะ", "คะ", "นะ", "แต่", "เพราะ", "ก็", "อาศัย",
                "ทำงาน", "สนใจ", "กับ", "จาก", "คือ"))
_MAX_WORDS = 3


def _cased(text: str, at: int, stops: frozenset[str]) -> Span | None:
    """One to three capitalised words from ``at``, closed by punctuation or a word in lower case."""
    start = end = -1
    pos, count = at, 0
    while count < _MAX_WORDS:
        m = _WORD.match(text, pos)
        if m is None or not m.group()[:1].isupper() or m.group() in stops or m.group()[1:2].isupper():
            break
        start = m.start() if start < 0 else start
        end, count = m.end(), count + 1
        gap = re.match(r"[ \t]+", text[end:end + 3])
        if gap is None:
            break
        pos = end + gap.end()
    return (start, end, "PERSON") if count else None


def _uncased(text: str, at: int, stops: frozenset[str]) -> Span | None:
    """Up to two words from ``at`` (three where a copula closes them: "मेरा नाम अनिरुद्ध कुमार वाघमारे है"),
    ended by a stop word or punctuation."""
    found: list[re.Match[str]] = []
    pos = at
    while len(found) < _MAX_WORDS:
        m = _WORD.match(text, pos)
        if m is None or m.group() in stops:
            break
        found.append(m)
        gap = re.match(r"[ \t]+", text[m.end():m.end() + 3])
        if gap is None:
            break
        pos = m.end() + gap.end()
    closed = _WORD.match(text, pos) is not None and text[pos:].split(None, 1)[0] in stops
    if len(found) == _MAX_WORDS and not closed:
        found = found[:2]
    return (found[0].start(), found[-1].end(), "PERSON") if found else None


def thai_name(text: str, at: int) -> Span | None:
    """(Also read by ``kin_names`` after a Thai relation.) The run after the frame (its polite particle cut off) and a family name after one space, unless the next
    run opens a clause."""
    m = _THAI_RUN.match(text, at + (1 if text[at:at + 1] == " " else 0))
    if m is None:
        return None
    given = m.group()
    for particle in _THAI_PARTICLES:
        if given.endswith(particle) and len(given) > len(particle) + 1:
            return m.start(), m.end() - len(particle), "PERSON"
    family = _THAI_RUN.match(text, m.end() + 1) if text[m.end():m.end() + 1] == " " else None
    if family is None or family.group().startswith(THAI_CLAUSE):
        return m.start(), m.end(), "PERSON"
    end = family.end()
    for particle in _THAI_PARTICLES:
        if family.group().endswith(particle):
            end -= len(particle)
            break
    return m.start(), end, "PERSON"


def foreign_introductions(text: str) -> list[Span]:
    """The names after a self-introduction's frame of another language (module docstring)."""
    out: list[Span] = []
    for intro, frame in _FRAMES:
        stops = frozenset(nfkc(tuple(intro.stops)))
        for m in frame.finditer(text):
            at = m.end()
            while text[at:at + 1] in (" ", "\t") and intro.script != "thai":
                at += 1
            if intro.script == "cased":
                span = _cased(text, at, stops)
                if span is not None and len(text[span[0]:span[1]].split()) < intro.min_words:
                    span = None
            elif intro.script == "uncased":
                span = _uncased(text, at, stops)
            else:
                span = thai_name(text, at)
            if span is not None:
                out.append(span)
    return out


class SelfIntroductionRecognizer(CuedNameRule):
    NAME = "SelfIntroductionRecognizer"
    SCORE = 0.9
    CUE = _INTRODUCTION
    GROUP_IS_NAME = True  # the end of the run closes the name

    def accept(self, match: re.Match[str]) -> bool:
        """A job title after "I'm" is no name."""
        return not any(w.casefold() in _TITLE_WORDS for w in match.group(1).split())

    def find(self, text: str) -> list[Span]:
        return super().find(text) + foreign_introductions(text)
