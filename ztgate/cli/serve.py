"""`ztgate serve`: one part in the foreground, its flags applied by the configuration loader."""

from __future__ import annotations

import argparse
import asyncio
import sys

from ztgate import parts as suite_parts
from ztgate.cli.common import config_from, with_config


def serve_flags(args: argparse.Namespace) -> dict[str, tuple[str, str]]:
    """`ztgate serve`'s flags as {key path: (flag, value)}: --listen sets the served part's listen
    address (ztgate/parts.py), the others their inference instance's or the collector's keys."""
    part = suite_parts.BY_NAME[f"inference-{args.instance}" if args.service == "inference" else args.service]
    given = {part.listen: ("--listen", args.listen)}
    if args.service == "inference":
        given[f"{part.section}.speculative.method"] = ("--speculative", args.speculative)
        given[f"{part.section}.parity"] = ("--parity", args.parity)
    if args.service == "telemetry":
        given["telemetry.metrics.listen"] = ("--metrics-listen", args.metrics_listen)
    return {key: (flag, value) for key, (flag, value) in given.items() if value}


def cmd_serve(args: argparse.Namespace) -> int:
    from ztgate.common.logging import setup_logging

    from ztgate.serve import run_part

    config = config_from(args, serve_flags(args))
    setup_logging(args.service, config.logging.level)
    if asyncio.run(run_part(config, args.service, args.instance)):
        return 0
    print(f"ztgate serve {args.service}: not part of this build yet", file=sys.stderr)
    return 2


def register(sub: argparse._SubParsersAction) -> None:
    p = with_config(sub.add_parser("serve", help="run one service in the foreground"))
    p.add_argument("service", choices=tuple(dict.fromkeys(p.serve[0] for p in suite_parts.PARTS if p.serve)))
    p.add_argument("--listen", help="HOST:PORT (overrides the config)")
    p.add_argument("--metrics-listen", help="HOST:PORT of the Prometheus exposition (telemetry)")
    p.add_argument("--instance", choices=["primary", "fallback"], default="primary",
                   help="which inference instance of the config to run (inference)")
    p.add_argument("--speculative", choices=["none", "ngram", "suffix", "draft_model", "eagle", "eagle3", "medusa"],
                   help="speculative decoding method (inference; overrides the config)")
    p.add_argument("--parity", choices=["strict", "fast"],
                   help="strict: float32, greedy output identical with and without speculation (inference)")
    p.set_defaults(func=cmd_serve)
