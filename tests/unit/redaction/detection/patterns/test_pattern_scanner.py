"""PatternScanner: database cache (hit, miss, corrupt), per-rule dedup, thread-safe scans, Presidio recognizer."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import hyperscan
import pytest
from presidio_analyzer import RecognizerResult

from ztgate.redaction.detection.patterns.catalogue import Catalogue, CatalogueError, load_catalogue
from ztgate.redaction.detection.patterns.recognizer import HyperscanRecognizer
from ztgate.redaction.detection.patterns import scanner as pattern_scanner
from ztgate.redaction.detection.patterns.scanner import (CACHE_DIR_ENV, MAX_PREFIXES_JUDGED, PatternScanner,
                                                default_cache_dir)
from ztgate.redaction.types import Detection


def rule(rule_id: str, pattern: str, **fields: Any) -> dict[str, Any]:
    return {"id": rule_id, "entity": fields.pop("entity", "GENERIC_SECRET"), "pattern": pattern,
            "validator": fields.pop("validator", None), "score": fields.pop("score", 0.9), **fields}


def small_catalogue(*extra: dict[str, Any]) -> Catalogue:
    full = load_catalogue()
    return Catalogue.from_rules([full.rule("email_address"), full.rule("credit_card_grouped"), *extra])


# --- database cache ---------------------------------------------------------------------------------


def test_cache_miss_compiles_and_writes_then_a_second_scanner_loads_it(tmp_path: Path) -> None:
    catalogue = small_catalogue()
    first = PatternScanner(catalogue, cache_dir=tmp_path)
    assert first.database_source == "compiled"
    assert first.cache_path.is_file()
    assert first.cache_path.parent == tmp_path
    assert catalogue.sha256[:32] in first.cache_path.name and hyperscan.__version__ in first.cache_path.name

    second = PatternScanner(catalogue, cache_dir=tmp_path)
    assert second.database_source == "cache"
    text = "mail jane@example.com, card 4111 1111 1111 1111"
    assert second.scan(text) == first.scan(text) != []


@pytest.mark.parametrize("damage", ["truncate", "flip_payload_byte", "garbage", "empty", "wrong_magic"])
def test_corrupt_cache_is_recompiled_and_rewritten(tmp_path: Path, damage: str) -> None:
    catalogue = small_catalogue()
    path = PatternScanner(catalogue, cache_dir=tmp_path).cache_path
    blob = path.read_bytes()
    damaged = {
        "truncate": blob[: len(blob) // 2],
        "flip_payload_byte": blob[:-100] + bytes([blob[-100] ^ 0xFF]) + blob[-99:],
        "garbage": b"\x00" * 4096,
        "empty": b"",
        "wrong_magic": b"X" + blob[1:],
    }[damage]
    path.write_bytes(damaged)

    scanner = PatternScanner(catalogue, cache_dir=tmp_path)
    assert scanner.database_source == "compiled"
    assert scanner.scan("jane@example.com")[0].recognizer == "email_address"
    assert path.read_bytes() == blob or PatternScanner(catalogue, cache_dir=tmp_path).database_source == "cache"


def test_valid_looking_cache_with_a_bad_database_is_recompiled(tmp_path: Path) -> None:
    import hashlib

    from ztgate.redaction.detection.patterns import scanner as module

    catalogue = small_catalogue()
    path = PatternScanner(catalogue, cache_dir=tmp_path).cache_path
    payload = b"not a hyperscan database" * 10
    path.write_bytes(module._CACHE_MAGIC + hashlib.sha256(payload).digest() + payload)
    assert PatternScanner(catalogue, cache_dir=tmp_path).database_source == "compiled"


def test_a_different_catalogue_gets_a_different_cache_file(tmp_path: Path) -> None:
    a = PatternScanner(small_catalogue(), cache_dir=tmp_path)
    b = PatternScanner(small_catalogue(rule("extra", r"\bzz[0-9]{4}\b")), cache_dir=tmp_path)
    assert a.cache_path != b.cache_path
    assert b.database_source == "compiled"


def test_unwritable_cache_dir_still_scans(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the cache directory should be")
    scanner = PatternScanner(small_catalogue(), cache_dir=blocker / "cache")
    assert scanner.database_source == "compiled"
    assert [d.recognizer for d in scanner.scan("x jane@example.com")] == ["email_address"]


def test_use_cache_false_neither_reads_nor_writes(tmp_path: Path) -> None:
    scanner = PatternScanner(small_catalogue(), cache_dir=tmp_path, use_cache=False)
    assert scanner.database_source == "compiled"
    assert list(tmp_path.iterdir()) == []


def test_cache_dir_defaults_to_env_then_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path / "from-env"))
    assert default_cache_dir() == tmp_path / "from-env"
    assert PatternScanner(small_catalogue()).cache_path.parent == tmp_path / "from-env"
    monkeypatch.delenv(CACHE_DIR_ENV)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_cache_dir() == tmp_path / "home" / ".cache" / "ztgate"


def test_pattern_hyperscan_refuses_is_reported_with_its_rule_id(tmp_path: Path) -> None:
    catalogue = small_catalogue(rule("needs_lookahead", r"foo(?=bar)"))  # valid for Python `re`, not Hyperscan
    with pytest.raises(CatalogueError, match=r"rule 'needs_lookahead': Hyperscan cannot compile"):
        PatternScanner(catalogue, cache_dir=tmp_path)


# --- scanning and dedup -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dedup_scanner(tmp_path_factory: pytest.TempPathFactory) -> PatternScanner:
    return PatternScanner(Catalogue.from_rules([
        rule("digits", r"\d+"),
        rule("nested", r"ab|abcd|bc"),
        rule("overlapping", r"wxy|xyz"),
        rule("luhn_run", r"\b\d{4}(?: \d{4}){3}(?: \d{3})?\b", entity="CREDIT_CARD", validator="credit_card"),
        rule("quoted", r"""key=(?:"(?P<value>[^"]+)"|(?P<value_2>[^\s"]+))""", longest_only=True),
        rule("guarded", r"\b\d{3}\b", not_before=r"\d\.", not_after=r"\.\d"),
        rule("needs_context", r"\b\d{6}\b", context={"words": ["pin code", "pin"], "required": True,
                                                      "before": 12, "after": 0}),
        rule("boosted", r"\bQ\d{5}\b", score=0.5, context={"words": ["ticket"], "boost": 0.3, "before": 8, "after": 0}),
        rule("vetoed", r"\bV\d{5}\b", context={"deny": ["version"], "before": 10}),
    ]), cache_dir=tmp_path_factory.mktemp("hs-cache"))


def spans(scanner: PatternScanner, text: str, rule_id: str) -> list[str]:
    return [text[d.start:d.end] for d in scanner.scan(text) if d.recognizer == rule_id]


def test_empty_text_has_no_detections(dedup_scanner: PatternScanner) -> None:
    assert dedup_scanner.scan("") == []


def test_one_report_per_maximal_run_not_per_end_offset(dedup_scanner: PatternScanner) -> None:
    # Hyperscan reports (0,1), (0,2), ... (0,5) for \d+ with leftmost start: one detection survives.
    assert spans(dedup_scanner, "12345 and 678", "digits") == ["12345", "678"]


def test_span_inside_a_longer_span_of_the_same_rule_is_dropped(dedup_scanner: PatternScanner) -> None:
    assert spans(dedup_scanner, "abcd", "nested") == ["abcd"]


def test_partial_overlaps_of_one_rule_are_all_returned(dedup_scanner: PatternScanner) -> None:
    assert spans(dedup_scanner, "wxyz", "overlapping") == ["wxy", "xyz"]


def test_longest_valid_match_from_a_start_wins(dedup_scanner: PatternScanner) -> None:
    # The 19-digit reading fails Luhn; the 16-digit card from the same start is reported instead.
    assert spans(dedup_scanner, "card 4111 1111 1111 1111 123 ok", "luhn_run") == ["4111 1111 1111 1111"]
    assert spans(dedup_scanner, "card 4111 1111 1111 1112", "luhn_run") == []


def test_value_group_is_reported_and_quotes_are_left_out(dedup_scanner: PatternScanner) -> None:
    assert spans(dedup_scanner, 'key="a b c" key=plain', "quoted") == ["a b c", "plain"]


def test_guards_stand_in_for_lookarounds(dedup_scanner: PatternScanner) -> None:
    assert spans(dedup_scanner, "ver 1.234.5 and 678", "guarded") == ["678"]


def test_required_context_and_boost_and_deny(dedup_scanner: PatternScanner) -> None:
    assert spans(dedup_scanner, "PIN code: 123456 and 654321", "needs_context") == ["123456"]
    assert spans(dedup_scanner, "the Pin_Code 123456", "needs_context") == ["123456"]
    assert spans(dedup_scanner, "spinning 123456", "needs_context") == []
    boosted = {d.start: d.score for d in dedup_scanner.scan("ticket Q12345, Q54321") if d.recognizer == "boosted"}
    assert sorted(boosted.values()) == [0.5, 0.8]
    assert spans(dedup_scanner, "version V12345; V54321", "vetoed") == ["V54321"]


def test_ends_judged_from_one_start_are_capped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A match with an end at every character whose checks all fail: at most MAX_PREFIXES_JUDGED ends
    from its start are judged (each costs its length), not one per character. The validator is
    swapped for one that refuses and counts (a fault injected)."""
    judged: list[int] = []

    def refuse(value: str) -> bool:
        judged.append(len(value))
        return False
    monkeypatch.setattr(pattern_scanner, "VALIDATORS", {**pattern_scanner.VALIDATORS, "jwt": refuse})
    scanner = PatternScanner(Catalogue.from_rules([rule("runs_on", r"\bX[a-]*", validator="jwt")]),
                             cache_dir=tmp_path)
    assert scanner.scan("X" + "a-" * 5000) == []
    assert len(judged) == MAX_PREFIXES_JUDGED and judged[0] == 10001


def test_detections_carry_the_rule_as_recognizer_and_come_sorted(dedup_scanner: PatternScanner) -> None:
    found = dedup_scanner.scan("abcd 12 wxyz")
    assert found == sorted(found, key=lambda d: (d.start, -d.end, d.recognizer))
    assert all(isinstance(d, Detection) and d.entity_type == "GENERIC_SECRET" for d in found)


# --- thread safety ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def full_scanner(hs_cache_dir: Path) -> PatternScanner:
    return PatternScanner(cache_dir=hs_cache_dir)  # the session's cache: the catalogue compiles once


CONCURRENT_TEXTS = [
    "mail jane@example.com or call (555) 123-4567",
    "card 4111 1111 1111 1111, IBAN DE89 3704 0044 0532 0130 00",
    "password=hunter2 and token ghp_aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2z4A",
    "電話 😀 10.0.0.1 and born on 1985-03-12",
    "nothing to see here " * 20,
]


def test_concurrent_scans_match_sequential_results(full_scanner: PatternScanner) -> None:
    expected = [full_scanner.scan(t) for t in CONCURRENT_TEXTS]
    assert all(expected[:4])
    errors: list[BaseException] = []
    barrier = threading.Barrier(8)

    def worker(offset: int) -> None:
        try:
            barrier.wait()
            for i in range(150):
                k = (i + offset) % len(CONCURRENT_TEXTS)
                assert full_scanner.scan(CONCURRENT_TEXTS[k]) == expected[k]
        except BaseException as exc:  # noqa: BLE001 - collected and re-raised in the main thread
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def test_each_thread_gets_its_own_scratch(full_scanner: PatternScanner) -> None:
    scratches: list[object] = [full_scanner._scratch()]
    thread = threading.Thread(target=lambda: scratches.append(full_scanner._scratch()))
    thread.start()
    thread.join()
    assert scratches[0] is not scratches[1]
    assert full_scanner._scratch() is scratches[0]


def test_long_text_scans_and_finds_values_at_the_end(full_scanner: PatternScanner) -> None:
    text = ("lorem ipsum dolor sit amet " * 4000) + "jane@example.com"
    found = full_scanner.scan(text)
    assert [text[d.start:d.end] for d in found] == ["jane@example.com"]


# --- Presidio recognizer ----------------------------------------------------------------------------


def test_recognizer_plugs_the_scanner_into_presidio(full_scanner: PatternScanner) -> None:
    recognizer = HyperscanRecognizer(full_scanner)
    assert set(recognizer.supported_entities) == full_scanner.catalogue.entity_types
    assert recognizer.context == []
    text = "mail jane@example.com, password=hunter2"
    results = recognizer.analyze(text, entities=[], nlp_artifacts=None)
    assert all(isinstance(r, RecognizerResult) for r in results)
    by_entity = {r.entity_type: r for r in results}
    assert text[by_entity["EMAIL_ADDRESS"].start:by_entity["EMAIL_ADDRESS"].end] == "jane@example.com"
    assert by_entity["PASSWORD"].recognition_metadata[RecognizerResult.RECOGNIZER_NAME_KEY] == "password_assignment"
    assert by_entity["PASSWORD"].recognition_metadata[RecognizerResult.RECOGNIZER_IDENTIFIER_KEY] == recognizer.id


def test_recognizer_returns_only_the_entities_asked_for(full_scanner: PatternScanner) -> None:
    recognizer = HyperscanRecognizer(full_scanner)
    results = recognizer.analyze("mail jane@example.com, password=hunter2", ["PASSWORD"], None)
    assert [r.entity_type for r in results] == ["PASSWORD"]
    assert recognizer.analyze("", ["PASSWORD"], None) == []
