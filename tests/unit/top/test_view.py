"""`ztgate top`'s screen from snapshots: quantiles as Prometheus computes them, first tokens
judged against the line, the served split without the SLO probes, rates between readings."""

from __future__ import annotations

import pytest

from ztgate.cli.top.samples import (
    Snapshot,
    histogram_delta,
    parse_exposition,
    quantile,
    rate,
)
from ztgate.cli.top.view import Layout, render

LAYOUT = Layout(collector="127.0.0.1:9464", envoy_admin="127.0.0.1:9901",
                runtime_key="ztgate.inference.primary_percent", line_ms=1200.0)
TTFT = "gen_ai_server_time_to_first_token_seconds"


def _exposition(primary: list[int], fallback: list[int], calls: dict[str, int],
                findings: int = 0, fallback_active: int = 0) -> str:
    """TTFT buckets (le 0.5, 1.2, 2, +Inf, cumulative) per instance, calls, findings, SLO."""
    lines = [f"# TYPE {TTFT} histogram"]
    for instance, counts in (("primary", primary), ("fallback", fallback)):
        for le, count in zip(("0.5", "1.2", "2.0", "+Inf"), counts):
            lines.append(f'{TTFT}_bucket{{ztgate_instance="{instance}",le="{le}"}} {count}')
        lines.append(f'{TTFT}_count{{ztgate_instance="{instance}"}} {counts[-1]}')
        lines.append(f'{TTFT}_sum{{ztgate_instance="{instance}"}} 1')
    lines.append("# TYPE gen_ai_server_request_duration_seconds histogram")
    for key, count in calls.items():
        instance, tenant = key.split("/")
        labels = f'ztgate_instance="{instance}",ztgate_tenant="{tenant}"'
        lines.append(f'gen_ai_server_request_duration_seconds_bucket{{{labels},le="+Inf"}} {count}')
        lines.append(f"gen_ai_server_request_duration_seconds_count{{{labels}}} {count}")
        lines.append(f"gen_ai_server_request_duration_seconds_sum{{{labels}}} 1")
    lines += ["# TYPE ztgate_redaction_findings counter",
              f'ztgate_redaction_findings_total{{ztgate_entity_type="EMAIL_ADDRESS"}} {findings}',
              "# TYPE ztgate_slo_fallback_active gauge", f"ztgate_slo_fallback_active {fallback_active}",
              "# TYPE rpc_server_duration_seconds histogram",
              'rpc_server_duration_seconds_bucket{rpc_grpc_status_code="14",le="+Inf"} 3',
              'rpc_server_duration_seconds_count{rpc_grpc_status_code="14"} 3',
              'rpc_server_duration_seconds_sum{rpc_grpc_status_code="14"} 1',
              'rpc_server_duration_seconds_bucket{rpc_grpc_status_code="0",le="+Inf"} 90',
              'rpc_server_duration_seconds_count{rpc_grpc_status_code="0"} 90',
              'rpc_server_duration_seconds_sum{rpc_grpc_status_code="0"} 1']
    return "\n".join(lines) + "\n"


def _snap(at: float, text: str, envoy: dict[str, float] | None = None, percent: str = "100") -> Snapshot:
    return Snapshot(at=at, samples=parse_exposition(text), envoy=envoy or {},
                    runtime={LAYOUT.runtime_key: percent},
                    health=[("telemetry", True), ("inference-primary", False)])


@pytest.mark.parametrize("q, buckets, expected", [
    (0.5, {0.5: 10, 1.2: 10, float("inf"): 10}, 0.25),     # all in the first bucket
    (0.99, {0.5: 0, 1.2: 0, 2.0: 10, float("inf"): 10}, 1.992),
    (0.99, {0.5: 5, float("inf"): 10}, 0.5),                # in +Inf: the last finite bound
    (0.5, {0.5: 0, float("inf"): 0}, None),                 # nothing observed
])
def test_quantile_interpolates_as_prometheus_does(q, buckets, expected) -> None:
    got = quantile(q, buckets)
    assert got == expected if expected is None else got == pytest.approx(expected)


def test_rates_count_a_reset_counter_from_zero() -> None:
    assert rate({"a": 30.0, "b": 2.0}, {"a": 10.0, "b": 50.0}, 10.0) == {"a": 2.0, "b": 0.2}
    assert rate({"a": 1.0}, None, 10.0) == {}


def test_the_window_judges_first_tokens_since_its_start_only() -> None:
    then = _snap(0, _exposition([100, 100, 100, 100], [0, 0, 0, 0], {}))
    now = _snap(60, _exposition([100, 100, 110, 110], [0, 0, 0, 0], {}))
    window = histogram_delta(now, then, TTFT, "ztgate_instance")
    assert quantile(0.5, window["primary"]) == pytest.approx(1.6)  # the 10 slow ones only
    assert quantile(0.5, histogram_delta(now, None, TTFT, "ztgate_instance")["primary"]) < 0.5


def test_the_screen_shows_each_section_with_real_figures() -> None:
    then = _snap(0, _exposition([0, 0, 0, 0], [0, 0, 0, 0], {"primary/default": 0, "fallback/default": 0,
                                                            "primary/ztgate-slo-probe": 0}),
                 envoy={"cluster.inference_primary.upstream_rq_total": 0,
                        "cluster.redaction_sessions.upstream_rq_total": 0})
    now = _snap(10, _exposition([20, 20, 20, 20], [0, 0, 5, 5], {"primary/default": 15, "fallback/default": 5,
                                                                "primary/ztgate-slo-probe": 60},
                                findings=40, fallback_active=1),
                envoy={"cluster.inference_primary.upstream_rq_total": 25,
                       "cluster.redaction_sessions.upstream_rq_total": 5,
                       "http.ingress.downstream_rq_5xx": 2}, percent="0")
    screen = "\n".join(render(now, then, then, LAYOUT, width=200))
    assert "telemetry SERVING" in screen and "inference-primary DOWN" in screen
    assert "inference gRPC 2.5 (25)" in screen and "redaction gRPC 0.5 (5)" in screen
    assert "ztgate.inference.primary_percent=0" in screen
    assert "fallback 25%" in screen and "primary 75%" in screen  # the 60 probe calls left out
    assert "FALLBACK (tripped)" in screen
    [primary] = [line for line in screen.splitlines() if line.strip().startswith("primary ")]
    [fallback] = [line for line in screen.splitlines() if line.strip().startswith("fallback ")]
    assert primary.split()[1:] == ["250", "ms", "495", "ms", "ok"]
    assert fallback.split()[-1] == "OVER" and "1,992 ms" in fallback
    assert "EMAIL_ADDRESS 40 (4.0/s)" in screen
    assert "UNAVAILABLE 3" in screen and "OK" not in screen.split("ERRORS")[1]
    assert "5xx 2" in screen


def test_an_unread_source_is_said_not_shown_as_zero() -> None:
    snap = Snapshot(at=0, errors=["collector http://127.0.0.1:9464/metrics: URLError"])
    screen = "\n".join(render(snap, None, None, LAYOUT))
    assert "unknown (collector unread)" in screen and "UNREAD  collector" in screen
    assert "inference gRPC - (0)" in screen
