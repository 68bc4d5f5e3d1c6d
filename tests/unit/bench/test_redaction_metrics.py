"""Scoring of redaction runs: which values survive (verbatim or normalised), clean prompts altered, latency."""

from __future__ import annotations

import math

import pytest

from ztgate_bench.redaction_corpus import CLEAN, PII, SECRET, Entity, Sample
from ztgate_bench.redaction_metrics import (
    Survival,
    clean_altered,
    percentile,
    render_comparison,
    score,
    survival_by_type,
    survives,
)

_JWT = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0."
        "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")
_PEM = ("-----BEGIN EC PRIVATE KEY-----\n"
        "MHcCAQEEIAbCdEfGhIjKlMnOpQrStUvWxYz0123456789+/AbCdEfGhIjKlMnOpQr\n"
        "StUvWxYz0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRST\n"
        "UVWXYZ0123456789abcdefghij==\n"
        "-----END EC PRIVATE KEY-----")
_SLACK = "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"


@pytest.mark.parametrize(("entity_type", "value", "output", "expected"), [
    # verbatim, as a whole word only
    ("PERSON", "Ann Lee", "Dear Ann Lee, thanks", True),
    ("PERSON", "Ann Lee", "Dear <PERSON>, thanks", False),
    ("PERSON", "Ann", "Dear Anna, thanks", False),
    ("IP_ADDRESS", "10.0.0.1", "host 10.0.0.1 is down", True),
    ("IP_ADDRESS", "10.0.0.1", "host 10.0.0.12 is down", False),
    ("LOCATION", "São Paulo", "moving to São Paulo.", True),
    # card digits with other separators, or none
    ("CREDIT_CARD", "4111 1111 1111 1111", "card 4111111111111111 ok", True),
    ("CREDIT_CARD", "4111-1111-1111-1111", "card 4111 1111 1111 1111 ok", True),
    ("CREDIT_CARD", "4111 1111 1111 1111", "card <CREDIT_CARD>", False),
    ("CREDIT_CARD", "4111 1111 1111 1111", "card ending in 1111", False),
    # phone digits, and the national part of an international number
    ("PHONE_NUMBER", "(415) 555-0134", "call 415.555.0134 today", True),
    ("PHONE_NUMBER", "(415) 555-0134", "call 4155550134", True),
    ("PHONE_NUMBER", "(415) 555-0134", "call <PHONE_NUMBER>", False),
    ("PHONE_NUMBER", "+44 7911 123456", "call +447911123456", True),
    ("PHONE_NUMBER", "+44 7911 123456", "call +<CC> 7911 123456", True),
    ("PHONE_NUMBER", "+1 415 555 0134", "call (415) 555-0134", True),
    ("PHONE_NUMBER", "+353 86 123 4567", "call 86 123 4567", True),
    ("PHONE_NUMBER", "+44 7911 123456", "call +44 <PHONE_NUMBER>", False),
    # SSN digits, but not inside a longer number
    ("US_SSN", "123-45-6789", "ssn 123 45 6789", True),
    ("US_SSN", "123-45-6789", "ssn 123456789.", True),
    ("US_SSN", "123-45-6789", "order 91234567890", False),
    # IBAN in any spacing and case
    ("IBAN_CODE", "DE89 3704 0044 0532 0130 00", "iban de89370400440532013000", True),
    ("IBAN_CODE", "DE89370400440532013000", "iban DE89 3704 0044 0532 0130 00", True),
    ("IBAN_CODE", "DE89 3704 0044 0532 0130 00", "iban <IBAN_CODE>", False),
    # MAC address in another notation
    ("MAC_ADDRESS", "3a:12:bc:45:de:67", "mac 3A-12-BC-45-DE-67", True),
    ("MAC_ADDRESS", "3a:12:bc:45:de:67", "mac 3a12.bc45.de67", True),
    ("MAC_ADDRESS", "3a:12:bc:45:de:67", "mac <MAC_ADDRESS>", False),
    # email and IPv6 in any case; IPv6 compressed or expanded
    ("EMAIL_ADDRESS", "Bob.Smith@Example.com", "write to bob.smith@example.com", True),
    ("EMAIL_ADDRESS", "bob@example.com", "write to jbob@example.com", False),
    ("IP_ADDRESS", "2001:db8::1", "from 2001:0DB8:0000:0000:0000:0000:0000:0001", True),
    ("IP_ADDRESS", "2001:0db8:0000:0000:0000:0000:0000:0001", "from 2001:db8::1", True),
    ("IP_ADDRESS", "2001:db8::1", "from 2001:db8::12", False),
    # secrets: a 16-character run of the random material is a leak; prefixes and headers are not
    ("SLACK_TOKEN", _SLACK, f"token {_SLACK}", True),
    ("SLACK_TOKEN", _SLACK, "token xoxb-<NUM>-<NUM>-AbCdEfGhIjKlMnOpQrStUvWx", True),
    ("SLACK_TOKEN", _SLACK, "token xoxb-<SLACK_TOKEN>", False),
    ("GITHUB_TOKEN", "ghp_" + "a1B2c3D4e5" * 3 + "F6g7H8", "ghp_<redacted>", False),
    ("JWT", _JWT, "Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.<JWT>", False),
    ("JWT", _JWT, "Bearer <URL>QT4fwpMeJf36POk6yJV_adQssw5c", True),
    ("PRIVATE_KEY", _PEM, f"key:\n{_PEM}", True),
    ("PRIVATE_KEY", _PEM, "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIAbCdEfGh<KEY>\n-----END EC PRIVATE KEY-----",
     False),
    ("PRIVATE_KEY", _PEM, "<PRIVATE_KEY>\nUVWXYZ0123456789abcdefghij==\n-----END EC PRIVATE KEY-----", True),
    ("PASSWORD", "Winter2024!abc", "password=Winter2024!abc", True),
    ("PASSWORD", "Winter2024!abc", "password=<PASSWORD>", False),
])
def test_survives(entity_type: str, value: str, output: str, expected: bool) -> None:
    assert survives(entity_type, value, output) is expected


def _sample(category: str, text: str, *entities: tuple[str, str]) -> Sample:
    return Sample(f"{category}-x", category, text, tuple(Entity(t, v) for t, v in entities), "hand-made")


@pytest.fixture
def samples() -> list[Sample]:
    return [
        _sample(PII, "I am Ann Lee, card 4111 1111 1111 1111", ("PERSON", "Ann Lee"),
                ("CREDIT_CARD", "4111 1111 1111 1111")),
        _sample(PII, "mail ann@example.com or call (415) 555-0134", ("EMAIL_ADDRESS", "ann@example.com"),
                ("PHONE_NUMBER", "(415) 555-0134")),
        _sample(SECRET, "export GITLAB_TOKEN=glpat-AbCdEfGhIjKlMnOpQrSt",
                ("GITLAB_TOKEN", "glpat-AbCdEfGhIjKlMnOpQrSt")),
        _sample(CLEAN, "git revert 3f2a9c1"),
        _sample(CLEAN, "what is 2 + 2?"),
        _sample(CLEAN, "request 0b7e6c7e-4c1f-4b43-9f37-2f1c2a9d5e10 failed"),
    ]


@pytest.fixture
def outputs() -> list[str]:
    return [
        "I am <PERSON>, card 4111111111111111",      # name redacted, card survives without separators
        "mail <EMAIL_ADDRESS> or call 415 555 0134",   # phone survives with other separators
        "export GITLAB_TOKEN=<GITLAB_TOKEN>",
        "git revert 3f2a9c1",
        "what is 2 + 2?",
        "request <UUID> failed",                        # clean prompt altered
    ]


def test_survival_by_type_counts_normalised_forms(samples: list[Sample], outputs: list[str]) -> None:
    assert survival_by_type(samples, outputs) == {
        "CREDIT_CARD": Survival(1, 1), "EMAIL_ADDRESS": Survival(1, 0), "GITLAB_TOKEN": Survival(1, 0),
        "PERSON": Survival(1, 0), "PHONE_NUMBER": Survival(1, 1),
    }


def test_clean_altered_counts_any_change_to_a_clean_prompt(samples: list[Sample], outputs: list[str]) -> None:
    altered = clean_altered(samples, outputs)
    assert altered == Survival(3, 1) and altered.share == pytest.approx(1 / 3)


def test_clean_altered_with_no_clean_prompt_is_zero() -> None:
    assert clean_altered([_sample(PII, "Ann Lee", ("PERSON", "Ann Lee"))], ["<PERSON>"]).share == 0.0


def test_misaligned_outputs_are_rejected(samples: list[Sample], outputs: list[str]) -> None:
    with pytest.raises(ValueError, match="outputs"):
        survival_by_type(samples, outputs[:-1])


@pytest.mark.parametrize(("values", "q", "expected"), [
    ([5.0], 50, 5.0),
    ([1.0, 2.0, 3.0, 4.0], 50, 2.5),
    ([3.0, 1.0, 2.0], 0, 1.0),
    ([3.0, 1.0, 2.0], 100, 3.0),
    (list(map(float, range(1, 101))), 99, 99.01),
])
def test_percentile_interpolates_between_ranks(values: list[float], q: float, expected: float) -> None:
    assert percentile(values, q) == pytest.approx(expected)


def test_percentile_of_nothing_is_nan_and_out_of_range_is_rejected() -> None:
    assert math.isnan(percentile([], 50))
    with pytest.raises(ValueError):
        percentile([1.0], 101)


def test_score_gathers_latency_survival_and_throughput(samples: list[Sample], outputs: list[str]) -> None:
    durations = [0.001, 0.002, 0.003, 0.004, 0.005, 0.100]
    report = score("ztgate (gRPC)", samples, outputs, durations, throughput_rps=123.4, clients=16)
    assert report.p50_ms == pytest.approx(3.5)
    assert report.p99_ms == pytest.approx(95.25)
    assert report.overall == Survival(5, 2)
    assert report.pii == Survival(4, 2) and report.secrets == Survival(1, 0)
    assert report.clean == Survival(3, 1)
    with pytest.raises(ValueError, match="durations"):
        score("x", samples, outputs, durations[:-1])


def test_render_comparison_puts_systems_side_by_side(samples: list[Sample], outputs: list[str]) -> None:
    ours = score("ztgate (gRPC)", samples, outputs, [0.001] * 6, throughput_rps=900.0, clients=16)
    theirs = score("Presidio default", samples, [s.text for s in samples], [0.009] * 6)
    table = render_comparison([ours, theirs])
    lines = table.splitlines()
    assert lines[0] == "| metric | ztgate (gRPC) | Presidio default |"
    assert lines[1] == "|---|---:|---:|"
    rows = {line.split(" | ")[0].lstrip("| "): line for line in lines[2:]}
    assert rows["latency p50 (ms)"] == "| latency p50 (ms) | 1.0 | 9.0 |"
    assert rows["throughput (req/s)"] == "| throughput (req/s) | 900.0 (16 clients) | n/a |"
    assert rows["clean prompts altered"] == "| clean prompts altered | 33.3% (1/3) | 0.0% (0/3) |"
    assert rows["values surviving, all"] == "| values surviving, all | 40.0% (2/5) | 100.0% (5/5) |"
    assert "surviving: GITLAB_TOKEN" in rows


def test_render_comparison_needs_a_report() -> None:
    with pytest.raises(ValueError):
        render_comparison([])

