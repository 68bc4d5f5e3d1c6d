"""`ztgate bench` and `ztgate eval`: delegated to the ztgate-bench distribution when it is installed."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

from ztgate.cli.common import with_config, with_gateway_credentials


# Benchmarks and the golden gate live in their own distribution (bench/), not in the product.
_NO_BENCH = ("ztgate {verb} needs the ztgate-bench distribution, which is not installed: from a "
             "checkout, `pip install -e bench` (`make install` does)")


def _bench_installed() -> bool:
    return importlib.util.find_spec("ztgate_bench") is not None


def cmd_bench(args: argparse.Namespace) -> int:
    if not _bench_installed():
        print(_NO_BENCH.format(verb="bench"), file=sys.stderr)
        return 2
    if args.target is None:
        from ztgate_bench.all_parts import main as all_parts

        return all_parts(args)
    from ztgate_bench.registry import part_main

    return part_main(args.target)(args)


def cmd_eval(args: argparse.Namespace) -> int:
    if not _bench_installed():
        print(_NO_BENCH.format(verb="eval"), file=sys.stderr)
        return 2
    from ztgate_bench.eval.main import main as eval_main

    return eval_main(args)


def register_bench(sub: argparse._SubParsersAction) -> None:
    p = with_config(sub.add_parser("bench", help="measure a part side by side with its anchor"))
    if _bench_installed():
        from ztgate_bench.registry import add_arguments as add_bench_arguments

        add_bench_arguments(p)
    else:
        p.add_argument("target", nargs="?")
        p.add_argument("rest", nargs=argparse.REMAINDER)
    p.set_defaults(func=cmd_bench)


def register_eval(sub: argparse._SubParsersAction) -> None:
    p = with_config(sub.add_parser("eval", help="the golden gate: run tests/golden/ through a suite; exit 1 on drift"))
    p.add_argument("--full", action="store_true", help="the nightly set (default: the quick set)")
    p.add_argument("--target", metavar="ADDR",
                   help="the gateway of a running suite (default: start one on free loopback ports)")
    p.add_argument("--update", action="store_true",
                   help="rewrite the expected answers from this run and print the diff (review, then commit it)")
    p.add_argument("--out", type=Path, help="folder for eval-report.json, .md and eval-latency.png")
    p.add_argument("--golden-dir", type=Path, help="golden files (default tests/golden)")
    with_gateway_credentials(p)
    p.set_defaults(func=cmd_eval)
