"""Tier 1 as a Presidio recognizer: the Hyperscan pattern scanner in Presidio's recognizer registry."""

from __future__ import annotations

from presidio_analyzer import EntityRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from ztgate.redaction.detection.patterns.automation import automation_address
from ztgate.redaction.detection.patterns.scanner import PatternScanner

RECOGNIZER_NAME = "HyperscanRecognizer"


class HyperscanRecognizer(EntityRecognizer):
    """Every catalogue rule in one recognizer; each result names its rule id as the recognizer. E-mail
    addresses of bots and services' no-reply mailboxes are not reported (``automation.py``).

    Needs no NLP artifacts, and applies the catalogue's own context rules, so its scores are final
    (its Presidio `context` list is empty on purpose).
    """

    def __init__(self, scanner: PatternScanner | None = None, *, supported_language: str = "en",
                 name: str = RECOGNIZER_NAME) -> None:
        self.scanner = scanner if scanner is not None else PatternScanner()
        super().__init__(
            supported_entities=sorted(self.scanner.catalogue.entity_types),
            name=name,
            supported_language=supported_language,
            context=[],
        )

    def load(self) -> None:
        """Nothing to load: the scanner's database is ready when the constructor returns."""

    def analyze(self, text: str, entities: list[str] | None,
                nlp_artifacts: NlpArtifacts | None = None) -> list[RecognizerResult]:
        """Results for the entity types asked for (all supported ones when `entities` is empty or None)."""
        wanted = set(entities) if entities else None
        results = []
        for detection in self.scanner.scan(text):
            if wanted is not None and detection.entity_type not in wanted:
                continue
            if detection.entity_type == "EMAIL_ADDRESS" and automation_address(text, detection.start, detection.end):
                continue  # a bot's or a service's no-reply address (automation.py): no person's data
            results.append(RecognizerResult(
                entity_type=detection.entity_type,
                start=detection.start,
                end=detection.end,
                score=detection.score,
                analysis_explanation=None,
                recognition_metadata={
                    RecognizerResult.RECOGNIZER_NAME_KEY: detection.recognizer,
                    RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id,
                },
            ))
        return results
