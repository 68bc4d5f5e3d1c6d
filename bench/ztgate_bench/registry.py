"""The parts of `ztgate bench` and their flags, without importing a bench.

The CLI builds its parser from this module alone (tests/unit/bench/test_bench_registry.py checks that
no other ztgate_bench module is imported to do so): a bench pulls in engines, Presidio or Envoy
helpers, which cost seconds and memory that `ztgate --help` should not pay. Each part's module is
imported only when that part runs.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from pathlib import Path

# part -> (module, function): the function takes the parsed namespace and returns the exit code.
PARTS: dict[str, tuple[str, str]] = {
    "redaction": ("ztgate_bench.redaction_bench", "main"),
    "inference": ("ztgate_bench.inference_bench", "main"),
    "gateway": ("ztgate_bench.gateway_bench", "main"),
    "telemetry": ("ztgate_bench.telemetry_bench", "main"),
    "attack": ("ztgate_bench.attack_bench", "main"),
    "failover": ("ztgate_bench.failover_bench", "main"),
    "utility": ("ztgate_bench.utility_bench", "main"),
}

# The inference bench's defaults and set names (ztgate_bench.inference_bench holds the prompts and
# checks that its sets carry these names).
DEFAULT_MAX_TOKENS = 64
DEFAULT_CONCURRENCY = (1, 4)
DEFAULT_SETS = ("mixed", "copy_heavy")
INFERENCE_SETS = (*DEFAULT_SETS, "open_ended", "grounded")


def part_main(part: str) -> Callable[[argparse.Namespace], int]:
    """The entry point of one part, imported now (only when that part is about to run)."""
    module, function = PARTS[part]
    return getattr(importlib.import_module(module), function)


def add_inference_arguments(p: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """The inference bench's flags (shared by `ztgate bench inference` and `python -m`)."""
    p.add_argument("--parity", nargs="+", choices=["strict", "fast"], default=["strict", "fast"],
                   help="parities to run (inference; default both)")
    p.add_argument("--configs", nargs="*", default=[], metavar="CONFIG",
                   help="speculative configs besides plain and the primary's: ngram:K:MIN:MAX, "
                        "suffix:K[:CACHED], draft_model:PATH:K, eagle3:PATH:K or medusa:PATH:K, each optionally ~COST (verify only "
                        "the drafts that pay at that draft-token cost) and @FIRST-LAST:TOKENS,... (dynamic speculation by "
                        "batch size) (inference)")
    p.add_argument("--concurrency", nargs="+", type=int, default=list(DEFAULT_CONCURRENCY),
                   help="requests in flight per run of a set (inference; default 1 4)")
    p.add_argument("--max-tokens", type=int, default=DEFAULT_MAX_TOKENS,
                   help=f"completion tokens per request (inference; default {DEFAULT_MAX_TOKENS})")
    p.add_argument("--repeat", type=int, default=1, help="passes per set; the fastest counts (inference)")
    p.add_argument("--engine", choices=["vllm", "transformers"],
                   help="engine to bench (inference: default the primary's; telemetry on vs off: default transformers)")
    p.add_argument("--markdown", type=Path, help="write the Markdown table here (inference)")
    p.add_argument("--sets", nargs="+", choices=list(INFERENCE_SETS), default=list(DEFAULT_SETS),
                   help="prompt sets to run (inference; default mixed copy_heavy)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    """`ztgate bench`'s flags: the part (none: every part, and docs/benchmarks.md rewritten) and its options."""
    p.add_argument("target", nargs="?", choices=list(PARTS),
                   help="the part to measure (default: every part, one after another, and the generated "
                        "section of docs/benchmarks.md rewritten with the figures and a plot)")
    p.add_argument("--samples", type=int, default=400, help="corpus size")
    p.add_argument("--clients", type=int, default=None,
                   help="concurrent clients (redaction: for throughput, default 16; failover: of the "
                        "steady load, each one call at a time, default 2)")
    p.add_argument("--seed", type=int, default=7, help="corpus seed (redaction); the canaries' seed (attack)")
    p.add_argument("--address", help="benchmark a running service instead of starting one")
    p.add_argument("--corpus", type=Path, metavar="FILE",
                   help="redaction: score this JSONL corpus (docs/benchmarks.md, 'Corpus files') instead of "
                        "the generated one; --samples and --seed are then ignored; utility: score this file of "
                        "prompts (bench/corpora/README.md) alone")
    p.add_argument("--calls", type=int, default=None,
                   help="calls per series (gateway, default 300; telemetry: on vs off inference calls, "
                        "default 60, 0 skips; attack: the normal tenant's calls per phase, default 40)")
    p.add_argument("--duration-s", type=float, default=None,
                   help="attack: seconds the attack phase lasts (default 30); failover: seconds of the "
                        "baseline and of the watch after each fault, the slowed primary held 3x (default 20); "
                        "utility --facts: seconds of asking, then no new prompt (default 420)")
    p.add_argument("--attacks", metavar="KIND,KIND",
                   help="attack: only these attack kinds (default all; the report lists them; `none`: a control "
                        "with no attack)")
    p.add_argument("--each", action="store_true",
                   help="attack: run each chosen kind alone, a suite each, and sum up the normal tenant's "
                        "p99 per kind")
    p.add_argument("--attacker-priority", choices=["low", "normal", "both"], default=None,
                   help="attack: the CPU priority of the attacker's own process: low (niceness 19, the "
                        "default: on a deployment the attacker has its own machine), normal, or both, "
                        "one after the other")
    p.add_argument("--faults", metavar="FAULT,FAULT",
                   help="failover: only these faults (default all: collector_killed, fallback_killed, "
                        "primary_slowed, primary_frozen, primary_killed)")
    p.add_argument("--out", type=Path,
                   help="also write the Markdown report here (inference, attack and failover: the JSON "
                        "results; no part: the folder for every part's report and the plot)")
    p.add_argument("--auth", action="store_true",
                   help="gateway: with bearer tokens and the per-tenant rate limit on (what they add)")
    p.add_argument("--api", choices=["grpc", "openai"], default="grpc",
                   help="gateway: openai also measures the OpenAI-compatible HTTP door, side by side")
    p.add_argument("--replicas", nargs="?", const="1,2", default=None, metavar="N,N",
                   help="gateway: throughput with this many redaction replicas behind Envoy, side by "
                        "side (default 1,2; --clients concurrent clients, default 8; --calls, default 200)")
    p.add_argument("--answers", action="store_true",
                   help="utility: instead, ask the default model through a suite of its own with placeholders "
                        "and with surrogates, and check the restored answers' facts (utility_answers.py)")
    p.add_argument("--facts", action="store_true",
                   help="utility: instead, check the corpus prompts' reviewed facts in greedy answers through the "
                        "gateway against the same model called directly, in a suite of its own (utility_facts.py; "
                        "--corpus FILE alone, --subset N, --max-tokens)")
    p.add_argument("--subset", type=int, default=None, metavar="N",
                   help="utility --facts: only the first N prompts with facts of each corpus")
    p.add_argument("--examples", type=Path, default=None, metavar="FILE",
                   help="utility --facts: write the redacted prompt and the answers of each gateway-only failure "
                        "here (JSON lines; corpus text, for reading); utility --answers: each answer that still "
                        "holds a placeholder or a stand-in")
    p.add_argument("--processor", choices=["redaction", "noop"], default="redaction",
                   help="gateway: noop measures the ext_proc mechanism alone (a processor that changes nothing)")
    add_inference_arguments(p.add_argument_group("inference"))
