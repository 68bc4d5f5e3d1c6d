"""A name-shaped pair that is the value of a key, a field, a label or a tag about a person, whatever the format:
``author=``, ``"maintainer": "``, ``LABEL maintainer="``, ``\\author{``, ``@author``, ``:reviewer:``, ``..
codeauthor::``, ``<owner>``, ``[signed-off]``, ``On-Call -``, ``set(AUTHOR "``, in any comment syntax and any
case or separator style (issue #29).

The key is the identifier right before the value and its separator (``:``, ``=``, ``:=``, ``=>``, ``->``, ``::``,
``|``, a bracket, a tab, a quote; a bare blank only after ``@``, ``\\``, ``:`` or ``..``); it is a person's when one
of its parts, split at case humps, ``_``, ``-``, ``.`` and blanks, is a word of ``data/words/person_key_words.txt``
(author, owner, reviewer, on-call ...) or a role (``data/words/person_roles.txt``: analyst, sre ...), or when it
ends in "by" ("created_by", "Reported by"). The value must be a
name-shaped pair (``person_pairs``): the same keys hold teams, bots, handles and tools ("owner: @infra",
"maintainer: platform-team", "author = release-bot"). Further pairs of a list under the same key count too
("authors: A B, C D").
"""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.person_pairs import pairs
from ztgate.redaction.detection.text_shape import line_bounds
from ztgate.redaction.detection.wordlists import words

# The key words, and the roles of people (``data/words/person_roles.txt``: "# Analyst: ", "engineer = ", "sre:").
KEY_WORDS = words("person_key_words") | words("person_roles")
# How far before a value its key and separator are looked for.
KEY_REACH = 60
_SEP = (r"""(?:[ \t]*["'`]?[ \t]*(?:::?=?|:=|=>?|->|\||[{(\[>\]]|-)+[ \t]*["'`\[]*[ \t]*"""
        r"""|\t+[ \t]*["'`]?|[ \t]+["'`])""")
_KEY = r"(?P<key>[A-Za-z][A-Za-z0-9]*(?:[_\-.][A-Za-z0-9]+)*(?:[ \t]+by)?)"
# The key and its separator, ending right where the value starts.
_KEY_BEFORE = re.compile(
    rf"(?:^|(?<=[^\w\-.]))(?:(?:@|\\|\.\.[ \t]+|:){_KEY}[ \t]*(?::{{1,2}}|\{{)?[ \t]*[\"'`]?[ \t]*"
    rf"|{_KEY.replace('key', 'key2')}{_SEP})$", re.MULTILINE)
_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])")
# Between two values of one list ("A B, C D", "A B and C D", "A B; C D").
_LIST_GAP = re.compile(r"""[ \t]*["'`]?[ \t]*(?:[,;&/]|and|\+)[ \t]*["'`]?[ \t]*""")


def person_key(key: str) -> bool:
    """A key about a person: one of its parts is a person-key word, or it ends in "by" (module doc)."""
    parts = [p for p in re.split(r"[_\-.\s]+", _HUMP.sub("_", key).casefold()) if p]
    if not parts:
        return False
    return (any(p in KEY_WORDS for p in parts) or "".join(parts) in KEY_WORDS
            or (len(parts) >= 2 and parts[-1] == "by"))


# A YAML list item's dash before its value, and the parent key a block list hangs under ("reviewers:\n  - ").
_ITEM = re.compile(r"([ \t]*)-[ \t]+[\"']?")
_PARENT = re.compile(r"([ \t]*)[\"']?([A-Za-z][\w\-. ]{0,40}?)[\"']?[ \t]*:[ \t]*$")
# How many lines above an item its parent key is looked for.
ITEM_REACH = 12


def keyed_by_person(text: str, start: int) -> bool:
    """A key about a person and its separator end right before start (module doc), on start's line, or start is
    an item of a YAML block list whose key is a person's ("maintainers:\n  - NAME")."""
    lo = line_bounds(text, start)[0]
    m = _KEY_BEFORE.search(text, max(lo, start - KEY_REACH), start)
    if m is not None and person_key(m.group("key") or m.group("key2")):
        return True
    item = _ITEM.fullmatch(text, lo, start)
    return item is not None and _parent_key_about_a_person(text, lo, len(item.group(1)))


def _parent_key_about_a_person(text: str, line_start: int, indent: int) -> bool:
    """The key of the block list whose item at ``indent`` starts the line at line_start, looked for at most
    ITEM_REACH lines up over the list's other items (and their fields), is about a person."""
    end = line_start - 1
    for _ in range(ITEM_REACH):
        if end < 0:
            return False
        lo = line_bounds(text, end)[0]
        line = text[lo:end]
        own = len(line) - len(line.lstrip(" \t"))
        if line.strip() and own < indent + (0 if line.lstrip().startswith("-") else 1):
            parent = _PARENT.fullmatch(line)
            return parent is not None and own <= indent and person_key(parent.group(2))
        end = lo - 1
    return False


class PersonKeyRecognizer(ContextRule):
    NAME = "PersonKeyRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON",)

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        last_end = -1
        for start, end in sorted(set(pairs(text))):
            if start < last_end:
                continue
            lo = line_bounds(text, start)[0]
            if last_end >= lo and _LIST_GAP.fullmatch(text, last_end, start):
                out.append((start, end, "PERSON"))
                last_end = end
                continue
            if keyed_by_person(text, start):
                out.append((start, end, "PERSON"))
                last_end = end
        return out
