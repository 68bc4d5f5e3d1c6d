"""`ztgate eval` for real: one suite started as the eval starts its own (`ztgate up` with the real
model, redaction and Envoy, certificates and tokens), then the eval's CLI against it with --target.

- An unchanged tree passes twice in a row with identical reports (everything but the measured
  latency and the time).
- A changed redaction rule (a tenant whose policy redacts e-mail addresses instead of pseudonymising
  them, loaded into the same suite) fails, naming exactly the cases whose answer changed.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from ztgate import cli
from ztgate_bench.eval import compare
from ztgate_bench.eval.schema import DEFAULT_DIR, Goldens
from ztgate_bench.eval.suite import own_suite
from ztgate.config import load_config
from ztgate.gateway.auth import mint, signing_key_for

pytestmark = pytest.mark.slow

CHANGED_TENANT = "golden-changed"
CHANGED_POLICY = f"""
name: golden-changed
description: the default policy but e-mail addresses redacted (a deliberately changed rule)
tenants: [{CHANGED_TENANT}]
default_action: pseudonymize
default_secret_action: redact
entities:
  EMAIL_ADDRESS: redact
"""


@pytest.fixture(scope="module")
def suite(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("golden-eval")
    changed = workdir / "changed-policy"
    changed.mkdir()
    (changed / "golden-changed.yaml").write_text(CHANGED_POLICY)
    goldens = Goldens()
    with own_suite(None, goldens.policies.resolve(), workdir / "suite", extra_policies=(changed,)) as target:
        yield target, workdir


def _eval(target, workdir: Path, name: str, token: str, monkeypatch, capsys,
          golden_dir: Path | None = None) -> tuple[int, dict, str]:
    env = dict(line.split("=", 1) for line in (workdir / "suite" / "eval-suite.env").read_text().splitlines())
    for key in ("ZTGATE_INFERENCE__PRIMARY__SERVER__LISTEN", "ZTGATE_INFERENCE__FALLBACK__SERVER__LISTEN",
                "ZTGATE_MESH__PKI_DIR"):
        monkeypatch.setenv(key, env[key])
    out = workdir / name
    code = cli.main(["eval", "--target", target.gateway, "--token", token, "--out", str(out),
                     *(["--golden-dir", str(golden_dir)] if golden_dir else [])])
    return code, json.loads((out / "eval-report.json").read_text()), capsys.readouterr().out


def test_an_unchanged_tree_passes_twice_with_identical_reports(suite, monkeypatch, capsys) -> None:
    target, workdir = suite
    first = _eval(target, workdir, "first", target.token, monkeypatch, capsys)
    second = _eval(target, workdir, "second", target.token, monkeypatch, capsys)
    assert first[0] == 0, first[2]
    assert second[0] == 0, second[2]
    assert compare.deterministic_part(first[1]) == compare.deterministic_part(second[1])
    assert first[1]["redaction"]["cases"] >= 300 and first[1]["answers"]["comparisons"] > 0


def test_a_changed_redaction_rule_fails_naming_the_drifted_cases(suite, monkeypatch, capsys) -> None:
    target, workdir = suite
    auth = load_config(None).gateway.auth
    jwks = workdir / "suite" / "tokens" / "jwks.json"
    token = mint(signing_key_for(jwks), tenant=CHANGED_TENANT, issuer=auth.issuer, audience=auth.audience,
                 tenant_claim=auth.tenant_claim, ttl_s=600, max_ttl_s=auth.max_token_lifetime_s,
                 scope_claim=auth.scope_claim)
    # The answers are the first test's subject: this run leaves them out (a copy of the goldens with
    # no answer case in the quick set) to keep the module short.
    golden_dir = workdir / "golden-redaction-only"
    shutil.copytree(DEFAULT_DIR, golden_dir)
    answers = yaml.safe_load((golden_dir / "answers.yaml").read_text())
    answers["cases"] = [{**case, "quick": False} for case in answers["cases"]]
    (golden_dir / "answers.yaml").write_text(yaml.safe_dump(answers))
    code, report, markdown = _eval(target, workdir, "changed", token, monkeypatch, capsys, golden_dir)
    assert code == 1
    goldens = Goldens()
    with_email = {cid for shape, expected in goldens.redaction_expected.items() if shape != "blocked"
                  for cid, answer in expected.cases.items() if any(f.type == "EMAIL_ADDRESS" for f in answer.findings)}
    drifted = {case["id"] for case in report["redaction"]["drifted"]}
    assert with_email and with_email <= drifted
    # Only the e-mail cases changed among the default policy's cases. (The blocked cases name their
    # policy; three of them, carrying the SSA's invalid SSNs, were seen refused for this tenant and
    # passed for the eval's own: reported in the lead's notes, left out of this assertion.)
    assert {cid for cid in drifted if not cid.startswith("blocked-")} == with_email
    assert report["answers"]["comparisons"] == 0
    assert all(f"`{cid}`" in markdown for cid in with_email)
