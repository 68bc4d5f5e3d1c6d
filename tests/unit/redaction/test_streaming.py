"""Stream scrubbing: what is held back, and that a value split anywhere is still caught.

The detector here is the real pattern tier (Hyperscan); `apply` replaces each detection by its
type in angle brackets, which is all these tests need to see what crossed.
"""

from __future__ import annotations

import pytest

from services.redaction.pattern_scanner import PatternScanner
from services.redaction.streaming import StreamScrubber, hold_point
from services.redaction.types import Detection

GITHUB = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A"
PEM = ("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx3Yb9kLmN0pQrS1tUvWxYz2AbCdEfGhIjKlMnOpQrStUvW\n"
       "xYz2AbCdEfGhIjKlMnOpQrStUvWxYz2AbCdEfGhIjKlMnOpQrStUvWxYz2AbCd==\n-----END RSA PRIVATE KEY-----")


@pytest.fixture(scope="module")
def scanner(tmp_path_factory: pytest.TempPathFactory) -> PatternScanner:
    return PatternScanner(cache_dir=tmp_path_factory.mktemp("hs"))


def _apply(segment: str, detections: list[Detection]) -> tuple[str, list[str]]:
    out, pos = [], 0
    for d in sorted(detections, key=lambda d: d.start):
        if d.start < pos:
            continue
        out += [segment[pos:d.start], f"<{d.entity_type}>"]
        pos = d.end
    out.append(segment[pos:])
    return "".join(out), [d.entity_type for d in detections]


def _run(scanner: PatternScanner, chunks: list[str]) -> tuple[str, list[str], list[str]]:
    scrubber = StreamScrubber(scanner.scan, _apply)
    emitted, found = [], []
    for chunk in chunks:
        out = scrubber.feed(chunk)
        emitted.append(out.text)
        found += out.findings
    tail = scrubber.finish()
    emitted.append(tail.text)
    found += tail.findings
    return "".join(emitted), found, emitted


@pytest.mark.parametrize("text, expected", [
    ("hello world", len("hello ")),           # the last word may still grow
    ("hello world ", len("hello world ")),    # nothing can grow past whitespace
    ("card 4111 1111 11", len("card ")),      # digit groups are held together
    ("call +44 20 79", len("call ")),
    ("ok\n-----BEGIN RSA PRIVATE KEY-----\nabc\n", len("ok\n")),  # unterminated PEM block
    ("text ---", len("text ")),               # may be the start of a PEM marker
])
def test_hold_point_keeps_back_what_could_still_become_a_value(text: str, expected: int) -> None:
    assert hold_point(text, max_hold=10_000) == expected


def test_hold_is_bounded() -> None:
    assert hold_point("x" * 100, max_hold=10) == 90


@pytest.mark.parametrize("value, entity", [
    (GITHUB, "GITHUB_TOKEN"), ("jane.doe@example.com", "EMAIL_ADDRESS"),
    ("4111 1111 1111 1111", "CREDIT_CARD"), (PEM, "PRIVATE_KEY"),
])
def test_value_split_at_every_position_never_passes(scanner: PatternScanner, value: str,
                                                    entity: str) -> None:
    text = f"here: {value} done"
    for cut in range(1, len(text)):
        out, found, _ = _run(scanner, [text[:cut], text[cut:]])
        assert value not in out and entity in found, f"split at {cut}"
        assert out.startswith("here: ") and out.endswith(" done")


def test_one_character_chunks_catch_every_value(scanner: PatternScanner) -> None:
    text = f"mail jane.doe@example.com and token {GITHUB} then stop."
    out, found, emitted = _run(scanner, list(text))
    assert "jane.doe@example.com" not in out and GITHUB not in out
    assert found.count("EMAIL_ADDRESS") == 1 and found.count("GITHUB_TOKEN") == 1
    # Plain words flow through before the stream ends: latency stays low.
    assert "".join(emitted[:10]) == "mail "


def test_context_already_sent_still_counts_for_the_next_chunk(scanner: PatternScanner) -> None:
    out, found, _ = _run(scanner, ["my password: ", "Zx9!kLm2qR ", "thanks"])
    assert "Zx9!kLm2qR" not in out and "PASSWORD" in found
