"""`ztgate bench telemetry` runs a bounded load end to end and reports its figures; its on/off part
runs real inference servers (transformers engine, a few calls) and a real collector."""

import argparse
import re

import pytest

from ztgate_bench.telemetry_bench import main
from ztgate_bench.telemetry_overhead import run_overhead

pytestmark = pytest.mark.slow


def test_bench_runs_a_small_bounded_load_and_writes_the_markdown_report(tmp_path, capsys):
    out = tmp_path / "telemetry.md"
    assert main(argparse.Namespace(samples=8, clients=2, seed=1, out=out, calls=0)) == 0
    text = out.read_text()
    assert text.startswith("# ztgate bench telemetry") and text in capsys.readouterr().out
    rates = [float(r.replace(",", "")) for r in re.findall(r"\| ([\d,.]+) points/s \|", text)]
    assert len(rates) == 2 and all(rate > 0 for rate in rates)
    accepted, refused = (int(n.replace(",", "")) for n in re.findall(
        r"points \| ([\d,]+) / ([\d,]+) \|", text)[0])
    assert accepted + refused == 8 * 1_000


def test_on_off_bench_times_both_real_servers_and_the_collector_got_the_on_servers_telemetry(
        tmp_path) -> None:
    report = run_overhead("transformers", calls=3, logs=tmp_path, max_tokens=2)
    assert report.engine == "transformers" and report.errors == {"on": 0, "off": 0}
    assert len(report.durations_ms["on"]) == len(report.durations_ms["off"]) == 3
    assert report.exported_items > 0  # telemetry was really on for one of them
    assert "| added by telemetry |" in report.markdown()
    # The only difference between the two servers: one exports, the other has telemetry off.
    assert "telemetry export to" in (tmp_path / "on.log").read_text()
    assert "telemetry export to" not in (tmp_path / "off.log").read_text()
