"""The suite's own alerts in deploy/prometheus/rules.yaml (group ztgate-fallback): each fires on
synthetic series that should fire it, with the labels and summary an operator reads, and stays
quiet before and beside them (`promtool test rules`); every shipped alert has such a test; the
rules, and the Grafana dashboard's queries (deploy/grafana), name only metrics the collector
exports and parse as PromQL."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import yaml
from telemetry_harness import require_tool

from ztgate.common import semconv as sc
from ztgate.telemetry.naming import metric_name

ROOT = Path(__file__).resolve().parents[3]
RULES = ROOT / "deploy" / "prometheus" / "rules.yaml"
COLLECTOR = ROOT / "ztgate" / "telemetry" / "collector.py"


def _alerts(group: str | None = None) -> list[dict]:
    return [rule for g in yaml.safe_load(RULES.read_text())["groups"]
            if group is None or g["name"] == group for rule in g["rules"]]


def _series(name: str, values: str, **labels: str) -> dict[str, str]:
    text = ",".join(f'{k}="{v}"' for k, v in labels.items())
    return {"series": f"{name}{{{text}}}", "values": values}


def _alert(severity: str, summary: str, **labels: str) -> dict:
    return {"exp_labels": {"severity": severity, **labels}, "exp_annotations": {"summary": summary}}


COLLECTOR_JOB = {"job": "ztgate-telemetry"}
EXCESS = "ztgate_inference_first_token_excess_seconds_bucket"
CALLS = "gen_ai_server_request_duration_seconds_count"
STARTS = "ztgate_telemetry_part_starts_total"
REFUSALS = "ztgate_redaction_refusals_total"

# Minutes 0-4 on the primary, then on the fallback from minute 5 (its age counted from there).
SLO_SERIES = [
    _series("ztgate_slo_fallback_active", "0x4 1x45", **COLLECTOR_JOB),
    _series("ztgate_slo_state_age_seconds", "0+60x4 0+60x45", **COLLECTOR_JOB),
]
# The fallback's first tokens all between 1.2 s and 2 s; the primary's under 0.5 s.
FIRST_TOKEN_SERIES = [
    _series(EXCESS, "0x20", ztgate_instance="fallback", le="1.2"),
    _series(EXCESS, "0+10x20", ztgate_instance="fallback", le="2"),
    _series(EXCESS, "0+10x20", ztgate_instance="fallback", le="+Inf"),
    _series(EXCESS, "0+10x20", ztgate_instance="primary", le="0.5"),
    _series(EXCESS, "0+10x20", ztgate_instance="primary", le="1.2"),
    _series(EXCESS, "0+10x20", ztgate_instance="primary", le="+Inf"),
]
# Clients' calls: 3 on the fallback for 1 on the primary; the probes' many calls do not count.
SHARE_SERIES = [
    _series(CALLS, "0+30x30", ztgate_instance="fallback", ztgate_tenant="default"),
    _series(CALLS, "0+10x30", ztgate_instance="primary", ztgate_tenant="default"),
    _series(CALLS, "0+60x30", ztgate_instance="primary", ztgate_tenant="ztgate-slo-probe"),
]
# The primary restarts once at minute 11, then twice more at minutes 21 and 22; redaction never.
RESTART_SERIES = [
    _series(STARTS, "1x10 2x9 3 4x20", job="ztgate-inference-primary"),
    _series(STARTS, "1x40", job="ztgate-redaction"),
]
# acme's calls refused by a `block` rule at 2/s; beta's bad input at 0.5/s.
REFUSAL_SERIES = [
    _series(REFUSALS, "0+120x30", job="ztgate-redaction", ztgate_tenant="acme",
            ztgate_grpc_status="PERMISSION_DENIED", ztgate_redaction_path="gateway_request"),
    _series(REFUSALS, "0+30x30", job="ztgate-redaction", ztgate_tenant="beta",
            ztgate_grpc_status="INVALID_ARGUMENT", ztgate_redaction_path="gateway_request"),
]
# Every 10 minutes, 60 scores each: the primary's mean stays 0.2; the fallback's rises from 0.2
# to 0.5 after 170 steps (28 h 20 min).
SCORE_SERIES = [
    _series("ztgate_hallucination_score_count", "0+60x200", ztgate_instance="primary"),
    _series("ztgate_hallucination_score_sum", "0+12x200", ztgate_instance="primary"),
    _series("ztgate_hallucination_score_count", "0+60x200", ztgate_instance="fallback"),
    _series("ztgate_hallucination_score_sum", "0+12x170 2070+30x29", ztgate_instance="fallback"),
]

MINUTE_TESTS = [
    ("ZtgateSloTripped", "4m", []),
    ("ZtgateSloTripped", "7m", [_alert("warning", "inference traffic on the fallback for 2m 0s "
                                      "(primary first token past its budget)", **COLLECTOR_JOB)]),
    ("ZtgateSloTrippedLong", "34m", []),
    ("ZtgateSloTrippedLong", "40m", [_alert("critical", "inference traffic on the fallback for "
                                           "35m 0s: the primary has not recovered", **COLLECTOR_JOB)]),
    ("ZtgateFirstTokenOverBudget", "3m", []),
    ("ZtgateFirstTokenOverBudget", "10m", [_alert(
        "warning", "fallback first-token P99 1.992s, budget 1.2s", ztgate_instance="fallback")]),
    ("ZtgateFallbackCarriesMostTraffic", "5m", []),
    ("ZtgateFallbackCarriesMostTraffic", "15m", [_alert(
        "warning", "the fallback served 75% of inference calls")]),
    ("ZtgatePartRestarted", "9m", []),
    ("ZtgatePartRestarted", "12m", [_alert(
        "warning", "ztgate-inference-primary started a new process in the last 15 minutes",
        job="ztgate-inference-primary")]),
    ("ZtgatePartCrashLooping", "12m", []),
    ("ZtgatePartCrashLooping", "23m", [_alert(
        "critical", "ztgate-inference-primary started 3 processes in 15 minutes",
        job="ztgate-inference-primary")]),
    ("ZtgateRedactionRefusingCallers", "5m", []),
    ("ZtgateRedactionRefusingCallers", "15m", [_alert(
        "info", "tenant acme: 2/s of scrubs refused with PERMISSION_DENIED",
        ztgate_tenant="acme", ztgate_grpc_status="PERMISSION_DENIED")]),
]
TEN_MINUTE_TESTS = [
    ("ZtgateHallucinationRising", "1600m", []),
    ("ZtgateHallucinationRising", "1900m", [_alert(
        "warning", "fallback mean hallucination score 0.50, over 1.25x its daily mean",
        ztgate_instance="fallback")]),
]


def _redaction_alerts_tested() -> set[str]:
    text = (Path(__file__).with_name("test_redaction_alert_rules.py")).read_text()
    return set(re.findall(r'"alertname": "(\w+)"', text))


def test_every_shipped_alert_has_a_promtool_test() -> None:
    tested = {name for name, _, _ in MINUTE_TESTS + TEN_MINUTE_TESTS} | _redaction_alerts_tested()
    assert {rule["alert"] for rule in _alerts()} == tested
    # Each fires in one case and stays quiet in another.
    for name in {n for n, _, _ in MINUTE_TESTS + TEN_MINUTE_TESTS}:
        cases = [bool(expected) for n, _, expected in MINUTE_TESTS + TEN_MINUTE_TESTS if n == name]
        assert True in cases and False in cases, name


def _exported() -> set[str]:
    exported = set()
    for spec in sc.CATALOGUE:
        base, _ = metric_name(spec.name, spec.unit, spec.instrument)
        exported |= ({base + "_total"} if spec.instrument == "counter" else
                     {base + s for s in ("_bucket", "_sum", "_count")})
    own = set(re.findall(r'MetricBuilder\("(ztgate_[a-z0-9_]+)", "(counter|gauge)"', COLLECTOR.read_text()))
    exported |= {name + "_total" if kind == "counter" else name for name, kind in own}
    return exported


def _names(expr: str) -> set[str]:
    used = set(re.findall(r"\b((?:ztgate|gen_ai|rpc)_[a-z0-9_]+)(?=[{\[ )]|$)", expr))
    return used - {"ztgate_instance", "ztgate_tenant", "ztgate_grpc_status", "ztgate_entity_type",
                   "rpc_grpc_status_code", "rpc_service"}  # labels


def test_the_rules_name_only_exported_metrics() -> None:
    exported = _exported()
    for rule in _alerts("ztgate-fallback"):
        used = _names(rule["expr"])
        assert used and used <= exported, (rule["alert"], used - exported)


def test_the_dashboards_queries_parse_and_name_only_exported_metrics(tmp_path: Path) -> None:
    import json

    dashboard = json.loads((ROOT / "deploy" / "grafana" / "dashboards" / "ztgate.json").read_text())
    exprs = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    exported = _exported()
    for expr in exprs:
        used = _names(expr)
        assert used and used <= exported, (expr, used - exported)
    # promtool parses each as a recording rule's expression.
    rules = {"groups": [{"name": "dashboard", "rules": [
        {"record": f"ztgate:dashboard_{i}", "expr": e} for i, e in enumerate(exprs)]}]}
    (tmp_path / "dashboard.yaml").write_text(yaml.safe_dump(rules))
    check = subprocess.run([require_tool("promtool"), "check", "rules", str(tmp_path / "dashboard.yaml")],
                           capture_output=True, text=True, timeout=30, check=False)
    assert check.returncode == 0, check.stdout + check.stderr


def test_promtool_accepts_the_rules_and_each_alert_fires_when_it_should(tmp_path: Path) -> None:
    promtool = require_tool("promtool")
    check = subprocess.run([promtool, "check", "rules", str(RULES)], capture_output=True,
                           text=True, timeout=30, check=False)
    assert check.returncode == 0, check.stdout + check.stderr

    def cases(table: list) -> list[dict]:
        return [{"eval_time": at, "alertname": name, "exp_alerts": expected}
                for name, at, expected in table]

    tests = {"rule_files": [str(RULES)], "evaluation_interval": "1m", "tests": [
        {"interval": "1m", "input_series": SLO_SERIES + FIRST_TOKEN_SERIES + SHARE_SERIES
         + RESTART_SERIES + REFUSAL_SERIES, "alert_rule_test": cases(MINUTE_TESTS)},
        {"interval": "10m", "input_series": SCORE_SERIES, "alert_rule_test": cases(TEN_MINUTE_TESTS)},
    ]}
    (tmp_path / "tests.yaml").write_text(yaml.safe_dump(tests, sort_keys=False))
    result = subprocess.run([promtool, "test", "rules", str(tmp_path / "tests.yaml")],
                            capture_output=True, text=True, timeout=120, cwd=tmp_path, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
