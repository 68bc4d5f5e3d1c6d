"""Names of private persons that no list and no model finds, found by evidence about a person around them.

NER and the gazetteer miss many names from outside their sources ("Rawiri Ngata", "Obinna Moradi"), and in
code and technical text a name they do find is scored under the default threshold unless something says
"person" (``text_shape.has_evidence``). This recognizer starts from that evidence instead of from a list: a run
of two or three name-shaped words (capitalised, none a common, technical or stop word) is a person when

* ``text_shape.person_evidence`` holds: a credit, an assignment, ownership, an @ or a personal title before it
  ("written by ", "thanks to ", "belongs to ", "cc ", "@", "Dr. "), a verb of people or a role in apposition after it
  ("wants", ", our SRE", "(tech lead)"), a handle or an e-mail address right after it ("(@tnguyen)"), or a
  handle or an e-mail local part on its line or the line before that spells it ("TODO(jraghavan): Ji-woo
  Raghavan ...");
* a field label about a person stands right before it (``text_shape.labelled``: "Author: ", "@author ",
  ":author: ", "__author__ = \\"", "owner: "), or any key about a person in any spelling and separator, a
  role's too (``context.person_keys.keyed_by_person``: "reviewers: [", "# Analyst: ", "authors = [\\""): the
  run needs no given name from a list there, as the pair rules do ("Analyst: Voahangy Pillai");
* a ``TODO:``, ``FIXME:`` or ``XXX`` gives it a task ("TODO: Aroha Ngata to confirm", "FIXME: Aroha Ngata will").

A run that ends in an organisation's legal form or collective noun (``data/words/organisation_suffixes.txt``:
"Acme Corp", "Globex GmbH", "Payments Team") is never a person (``person_evidence`` says so). A lone capitalised word counts only after a
personal title or a TODO's task: in the same frames a lone word is as often a tool
or a bot ("thanks to Hypothesis", "reviewed by Mypy"). The shape of the line is no evidence either way: the
same rules hold in prose and in code.
"""

from __future__ import annotations

import re

from presidio_analyzer import EntityRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from ztgate.redaction.detection.names.context.person_keys import keyed_by_person
from ztgate.redaction.detection.names.ner import LANGUAGE
from ztgate.redaction.detection.text_shape import (
    LATIN_CAPITALS,
    is_capitalised,
    labelled,
    person_evidence,
    software_name_field,
    tool_or_organisation,
    whole_name,
)
from ztgate.redaction.detection.wordlists import COMMON_SENTENCE_STARTS, NEVER_TRIGGERS, TECHNICAL_WORDS, words

EVIDENCE_RECOGNIZER_NAME = "PersonEvidenceRecognizer"
# Over the policies' threshold (0.5), under every recognizer with a cue or a list of its own (context
# rules 0.9, NER and the pattern rules 0.85, the gazetteer 0.75): the evidence recognizer is for names
# nothing else finds, and where another finds the same span the finding names that one, whichever ran first.
EVIDENCE_SCORE = 0.7

_UP = LATIN_CAPITALS  # Ł, Ș, Ọ: a name from any Latin block
_LATIN = "A-Za-zÀ-ÖØ-öø-ɏḀ-ỿ\u0300-\u036f"
_CAP_WORD = rf"[{_UP}][{_LATIN}]*(?:['’\-][{_LATIN}]+)*"
_PARTICLES = r"(?:van der|van den|van|von|de la|de|da|di|del|della|du|le|la|bin|al|y|te|ten|ter)"
# One to three capitalised words on one line, particles between them.
# A run may sit inside markdown's strong emphasis ("__Aroha Ngata__ commented on"), not inside an identifier.
_RUN = re.compile(rf"(?:(?<![\w./\-])|(?<=(?<!\w)__))(?<![\w.]@){_CAP_WORD}(?:(?: {_PARTICLES})? {_CAP_WORD}){{0,2}}"
                  rf"(?:(?![\w@/\-])|(?=__(?!\w)))")
_CAP = re.compile(_CAP_WORD)
# A verb that addresses someone, capitalised at the start of a sentence ("Ask Aroha Ngata before ...", "Ping
# ..."): a cue before the name, not its first word (``data/words/address_cues.txt``); so is "Copyright" before its
# holder ("Copyright Aroha Ngata. All rights reserved.").
_CUE_VERBS = (frozenset(w for w in words("address_cues") if w not in {"dr", "mr", "mrs", "ms", "prof"})
              | {"contact", "copyright"})
_NOT_NAMES = COMMON_SENTENCE_STARTS | NEVER_TRIGGERS | TECHNICAL_WORDS


def _name_word(word: str) -> bool:
    return is_capitalised(word) and word.casefold() not in _NOT_NAMES


def find(text: str) -> list[tuple[int, int]]:
    """Spans of persons' names that evidence around them vouches for (module doc)."""
    out: list[tuple[int, int]] = []
    for m in _runs(text):
        caps = list(_CAP.finditer(text, m.start(), m.end()))
        while caps and not _name_word(caps[0].group()):  # "Ask Aroha Ngata": the run starts at "Aroha"
            caps = caps[1:]
        if not caps or not all(_name_word(c.group()) for c in caps):
            continue
        start, end = whole_name(text, caps[0].start(), m.end())
        if _backed(text, start, end):
            out.append((start, end))
    return out


def _runs(text: str) -> list[re.Match[str]]:
    """The runs of name-shaped words; a run that starts with a cue verb ("Ask", "Ping") starts again after it,
    so that the cue stays before the name and the name keeps all its words ("Ask Rawiri Te Kani" -> "Rawiri Te
    Kani"), unless fewer than two words would be left ("Ping Chen" may be a name)."""
    runs: list[re.Match[str]] = []
    pos = 0
    while (m := _RUN.search(text, pos)) is not None:
        first = _CAP.match(text, m.start())
        if first is not None and first.group().casefold() in _CUE_VERBS and text[first.end():first.end() + 1] == " ":
            rest = _RUN.match(text, first.end() + 1)
            if rest is not None and len(_CAP.findall(rest.group())) >= 2:
                runs.append(rest)
                pos = rest.end()
                continue
        runs.append(m)
        pos = m.end()
    return runs


def _backed(text: str, start: int, end: int) -> bool:
    if tool_or_organisation(text[start:end]):
        return False
    return person_evidence(text, start, end) or (
        len(text[start:end].split()) >= 2
        and ((labelled(text, start, "PERSON") and not software_name_field(text, start))
             or keyed_by_person(text, start)))


class PersonEvidenceRecognizer(EntityRecognizer):
    """Names of persons that evidence around them vouches for, whatever a list or a model says (module doc)."""

    def __init__(self) -> None:
        super().__init__(supported_entities=["PERSON"], name=EVIDENCE_RECOGNIZER_NAME,
                         supported_language=LANGUAGE, context=[])

    def load(self) -> None:
        pass

    def analyze(self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
                ) -> list[RecognizerResult]:
        if "PERSON" not in entities:
            return []
        return [RecognizerResult("PERSON", start, end, EVIDENCE_SCORE, recognition_metadata={
            RecognizerResult.RECOGNIZER_NAME_KEY: self.name, RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id})
            for start, end in find(text)]
