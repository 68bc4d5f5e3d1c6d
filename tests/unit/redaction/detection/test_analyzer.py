"""The in-process Analyzer: Presidio's engine with only tier 1 and spaCy NER, exact offsets, failing closed."""

from __future__ import annotations

import dataclasses
import random
import string

import pytest
from presidio_analyzer import EntityRecognizer, Pattern, PatternRecognizer, RecognizerResult
from presidio_analyzer.context_aware_enhancers import LemmaContextAwareEnhancer
from presidio_analyzer.predefined_recognizers import SpacyRecognizer

from ztgate.redaction.detection.analyzer import (
    NER_RECOGNIZER_NAME,
    AnalysisError,
    Analyzer,
    NoContextEnhancer,
    UnsupportedEntityError,
    build_analyzer_engine,
)
from ztgate.redaction.detection.names.context import CONTEXT_RULES
from ztgate.redaction.detection.names.ner import GatedSpacyNlpEngine
from ztgate.redaction.types import ALL_ENTITY_TYPES, NER_ENTITY_TYPES, Detection


def test_registry_holds_only_tier1_and_tier2s_own_recognizers(redaction_analyzer: Analyzer) -> None:
    recognizers = redaction_analyzer.engine.registry.recognizers
    assert [type(r).__name__ for r in recognizers] == [
        "HyperscanRecognizer", "SpacyRecognizer", "GazetteerRecognizer", *(rule.NAME for rule in CONTEXT_RULES),
        "PersonEvidenceRecognizer"]
    assert len({r.name for r in recognizers}) == len(recognizers)  # a finding's recognizer names one
    assert not [r for r in recognizers if isinstance(r, PatternRecognizer)]  # Presidio's built-ins are gone
    spacy_recognizer = next(r for r in recognizers if isinstance(r, SpacyRecognizer))
    assert set(spacy_recognizer.supported_entities) == NER_ENTITY_TYPES
    assert isinstance(redaction_analyzer.engine.context_aware_enhancer, NoContextEnhancer)


def test_every_entity_type_of_the_contract_is_supported(redaction_analyzer: Analyzer) -> None:
    assert redaction_analyzer.supported_entities == ALL_ENTITY_TYPES


@pytest.mark.parametrize(("text", "expected"), [
    ("Maria Garcia from Madrid wrote to maria.garcia@example.com.",
     {("PERSON", "Maria Garcia"), ("LOCATION", "Madrid"), ("EMAIL_ADDRESS", "maria.garcia@example.com")}),
    ("Our Nigerian partner Chinedu Okafor lives in Lagos.",
     {("NRP", "Nigerian"), ("PERSON", "Chinedu Okafor"), ("LOCATION", "Lagos")}),
    ("export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE", {("AWS_ACCESS_KEY_ID", "AKIAIOSFODNN7EXAMPLE")}),
    ("def add(a, b):\n    return a + b", set()),
    ("Café owner Zoë Müller — Zürich — paid. ✓ 🎉 Then Hans Weber called from Berlin.",
     {("PERSON", "Hans Weber"), ("LOCATION", "Berlin"), ("PERSON", "Zoë Müller")}),
])
def test_analyze_finds_both_tiers_with_exact_code_point_offsets(redaction_analyzer: Analyzer, text: str,
                                                                 expected: set[tuple[str, str]]) -> None:
    found = redaction_analyzer.analyze(text)
    assert expected <= {(d.entity_type, text[d.start:d.end]) for d in found}
    assert found == sorted(found, key=lambda d: (d.start, d.end, d.entity_type))
    for detection in found:
        assert 0 <= detection.start < detection.end <= len(text)
        assert detection.recognizer


def test_detections_carry_no_text(redaction_analyzer: Analyzer) -> None:
    assert [f.name for f in dataclasses.fields(Detection)] == ["entity_type", "start", "end", "score", "recognizer"]
    detection = redaction_analyzer.analyze("Ask John Smith in Paris.")[0]
    assert "John" not in repr(detection)
    assert detection.recognizer in {NER_RECOGNIZER_NAME, "GazetteerRecognizer"}


def test_asking_only_for_pattern_types_skips_ner(redaction_analyzer: Analyzer,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    def no_ner(text: str) -> None:
        raise AssertionError("NER ran although no NER entity type was asked for")

    monkeypatch.setattr(redaction_analyzer.nlp_engine, "find_entities", no_ner)
    text = "John Smith, john@example.com"
    assert [(d.entity_type, text[d.start:d.end]) for d in redaction_analyzer.analyze(text, ["EMAIL_ADDRESS"])] \
        == [("EMAIL_ADDRESS", "john@example.com")]


def test_asking_only_for_ner_types_returns_no_pattern_results(redaction_analyzer: Analyzer) -> None:
    found = redaction_analyzer.analyze("John Smith, john@example.com", ["PERSON"])
    assert {d.entity_type for d in found} == {"PERSON"}


@pytest.mark.parametrize("entities", [["NOT_A_TYPE"], ["PERSON", "ORGANIZATION"]])
def test_unsupported_entity_types_fail_instead_of_being_ignored(redaction_analyzer: Analyzer,
                                                                entities: list[str]) -> None:
    with pytest.raises(UnsupportedEntityError, match="no recognizer"):
        redaction_analyzer.analyze("John Smith", entities)


@pytest.mark.parametrize(("text", "entities"), [("", None), ("John Smith", [])])
def test_nothing_to_do_returns_no_detections(redaction_analyzer: Analyzer, text: str,
                                             entities: list[str] | None) -> None:
    assert redaction_analyzer.analyze(text, entities) == []


class _Exploding(EntityRecognizer):
    def __init__(self) -> None:
        super().__init__(supported_entities=["PERSON"], name="exploding")

    def load(self) -> None:
        pass

    def analyze(self, text: str, entities: list[str], nlp_artifacts: object = None) -> list[RecognizerResult]:
        raise ValueError(f"Did not find word '{text}'")  # like Presidio's own messages, it quotes the input


def test_a_failing_recognizer_fails_the_call_without_quoting_the_text(ner_engine: GatedSpacyNlpEngine) -> None:
    analyzer = Analyzer(build_analyzer_engine(ner_engine, tier1=[_Exploding()]))
    with pytest.raises(AnalysisError) as raised:
        analyzer.analyze("Jane Roe lives in Oslo")
    assert "Jane" not in str(raised.value) and raised.value.__cause__ is None
    assert "ValueError" in str(raised.value)


def test_gated_artifacts_work_with_presidios_lemma_context_enhancer(ner_engine: GatedSpacyNlpEngine) -> None:
    # Not used in production (NoContextEnhancer), but the artifacts must not break Presidio's default.
    zip_recognizer = PatternRecognizer(supported_entity="ZIP", patterns=[Pattern("zip", r"\b\d{5}\b", 0.3)],
                                       context=["zip"])
    engine = build_analyzer_engine(ner_engine, tier1=[zip_recognizer])
    engine.context_aware_enhancer = LemmaContextAwareEnhancer()
    text = "Anna Berg lives in Oslo, zip code 12345."
    results = engine.analyze(text, language="en", entities=["ZIP", "PERSON", "LOCATION"])
    by_type = {r.entity_type: r for r in results}
    assert by_type["ZIP"].score > 0.3  # boosted by the context word found through the lazy tokens
    assert text[by_type["PERSON"].start:by_type["PERSON"].end] == "Anna Berg"


def test_analysis_frees_the_words_it_adds_to_spacys_vocabulary(redaction_analyzer: Analyzer) -> None:
    strings = redaction_analyzer.nlp_engine.nlp.vocab.strings
    rng = random.Random(7)
    redaction_analyzer.analyze("Warm Up in Paris and hi i'm bob")
    before = len(strings)
    for _ in range(50):
        token = "".join(rng.choices(string.ascii_letters + string.digits, k=24))
        redaction_analyzer.analyze(f"Maria Lopez in Quito used token {token} for Xq{token}z; hi i'm {token.lower()}")
    assert len(strings) <= before + 5  # secrets and one-off words do not accumulate in the vocabulary
