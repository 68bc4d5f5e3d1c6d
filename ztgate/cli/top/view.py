"""The screen of `ztgate top`, as lines of text from snapshots: pure, so that tests read it and
the terminal loop only draws it."""

from __future__ import annotations

import time
from dataclasses import dataclass

from ztgate.common.semconv import PROBE_TENANT
from ztgate.cli.top.samples import Snapshot, histogram_delta, quantile, rate

TTFT = "gen_ai_server_time_to_first_token_seconds"
CALLS = "gen_ai_server_request_duration_seconds_count"
FINDINGS = "ztgate_redaction_findings_total"
RPC_CALLS = "rpc_server_duration_seconds_count"
# Doors, by the Envoy upstream clusters their routes use (ztgate/gateway/templates/envoy.yaml).
DOORS = (("inference gRPC", ("inference_primary", "inference_fallback")),
         ("redaction gRPC", ("redaction_sessions",)),
         ("OpenAI", ("openai_",)))
# gRPC status codes by number (the rpc.grpc.status_code label).
STATUS_NAMES = ("OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
                "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
                "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
                "UNAUTHENTICATED")


@dataclass(frozen=True)
class Layout:
    """What the screen names: where it reads, the runtime key, and the first-token line."""
    collector: str
    envoy_admin: str
    runtime_key: str
    line_ms: float


def _ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:,.0f} ms"


def _door_sum(counters: dict[str, float], prefixes: tuple[str, ...]) -> float:
    return sum(v for name, v in counters.items() if name.endswith(".upstream_rq_total")
               and any(name.removeprefix("cluster.").startswith(p) for p in prefixes))


def _doors(now: Snapshot, then: Snapshot | None) -> dict[str, tuple[float | None, float]]:
    """Per door: calls per second since `then` (None without it), and the total so far."""
    seconds = now.at - then.at if then else 0.0
    per_cluster = rate(now.envoy, then.envoy if then else None, seconds)
    return {door: (_door_sum(per_cluster, prefixes) if then else None,
                   _door_sum(now.envoy, prefixes)) for door, prefixes in DOORS}


def _status(code: str) -> str:
    return STATUS_NAMES[int(code)] if code.isdigit() and int(code) < len(STATUS_NAMES) else code


def render(now: Snapshot, rate_then: Snapshot | None, window_then: Snapshot | None,
           layout: Layout, width: int = 100) -> list[str]:
    """The screen: parts' health, calls per second per door, first token per instance against
    the line, traffic split and SLO state, redaction findings by type, errors by status.
    `rate_then` (a few seconds back) gives per-second rates, `window_then` (up to a minute back)
    the first-token quantiles and the served split."""
    lines = [(f"ztgate top   {time.strftime('%H:%M:%S')}   collector {layout.collector}   "
              f"envoy {layout.envoy_admin}   (Ctrl-C quits)")]
    lines.append("PARTS   " + "   ".join(f"{name} {'SERVING' if ok else 'DOWN'}"
                                        for name, ok in now.health))
    lines.append("DOORS   calls/s (total)  " + "   ".join(
        f"{door} {'-' if per_s is None else f'{per_s:.1f}'} ({total:,.0f})"
        for door, (per_s, total) in _doors(now, rate_then).items()))

    # Traffic split: what Envoy's runtime says, what the SLO controller decided, what was served.
    percent = now.runtime.get(layout.runtime_key, "100 (default)")
    active = now.total("ztgate_slo_fallback_active").get("")
    age = now.total("ztgate_slo_state_age_seconds").get("")
    p99 = now.total("ztgate_slo_ttft_p99_seconds").get("")
    state = ("unknown (collector unread)" if not now.samples else "off" if active is None
             else "FALLBACK (tripped)" if active else "primary")
    since = "" if age is None else f" for {age:,.0f} s"
    served = {k: v for k, v in (served_calls(now, window_then)).items() if v > 0}
    total = sum(served.values())
    split = "   ".join(f"{k} {100 * v / total:.0f}%" for k, v in sorted(served.items())) or "-"
    lines.append(f"SPLIT   runtime {layout.runtime_key}={percent}   served (last min): {split}")
    lines.append(f"SLO     {state}{since}   controller P99 {_ms(p99)} vs line "
                 f"{layout.line_ms:,.0f} ms")

    lines.append(f"FIRST TOKEN (last min)   {'instance':<10} {'P50':>10} {'P99':>10}   "
                 f"line {layout.line_ms:,.0f} ms")
    per_instance = histogram_delta(now, window_then, TTFT, "ztgate_instance")
    for instance in ("primary", "fallback"):
        buckets = per_instance.get(instance, {})
        p50, p99i = quantile(0.5, buckets), quantile(0.99, buckets)
        verdict = "-" if p99i is None else ("OVER" if p99i * 1000 > layout.line_ms else "ok")
        lines.append(f"{'':<25}{instance:<10} {_ms(p50):>10} {_ms(p99i):>10}   {verdict}")

    findings = now.total(FINDINGS, by="ztgate_entity_type")
    per_s = rate(findings, rate_then.total(FINDINGS, by="ztgate_entity_type") if rate_then else None,
                 now.at - rate_then.at if rate_then else 0.0)
    lines.append("REDACTION FINDINGS (total, /s)")
    row = "   ".join(f"{entity} {count:,.0f} ({per_s.get(entity, 0.0):.1f}/s)"
                     for entity, count in sorted(findings.items(), key=lambda kv: -kv[1]))
    lines.append("  " + (row or "none yet"))

    lines.append("ERRORS (total)")
    errors = {f"{_status(code)}": count for code, count in
              now.total(RPC_CALLS, by="rpc_grpc_status_code").items() if code not in ("0", "")}
    refusals = now.total("ztgate_redaction_refusals_total", by="ztgate_grpc_status")
    ingress = {name.rsplit("_", 1)[-1]: v for name, v in now.envoy.items()
               if name.startswith("http.ingress.downstream_rq_") and name[-3:] in ("4xx", "5xx")}
    lines.append("  services (gRPC status): " + ("   ".join(
        f"{k} {v:,.0f}" for k, v in sorted(errors.items())) or "none"))
    lines.append("  redaction refusals: " + ("   ".join(
        f"{k} {v:,.0f}" for k, v in sorted(refusals.items())) or "none"))
    lines.append("  envoy ingress: " + ("   ".join(
        f"{k} {v:,.0f}" for k, v in sorted(ingress.items())) or "-"))
    if now.errors:
        lines.append("UNREAD  " + "; ".join(now.errors))
    return [line[:width] for line in lines]


def served_calls(now: Snapshot, then: Snapshot | None) -> dict[str, float]:
    """Calls each instance served (the SLO probes aside) since `then` (all without it)."""
    current = now.total(CALLS, by="ztgate_instance", ztgate_tenant="!" + PROBE_TENANT)
    before = then.total(CALLS, by="ztgate_instance", ztgate_tenant="!" + PROBE_TENANT) if then else {}
    return {k: v - before.get(k, 0.0) for k, v in current.items() if k}
