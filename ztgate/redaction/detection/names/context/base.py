"""What every context recognizer shares: one rule, one Presidio recognizer, its own name and score.

A subclass sets NAME (the name findings carry, ``Finding.recognizer``), SCORE and ENTITIES, and ``find``
returns the spans its rule sees, each with its type; ``analyze`` keeps those of the types asked for.
Today every rule scores 0.9, above NER's own 0.85: a cue (a `name` column, a sign-off, "lives in") says
which type a word is better than spaCy's label does; overlapping findings are merged, so this decides the
type only. A rule's score is its own to change.
"""

from __future__ import annotations

import re
from typing import ClassVar

from presidio_analyzer import EntityRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from ztgate.redaction.detection.names.ner import LANGUAGE
from ztgate.redaction.detection.names.context.shapes import trim
from ztgate.redaction.detection.names.results import result
from ztgate.redaction.detection.text_shape import whole_name

Span = tuple[int, int, str]  # start, end, entity type


class ContextRule(EntityRecognizer):
    """A context rule as a Presidio recognizer (module docstring)."""

    NAME: ClassVar[str]
    SCORE: ClassVar[float]
    ENTITIES: ClassVar[tuple[str, ...]]

    def __init__(self) -> None:
        super().__init__(supported_entities=list(self.ENTITIES), name=self.NAME, supported_language=LANGUAGE,
                         context=[])

    def load(self) -> None:
        pass

    def find(self, text: str) -> list[Span]:
        raise NotImplementedError

    def analyze(self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
                ) -> list[RecognizerResult]:
        return [result(self, kind, start, end, self.SCORE) for start, end, kind in self.find(text)
                if kind in entities]


class CuedNameRule(ContextRule):
    """A rule whose cue is one regular expression: its first group is a person's name (trimmed of
    words that are not one), widened to the whole name unless WHOLE_NAME is False. With GROUP_IS_NAME
    the cue itself closes the name (commas, the end of the run): the whole group is the name once its
    trimmed part has two words, so a short common word inside it ("Nguyen Van An") stays in it."""

    CUE: ClassVar[re.Pattern[str]]
    ENTITIES = ("PERSON",)
    WHOLE_NAME: ClassVar[bool] = True
    GROUP_IS_NAME: ClassVar[bool] = False

    def accept(self, match: re.Match[str]) -> bool:
        """Whether this cue's match names a person at all (a subclass's veto)."""
        return True

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        for m in self.CUE.finditer(text):
            span = trim(text, m.start(1), m.group(1))
            if span is None or not self.accept(m):
                continue
            if self.GROUP_IS_NAME:
                if " " in text[span[0]:span[1]]:
                    out.append((m.start(1), m.end(1), "PERSON"))
                continue
            start, end = whole_name(text, *span) if self.WHOLE_NAME else span
            out.append((start, end, "PERSON"))
        return out
