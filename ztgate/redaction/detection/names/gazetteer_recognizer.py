"""Tier 2's gazetteer as a Presidio recognizer, beside spaCy's NER and the context recognizers (context/):
known given names, places and nationalities (lists, with the rules of ``gazetteer.find``), reported under
the name ``GazetteerRecognizer`` with scores that tell strong from weak evidence:

* GAZETTEER_SCORE; NER_AGREEMENT_SCORE when spaCy found the same span with the same type;
* WEAK_SCORE (under the default threshold) when the line is technical - code, a log, a diff, a table - and
  nothing around the candidate backs it (``text_shape.has_evidence``): a town name that is a branch name or a
  log field is not redacted by default.
"""

from __future__ import annotations

from pathlib import Path

from presidio_analyzer import EntityRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from ztgate.redaction.detection.names import gazetteer
from ztgate.redaction.detection.names.code_identifiers import code_identifier
from ztgate.redaction.detection.names.ner import LANGUAGE, plausible_span
from ztgate.redaction.detection.names.results import result
from ztgate.redaction.detection.text_shape import (group_name_after, has_evidence, needs_evidence, organisation_name,
                                                   whole_name)
from ztgate.redaction.types import NER_ENTITY_TYPES

GAZETTEER_SCORE = 0.75
NER_AGREEMENT_SCORE = 0.95
WEAK_SCORE = 0.3
GAZETTEER_RECOGNIZER_NAME = "GazetteerRecognizer"


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
                if organisation_name(text[start:end]) or group_name_after(text, start, end):
                    continue  # "The Casper Authors", "Platform Guild": a group (as NER's spans, ner.py)
            if code_identifier(text, start, end):
                continue  # "The pipeline runs on Travis": a tool spelt like a given name (code_identifiers.py)
            if needs_evidence(text, start) and not has_evidence(text, start, end, entity_type):
                score = WEAK_SCORE
            elif (start, end, entity_type) in ner:
                score = NER_AGREEMENT_SCORE
            else:
                score = GAZETTEER_SCORE
            out.append(result(self, entity_type, start, end, score))
        return out
