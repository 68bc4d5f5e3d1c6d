"""The word lists tier 2 decides with, read from ``data/words/*.txt`` (each file says what it holds and where
it comes from). Immutable sets, read once on first use; nothing here changes after that."""

from __future__ import annotations

import functools

from spacy.lang.en.stop_words import STOP_WORDS

from ztgate.redaction.data_dirs import DATA_DIR

WORDS_DIR = DATA_DIR / "words"


@functools.lru_cache(maxsize=None)
def words(name: str) -> frozenset[str]:
    """The words of ``data/words/<name>.txt`` (white-space separated, '#' lines are comments)."""
    lines = (WORDS_DIR / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    return frozenset(w for line in lines if not line.lstrip().startswith("#") for w in line.split())


@functools.lru_cache(maxsize=None)
def phrases(name: str) -> tuple[str, ...]:
    """The phrases of ``data/words/<name>.txt``, one a line, case-folded ('#' lines are comments)."""
    lines = (WORDS_DIR / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    return tuple(line.strip().casefold() for line in lines if line.strip() and not line.lstrip().startswith("#"))


TECHNICAL_WORDS = words("technical_words")
FUNCTION_WORDS = words("function_words")
# The hand-written part: requests and words of chat, none of them a given name ("Summarise", "Explain").
WRITTEN_SENTENCE_STARTS = words("common_sentence_starts")
COMMON_SENTENCE_STARTS = frozenset(STOP_WORDS) | WRITTEN_SENTENCE_STARTS
NEVER_TRIGGERS = words("never_triggers")
PLACE_ACRONYMS = words("place_acronyms")
# Words that label a field of a form or a contact block, in many languages ("Anschrift:", "電話:"): never a name.
# A key about a person or a role before its colon is a label too ("# Maintainer: Packaging Team <...>").
FIELD_LABELS = (words("person_fields") | words("place_fields") | words("form_labels") | words("person_key_words")
                | words("person_role_fields") | frozenset(p for p in phrases("phone_labels") if " " not in p))
