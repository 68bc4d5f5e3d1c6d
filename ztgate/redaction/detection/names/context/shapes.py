"""Shapes the context rules share: capitalised words and runs of them, and the tests that a run is made
of name words (not common, technical or stop words)."""

from __future__ import annotations

import re

from ztgate.redaction.detection.text_shape import LATIN_CAPITALS, is_capitalised
from ztgate.redaction.detection.wordlists import COMMON_SENTENCE_STARTS, NEVER_TRIGGERS, TECHNICAL_WORDS

# Capitals of the Latin blocks names are written in (``text_shape.LATIN_CAPITALS``: Ł, Ș, Ọ ...).
UP = LATIN_CAPITALS
LATIN = "A-Za-zÀ-ÖØ-öø-ɏḀ-ỿ\u0300-\u036f"  # Latin letters only: a name inside CJK text ends where the CJK starts
# A name's word: hyphen or apostrophe parts bounded ("Jean-Pierre", "O'Neill-Smith"): an unbounded run made a
# scan of "x-Mar-" * n quadratic, every capital starting a word that ran to the end of the text.
CAP_WORD = rf"[{UP}][{LATIN}]*(?:['’\-][{LATIN}]+){{0,4}}"
PLACE_JOINERS = r"(?:am|an|der|nad|pod|sur|upon|on|de|del|la|le|di|da|en|im|bei|of|the|y)"
# One to four capitalised words, lower-case joiners between them ("Jablonec nad Jizerou", "Frankfurt am Main").
CAP_RUN = re.compile(rf"{CAP_WORD}(?:(?: {PLACE_JOINERS})* {CAP_WORD}){{0,3}}")
END_OF_RUN = r"(?=$|[\s.,;:!?)\]}'\"”’»])"
# A person's name: up to four capitalised words, with the particles names carry ("Pieter van der Berg").
NAME_RUN = rf"{CAP_WORD}(?:(?: (?:van der|van den|van|von|de la|de|da|di|del|della|du|le|la|bin|al|y))? {CAP_WORD}){{0,3}}"
NOT_NAMES = COMMON_SENTENCE_STARTS | NEVER_TRIGGERS | TECHNICAL_WORDS


def name_words(run: str) -> bool:
    """Every capitalised word of a run is name-shaped and not a common, technical or stop word."""
    caps = [w for w in run.split() if w[:1].isupper()]
    return bool(caps) and all(is_capitalised(w) and w.casefold() not in NOT_NAMES for w in caps)


def labelled_name(value: str) -> bool:
    """A value under a name or place label: capitalised words ("New Cristinaport"), no technical word, not
    only common words ("Not Applicable")."""
    ws = value.split()
    caps = [w for w in ws if w[:1].isupper()]
    return (bool(caps) and all(is_capitalised(w) for w in caps) and len(ws) <= 5
            and not any(w.casefold() in TECHNICAL_WORDS for w in ws)
            and any(w.casefold() not in NOT_NAMES for w in caps))


def trim(text: str, start: int, run: str) -> tuple[int, int] | None:
    """The run up to its first word that is not a name word (a run must start with one)."""
    kept: list[str] = []
    for w in run.split(" "):
        if w[:1].isupper() and not name_words(w):
            break
        kept.append(w)
    while kept and not kept[-1][:1].isupper():
        kept.pop()
    if not kept:
        return None
    return start, start + len(" ".join(kept))
