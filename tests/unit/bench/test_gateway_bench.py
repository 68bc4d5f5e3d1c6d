"""The gateway benchmark's arithmetic and report (the measuring itself runs in tests/e2e)."""

from __future__ import annotations

from ztgate_bench.gateway_bench import GatewayBench, Series, render_report


def _bench(direct: list[float], gateway: list[float], redaction: list[float],
           errors: dict[str, int] | None = None) -> GatewayBench:
    return GatewayBench(Series("direct", direct), Series("gateway", gateway),
                        Series("redaction", redaction), errors=errors or {})


def test_added_latency_is_gateway_minus_direct_per_quantile() -> None:
    result = _bench([1.0] * 99 + [3.0], [10.0] * 99 + [20.0], [8.0] * 99 + [16.0])
    assert result.added_p50_ms == 9.0
    assert round(result.added_p99_ms, 6) == round(result.gateway.p99_ms - result.direct.p99_ms, 6)
    assert result.budget_p99_ms == result.redaction.p99_ms + 2.0


def test_target_is_added_p99_within_redaction_p99_plus_two_ms() -> None:
    assert _bench([1.0], [11.0], [8.0]).target_met          # added 10 <= 8 + 2
    assert not _bench([1.0], [11.5], [8.0]).target_met      # added 10.5 > 10
    assert not _bench([1.0], [2.0], [8.0], {"gateway": 1}).target_met  # errors never pass


def test_report_shows_every_series_the_added_row_and_the_verdict() -> None:
    text = render_report(_bench([1.0, 2.0], [10.0, 12.0], [8.0, 9.0]), "ztgate bench gateway --calls 2")
    for name in ("| direct |", "| gateway |", "| redaction |", "added by the gateway"):
        assert name in text
    assert "--calls 2" in text and ("met" in text.split("Target:")[1])


def test_report_lists_what_failed_calls_failed_with() -> None:
    result = GatewayBench(Series("direct", [1.0]), Series("gateway", [10.0]), Series("redaction", [8.0]),
                          errors={"gateway": 2}, error_kinds=("gateway: UNAVAILABLE: upstream reset",))
    text = render_report(result)
    assert "NOT met" in text
    assert "- gateway: UNAVAILABLE: upstream reset" in text.split("Failed calls:")[1]
    assert "Failed calls" not in render_report(_bench([1.0], [10.0], [8.0]))
