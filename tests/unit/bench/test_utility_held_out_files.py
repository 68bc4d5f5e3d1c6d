"""The later held-out files of everyday prompts are well formed: every public name is in both prompts, every
private value in the private prompt only, and every prompt carries facts (structure only; nothing here scores
them)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

CORPORA = Path(__file__).resolve().parents[3] / "bench" / "corpora"


@pytest.mark.parametrize("name", ["utility-holdout-6.jsonl", "utility-holdout-7.jsonl", "utility-holdout-8.jsonl",
                                  "utility-holdout-9.jsonl", "utility-holdout-10.jsonl", "utility-holdout-11.jsonl",
                                  "utility-holdout-12.jsonl"])
def test_a_held_out_utility_file_lists_only_values_its_text_holds(name: str) -> None:
    rows = [json.loads(line) for line in (CORPORA / name).read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 60 and len({r["id"] for r in rows}) == 60
    for r in rows:
        assert set(r) == {"id", "topic", "prompt", "public", "private_prompt", "private", "facts"}, r["id"]
        assert r["prompt"] in r["private_prompt"], r["id"]
        assert r["public"] and all(n in r["prompt"] for n in r["public"]), r["id"]
        assert r["private"] and all(v in r["private_prompt"] and v not in r["prompt"] for v in r["private"]), r["id"]
        assert r["facts"] and all(isinstance(f, str) or (f and all(isinstance(x, str) for x in f)) for f in r["facts"])
