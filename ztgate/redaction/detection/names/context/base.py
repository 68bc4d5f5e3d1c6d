"""What every context recognizer shares: one rule, one Presidio recognizer, its own name and score.

A subclass sets NAME (the name findings carry, ``Finding.recognizer``), SCORE and ENTITIES, and ``find``
returns the spans its rule sees, each with its type; ``analyze`` keeps those of the types asked for.
Today every rule scores 0.9, above NER's own 0.85: a cue (a `name` column, a sign-off, "lives in") says
which type a word is better than spaCy's label does; overlapping findings are merged, so this decides the
type only. A rule's score is its own to change.
"""

from __future__ import annotations

from typing import ClassVar

from presidio_analyzer import EntityRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from ztgate.redaction.detection.names.ner import LANGUAGE
from ztgate.redaction.detection.names.results import result

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
