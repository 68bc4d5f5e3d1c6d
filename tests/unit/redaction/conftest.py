"""Expensive redaction fixtures, built once per test session: the spaCy NER engine and the in-process Analyzer."""

from __future__ import annotations

from pathlib import Path

import pytest

from ztgate.redaction.detection.analyzer import Analyzer, build_analyzer_engine, default_tier1_recognizers
from ztgate.redaction.detection.names.ner import GatedSpacyNlpEngine


@pytest.fixture(scope="session")
def ner_engine() -> GatedSpacyNlpEngine:
    """The gated NER engine, loaded (spaCy's ``ner`` component only)."""
    engine = GatedSpacyNlpEngine()
    engine.load()
    return engine


@pytest.fixture(scope="session")
def ner_engine_ungated(ner_engine: GatedSpacyNlpEngine) -> GatedSpacyNlpEngine:
    """The same spaCy pipeline run on whole texts: the reference the gate is measured against."""
    engine = GatedSpacyNlpEngine(use_gate=False)
    engine.nlp = ner_engine.nlp
    return engine


@pytest.fixture(scope="session")
def hs_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Hyperscan database cache private to this session (compiled once, then loaded)."""
    return tmp_path_factory.mktemp("hs-cache")


@pytest.fixture(scope="session")
def redaction_analyzer(ner_engine: GatedSpacyNlpEngine, hs_cache_dir: Path) -> Analyzer:
    """The production Analyzer: Hyperscan tier 1 + gated NER in Presidio's AnalyzerEngine."""
    return Analyzer(build_analyzer_engine(ner_engine, default_tier1_recognizers(cache_dir=hs_cache_dir)))
