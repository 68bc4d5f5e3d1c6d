"""The key a value stands under and the keys beside it in the same object or section, in any manifest syntax
(issue #29, ADR 0038): the attributes of one XML tag (``<addon id= name= version=>``), the child elements of one
parent (``<id>``, ``<version>``, ``<title>`` at one indentation), or the key lines of one block at one indentation
and with one leader, whatever the key's separator (``key: v``, ``key = v``, ``"key": "v"``, ``KEY "v"`` after
``!define``/``#define``, ``VALUE "Key", "v"``, ``* Plugin Name: v`` in a comment header). A section ends at a less
indented line, a ``[table]`` header or a closing tag; blank lines and deeper lines (nested records) are passed over.

Only the shape is read, never a file kind: ``manifests.product_name_field`` decides on it."""

from __future__ import annotations

import re

# How far around a value its tag or its section is read.
REACH = 1500
LINES = 40
_ATTR_BEFORE = re.compile(r"""([A-Za-z_][\w:.\-]*)[ \t]*=[ \t]*["']$""")
_ATTR = re.compile(r"""(?<![\w:.\-])([A-Za-z_][\w:.\-]*)[ \t]*=[ \t]*["']""")
_ELEMENT_BEFORE = re.compile(r"<([A-Za-z][\w:.\-]*)(?:[ \t][^<>]*)?>$")
_ELEMENT_LINE = re.compile(r"([ \t]*)<([A-Za-z][\w:.\-]*)[\s/>]")
# A comment leader, a preprocessor definition or a resource VALUE, the key (up to three words before a colon),
# then its separator and the value's opening quote, if any.
_LEAD = r"""([ \t]*)((?:(?:\#|//|/?\*+|;+|--|%|REM\b)[ \t]*)?(?:[!\#]define[ \t]+|VALUE[ \t]+)?)"""
_LINE_KEY = re.compile(
    _LEAD + r"""["']?([A-Za-z][\w.\-]*(?:[ ][A-Za-z][\w.\-]*){0,2})["']?[ \t]*(?::(?!:)|=|,(?=[ \t]*["']))[ \t]*["']?"""
    r"|" + _LEAD + r"""["']?([A-Za-z][\w.\-]*)["']?[ \t]+(?=["'])["']""")
_TABLE = re.compile(r"[ \t]*\[[^\]\n]+\][ \t]*$")


def section_keys(text: str, start: int) -> tuple[str, list[str]] | None:
    """The key of the value at start and the other keys of its section (module doc); None when no key stands right
    before start."""
    return _attribute(text, start) or _element(text, start) or _line(text, start)


def _attribute(text: str, start: int) -> tuple[str, list[str]] | None:
    key = _ATTR_BEFORE.search(text, max(0, start - 80), start)
    if key is None:
        return None
    opening = text.rfind("<", max(0, start - REACH), key.start())
    if opening < 0 or ">" in text[opening:key.start()]:
        return None
    closing = text.find(">", start)
    tag = text[opening:closing if closing >= 0 else min(len(text), start + REACH)]
    siblings = [m.group(1) for m in _ATTR.finditer(tag) if opening + m.start(1) != key.start(1)]
    return key.group(1), siblings


def _element(text: str, start: int) -> tuple[str, list[str]] | None:
    line_start = text.rfind("\n", 0, start) + 1
    key = _ELEMENT_BEFORE.search(text, line_start, start)
    if key is None or not text.startswith(f"</{key.group(1)}>", text.find("<", start)):
        return None
    indent = len(text[line_start:key.start()]) - len(text[line_start:key.start()].lstrip(" \t"))
    siblings = []
    for lines in _neighbours(text, line_start):
        for line in lines:
            m = _ELEMENT_LINE.match(line)
            if line.lstrip().startswith("</") and len(line) - len(line.lstrip(" \t")) < indent:
                break
            if m is None:
                continue
            if len(m.group(1)) < indent:
                break
            if len(m.group(1)) == indent:
                siblings.append(m.group(2))
    return key.group(1), siblings


def _line(text: str, start: int) -> tuple[str, list[str]] | None:
    line_start = text.rfind("\n", 0, start) + 1
    key = _LINE_KEY.fullmatch(text, line_start, start)
    if key is None:
        return None
    indent, leader, name = _parts(key)
    siblings = []
    for lines in _neighbours(text, line_start):
        for line in lines:
            if not line.strip() or line.strip() in "{}[](),;":
                continue
            if _TABLE.fullmatch(line):
                break
            m = _LINE_KEY.match(line)
            own = len(line) - len(line.lstrip(" \t"))
            if own < len(indent):
                break
            if m is not None and own == len(indent) and _parts(m)[1].strip() == leader.strip():
                siblings.append(_parts(m)[2])
    return name, siblings


def _parts(m: re.Match[str]) -> tuple[str, str, str]:
    """Indentation, leader and key of a key line, whichever alternative matched."""
    return (m.group(1), m.group(2), m.group(3)) if m.group(3) is not None else (m.group(4), m.group(5), m.group(6))


def _neighbours(text: str, line_start: int) -> tuple[list[str], list[str]]:
    """The lines before line_start (nearest first) and the lines after its line, walked apart."""
    before = text[max(0, line_start - REACH):line_start].split("\n")[:-1][-LINES:]
    end = text.find("\n", line_start)
    after = text[end + 1:end + 1 + REACH].split("\n")[:LINES] if end >= 0 else []
    return before[::-1], after
