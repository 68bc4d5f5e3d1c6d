"""`ztgate bench` with no part: the orchestration and docs/results/full-run.md's writer.

Test double: the parts are stand-in entry points (they print a report and return an exit code)
instead of the real benches, which take tens of minutes; the writer, the plot and the doc rewrite
are the real ones, on a copy of the doc.
"""

from __future__ import annotations

import argparse
from datetime import datetime, timezone
from pathlib import Path

from PIL import Image

from ztgate_bench import all_parts
from ztgate_bench.all_parts import BEGIN, END, PartResult, rewrite, section
from ztgate_bench.registry import PARTS
from ztgate.cli import build_parser


def _stand_in(part: str, code: int, seen: dict):
    def entry(args: argparse.Namespace) -> int:
        seen[part] = args
        args.out.write_text(f"{part} results\n")
        print(f"| {part} figure | 1.{len(part)}x |")
        return code
    return entry


def test_no_part_runs_every_part_and_rewrites_only_the_generated_section(tmp_path: Path) -> None:
    doc = tmp_path / "benchmarks.md"
    hand = "# Benchmarks\n\nHand-written analysis.\n"
    doc.write_text(hand + "\n" + BEGIN + "\nstale figures\n" + END + "\n\n## After\n", encoding="utf-8")
    seen: dict = {}
    entries = {p: _stand_in(p, 1 if p == "attack" else 0, seen) for p in PARTS}
    args = build_parser().parse_args(["bench", "--seed", "3", "--out", str(tmp_path / "out")])
    assert args.target is None

    code = all_parts.main(args, doc=doc, entries=entries)

    assert code == 1  # one part missed its targets
    assert list(seen) == list(PARTS)
    assert all(a.target == p and a.seed == 3 for p, a in seen.items())  # each part got the shared flags
    assert seen["inference"].out.suffix == ".json" and seen["redaction"].out.suffix == ".md"
    text = doc.read_text(encoding="utf-8")
    assert text.startswith(hand) and text.endswith(END + "\n\n## After\n")
    assert "stale figures" not in text and text.count(BEGIN) == 1
    for p in PARTS:
        assert f"| {p} figure | 1.{len(p)}x |" in text and f"### {p}" in text
    assert "| attack | missed (exit 1) |" in text and "| gateway | met |" in text
    assert "| Python |" in text and "| grpcio |" in text
    with Image.open(tmp_path / all_parts.PLOT) as png:
        assert png.size[0] == 800 and png.size[1] > 40 * len(PARTS)
    assert (tmp_path / "out" / all_parts.PLOT).exists()


def test_a_part_that_raises_is_reported_and_the_others_still_run(tmp_path: Path) -> None:
    doc = tmp_path / "benchmarks.md"
    doc.write_text("# Benchmarks\n", encoding="utf-8")

    def broken(args: argparse.Namespace) -> int:
        raise RuntimeError("no engine")

    seen: dict = {}
    entries = {"redaction": broken, "gateway": _stand_in("gateway", 0, seen)}
    args = build_parser().parse_args(["bench", "--out", str(tmp_path / "out")])
    assert all_parts.main(args, parts=("redaction", "gateway"), doc=doc, entries=entries) == 1
    text = doc.read_text(encoding="utf-8")
    assert "| redaction | missed (exit 1) |" in text and "| gateway | met |" in text
    assert text.startswith("# Benchmarks\n\n" + BEGIN)  # appended the first time


def test_rewrite_twice_is_stable_and_keeps_the_rest() -> None:
    results = [PartResult("gateway", 0, 12.5, "table")]
    when = datetime(2026, 12, 1, 17, 0, tzinfo=timezone.utc)
    generated = section(results, when, {"CPU": "2"}, {"grpcio": "1"}, None)
    once = rewrite("# B\n\ntext\n", generated)
    assert rewrite(once, generated) == once
    assert once.startswith("# B\n\ntext\n\n" + BEGIN) and "| gateway | met | 12.5 | - |" in once


def test_a_part_that_exits_0_with_a_target_not_met_is_not_shown_as_met() -> None:
    report = "Targets:\n- mixed speedup 1.02x, target 1.5x (NOT met)\n- identical 100% (met)\n"
    results = [PartResult("inference", 0, 60.0, report), PartResult("gateway", 0, 12.5, "- p99: met")]
    text = section(results, datetime(2026, 12, 1, tzinfo=timezone.utc), {}, {}, None)
    assert "| inference | 1 target NOT met (exit 0) |" in text and "| gateway | met |" in text


def test_the_generated_section_has_a_page_of_its_own() -> None:
    assert all_parts.DOC.relative_to(all_parts.DOC.parents[2]).as_posix() == "docs/results/full-run.md"
    text = all_parts.DOC.read_text(encoding="utf-8")
    assert text.count(BEGIN) == 1 and text.count(END) == 1
    assert (all_parts.DOC.parent / all_parts.PLOT).exists()
