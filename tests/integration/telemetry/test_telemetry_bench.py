"""`ztgate bench telemetry` runs a bounded load end to end and reports its figures."""

import argparse

import pytest

from services.telemetry.bench import main, run_bench

pytestmark = pytest.mark.slow


def test_bench_reports_ingest_rates_for_a_small_bounded_load() -> None:
    report = run_bench(points_per_export=200, exports=20, inflight=4)
    assert report.fold_points_per_s > 0 and report.e2e_points_per_s > 0
    assert report.accepted_points + report.refused_points == 200 * 20
    assert report.series > 0
    assert "| end to end over OTLP/gRPC" in report.markdown()


def test_bench_main_writes_the_markdown_report(tmp_path, capsys) -> None:
    out = tmp_path / "telemetry.md"
    assert main(argparse.Namespace(samples=5, clients=2, seed=1, out=out)) == 0
    assert out.read_text().startswith("# ztgate bench telemetry")
    assert "points/s" in capsys.readouterr().out
