"""Every scan on redaction's request and answer paths costs time linear in its input (issue #10).

An input is a short unit repeated to a size: the attack families seen (digit and dash groups
"1-1-1-", long runs without whitespace, dense context words, partial placeholders "<PERSON_",
repeated "-----BEGIN", name particles "Van Van", unicode), and units Hypothesis builds from the
same fragments. Each test times one scan at size n and at 8n and asserts the ratio stays far
from quadratic: time(8n) / time(n) < 24, where linear is 8 and quadratic 64. Never one timed
size: the time is the thread's CPU time (`time.thread_time`: other processes on the machine do not
count), the least of a few rounds, with the garbage collector off, and a ratio over the limit is
measured again, longer, before it fails. n doubles from a small size until a scan takes
`MIN_TIME`, so fixed costs do not hide growth. Where the work can be counted, the stream
scrubber's detector reads, the count is asserted instead of a time.

The largest inputs: 1 MiB for the hold point and placeholder scans, 128 K characters for the
pattern tier and the validators, less for the gazetteer, whose constant per word is large.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from services.redaction import gazetteer, ner
from services.redaction.overlaps import resolve_overlaps
from services.redaction.pattern_scanner import PatternScanner
from services.redaction.streaming import SCAN_CREDIT, StreamScrubber, hold_point
from services.redaction.types import Detection
from services.redaction.validators import VALIDATORS
from services.redaction.vault import Vault, pending_placeholder_length

RATIO_LIMIT = 24.0  # time(8n) / time(n): linear is 8, quadratic 64
FACTOR = 8
MIN_TIME = 0.002  # seconds of CPU a scan must take at n for its growth to be measured

# Pieces of the attacks seen and of what the rules, the hold logic and the gazetteer react to.
FRAGMENTS = (
    "1", "12", "1-", "1 ", "1.", "4111 ", "+44 ", "(555) ", "-", " ", ".", "\n", "\t", "a", "A", "Z9", "_",
    "x", "é", "ü", "日本", "\u00a0", "🙂", "<", ">", "<PERSON_", "<EMAIL_ADDRESS_1", "PERSON_", "-----BEGIN ",
    "-----BEGIN RSA PRIVATE KEY-----\n", "-----END ", "PRIVATE KEY-----", "key ", "token=", "secret: ",
    "password=", "password is ", "pass", "PASS", "api_key=", "bearer ", "Authorization: Bearer ", "@", "a@b.",
    "eyJhbGciOiJIUzI1NiJ9.", "sk-", "ghp_", "AKIA", "=", "/", ":", "\\n", '"', "'", "http://u:", "Name: ",
    "Anna ", "Van ", "De ", "de ", "Du ", "Dear ", "my friend ", "i ", "john ", "phone ", "ssn ", "born ",
    "12 Main Street ", "DE89 ", "a1B2c3D4e5F6g7H8i9J0", "self.", "[a]", "${", "{{", "(",
)
UNITS = st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=6).map("".join)
# The families behind the reports, run as explicit examples by the tests they concern.
SCANNER_FAMILIES = ("1-", "1 ", "12.", "x", "key token a1B2c3D4e5F6g7H8i9J0kL ", "pass", "password=",
                    "eyJhbGciOiJIUzI1NiJ9x.aaaaaaaa.aaaaaaaaa-a", "a@b.cc.", "1:", "é1-ü ")
HOLD_FAMILIES = ("1-", "1 ", "4111 1111 ", "x", "-----BEGIN ", "<PERSON_", "é1-ü ")
PLACEHOLDER_FAMILIES = ("<PERSON_", "<A_", "<PERSON_1", "<")
NAME_FAMILIES = ("Van ", "Du ", "Anna de ", "i met john ", "De De Anna ")

COST = settings(max_examples=6, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))


def with_examples(*units: str) -> Callable[[Callable], Callable]:
    def decorate(test: Callable) -> Callable:
        for unit in units:
            test = example(unit=unit)(test)
        return test
    return decorate


def repeat(unit: str) -> Callable[[int], str]:
    return lambda n: (unit * (n // len(unit) + 1))[:n]


def _cpu(fn: Callable[[T], object], arg: T) -> float:
    start = time.thread_time()
    fn(arg)
    return time.thread_time() - start


def growth(fn: Callable[[T], object], make: Callable[[int], T], *, n: int = 2048,
           max_n: int = 1 << 14, rounds: int = 2) -> float:
    """time(fn(make(8n))) / time(fn(make(n))), n doubled from `n` (at most to `max_n`) until fn
    takes MIN_TIME; least CPU time of `rounds`, twice as many again before a ratio over the limit."""
    gc.disable()  # no collection (a full one costs a fifth of a second with Presidio loaded) in the timings
    try:
        while n < max_n and _cpu(fn, make(n)) < MIN_TIME:
            n *= 2
        small, big = make(n), make(FACTOR * n)
        ratio = 0.0
        for attempt in (1, 2):
            fast = min(_cpu(fn, small) for _ in range(rounds * attempt))
            slow = min(_cpu(fn, big) for _ in range(rounds * attempt))
            ratio = slow / max(fast, 1e-6)
            if ratio < RATIO_LIMIT:
                break
        return ratio
    finally:
        gc.enable()


@pytest.fixture(scope="module")
def scanner(hs_cache_dir: Path) -> PatternScanner:
    return PatternScanner(cache_dir=hs_cache_dir)


def _identity(segment: str, detections: list[Detection]) -> tuple[str, list[Detection]]:
    return segment, detections


# --- the pattern tier (request and answer paths) --------------------------------------------------


@COST
@given(unit=UNITS)
@with_examples(*SCANNER_FAMILIES)
def test_pattern_scan_is_linear(scanner: PatternScanner, unit: str) -> None:
    assert growth(scanner.scan, repeat(unit)) < RATIO_LIMIT, unit


@COST
@given(unit=UNITS)
@with_examples("pass", "PASS", "a_", "self.a", "a-", "Anna ", "1", "aB3dE5fG7h", "é1-ü ")
def test_validators_are_linear_in_the_value(unit: str) -> None:
    for name, validator in VALIDATORS.items():
        assert growth(validator, repeat(unit), n=256, max_n=2048) < RATIO_LIMIT, (name, unit)


# --- the stream scrubber (RedactStream, and answers through the gateway) --------------------------


@COST
@given(unit=UNITS)
@with_examples(*HOLD_FAMILIES)
@example(unit="1-" * 16000 + "a")  # the report: one 32 KB chunk held the server for 15 s
def test_hold_point_is_linear_up_to_a_mebibyte(unit: str) -> None:
    assert growth(lambda text: hold_point(text, max_hold=1 << 30), repeat(unit), n=16384,
                  max_n=1 << 17) < RATIO_LIMIT, unit


@COST
@given(unit=UNITS)
@with_examples(*HOLD_FAMILIES)
def test_one_large_chunk_is_scrubbed_in_linear_time(scanner: PatternScanner, unit: str) -> None:
    def scrub(text: str) -> None:
        scrubber = StreamScrubber(scanner.scan, _identity)
        scrubber.feed(text)
        scrubber.finish()
    assert growth(scrub, repeat(unit)) < RATIO_LIMIT, unit


@COST
@given(unit=UNITS, chunk=st.sampled_from([1, 3, 64]))
@example(unit="x", chunk=1)
@example(unit="1 ", chunk=1)
@example(unit="-----BEGIN RSA PRIVATE KEY-----\n" + "A" * 63 + "\n", chunk=1)
def test_hold_logic_per_chunk_is_bounded(unit: str, chunk: int) -> None:
    """Many small chunks: with a detector that finds nothing, all that is left is the hold logic."""
    def stream(text: str) -> None:
        scrubber = StreamScrubber(lambda window: [], _identity)
        for i in range(0, len(text), chunk):
            scrubber.feed(text[i:i + chunk])
        scrubber.finish()
    assert growth(stream, repeat(unit), n=512, max_n=4096, rounds=2) < RATIO_LIMIT, (unit, chunk)


def _whole_window(window: str) -> list[Detection]:
    """A stand-in detector (fault injection): one value over the whole window, the worst for holding."""
    return [Detection("PASSWORD", 0, len(window), 1.0, "test")] if window else []


@COST
@given(unit=UNITS, chunk=st.integers(1, 50), max_hold=st.sampled_from([512, 4096, 32768]),
       whole=st.booleans())
@example(unit="1 ", chunk=1, max_hold=32768, whole=False)
@example(unit="x", chunk=1, max_hold=512, whole=True)
def test_detector_reads_are_linear_in_what_is_fed(scanner: PatternScanner, unit: str, chunk: int,
                                                  max_hold: int, whole: bool) -> None:
    """Counted, not timed: the detector reads at most `lookbehind` per chunk and SCAN_CREDIT per
    character, plus one window for a forced send and one for the end; and nothing is lost."""
    lookbehind = 256
    read = 0

    def detect(window: str) -> list[Detection]:
        nonlocal read
        read += len(window)
        return _whole_window(window) if whole else scanner.scan(window)

    text = repeat(unit)(6000)
    scrubber = StreamScrubber(detect, _identity, lookbehind=lookbehind, max_hold=max_hold)
    out = [scrubber.feed(text[i:i + chunk]).text for i in range(0, len(text), chunk)]
    out.append(scrubber.finish().text)
    feeds = -(-len(text) // chunk)
    assert read <= feeds * lookbehind + SCAN_CREDIT * len(text) + 2 * (lookbehind + max_hold + chunk), \
        (unit, read)
    assert "".join(out) == text


# --- placeholders (answers: restoring pseudonyms) --------------------------------------------------


@pytest.fixture(scope="module")
def vault() -> Vault:
    vault = Vault()
    with vault.transaction("t", "s") as txn:
        txn.placeholder_for("PERSON", "Ada")
    return vault


@COST
@given(unit=UNITS)
@with_examples(*PLACEHOLDER_FAMILIES)
@example(unit="<" + "A_" * 50)
def test_placeholder_scans_are_linear_up_to_a_mebibyte(vault: Vault, unit: str) -> None:
    assert growth(lambda text: vault.restore("t", "s", text), repeat(unit), n=16384,
                  max_n=1 << 17) < RATIO_LIMIT, unit
    assert growth(pending_placeholder_length, repeat(unit), n=16384, max_n=1 << 17) < RATIO_LIMIT, unit


# --- tier 2: the NER gate, the gazetteer and the span filter (request path) -----------------------


@COST
@given(unit=UNITS)
@with_examples(*NAME_FAMILIES)
def test_ner_gate_and_gazetteer_are_linear(unit: str) -> None:
    gazetteer.load()
    assert growth(ner.NerGate().pieces, repeat(unit), n=1024, max_n=8192) < RATIO_LIMIT, unit
    assert growth(gazetteer.find, repeat(unit), n=256, max_n=2048, rounds=2) < RATIO_LIMIT, unit


@pytest.mark.parametrize("unit", ["i met john ", "hi i am john from boston ", "JOHN SMITH LONDON "])
def test_span_filter_looks_at_a_bounded_sentence(unit: str) -> None:
    """plausible_span for every word of a text with no sentence end: each looks at a window, not the text."""
    def every_word(text: str) -> None:
        start = 0
        for word in text.split(" "):
            if word:
                ner.plausible_span(text, start, start + len(word))
            start += len(word) + 1
    assert growth(every_word, repeat(unit), n=1024, max_n=8192) < RATIO_LIMIT


# --- overlaps (both paths) ------------------------------------------------------------------------


@pytest.mark.parametrize("shape", ["nested", "chained", "same", "disjoint"])
def test_overlap_resolution_is_linear(shape: str) -> None:
    def spans(n: int) -> list[Detection]:
        return [{"nested": Detection("PERSON", i, 2 * n - i, 0.5, "r"),
                 "chained": Detection("EMAIL_ADDRESS", i, i + 8, 0.5 + (i % 7) / 20, "r"),
                 "same": Detection("PASSWORD", 0, 10, 0.5, f"r{i}"),
                 "disjoint": Detection("PERSON", 4 * i, 4 * i + 2, 0.5, "r")}[shape] for i in range(n)]
    assert growth(resolve_overlaps, spans, n=1024, max_n=1 << 15) < RATIO_LIMIT
