"""The Presidio result every tier-2 recognizer returns: it carries the recognizer's own name, so a finding
(``Detection.recognizer``, ``Finding.recognizer``) says which recognizer found it."""

from __future__ import annotations

from presidio_analyzer import EntityRecognizer, RecognizerResult


def result(recognizer: EntityRecognizer, entity_type: str, start: int, end: int, score: float) -> RecognizerResult:
    return RecognizerResult(entity_type, start, end, score, recognition_metadata={
        RecognizerResult.RECOGNIZER_NAME_KEY: recognizer.name,
        RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: recognizer.id})
