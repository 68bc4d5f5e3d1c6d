"""A person's name that a format writes in parts, in slots of its own grammar rather than under keys (issue #29):
the string arguments of R's ``person()`` ("person(\\"X\\", \\"Y\\", , \\"x@y.org\\")": given, family and middle
by position, or ``given =``, ``family =``, ``middle =``, ``first =``, ``last =``, a ``c(...)`` of several), the
names of a BibTeX list under a key about a person ("author = {Y, X and Others}", "editor = \\"X Y and Z W\\""),
and a vCard's ``N`` (family;given;additional) and ``FN`` properties, parameters and all ("FN;CHARSET=UTF-8:X Y").

Each part is a person's when it is shaped like a name (``fields.value_span``: capitalised words, none a tool's,
no organisation's suffix): the same slots hold organisations ("person(\\"Coastal Lab\\", role = \\"cph\\")",
"author = {{The Ledger Authors}}", braced as a literal), so a person() call's parts must make two words or more
and a BibTeX name two words (a lone word there, "person(\\"Google\\")", "author = {Harlow}", is as often a company
or a project), and a vCard of an organisation (``KIND:org``, ``X-ABShowAs:COMPANY``, an empty ``N``) names no
person in its ``FN``."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.fields import value_span
from ztgate.redaction.detection.names.context.person_keys import person_key

# R's person() and as.person(), the call's opening parenthesis.
_PERSON_CALL = re.compile(r"(?<![\w.])(?:as\.)?person[ \t]*\(")
# person()'s arguments that hold a part of the name: by position (given, family, middle) and by keyword.
_POSITIONAL_PARTS = 3
_KEYWORD_PARTS = frozenset({"given", "family", "middle", "first", "last"})
_KEYWORD = re.compile(r"[ \t\n]*([A-Za-z_.][\w.]*)[ \t\n]*=(?!=)")
_STRING = re.compile(r"\"([^\"\\\n]{1,80})\"|'([^'\\\n]{1,80})'")
CALL_REACH = 600
# A BibTeX field about a person and its value's opening delimiter ("author = {", "editor=\"").
_BIB_FIELD = re.compile(r"(?im)^[ \t]*([A-Za-z][\w\-]{0,30})[ \t]*=[ \t]*([{\"])")
_BIB_AND = re.compile(r"\s+and\s+")
# A vCard and its properties: the card's own kind, and N and FN with their parameters.
_VCARD = re.compile(r"(?ims)^BEGIN:VCARD[ \t]*$(.*?)(?:^END:VCARD[ \t]*$|\Z)")
_CARD_PROPERTY = re.compile(r"(?im)^(?:item\d+\.)?(N|FN)(?:;[^:\n]*)?:([^\n]*?)[ \t\r]*$")
_NOT_A_PERSON_CARD = re.compile(r"(?im)^(?:KIND:[ \t]*(?:org|group|location|application|device)|X-ABShowAs:[ \t]*COMPANY)\b")


def _name_part(text: str, start: int, value: str) -> Span | None:
    """value (at start) as a part of a person's name, or None; cut before an address or a role ("X Y <x@y> [aut]")."""
    cut = re.split(r"[<\[(]", value, maxsplit=1)[0].rstrip()
    return value_span(text, start, cut, "PERSON") if cut.strip() else None


def _call_arguments(text: str, open_at: int) -> Iterator[tuple[int, int]]:
    """The spans of the top-level arguments of the call whose parenthesis is at open_at (strings and nested calls
    kept whole), up to its closing parenthesis or CALL_REACH characters."""
    depth, quote, arg_start = 0, "", open_at + 1
    for i in range(open_at + 1, min(len(text), open_at + CALL_REACH)):
        c = text[i]
        if quote:
            if c == quote and text[i - 1] != "\\":
                quote = ""
        elif c in "\"'":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                yield arg_start, i
                return
            depth -= 1
        elif c == "," and depth == 0:
            yield arg_start, i
            arg_start = i + 1


def _person_calls(text: str) -> Iterator[Span]:
    """The name parts of each person() call, when they make two words or more: a single word alone is as often an
    organisation as a person in R's convention ("person(\"Google\", role = \"cph\")")."""
    for call in _PERSON_CALL.finditer(text):
        parts = list(_call_parts(text, call.end() - 1))
        if sum(len(text[s:e].split()) for s, e, _ in parts) >= 2:
            yield from parts


def _call_parts(text: str, open_at: int) -> Iterator[Span]:
    """The name-shaped strings of a person() call's given, family and middle arguments, by position or keyword."""
    position = 0
    for lo, hi in _call_arguments(text, open_at):
        keyword = _KEYWORD.match(text, lo, hi)
        if keyword is None:
            wanted, position, body = position < _POSITIONAL_PARTS, position + 1, lo
        else:
            wanted, body = keyword.group(1).casefold() in _KEYWORD_PARTS, keyword.end()
        if not wanted:
            continue
        for s in _STRING.finditer(text, body, hi):
            group = 1 if s.group(1) is not None else 2
            span = _name_part(text, s.start(group), s.group(group))
            if span:
                yield span


def _bibtex_names(text: str) -> Iterator[Span]:
    for field in _BIB_FIELD.finditer(text):
        if not person_key(field.group(1)):
            continue
        opener = field.end() - 1
        quoted = field.group(2) == "\""
        close = text.find("\"", opener + 1, opener + CALL_REACH) if quoted else _closing_brace(text, opener)
        if close < 0:
            continue
        pos = opener + 1
        for item in _BIB_AND.split(text[opener + 1:close]):
            at = text.index(item, pos, close + 1) if item else pos
            pos = at + len(item)
            name = item.strip()
            if not name or name.startswith("{") or name.casefold() == "others" or len(name.split()) < 2:
                continue  # "{The Ledger Authors}": a literal, an organisation's name; a lone word as often a project
            span = value_span(text, at + item.index(name), name, "PERSON")
            if span is None and "," in name:  # "Family, Given": both parts name-shaped
                parts = [p.strip() for p in name.split(",")]
                if all(value_span(p, 0, p, "PERSON") for p in parts if p):
                    span = (at + item.index(name), at + item.index(name) + len(name), "PERSON")
            if span:
                yield span


def _closing_brace(text: str, opener: int) -> int:
    depth = 0
    for i in range(opener, min(len(text), opener + CALL_REACH)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _vcard_names(text: str) -> Iterator[Span]:
    for card in _VCARD.finditer(text):
        body_lo, body_hi = card.span(1)
        if _NOT_A_PERSON_CARD.search(text, body_lo, body_hi):
            continue
        props = list(_CARD_PROPERTY.finditer(text, body_lo, body_hi))
        if any(p.group(1).upper() == "N" and not any(ch.isalpha() for ch in p.group(2)) for p in props):
            continue  # an empty N: a card of an organisation, its FN the organisation's name
        for p in props:
            value, at = p.group(2), p.start(2)
            if p.group(1).upper() == "FN":
                span = _name_part(text, at, value)
                if span:
                    yield span
                continue
            for component in value.split(";")[:3]:  # family;given;additional (prefixes and suffixes are titles)
                part_at = at
                for part in component.split(","):
                    span = _name_part(text, part_at, part) if part.strip() else None
                    if span:
                        yield span
                    part_at += len(part) + 1
                at += len(component) + 1


class SplitNameRecognizer(ContextRule):
    NAME = "SplitNameRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON",)

    def find(self, text: str) -> list[Span]:
        return [*_person_calls(text), *_bibtex_names(text), *_vcard_names(text)]
