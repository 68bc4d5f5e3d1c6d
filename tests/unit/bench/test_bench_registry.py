"""`ztgate bench`'s parser comes from the light registry: no bench is imported to build it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from ztgate_bench import inference_bench, registry
from ztgate.cli import build_parser

ROOT = Path(__file__).resolve().parents[3]


def test_building_the_cli_parser_imports_no_bench_beyond_the_registry() -> None:
    # A fresh interpreter: this test process has imported benches already.
    code = ("import json, sys; from ztgate.cli import build_parser; build_parser(); "
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('ztgate_bench'))))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         check=True)
    loaded = json.loads(out.stdout.strip().splitlines()[-1])
    assert set(loaded) <= {"ztgate_bench", "ztgate_bench.registry"}, loaded
    assert "ztgate_bench.registry" in loaded  # the parser really was built from it


def test_every_part_names_an_entry_point_that_exists() -> None:
    for part in registry.PARTS:
        assert callable(registry.part_main(part)), part


def test_the_registry_offers_the_inference_bench_set_names_and_defaults() -> None:
    assert tuple(inference_bench.ALL_SETS) == registry.INFERENCE_SETS
    assert tuple(inference_bench.PROMPT_SETS) == registry.DEFAULT_SETS


def test_bench_without_a_part_parses_to_every_part() -> None:
    args = build_parser().parse_args(["bench"])
    assert args.target is None
    assert build_parser().parse_args(["bench", "inference", "--sets", "grounded"]).sets == ["grounded"]
