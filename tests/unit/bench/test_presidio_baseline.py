"""The Presidio anchor runs offline: installed spaCy model, bundled public-suffix list, no socket opened."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
import tldextract

from ztgate_bench.presidio_baseline import (
    DEFAULT_SPACY_MODEL,
    PresidioBaseline,
    benchmark_presidio,
    build_presidio,
    default_nlp_configuration,
    run_presidio_concurrent,
    run_presidio_sequential,
)


class NetworkBlocked(RuntimeError):
    pass


def _refuse(*args: object, **kwargs: object) -> None:
    raise NetworkBlocked(f"network access attempted: {args!r}")


@pytest.fixture(scope="module")
def no_network() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(socket.socket, "connect", _refuse)
        patch.setattr(socket.socket, "connect_ex", _refuse)
        patch.setattr(socket, "getaddrinfo", _refuse)
        patch.setattr(socket, "create_connection", _refuse)
        yield


@pytest.fixture(scope="module")
def presidio(no_network: None) -> PresidioBaseline:
    return build_presidio()


def test_nlp_configuration_is_presidio_default_with_the_installed_model() -> None:
    conf = default_nlp_configuration()
    assert conf["nlp_engine_name"] == "spacy"
    assert conf["models"] == [{"lang_code": "en", "model_name": DEFAULT_SPACY_MODEL}]
    assert conf["ner_model_configuration"]["model_to_presidio_entity_mapping"]["NORP"] == "NRP"


def test_the_pipeline_uses_the_default_registry(presidio: PresidioBaseline) -> None:
    names = {r.name for r in presidio.analyzer.registry.recognizers}
    assert {"EmailRecognizer", "CreditCardRecognizer", "PhoneRecognizer", "SpacyRecognizer"} <= names


def test_tldextract_uses_the_bundled_snapshot_without_network(presidio: PresidioBaseline) -> None:
    assert tldextract.extract("mail.example.co.uk").suffix == "co.uk"


def test_presidio_redacts_three_texts_offline(presidio: PresidioBaseline) -> None:
    texts = [
        "Please email jane.doe@example.com about the invoice.",
        "Card 4111 1111 1111 1111 was declined.",
        "how do i center a div with flexbox",
    ]
    result = run_presidio_sequential(presidio, texts)
    assert result.outputs[0] == "Please email <EMAIL_ADDRESS> about the invoice."
    assert result.outputs[1] == "Card <CREDIT_CARD> was declined."
    assert result.outputs[2] == texts[2]
    assert len(result.durations_s) == 3


def test_presidio_serves_concurrent_clients(presidio: PresidioBaseline) -> None:
    result = run_presidio_concurrent(presidio, ["Call me at (415) 555-0134, please."], clients=4, count=8)
    assert result.calls == 8 and set(result.outputs) == {"Call me at <PHONE_NUMBER>, please."}


def test_benchmark_scores_a_small_corpus(presidio: PresidioBaseline) -> None:
    report = benchmark_presidio(n=8, seed=1, clients=2, baseline=presidio)
    assert report.system == "Presidio default" and report.samples == 8
    assert report.overall.total > 0 and report.throughput_rps and report.throughput_rps > 0
