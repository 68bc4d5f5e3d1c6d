"""Name-shaped pairs: the candidates the format-free person rules start from (issue #29).

A pair (after an @ too: a mention of a display name) is a given name from the shipped lists (``code_identifiers.given_name``: census and world given names)
followed by one or two surname-shaped words, particles allowed between them ("Hemi Drummond", "Kaveh
O'Flaherty", "Torsten van Dijk"), or a surname, a comma and such a given name ("Mwangi, Yevgeny"). Every word is
a name word (``shapes.name_words``: no common, technical or stop word) and the run names no tool or
organisation (``text_shape.tool_or_organisation``: "Winston Logger", "Morgan Corp"), nor does the pair with the
rest of its run ("Vera Packaging Team"). A pair alone is no
evidence: the rules that use it (``person_keys``, ``comment_subjects``, ``transcript_speakers``) each add what
says the pair is a person.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.names.context.shapes import CAP_WORD, LATIN, name_words
from ztgate.redaction.detection.text_shape import tool_or_organisation, whole_name

_PARTICLES = r"(?:van der|van den|van|von|de la|de|da|di|del|della|du|le|la|bin|al|ter|ten)"
# A run of capitalised words on one line, not inside an identifier, a path, a handle or an address.
_RUN = re.compile(rf"(?<![{LATIN}\w./\-])(?<![\w.]@){CAP_WORD}(?:(?: {_PARTICLES})? {CAP_WORD}){{0,5}}(?![\w@/\-])")
_CAP = re.compile(CAP_WORD)
# "Surname, Given": a capitalised word, a comma and a given name, ending the run.
_SURNAME_FIRST = re.compile(rf"(?<![{LATIN}\w@./\-])({CAP_WORD}),[ \t]({CAP_WORD})(?![\w@/\-]|[ \t][{LATIN}])")


def _name_word(word: str) -> bool:
    return name_words(word)


def pairs(text: str) -> Iterator[tuple[int, int]]:
    """Spans of the name-shaped pairs of text, left to right (module doc)."""
    for run in _RUN.finditer(text):
        caps = list(_CAP.finditer(text, run.start(), run.end()))
        i = 0
        while i < len(caps) - 1:
            first = caps[i]
            if given_name(first.group()) and _name_word(first.group()):
                j = i + 1
                while j < len(caps) and j - i <= 2 and _name_word(caps[j].group()):
                    j += 1
                if j - i >= 2:
                    start, end = whole_name(text, first.start(), caps[j - 1].end())
                    # the pair and the rest of its run name a team or a tool ("Vera Packaging Team")
                    if not tool_or_organisation(text[start:max(end, run.end())]):
                        yield start, end
                    i = j
                    continue
            i += 1
    for m in _SURNAME_FIRST.finditer(text):
        surname, given = m.group(1), m.group(2)
        if (given_name(given) and _name_word(surname) and _name_word(given)
                and not tool_or_organisation(m.group())):
            yield m.start(), m.end()
