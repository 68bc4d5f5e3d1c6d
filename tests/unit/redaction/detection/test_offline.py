"""Nothing in analysis reaches the network: building the analyzer and analysing (NER included) with sockets blocked."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
import tldextract
from presidio_analyzer.predefined_recognizers import EmailRecognizer

from ztgate.redaction.detection.analyzer import Analyzer, default_tier1_recognizers, make_tldextract_offline


class NetworkBlocked(AssertionError):
    pass


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Make every way out of the process raise, and record the attempts."""
    attempts: list[str] = []

    def refuse(name: str):  # noqa: ANN202
        def blocked(*args: object, **kwargs: object) -> None:
            attempts.append(name)
            raise NetworkBlocked(f"network access attempted: {name}")
        return blocked

    monkeypatch.setattr(socket.socket, "connect", refuse("socket.connect"))
    monkeypatch.setattr(socket.socket, "connect_ex", refuse("socket.connect_ex"))
    monkeypatch.setattr(socket.socket, "sendto", refuse("socket.sendto"))
    monkeypatch.setattr(socket, "create_connection", refuse("socket.create_connection"))
    monkeypatch.setattr(socket, "getaddrinfo", refuse("socket.getaddrinfo"))
    monkeypatch.setattr(socket, "gethostbyname", refuse("socket.gethostbyname"))
    yield attempts


def test_the_network_block_works(no_network: list[str]) -> None:
    with pytest.raises(NetworkBlocked):
        socket.create_connection(("publicsuffix.org", 443), timeout=1)
    assert no_network == ["socket.create_connection"]
    no_network.clear()


def test_building_the_analyzer_and_a_full_analysis_need_no_network(no_network: list[str],
                                                                   hs_cache_dir: Path) -> None:
    analyzer = Analyzer.create(tier1=default_tier1_recognizers(cache_dir=hs_cache_dir))  # spaCy load included
    text = "Maria Garcia from Madrid, a Spanish engineer, wrote to maria.garcia@example.co.uk from 10.0.0.7."
    found = {(d.entity_type, text[d.start:d.end]) for d in analyzer.analyze(text)}
    assert {("PERSON", "Maria Garcia"), ("LOCATION", "Madrid"), ("NRP", "Spanish"),
            ("EMAIL_ADDRESS", "maria.garcia@example.co.uk")} <= found
    assert no_network == []


def test_no_recognizer_in_the_registry_uses_tldextract(redaction_analyzer: Analyzer) -> None:
    assert not [r for r in redaction_analyzer.engine.registry.recognizers if isinstance(r, EmailRecognizer)]


def test_tldextract_reads_its_bundled_snapshot(no_network: list[str]) -> None:
    # Defence in depth: anything else in the process that calls tldextract.extract stays offline too.
    make_tldextract_offline()
    assert tldextract.extract("https://forums.news.example.co.uk/path").suffix == "co.uk"
    assert EmailRecognizer().validate_result("someone@example.com") is True
    assert no_network == []


def test_tldextract_left_at_its_defaults_would_fetch_the_suffix_list(no_network: list[str], tmp_path: Path) -> None:
    # Why make_tldextract_offline exists: a default extractor with an empty cache goes to publicsuffix.org.
    with pytest.raises(NetworkBlocked):
        tldextract.TLDExtract(cache_dir=str(tmp_path))("forums.news.example.co.uk")
    assert no_network
    no_network.clear()
