"""Tier 2's own Presidio recognizers for names and places, beside spaCy's: the gazetteer (lists, with the rules
of ``gazetteer.find``) and the context recognizer (no list: the words around say what a word is).

Each reports under its own name (``GazetteerRecognizer``, ``ContextRecognizer``) with its own scores, so a
finding says where it came from and a policy threshold can tell strong from weak evidence:

* the gazetteer scores GAZETTEER_SCORE; NER_AGREEMENT_SCORE when spaCy found the same span with the same type;
  WEAK_SCORE (under the default threshold) when the line is technical - code, a log, a diff, a table - and
  nothing around the candidate backs it (``text_shape.has_evidence``): a town name that is a branch name or a
  log field is not redacted by default;
* the context recognizer scores CONTEXT_SCORE: a capitalised word after "lives in", "moved to", "I'm from"; a
  name on the line after a sign-off ("Thanks,\\nMaria") or after a greeting ("Dear Wiktor,"); the handle in
  ``TODO(handle)``; the name that ends an e-mail subject ("Subject: Contract renewal - Beyler Manole"); a run
  of capitalised Latin words inside text in another script ("请联系John Smith确认").
"""

from __future__ import annotations

import re
from pathlib import Path

from presidio_analyzer import EntityRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from ztgate.redaction.detection.names import gazetteer
from ztgate.redaction.detection.names.ner import LANGUAGE, plausible_span
from ztgate.redaction.detection.text_shape import (
    has_evidence,
    is_capitalised,
    line_bounds,
    needs_evidence,
    strong_place_cue,
    whole_name,
)
from ztgate.redaction.detection.wordlists import COMMON_SENTENCE_STARTS, NEVER_TRIGGERS, TECHNICAL_WORDS, phrases, words
from ztgate.redaction.types import NER_ENTITY_TYPES

GAZETTEER_SCORE = 0.75
NER_AGREEMENT_SCORE = 0.95
WEAK_SCORE = 0.3
# Above NER's own 0.85: a cue (a `name` column, a sign-off, "lives in") says which type a word is
# better than spaCy's label does; overlapping findings are merged, so this decides the type only.
CONTEXT_SCORE = 0.9
GAZETTEER_RECOGNIZER_NAME = "GazetteerRecognizer"
CONTEXT_RECOGNIZER_NAME = "ContextRecognizer"

class GazetteerRecognizer(EntityRecognizer):
    """Known given names, places and nationalities (``gazetteer``), scored by what their context says."""

    def __init__(self, cache_dir: Path | str | None = None) -> None:
        self.cache_dir = cache_dir
        self.gazetteer: gazetteer.Gazetteer | None = None
        super().__init__(supported_entities=sorted(NER_ENTITY_TYPES), name=GAZETTEER_RECOGNIZER_NAME,
                         supported_language=LANGUAGE, context=[])

    def load(self) -> None:
        """Reads the lists now (before a worker reports ready), through the place cache in ``cache_dir``."""
        self.gazetteer = gazetteer.load(self.cache_dir)

    def analyze(self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
                ) -> list[RecognizerResult]:
        assert self.gazetteer is not None
        ner = {(e.start_char, e.end_char, e.label_) for e in (nlp_artifacts.entities if nlp_artifacts else [])}
        out: list[RecognizerResult] = []
        for start, end, entity_type in gazetteer.find(text, self.gazetteer):
            if entity_type not in entities:
                continue
            if entity_type == "PERSON":
                kept = plausible_span(text, start, end)
                if kept is None:
                    continue
                start, end = whole_name(text, *kept)
            if needs_evidence(text, start) and not has_evidence(text, start, end, entity_type):
                score = WEAK_SCORE
            elif (start, end, entity_type) in ner:
                score = NER_AGREEMENT_SCORE
            else:
                score = GAZETTEER_SCORE
            out.append(_result(self, entity_type, start, end, score))
        return out


class ContextRecognizer(EntityRecognizer):
    """Names and places no list holds, where the words around them say what they are (module docstring)."""

    def __init__(self) -> None:
        super().__init__(supported_entities=["PERSON", "LOCATION"], name=CONTEXT_RECOGNIZER_NAME,
                         supported_language=LANGUAGE, context=[])

    def load(self) -> None:
        pass

    def analyze(self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
                ) -> list[RecognizerResult]:
        found: list[tuple[int, int, str]] = []
        if "LOCATION" in entities:
            found += _cued_places(text)
        found += [f for f in _fields(text) + _contact_blocks(text) if f[2] in entities]
        if "PERSON" in entities:
            found += _display_names(text)
            found += _signed(text) + _greeted(text) + _todo_handles(text) + _subject_names(text)
            found += _latin_names_in_other_script(text)
        return [_result(self, kind, start, end, CONTEXT_SCORE) for start, end, kind in found]


def _result(recognizer: EntityRecognizer, entity_type: str, start: int, end: int, score: float) -> RecognizerResult:
    return RecognizerResult(entity_type, start, end, score, recognition_metadata={
        RecognizerResult.RECOGNIZER_NAME_KEY: recognizer.name,
        RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: recognizer.id})


# --- the context recognizer's rules ----------------------------------------------------------------------

# Capitals of Latin-1 and Latin Extended-A (Ł, Ś, Ž ... alternate with their lower cases in Ā-ſ).
_UP = "A-ZÀ-ÖØ-ÞĀ-ſ"
_LATIN = "A-Za-zÀ-ÖØ-öø-ɏḀ-ỿ"  # Latin letters only: a name inside CJK text ends where the CJK starts
_CAP_WORD = rf"[{_UP}][{_LATIN}]*(?:['’\-][{_LATIN}]+)*"
_PLACE_JOINERS = r"(?:am|an|der|nad|pod|sur|upon|on|de|del|la|le|di|da|en|im|bei|of|the|y)"
# One to four capitalised words, lower-case joiners between them ("Jablonec nad Jizerou", "Frankfurt am Main").
_CAP_RUN = re.compile(rf"{_CAP_WORD}(?:(?: {_PLACE_JOINERS})* {_CAP_WORD}){{0,3}}")
_END_OF_RUN = r"(?=$|[\s.,;:!?)\]}'\"”’»])"
_NOT_NAMES = COMMON_SENTENCE_STARTS | NEVER_TRIGGERS | TECHNICAL_WORDS


def _name_words(run: str) -> bool:
    """Every capitalised word of a run is name-shaped and not a common, technical or stop word."""
    caps = [w for w in run.split() if w[:1].isupper()]
    return bool(caps) and all(is_capitalised(w) and w.casefold() not in _NOT_NAMES for w in caps)


def _labelled_name(value: str) -> bool:
    """A value under a name or place label: capitalised words ("New Cristinaport"), no technical word, not
    only common words ("Not Applicable")."""
    ws = value.split()
    caps = [w for w in ws if w[:1].isupper()]
    return (bool(caps) and all(is_capitalised(w) for w in caps) and len(ws) <= 5
            and not any(w.casefold() in TECHNICAL_WORDS for w in ws)
            and any(w.casefold() not in _NOT_NAMES for w in caps))


def _trim(text: str, start: int, run: str) -> tuple[int, int] | None:
    """The run up to its first word that is not a name word (a run must start with one)."""
    kept: list[str] = []
    for w in run.split(" "):
        if w[:1].isupper() and not _name_words(w):
            break
        kept.append(w)
    while kept and not kept[-1][:1].isupper():
        kept.pop()
    if not kept:
        return None
    return start, start + len(" ".join(kept))


def _cued_places(text: str) -> list[tuple[int, int, str]]:
    """A capitalised run right after a strong place cue ("lives in Haderup", "I'm from West Davidmouth")."""
    out = []
    for m in _CAP_RUN_AFTER_CUE.finditer(text):
        start = m.start(1)
        if not strong_place_cue(text, start):
            continue
        span = _trim(text, start, m.group(1))
        if span is not None:
            out.append((*span, "LOCATION"))
    return out


_CAP_RUN_AFTER_CUE = re.compile(rf"(?i:in|to|from|near|of|visiting|is) ({_CAP_RUN.pattern}){_END_OF_RUN}")
_SIGN_OFF = re.compile(
    r"(?im)^[ \t>]*(?:" + "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in phrases("sign_offs"))
    + rf")\s*[,!.\-—]*[ \t]*(?:\n[ \t>]*|(?<=,)[ \t]*)({_CAP_WORD}(?: {_CAP_WORD}){{0,2}})[ \t.!]*$")


def _signed(text: str) -> list[tuple[int, int, str]]:
    """The name after a sign-off, on its own line or after its comma at a line's end ("Thanks,\\nMaria")."""
    out = []
    for m in _SIGN_OFF.finditer(text):
        span = _trim(text, m.start(1), m.group(1))
        if span is not None:
            out.append((*whole_name(text, *span), "PERSON"))
    return out


_GREETING = re.compile(
    rf"(?i:\b(?:dear|hi|hello|hey|attn:?|attention:?))[ \t]+({_CAP_WORD}(?: {_CAP_WORD}){{0,2}})[ \t]*[,!:\n]")


def _greeted(text: str) -> list[tuple[int, int, str]]:
    """The name after a greeting that ends with a comma, an exclamation mark or the line ("Dear Wiktor,")."""
    out = []
    for m in _GREETING.finditer(text):
        span = _trim(text, m.start(1), m.group(1))
        if span is not None:
            out.append((*whole_name(text, *span), "PERSON"))
    return out


_TODO = re.compile(r"\b(?:TODO|FIXME|XXX|HACK|NOTE|BUG)\(([A-Za-z][\w.\-]{1,39})\)")
_TICKET = re.compile(r"[A-Z][A-Z0-9]+-\d+")


def _todo_handles(text: str) -> list[tuple[int, int, str]]:
    """The person (a user name) in a code comment's ``TODO(handle)``; not a ticket id (``TODO(PROJ-12)``)."""
    return [(m.start(1), m.end(1), "PERSON") for m in _TODO.finditer(text)
            if not _TICKET.fullmatch(m.group(1)) and m.group(1).casefold() not in _NOT_NAMES]


_SUBJECT = re.compile(
    rf"(?im)^(?:subject|re|fwd?|title):[^\n]*?(?:\s[-–—:|]|\bfor|\bwith|\bfrom|\bby|\bcc|\bto|,)[ \t]+"
    rf"({_CAP_WORD}(?: {_CAP_WORD}){{0,2}})[ \t]*$")


def _subject_names(text: str) -> list[tuple[int, int, str]]:
    """Capitalised name words that end an e-mail subject ("Subject: Contract renewal - Beyler Manole")."""
    out = []
    for m in _SUBJECT.finditer(text):
        span = _trim(text, m.start(1), m.group(1))
        if span is not None:
            out.append((*whole_name(text, *span), "PERSON"))
    return out


_LATIN_RUN = re.compile(
    rf"(?<![{_LATIN}]){_CAP_WORD}(?:(?: (?:van der|van|von|de|da|di|del|la|le))? {_CAP_WORD}){{1,2}}(?![{_LATIN}])")
_NON_LATIN_LETTER = re.compile(rf"[^\W\d_{_LATIN}]")
# Share of a line's letters in another script for a Latin run in it to count as foreign.
OTHER_SCRIPT_SHARE = 0.2


def _latin_names_in_other_script(text: str) -> list[tuple[int, int, str]]:
    """Two or three capitalised Latin words inside a line mostly in another script: a name written as is
    ("Свяжитесь с Pieter de Vries", "请联系John Smith确认")."""
    if _NON_LATIN_LETTER.search(text) is None:
        return []
    out = []
    for m in _LATIN_RUN.finditer(text):
        lo, hi = line_bounds(text, m.start())
        line = text[lo:hi]
        letters = sum(c.isalpha() for c in line)
        other = len(_NON_LATIN_LETTER.findall(line))
        if letters and other / letters >= OTHER_SCRIPT_SHARE and _name_words(m.group()):
            out.append((m.start(), m.end(), "PERSON"))
    return out


# --- fields and blocks that say "person" or "place" -----------------------------------------------------------

_NAME_RUN = rf"{_CAP_WORD}(?:(?: (?:van der|van den|van|von|de la|de|da|di|del|della|du|le|la|bin|al|y))? {_CAP_WORD}){{0,3}}"
# A display name before an e-mail address in angle brackets (RFC 5322: "From: Cliff Turner <c@x.org>").
_DISPLAY_NAME = re.compile(rf"(?<![{_LATIN}])[\"']?({_NAME_RUN})[\"']?[ \t]*<[^<>\s@]+@[^<>\s]+>")
# A Git trailer or a header naming a person, to the end of its line ("Reviewed-by: Óscar Sanmartín Sánchez").
_TRAILER = re.compile(
    rf"(?im)^[ \t]*(?:reviewed-by|signed-off-by|co-authored-by|reported-by|acked-by|tested-by|suggested-by|"
    rf"helped-by|author|committer|assignee|reporter|owner|from|to|cc|attn)[ \t]*:[ \t]*({_NAME_RUN})[ \t]*(?:$|<)")


def _display_names(text: str) -> list[tuple[int, int, str]]:
    """Names that label an e-mail address ("Cliff Turner <c@x.org>") or fill a Git trailer or a header."""
    out = []
    for pattern in (_DISPLAY_NAME, _TRAILER):
        for m in pattern.finditer(text):
            span = _trim(text, m.start(1), m.group(1))
            if span is not None:
                out.append((*span, "PERSON"))
    return out


# Column or field names that say what their values are.
PERSON_FIELDS = words("person_fields")
PLACE_FIELDS = words("place_fields")
_SQL_INSERT = re.compile(r"(?is)INSERT\s+INTO\s+[\w.\"`]+\s*\(([^()]{1,400})\)\s*VALUES\s*((?:\([^()]{1,2000}\)\s*,?\s*){1,50})")
_SQL_ROW = re.compile(r"\(([^()]*)\)")
_SQL_VALUE = re.compile(r"'((?:[^'\n]|'')*)'|([^,\s][^,]*)")
_CSV_HEADER = re.compile(r"(?m)^[ \t]*([A-Za-z_][\w ]{0,40}(?:[,;\t][A-Za-z_][\w ]{0,40}){1,30})\r?$")


def _field_kind(name: str) -> str | None:
    key = name.strip().strip("\"'`").casefold().replace(" ", "_")
    if key in PERSON_FIELDS:
        return "PERSON"
    if key in PLACE_FIELDS:
        return "LOCATION"
    return None


def _value_span(text: str, start: int, value: str, kind: str) -> tuple[int, int, str] | None:
    """A field's value, when it is shaped like a name or a place (capitalised words, none technical)."""
    stripped = value.strip().strip("\"'")
    if not stripped or any(c.isdigit() or c in "@/=_{}[]<>:\"" for c in stripped) or not _labelled_name(stripped):
        return None
    offset = start + value.index(stripped)
    return offset, offset + len(stripped), kind


# A key and its value in JSON, YAML, .env or a form ("displayName": "Rose Tyler", city: Haderup).
# Keys in any script ("Adresse:", "住所:"), a full-width colon too.
_KEY_VALUE = re.compile(r"""(?<![\w\-])["']?([^\W\d][\w\-]{0,40})["']?[ \t]*[:=：][ \t]*["']?([^"'\n,;{}\[\]<>]{1,80})""")
_CAMEL_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])")


def _fields(text: str) -> list[tuple[int, int, str]]:
    """Values of keys, CSV columns and SQL INSERT columns named for a person or a place (``name``, ``city``)."""
    out: list[tuple[int, int, str]] = []
    for m in _KEY_VALUE.finditer(text):
        kind = _field_kind(_CAMEL_HUMP.sub("_", m.group(1)).replace("-", "_"))
        if kind:
            span = _value_span(text, m.start(2), m.group(2).rstrip(), kind)
            if span:
                out.append(span)
    for m in _SQL_INSERT.finditer(text):
        kinds = [_field_kind(c) for c in m.group(1).split(",")]
        if not any(kinds):
            continue
        for row in _SQL_ROW.finditer(m.group(2)):
            base = m.start(2) + row.start(1)
            for kind, value in zip(kinds, _SQL_VALUE.finditer(row.group(1))):
                if kind and value.group(1) is not None:
                    span = _value_span(text, base + value.start(1), value.group(1), kind)
                    if span:
                        out.append(span)
    header = _CSV_HEADER.search(text)
    while header is not None:
        sep = next(c for c in ",;\t" if c in header.group(1))
        kinds = [_field_kind(c) for c in header.group(1).split(sep)]
        pos = header.end() + 1
        for _ in range(1000 if any(kinds) else 0):  # rows until one has another shape
            end = text.find("\n", pos)
            end = len(text) if end < 0 else end
            cells = text[pos:end].split(sep)
            if pos >= len(text) or len(cells) != len(kinds):
                break
            cell_start = pos
            for kind, cell in zip(kinds, cells):
                if kind:
                    span = _value_span(text, cell_start, cell, kind)
                    if span:
                        out.append(span)
                cell_start += len(cell) + 1
            pos = end + 1
        header = _CSV_HEADER.search(text, max(pos, header.end()))  # rows read are no header: each line once
    return out


# A short line (an address label's) and the contact value it may hold.
_SHORT_LINE = re.compile(r"(?m)^[^\n]{1,120}$")
_CONTACT_IN_LINE = re.compile(r"[\w.+\-]{1,64}@[\w\-]{1,63}\.\w|\+?\d[\d ()\-]{7,24}\d")
_RUN_LINE = re.compile(rf"(?m)^[ \t]*({_NAME_RUN})[ \t]*,?[ \t]*$")


def _contact_blocks(text: str) -> list[tuple[int, int, str]]:
    """Lines of an address label: up to three lines, each a capitalised run, right above a line with an
    e-mail address or a phone number; the first is the person, the others places ("Maria Kowalski\\nHaderup")."""
    out: list[tuple[int, int, str]] = []
    for contact in _SHORT_LINE.finditer(text):
        if _CONTACT_IN_LINE.search(contact.group()) is None:
            continue
        runs: list[re.Match[str]] = []
        pos = contact.start() - 1
        for _ in range(3):
            if pos <= 0:
                break
            start = text.rfind("\n", 0, pos) + 1
            m = _RUN_LINE.fullmatch(text, start, pos)
            if m is None or not _name_words(m.group(1)):
                break
            runs.append(m)
            pos = start - 1
        runs.reverse()
        for i, m in enumerate(runs):
            out.append((m.start(1), m.end(1), "PERSON" if i == 0 and len(runs) > 1 else "LOCATION"))
    return out
