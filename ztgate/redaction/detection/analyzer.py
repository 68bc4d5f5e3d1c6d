"""In-process analysis: Presidio's AnalyzerEngine orchestrating tier 1 (Hyperscan) and tier 2 (gated spaCy NER).

The registry holds only the tier-1 recognizer and a SpacyRecognizer for PERSON, LOCATION and NRP; Presidio's
predefined pattern recognizers are not loaded (tier 1 replaces them, and one of them, the email recognizer,
would reach for the public suffix list on the internet). Presidio's lemma context enhancer is replaced by a
no-op: tier 1 applies its catalogue's context rules itself and NER results carry no context words. An
``Analyzer`` is not thread-safe; the service runs one per worker process (``analysis_pool``).
"""

from __future__ import annotations

import logging
import traceback
from typing import Any
from collections.abc import Collection, Sequence
from pathlib import Path

import tldextract
import tldextract.tldextract
from presidio_analyzer import AnalyzerEngine, EntityRecognizer, RecognizerRegistry, RecognizerResult
from presidio_analyzer.context_aware_enhancers import ContextAwareEnhancer
from presidio_analyzer.nlp_engine import NlpArtifacts
from presidio_analyzer.predefined_recognizers import SpacyRecognizer

from ztgate.common.errors import InvalidArgument, ZtgateError
from ztgate.redaction.detection.block_items import block_items
from ztgate.redaction.detection.names.context import context_recognizers
from ztgate.redaction.detection.names.gazetteer_recognizer import GazetteerRecognizer
from ztgate.redaction.detection.names.ner import DEFAULT_MODEL, LANGUAGE, GatedSpacyNlpEngine, NerGate
from ztgate.redaction.detection.names.evidence_recognizer import PersonEvidenceRecognizer
from ztgate.redaction.detection.normalise import view_of
from ztgate.redaction.detection.patterns.recognizer import HyperscanRecognizer
from ztgate.redaction.detection.patterns.scanner import PatternScanner
from ztgate.redaction.types import NER_ENTITY_TYPES, Detection

logger = logging.getLogger(__name__)

NER_RECOGNIZER_NAME = "SpacyRecognizer"


class AnalysisError(ZtgateError):
    """Analysis failed (the request fails closed). The message names the cause's type, never the text."""


class UnsupportedEntityError(InvalidArgument):
    """Entity types were asked for that no recognizer in the registry detects (failing closed, not silently)."""


class NoContextEnhancer(ContextAwareEnhancer):
    """Presidio's context step, switched off: scores are final when the recognizers return them."""

    def __init__(self) -> None:
        super().__init__(context_similarity_factor=0.0, min_score_with_context_similarity=0.0,
                         context_prefix_count=0, context_suffix_count=0)

    def enhance_using_context(self, text: str, raw_results: list[RecognizerResult], nlp_artifacts: NlpArtifacts,
                              recognizers: list[EntityRecognizer],
                              context: list[str] | None = None) -> list[RecognizerResult]:
        return raw_results


def make_tldextract_offline() -> None:
    """Make ``tldextract.extract`` (Presidio's email recognizer uses it) read the snapshot bundled in the wheel
    instead of fetching the public suffix list, and write no cache. Idempotent; our registry does not use it,
    this is defence in depth for anything else in the process that might."""
    tldextract.tldextract.TLD_EXTRACTOR = tldextract.TLDExtract(
        cache_dir=None, suffix_list_urls=(), fallback_to_snapshot=True)


def default_tier1_recognizers(cache_dir: str | Path | None = None) -> list[EntityRecognizer]:
    """Tier 1 as Presidio recognizers: the Hyperscan recognizer over the default catalogue."""
    return [HyperscanRecognizer(PatternScanner(cache_dir=cache_dir))]


def build_nlp_engine(model_name: str = DEFAULT_MODEL, *, use_gate: bool = True,
                     gate: NerGate | None = None) -> GatedSpacyNlpEngine:
    """A loaded NER engine (about a second: spaCy model load)."""
    engine = GatedSpacyNlpEngine(model_name, gate, use_gate=use_gate)
    engine.load()
    return engine


def tier2_recognizers(cache_dir: str | Path | None = None) -> list[EntityRecognizer]:
    """Tier 2 as Presidio recognizers: spaCy's NER (through the gated NLP engine), the gazetteer
    (``names/gazetteer_recognizer.py``) and the context recognizers (``names/context/``, one per rule)
    and the person-evidence recognizer (``names/evidence_recognizer.py``), each under its own name and with its own scores."""
    ner = SpacyRecognizer(supported_language=LANGUAGE, supported_entities=sorted(NER_ENTITY_TYPES),
                          name=NER_RECOGNIZER_NAME)
    return [ner, GazetteerRecognizer(cache_dir), *context_recognizers(), PersonEvidenceRecognizer()]


class OrderedRegistry(RecognizerRegistry):
    """Presidio's registry, but the recognizers come back in the order they were registered (Presidio's
    own returns a set's order, which changes from process to process). Presidio keeps the first of two
    findings with the same type, span and score, so the registration order decides which recognizer a
    finding names: tier 1, then NER, the gazetteer, the context rules, the evidence recognizer."""

    def get_recognizers(self, *args: Any, **kwargs: Any) -> list[EntityRecognizer]:
        rank = {id(r): i for i, r in enumerate(self.recognizers)}
        return sorted(super().get_recognizers(*args, **kwargs), key=lambda r: rank.get(id(r), len(rank)))


def build_analyzer_engine(nlp_engine: GatedSpacyNlpEngine | None = None,
                          tier1: Sequence[EntityRecognizer] | None = None,
                          cache_dir: str | Path | None = None) -> AnalyzerEngine:
    """Presidio's AnalyzerEngine with a registry of tier 1 and tier 2's recognizers only."""
    make_tldextract_offline()
    nlp_engine = nlp_engine or build_nlp_engine()
    tier1 = list(default_tier1_recognizers(cache_dir) if tier1 is None else tier1)
    registry = OrderedRegistry(recognizers=[*tier1, *tier2_recognizers(cache_dir)],
                                  supported_languages=[LANGUAGE])
    return AnalyzerEngine(registry=registry, nlp_engine=nlp_engine, supported_languages=[LANGUAGE],
                          context_aware_enhancer=NoContextEnhancer())


class Analyzer:
    """``analyze(text, entities) -> list[Detection]`` over one AnalyzerEngine; not thread-safe."""

    def __init__(self, engine: AnalyzerEngine) -> None:
        if not isinstance(engine.nlp_engine, GatedSpacyNlpEngine):
            raise TypeError("Analyzer needs an AnalyzerEngine built on GatedSpacyNlpEngine (build_analyzer_engine)")
        self.engine = engine
        self.nlp_engine: GatedSpacyNlpEngine = engine.nlp_engine
        self.supported_entities: frozenset[str] = frozenset(engine.get_supported_entities(LANGUAGE))

    @classmethod
    def create(cls, *, model_name: str = DEFAULT_MODEL, use_gate: bool = True,
               tier1: Sequence[EntityRecognizer] | None = None, cache_dir: str | Path | None = None) -> Analyzer:
        return cls(build_analyzer_engine(build_nlp_engine(model_name, use_gate=use_gate), tier1, cache_dir))

    def analyze(self, text: str, entities: Collection[str] | None = None) -> list[Detection]:
        """Detections in text for the entity types asked for (all supported ones if None), by start offset.

        Both tiers read the normalised view of the text (normalise.py: disguises undone), then the items of
        any contact block their findings make (``block_items``: a postcode, an identifier, the town beside a
        private person's name and contact value), and the detections are mapped back to spans
        of `text`. Raises UnsupportedEntityError for types no
        recognizer detects and AnalysisError if a recognizer or the NLP engine fails.
        """
        wanted = self._wanted(entities)
        if not wanted or not text:
            return []
        try:
            view = view_of(text)
            seen = view.text
            with self.nlp_engine.memory_zone():
                artifacts = (self.nlp_engine.process_text(seen, LANGUAGE) if wanted & NER_ENTITY_TYPES
                             else self.nlp_engine.empty_artifacts(seen, LANGUAGE))
                results = self.engine.analyze(text=seen, language=LANGUAGE, entities=sorted(wanted),
                                              nlp_artifacts=artifacts)
                found = [_detection(r) for r in results]
                found += [d for d in block_items(seen, found) if d.entity_type in wanted]
                return sorted(view.to_original(found), key=_order)
        except Exception as exc:  # noqa: BLE001 - re-raised without its message, which may quote the text
            logger.error("analysis failed: %s\n%s", type(exc).__name__,
                         "".join(traceback.format_tb(exc.__traceback__)))
            raise AnalysisError(f"analysis failed ({type(exc).__name__})") from None

    def _wanted(self, entities: Collection[str] | None) -> frozenset[str]:
        if entities is None:
            return self.supported_entities
        wanted = frozenset(entities)
        unsupported = wanted - self.supported_entities
        if unsupported:
            raise UnsupportedEntityError(f"no recognizer for entity types: {', '.join(sorted(unsupported))}")
        return wanted


def _detection(result: RecognizerResult) -> Detection:
    metadata = result.recognition_metadata or {}
    recognizer = metadata.get(RecognizerResult.RECOGNIZER_NAME_KEY, "")
    return Detection(result.entity_type, result.start, result.end, float(result.score), recognizer)


def _order(d: Detection) -> tuple[int, int, str]:
    return d.start, d.end, d.entity_type

