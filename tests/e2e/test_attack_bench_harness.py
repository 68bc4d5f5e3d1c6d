"""`ztgate bench attack`'s own harness, as the command runs it, on tiny settings: it starts the redaction
service, the recording echo upstream and Envoy with tokens on and mTLS behind Envoy, runs the baseline
and every attack kind, and stops them. What it proves is the harness: every phase and kind measured,
figures and report in shape, and the upstream's counts read back (no canary among them)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ztgate_bench.attack_bench import ATTACKER, NORMAL, render_report, run
from ztgate_bench.attack_load import DEFAULT_KINDS
from ztgate.common.config import load_settings
from ztgate.config import ZtgateConfig
from tests.procs import plaintext_mesh_clusters

pytestmark = pytest.mark.slow


def test_bench_runs_every_attack_kind_and_no_canary_reaches_the_upstream(tmp_path: Path) -> None:
    config = load_settings(ZtgateConfig, None, environ={"ZTGATE_REDACTION__WORKERS": "1"})
    result = run(config, calls=4, duration_s=4.0, logs=tmp_path, call_timeout_s=5.0, recovery_limit_s=10.0)

    # Both phases of the normal tenant; alone, the parts answer every call.
    assert sorted(c.method for c in result.baseline) == ["Generate", "Generate", "Redact", "Redact"]
    assert all(c.code == "OK" for c in result.baseline), result.baseline
    assert 1 <= len(result.under_attack) <= 4
    # Every kind ran and every call it made ended with a status (its deadline held).
    assert result.kinds == DEFAULT_KINDS  # every attack kind, not the control (`none`)
    for kind, figures in result.attacks.items():
        assert figures.calls >= 1 and sum(figures.statuses.values()) == figures.calls, (kind, figures.statuses)
    # The upstream's counts came back: no canary, and only the two verified tenants (the attacker's
    # body naming the normal tenant changed nothing).
    assert result.upstream is not None and result.canaries_at_upstream == 0, result.upstream
    assert set(result.upstream["requests_by_tenant"]) <= {NORMAL, ATTACKER}
    assert result.upstream["requests_by_tenant"][NORMAL] >= 4
    assert sum(result.sessions.values()) == sum(c.code == "OK" for c in result.baseline + result.under_attack
                                                if c.method == "Redact")
    text = render_report(result)
    assert all(f"| {kind} |" in text for kind in DEFAULT_KINDS) and "Targets:" in text
    assert "at CPU niceness 19" in text  # the attacker's client at the lowest priority
    vault = config.redaction.vault
    assert (f"The attacker's flood left {result.flood_sessions} sessions; the vault keeps "
            f"{vault.max_sessions_per_tenant} per tenant") in text
    json.dumps(result.to_json(), allow_nan=False, default=str)
    # Tokens and mTLS as `ztgate up` runs them: a key made and certificates issued for this run.
    assert (tmp_path / "keys" / "jwks.json").is_file() and (tmp_path / "pki" / "envoy.pem").is_file()
    assert plaintext_mesh_clusters(tmp_path / "envoy.yaml") == []
