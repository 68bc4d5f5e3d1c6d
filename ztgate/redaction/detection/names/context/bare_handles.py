"""A social handle with no cue word (issue #29, ADR 0045): "ringmaster_philippina and I are training a team",
"Follow tweedy_margoline, she knits every day".

The handle rules (people_places.yaml) need an @, quotes, a platform or a speaker's colon; a bare handle has only
its shape, lower-case words joined by underscores, which is also a code identifier's (snake_case). So the shape
counts only in prose about a person: its sentence holds a personal pronoun or a social verb (I, she, he, they,
follow, friend ...), the text has no mark of code (a backtick, brackets of a call, '=', braces, "def", "import",
"variable", "function", "column"), and no part of the handle is a word identifiers are built from (get, list,
count, user, total ...) or a technical word. CamelCase shop names ("IsmayInks") are not read: class names share
the shape, and ADR 0045 measured no frame that tells them apart.
"""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.wordlists import TECHNICAL_WORDS

# Words snake_case identifiers are built from: verbs of code, data nouns, quantities and qualifiers.
IDENTIFIER_PARTS: frozenset[str] = frozenset("""
get set put add del delete remove update create make build load save read write fetch send parse init run start stop
open close find check test is has can use to from of by for in on at and or not all any max min avg sum total count
num number len size idx index key value val var arg args param params attr prop obj item items list dict map set
array str string int float bool char byte bytes data file files path dir name names user users id ids type types
class func fn method call cb handler event events config conf settings env api url uri http db sql table row rows
col column field fields record records query result results response request req res msg message log logs err error
tmp temp old new prev next first last cur current default base main app src dst input output in out buf cache
price amount date time timestamp day days month year hour minute second count status state flag mode level
""".split())
# A chat log's speaker tag ("<agent_kim> she moved ...") is the log's, not prose about a person: left to the
# handle rules, so a nick is not hidden on one line and left on the next.
_HANDLE = re.compile(r"(?<![\w@/.\-`'\"<])(?P<value>[a-z]{3,}(?:_[a-z]{3,}){1,2})(?![\w(.\-/`'\"=\[>])")
_PERSON = re.compile(r"\b(?:I|I'm|I’m|(?i:me|she|he|her|his|him|they|them|follow|followed|following|friend|friends))\b")
_CODE = re.compile(r"`|\(\)|[={}]|\bdef |\bimport |->|::|\b(?i:variables?|functions?|columns?|fields?|methods?|"
                   r"params?|parameters?|identifiers?|snake_case|keys?)\b")
_SENTENCE = re.compile(r"[^.!?;\n]+")


class BareHandleRecognizer(ContextRule):
    NAME = "BareHandleRecognizer"
    SCORE = 0.8
    ENTITIES = ("PERSON",)

    def find(self, text: str) -> list[Span]:
        if "_" not in text or _CODE.search(text):
            return []
        out: list[Span] = []
        for sentence in _SENTENCE.finditer(text):
            if not _PERSON.search(sentence.group()):
                continue
            for m in _HANDLE.finditer(sentence.group()):
                parts = m.group("value").split("_")
                if any(p in IDENTIFIER_PARTS or p in TECHNICAL_WORDS for p in parts):
                    continue
                out.append((sentence.start() + m.start("value"), sentence.start() + m.end("value"), "PERSON"))
        return out
