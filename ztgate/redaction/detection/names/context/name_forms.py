"""A private person's name in another form than the one NER reads: with a Turkish case suffix after an apostrophe
("Nurcan'ın", "Ayşe'ye") or inside a file name, split by underscores, hyphens or dots ("CV-Jana-Novak.pdf",
"nunta_Irinei.mkv", inflected as Romanian, Czech or Polish do).

The form alone is no evidence (Turkish writes "İstanbul'da" and "Pamuk'un" alike; a file is named for a product as
often), so the word counts only when the text names that person: a name-shaped pair (``person_pairs``) with a
relation or a possessive just before it ("Öğretmenim Nurcan Ekinci", "my cousin Ruxandra Pop") has the same word,
or an inflection of it (a common stem of four letters at least, two letters at most changed at the end); or, in a
Turkish suffixed word, when such a relation stands right before it ("kuzenim Dilara'nın"); or, in a file name, when
its parts are a given name and a surname, the text is the writer's ("my", "I", "mi" ...) and the file is a
personal document by one of its words (CV, payslip, passport, wedding ...): "Paris_Trip.mkv" is none."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.person_pairs import pairs
from ztgate.redaction.detection.names.context.shapes import CAP_WORD, LATIN, UP, name_words
from ztgate.redaction.detection.names.gazetteer import ascii_fold
from ztgate.redaction.detection.wordlists import COMMON_SENTENCE_STARTS, FUNCTION_WORDS

_SUFFIXED = re.compile(
    rf"(?<![\w'’])(?P<stem>[{UP}][{LATIN}]{{2,}})['’](?:n?[ıiuü]n|y?[ae]|y?[ıiuü]|[dt][ae]n?|l[ae]|yl[ae]|"
    rf"c[ae]|ç[ae]|s[ıiuü]|n[ae]|nd[ae]n?|l[ae]r\w*)(?![\w'’])")
# A file name's base is at most FILE_BASE_CHARS long: unbounded, every start in a long run of "x-Mar-x-Mar-"
# scanned to the text's end for an extension (quadratic, tests/unit/redaction/test_scan_cost.py).
FILE_BASE_CHARS = 120
_FILE = re.compile(
    rf"(?<![\w/\\])(?P<base>[\w{LATIN}][\w{LATIN}\-.]{{0,{FILE_BASE_CHARS}}}?)\.(?i:pdf|docx?|odt|rtf|txt|xlsx?|ods|csv|pptx?|jpe?g|png|heic|"
    r"gif|tiff?|mp4|mkv|mov|avi|webm|mp3|wav|m4a|ogg|zip|rar|7z)(?![\w])")
_PART = re.compile(rf"[{UP}][{LATIN}]{{2,}}")
# A relation or possessive before a name: the possessives of the languages read and a noun, Romanian's noun and
# "meu/mea", Turkish nouns of relation and role with a possessive suffix (-(ı)m, -(ı)mız).
_POSSESSIVE = (r"my|our|his|her|their|mi|mis|su|mon|ma|mes|son|sa|mein|meine|meinem|meiner|sein|seine|ihr|ihre|"
               r"mijn|onze|zijn|haar|min|mitt|mina|meu|minha|mio|mia|suo|sua|mój|moja|moje|mojego|mojej|můj|"
               r"moje|mého|mé|moji")
_TURKISH_RELATION = (r"anne|baba|eş|kız|oğl|kuzen|arkadaş|öğretmen|müdür|komşu|teyze|amca|dayı|hala|abla|abi|"
                     r"ağabey|kardeş|patron|meslektaş|hoca|sevgili|nişanlı|torun|yeğen|dede|nine|müşteri|"
                     r"öğrenci|hasta|çalışan|ev[ ]arkadaş")
_CUE = re.compile(
    rf"(?:(?<![\w'’])(?i:{_POSSESSIVE})[ \t]+(?:[^\W\d_]+[ \t]+)?[^\W\d_]+|"
    rf"(?<![\w'’])[^\W\d_]+(?:ul|a|ei|ului)[ \t]+(?i:meu|mea|nostru|noastră)|"
    rf"(?<![\w'’])(?i:{_TURKISH_RELATION})[a-zçğıöşü]*?(?:[ıiuü]?m|[ıiuü]?m[ıiuü]z)(?:[ \t]+\w+)?)[ \t]*,?[ \t]*$")
_WRITER = re.compile(r"(?i)(?<![\w'’])(?:I|I['’]m|I['’]ve|my|me|our|we|mi|mis|mon|ma|mes|mein|meine|mijn|min|mitt|"
                     r"meu|minha|mio|mia|mój|moja|moje|můj|je|ich|yo|io|ik|jag|eu|ja|já)(?![\w'’])")
_CUE_REACH = 40
_NOT_RELATIONS = COMMON_SENTENCE_STARTS | FUNCTION_WORDS
_PERSONAL_FILE = re.compile(
    r"(?i)(?:^|[_\-.])(?:cv|resume|résumé|lebenslauf|curriculum|payslip|salary|contract|offer|letter|passport|"
    r"id|visa|wedding|nunta|boda|hochzeit|mariage|matrimonio|casamento|bruiloft|ślub|svatba|birthday|botez|"
    r"bautizo|taufe|baptism|certificate|diploma|transcript|zeugnis|medical|application|bewerbung|"
    r"candidatura|sollicitatie|životopis|życiorys)(?=$|[_\-.\d])")


def _cued(text: str, start: int) -> bool:
    """A relation or a possessive and its noun right before ``start`` ("my colleague about X" is no relation's)."""
    m = _CUE.search(text[max(0, start - _CUE_REACH):start])
    return m is not None and m.group().split()[-1].strip(",").casefold() not in _NOT_RELATIONS


_TWO_CAPS = re.compile(rf"(?<![\w'’])(?=({CAP_WORD}[ \t]+{CAP_WORD}))")  # overlapping: "Öğretmenim Kateřina Novak"


def known_given_name(word: str) -> bool:
    """A given name of the shipped lists, as written or without its diacritics ("Kateřina")."""
    return given_name(word) or given_name(ascii_fold(word))


def name_pairs(text: str) -> list[tuple[int, int]]:
    """``person_pairs.pairs`` and, overlapping, two name words opening with a given name written with diacritics."""
    return list(pairs(text)) + [(m.start(1), m.end(1)) for m in _TWO_CAPS.finditer(text)
                                if known_given_name(m.group(1).split()[0]) and name_words(m.group(1))]


def _named_words(text: str) -> set[str]:
    """The words of the name-shaped pairs (or two name words opening with a given name written with its
    diacritics, "Kateřina Dvořáková") that a relation or a possessive introduces."""
    out: set[str] = set()
    for start, end in name_pairs(text):
        if _cued(text, start):
            out.update(w.casefold() for w in re.findall(rf"[{LATIN}]+", text[start:end]))
    return out


def _inflection_of(word: str, named: set[str]) -> bool:
    folded = word.casefold()
    if folded in named:
        return True
    for name in named:
        stem = len(name) - 2
        if stem >= 4 and folded[:stem] == name[:stem] and abs(len(folded) - len(name)) <= 2:
            return True
    return False


class NameFormRecognizer(ContextRule):
    NAME = "NameFormRecognizer"
    SCORE = 0.85
    ENTITIES = ("PERSON",)

    def find(self, text: str) -> list[Span]:
        suffixed = list(_SUFFIXED.finditer(text))
        files = list(_FILE.finditer(text))
        if not suffixed and not files:
            return []
        named = _named_words(text)
        out: list[Span] = []
        for m in suffixed:
            stem = m.group("stem")
            if name_words(stem) and (_inflection_of(stem, named) or _cued(text, m.start())):
                out.append((m.start("stem"), m.end("stem"), "PERSON"))
        writer = _WRITER.search(text) is not None
        for m in files:
            out += self._file_parts(text, m.start("base"), m.group("base"), named, writer)
        return out

    @staticmethod
    def _file_parts(text: str, offset: int, base: str, named: set[str], writer: bool) -> list[Span]:
        """The runs of a file name's parts that name the person (module doc); a run's separators stay inside it."""
        parts = list(_PART.finditer(base))
        hits = [p for p in parts if name_words(p.group()) and _inflection_of(p.group(), named)]
        if writer and _PERSONAL_FILE.search(base):
            for a, b in zip(parts, parts[1:]):
                joined = base[a.end():b.start()]
                if (joined in {"_", "-", "."} and known_given_name(a.group()) and name_words(a.group())
                        and name_words(b.group())):
                    hits += [a, b]
        out: list[Span] = []
        for p in sorted(set(hits), key=lambda p: p.start()):
            if out and base[out[-1][1] - offset:p.start()] in {"_", "-", "."}:
                out[-1] = (out[-1][0], offset + p.end(), "PERSON")
            elif not out or out[-1][1] <= offset + p.start():
                out.append((offset + p.start(), offset + p.end(), "PERSON"))
        return out
