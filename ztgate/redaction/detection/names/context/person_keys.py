"""A name-shaped pair that is the value of a key, a field, a label or a tag about a person, whatever the format:
``author=``, ``"maintainer": "``, ``LABEL maintainer="``, ``\\author{``, ``@author``, ``:reviewer:``, ``..
codeauthor::``, ``<owner>``, ``[signed-off]``, ``On-Call -``, ``set(AUTHOR "``, in any comment syntax and any
case or separator style (issue #29).

The key is the identifier right before the value and its separator (``:``, ``=``, ``:=``, ``=>``, ``->``, ``::``,
``|``, a bracket, a tab, a quote; a bare blank only after ``@``, ``\\``, ``:`` or ``..``); it is a person's when one
of its parts, split at case humps, ``_``, ``-``, ``.`` and blanks, is a word of
``data/words/person_key_words.txt`` (author, maintainer, owner, reviewer, assignee, on-call, contact, cc,
signed, approved, contributor ...), or when it ends in "by" ("created_by", "Reported by"). The value must be a
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

KEY_WORDS = words("person_key_words")
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
            m = _KEY_BEFORE.search(text, max(lo, start - KEY_REACH), start)
            if m is not None and person_key(m.group("key") or m.group("key2")):
                out.append((start, end, "PERSON"))
                last_end = end
        return out
