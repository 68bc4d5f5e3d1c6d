"""`ztgate bench gateway`'s own harness, as the command runs it: it starts the redaction service, the
echo upstream and Envoy with mTLS behind Envoy (as under `ztgate up`), measures, and stops them."""

from __future__ import annotations

from pathlib import Path

import pytest

from ztgate_bench.gateway_bench import render_report, run
from ztgate.common.config import load_settings
from ztgate.config import ZtgateConfig
from tests.procs import plaintext_mesh_clusters

pytestmark = pytest.mark.slow


def test_bench_runs_every_series_over_mtls_without_errors(tmp_path: Path) -> None:
    config = load_settings(ZtgateConfig, None, environ={"ZTGATE_REDACTION__WORKERS": "1"})
    assert config.mesh.mtls  # the default, what `ztgate up` runs
    result = run(config, calls=4, warmup=1, logs=tmp_path)
    assert not any(result.errors.values()), result.error_kinds
    for series in (result.direct, result.gateway, result.redaction):
        assert len(series.durations_ms) == 4
    # Every hop behind Envoy was mTLS: the certificates were issued for this run.
    assert (tmp_path / "pki" / "envoy.pem").is_file()
    assert plaintext_mesh_clusters(tmp_path / "envoy.yaml") == []
    assert "mTLS behind Envoy" in render_report(result, mtls=config.mesh.mtls)
    assert "serving" in (tmp_path / "redaction.log").read_text()  # the real redaction service


def test_bench_measures_the_ext_proc_floor_with_the_noop_processor(tmp_path: Path) -> None:
    config = load_settings(ZtgateConfig, None, environ={})
    result = run(config, calls=4, warmup=1, logs=tmp_path, processor="noop")
    assert not any(result.errors.values()), result.error_kinds
    assert len(result.gateway.durations_ms) == 4
    # The no-op processor answered in the redaction service's place (the real one logs its start).
    assert "serving" not in (tmp_path / "redaction.log").read_text()
