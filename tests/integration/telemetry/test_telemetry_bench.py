"""`ztgate bench telemetry` runs a bounded load end to end and reports its figures."""

import argparse
import re

import pytest

from services.telemetry.bench import main

pytestmark = pytest.mark.slow


def test_bench_runs_a_small_bounded_load_and_writes_the_markdown_report(tmp_path, capsys):
    out = tmp_path / "telemetry.md"
    assert main(argparse.Namespace(samples=8, clients=2, seed=1, out=out)) == 0
    text = out.read_text()
    assert text.startswith("# ztgate bench telemetry") and text in capsys.readouterr().out
    rates = [float(r.replace(",", "")) for r in re.findall(r"\| ([\d,.]+) points/s \|", text)]
    assert len(rates) == 2 and all(rate > 0 for rate in rates)
    accepted, refused = (int(n.replace(",", "")) for n in re.findall(
        r"points \| ([\d,]+) / ([\d,]+) \|", text)[0])
    assert accepted + refused == 8 * 1_000
