"""The redaction alert rules shipped in deploy/prometheus/rules.yaml: promtool accepts them, they
fire on the series that should fire them and stay quiet on the others (`promtool test rules`),
and they, like the table in docs/operations/observability.md, name the metrics as the collector exports them."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import yaml

from ztgate.common import semconv as sc
from ztgate.telemetry.naming import label_name, metric_name

from telemetry_harness import require_tool

ROOT = Path(__file__).resolve().parents[3]
OPERATIONS = ROOT / "docs" / "operations" / "observability.md"
RULES = ROOT / "deploy" / "prometheus" / "rules.yaml"
REDACTION_METRICS = (sc.REDACTION_FINDINGS, sc.BLOCKED_REQUESTS, sc.REDACTION_REFUSALS,
                     sc.REDACTION_DURATION)


def _exported(name: str) -> tuple[str, tuple[str, ...]]:
    """The Prometheus name (with `_total` for a counter) and label names of a catalogue metric."""
    spec = next(s for s in sc.CATALOGUE if s.name == name)
    base, _ = metric_name(spec.name, spec.unit, spec.instrument)
    return (base + "_total" if spec.instrument == "counter" else base,
            tuple(label_name(a) for a in spec.attributes))


def _rules_block() -> str:
    """The file with the redaction group only."""
    groups = yaml.safe_load(RULES.read_text())["groups"]
    return yaml.safe_dump({"groups": [g for g in groups if g["name"] == "ztgate-redaction"]},
                          sort_keys=False)


def test_the_docs_name_each_redaction_metric_and_its_labels_as_exported() -> None:
    text = OPERATIONS.read_text()
    for name in REDACTION_METRICS:
        exported, labels = _exported(name)
        [row] = [line for line in text.splitlines() if line.startswith(f"| `{exported}` (`{name}`)")]
        assert re.findall(r"`(ztgate_[a-z_]+)`", row.split("|")[3]) == list(labels), row


def test_the_rules_use_only_exported_names() -> None:
    names = {_exported(n)[0] for n in REDACTION_METRICS}
    labels = {label for n in REDACTION_METRICS for label in _exported(n)[1]}
    rules = yaml.safe_load(_rules_block())["groups"][0]["rules"]
    for rule in rules:
        used = set(re.findall(r"\b(ztgate_[a-z_]+)\b", rule["expr"]))
        metrics = {u.removesuffix("_bucket") for u in used} - labels
        assert metrics and metrics <= names, (rule["alert"], metrics)


SERIES = "{{job=\"ztgate-redaction\",ztgate_redaction_path=\"{path}\",ztgate_tenant=\"{tenant}\"{more}}}"


def _series(name: str, path: str, tenant: str, values: str, **more: str) -> dict[str, str]:
    extra = "".join(f',{k}="{v}"' for k, v in more.items())
    return {"series": name + SERIES.format(path=path, tenant=tenant, more=extra), "values": values}


def test_promtool_accepts_the_rules_and_they_fire_when_they_should(tmp_path: Path) -> None:
    promtool = require_tool("promtool")
    (tmp_path / "rules.yaml").write_text(_rules_block())
    check = subprocess.run([promtool, "check", "rules", str(tmp_path / "rules.yaml")],
                           capture_output=True, text=True, timeout=30)
    assert check.returncode == 0, check.stdout + check.stderr
    findings = "ztgate_redaction_findings_total"
    refusals = "ztgate_redaction_refusals_total"
    buckets = "ztgate_redaction_duration_seconds_bucket"
    series = [
        # A secret scrubbed out of acme's answers at minute 2; prompts full of findings (no alert).
        _series(findings, "gateway_answer", "acme", "0 0 1 1 1 1", ztgate_entity_type="AWS_ACCESS_KEY_ID",
                ztgate_action="redact", ztgate_redaction_tier="pattern"),
        _series(findings, "gateway_request", "acme", "0+50x30", ztgate_entity_type="EMAIL_ADDRESS",
                ztgate_action="hash", ztgate_redaction_tier="pattern"),
        # Failures on the service's side, 0.5/s; callers' bad input at 10/s (no alert).
        _series(refusals, "gateway_request", "default", "0+30x30", ztgate_grpc_status="INTERNAL"),
        _series(refusals, "gateway_request", "default", "0+600x30", ztgate_grpc_status="INVALID_ARGUMENT"),
        # Every prompt scrub between 1 s and 2.5 s (P99 about 2.5 s); Redact calls fast (no alert alone).
        _series(buckets, "gateway_request", "default", "0x30", le="1"),
        _series(buckets, "gateway_request", "default", "0+10x30", le="2.5"),
        _series(buckets, "gateway_request", "default", "0+10x30", le="+Inf"),
        _series(buckets, "redact", "default", "0+10x30", le="0.001"),
        _series(buckets, "redact", "default", "0+10x30", le="+Inf"),
    ]
    secret = {"exp_labels": {"severity": "warning", "ztgate_tenant": "acme",
                             "ztgate_entity_type": "AWS_ACCESS_KEY_ID"},
              "exp_annotations": {"summary": "AWS_ACCESS_KEY_ID scrubbed out of answers for tenant acme"}}
    failing = {"exp_labels": {"severity": "critical", "ztgate_redaction_path": "gateway_request"},
               "exp_annotations": {"summary": "redaction refusing 500m/s on gateway_request"}}
    tests = {"rule_files": ["rules.yaml"], "evaluation_interval": "1m", "tests": [{
        "interval": "1m", "input_series": series,
        "alert_rule_test": [
            {"eval_time": "1m", "alertname": "ZtgateSecretInModelAnswer", "exp_alerts": []},
            {"eval_time": "4m", "alertname": "ZtgateSecretInModelAnswer", "exp_alerts": [secret]},
            {"eval_time": "3m", "alertname": "ZtgateRedactionFailingClosed", "exp_alerts": []},
            {"eval_time": "12m", "alertname": "ZtgateRedactionFailingClosed", "exp_alerts": [failing]},
            {"eval_time": "8m", "alertname": "ZtgateRedactionSlow", "exp_alerts": []},
            {"eval_time": "20m", "alertname": "ZtgateRedactionSlow", "exp_alerts": [{
                "exp_labels": {"severity": "warning"},
                "exp_annotations": {"summary": "gateway prompt scrub P99 is 2.485s"}}]},
        ]}]}
    (tmp_path / "tests.yaml").write_text(yaml.safe_dump(tests, sort_keys=False))
    result = subprocess.run([promtool, "test", "rules", str(tmp_path / "tests.yaml")],
                            capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
