"""The GitHub workflows, buf.yaml and .ci/run, checked statically: no schema of GitHub's workflow syntax
is installed here, so a JSON Schema of the parts this project relies on (jsonschema is installed)
plus what each workflow must run."""

from __future__ import annotations

import re
from pathlib import Path

import jsonschema
import yaml

ROOT = Path(__file__).resolve().parents[3]
WORKFLOWS = ROOT / ".github" / "workflows"

STEP = {"type": "object", "properties": {
    "name": {"type": "string"}, "uses": {"type": "string", "pattern": r"^[\w.-]+/[\w./-]+@[\w.-]+$"},
    "run": {"type": "string", "minLength": 1}, "with": {"type": "object"}, "if": {"type": "string"},
    "env": {"type": "object"}},
    "additionalProperties": False,
    "oneOf": [{"required": ["uses"], "not": {"required": ["run"]}}, {"required": ["run"], "not": {"required": ["uses"]}}]}
WORKFLOW = {
    "type": "object", "required": ["name", "on", "jobs", "permissions"], "additionalProperties": False,
    "properties": {
        "name": {"type": "string"},
        "on": {"type": "object", "minProperties": 1, "propertyNames": {
            "enum": ["pull_request", "push", "schedule", "workflow_dispatch"]},
            "properties": {"schedule": {"type": "array", "minItems": 1, "items": {
                "type": "object", "required": ["cron"], "additionalProperties": False,
                "properties": {"cron": {"type": "string"}}}}}},
        "permissions": {"type": "object"},
        "concurrency": {"type": "object", "required": ["group"]},
        "jobs": {"type": "object", "minProperties": 1, "additionalProperties": {
            "type": "object", "required": ["runs-on", "steps", "timeout-minutes"], "additionalProperties": False,
            "properties": {"runs-on": {"type": "string"}, "timeout-minutes": {"type": "integer", "minimum": 1},
                           "needs": {}, "if": {"type": "string"},
                           "steps": {"type": "array", "minItems": 1, "items": STEP}}}},
    },
}
CRON_FIELD = r"(\*|\d+(-\d+)?(,\d+(-\d+)?)*)(/\d+)?"


def load(name: str) -> dict:
    # YAML 1.1 reads a bare `on` key as True; GitHub reads it as "on".
    data = yaml.safe_load((WORKFLOWS / name).read_text())
    if True in data:
        data["on"] = data.pop(True)
    return data


def runs(workflow: dict) -> str:
    return "\n".join(step.get("run", "") for job in workflow["jobs"].values() for step in job["steps"])


def test_every_workflow_matches_the_schema() -> None:
    files = sorted(WORKFLOWS.glob("*.yml"))
    assert [f.name for f in files] == ["nightly.yml", "pull-request.yml"]
    for path in files:
        jsonschema.validate(load(path.name), WORKFLOW)


def test_the_pull_request_workflow_runs_tests_buf_and_the_quick_gate() -> None:
    workflow = load("pull-request.yml")
    assert "pull_request" in workflow["on"]
    text = runs(workflow)
    assert "bash .ci/run" in text and "buf lint" in text and "buf breaking --against" in text
    ci = (ROOT / ".ci" / "run").read_text()
    assert ci.index("make test") < ci.index("make eval")
    assert "--full" not in ci


def test_the_nightly_workflow_runs_the_full_gate_and_every_bench_and_uploads_reports() -> None:
    workflow = load("nightly.yml")
    (cron,) = [entry["cron"] for entry in workflow["on"]["schedule"]]
    assert all(re.fullmatch(CRON_FIELD, field) for field in cron.split()) and len(cron.split()) == 5
    text = runs(workflow)
    assert "EVAL_ARGS=--full" in text
    assert re.search(r"ztgate bench --out \S+", text)  # no part: every part, and the generated section
    uploads = [s for job in workflow["jobs"].values() for s in job["steps"]
               if s.get("uses", "").startswith("actions/upload-artifact@")]
    assert uploads and all(s.get("if") == "always()" for s in uploads)


def test_buf_yaml_points_at_the_protos() -> None:
    config = yaml.safe_load((ROOT / "buf.yaml").read_text())
    assert config["version"] == "v2"
    for module in config["modules"]:
        assert list((ROOT / module["path"]).rglob("*.proto"))
    assert "STANDARD" in config["lint"]["use"]
