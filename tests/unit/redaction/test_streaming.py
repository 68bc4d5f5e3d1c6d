"""Stream scrubbing: what is held back, and that a value split anywhere is still caught.

The detector here is the real pattern tier (Hyperscan) on the normalised view, as the service
scans streams (`RedactionService.scan`); `apply` replaces each detection by its
type in angle brackets, which is all these tests need to see what crossed.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ztgate.redaction.detection.normalise import detect_on_view
from ztgate.redaction.detection.patterns.scanner import PatternScanner
from ztgate.redaction.streaming import StreamScrubber, hold_point
from ztgate.redaction.types import Detection

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
    scrubber = StreamScrubber(lambda window: detect_on_view(scanner.scan, window), _apply)
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


# --- values of several words (issue #12: "John Sm" | "ith", a quoted password split mid-value) ----------

_GIVEN = st.sampled_from(["Ada", "Caio", "Maria", "Jan", "Yuri", "Ahmed", "Zoë", "Lot"])
_FAMILY = st.sampled_from(["Lovelace", "Costela", "Gomes", "Hamann", "Blewanus", "Müller", "de la Cruz",
                           "van der Berg"])
_PASSWORD_WORDS = st.lists(st.sampled_from(["correct", "horse", "battery", "staple", "zebra", "quartz"]),
                           min_size=2, max_size=5, unique=True)


@st.composite
def _multi_word_value(draw: st.DrawFn) -> tuple[str, str, str]:
    """(text, value, entity): a value with spaces in its context; the space may be a no-break one."""
    space = draw(st.sampled_from([" ", " ", "\u00a0"]))
    kind = draw(st.sampled_from(["label", "dear", "json", "title", "password", "card", "iban", "dob"]))
    if kind == "password":
        value = space.join(draw(_PASSWORD_WORDS)) + "9!"
        return f'config password: "{value}" then more text', value, "PASSWORD"
    if kind == "card":
        value = space.join(["4111", "1111", "1111", "1111"])
        return f"pay with {value} today", value, "CREDIT_CARD"
    if kind == "iban":
        value = space.join(["DE89", "3704", "0044", "0532", "0130", "00"])
        return f"send to {value} please", value, "IBAN_CODE"
    if kind == "dob":
        value = f"12{space}March{space}1990"
        return f"she was born {value} in a town", value, "DATE_OF_BIRTH"
    value = f"{draw(_GIVEN)} {draw(_FAMILY)}"
    template = {"label": "Name: {} and more", "dear": "Dear {}, thanks for writing",
                "json": '{{"name": "{}", "id": 7}}', "title": "ask Mr. {} about it"}[kind]
    return template.format(value), value, "PERSON"


def _leaked_words(value: str, out: str) -> list[str]:
    return [word for word in value.replace("\u00a0", " ").split() if len(word) >= 3 and word in out]


@settings(max_examples=20, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=_multi_word_value())
def test_a_value_of_several_words_split_at_every_position_never_leaks_a_word(
        scanner: PatternScanner, case: tuple[str, str, str]) -> None:
    text, value, entity = case
    for cut in range(1, len(text)):
        out, found, _ = _run(scanner, [text[:cut], text[cut:]])
        assert entity in found and not _leaked_words(value, out), (text, cut, out)


@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=_multi_word_value(), cuts=st.lists(st.integers(1, 80), max_size=10))
def test_a_value_of_several_words_in_any_chunks_never_leaks_a_word(
        scanner: PatternScanner, case: tuple[str, str, str], cuts: list[int]) -> None:
    text, value, entity = case
    bounds = [0, *sorted({c for c in cuts if c < len(text)}), len(text)]
    chunks = [text[a:b] for a, b in zip(bounds, bounds[1:]) if b > a]
    out, found, _ = _run(scanner, chunks)
    assert entity in found and not _leaked_words(value, out), (chunks, out)


@pytest.mark.parametrize(("text", "held_from"), [
    ("Name: John Sm", "Name: "),            # name-like words before the run are held with it
    ("Name: John ", "Name: "),
    ("Dear Ada Love", "Dear "),
    ('password: "correct horse ', '"correct'),  # an open quote after an assignment
    ("it's fine and we're ok", None),         # apostrophes in prose hold nothing
    ("card 4111\u00a01111\u00a011", "4111"),  # groups joined by no-break spaces
    ("ssn \uff15\uff13\uff16-\uff12\uff12-\uff11", "\uff15"),  # a full-width run
])
def test_hold_point_keeps_back_a_value_of_several_words(text: str, held_from: str | None) -> None:
    point = hold_point(text, max_hold=10_000)
    if held_from is None:
        assert point >= len(text) - len("ok")
    else:
        assert point <= text.index(held_from), (text, text[point:])
