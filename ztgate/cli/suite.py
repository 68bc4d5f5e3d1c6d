"""`ztgate up`, `ztgate status` and `ztgate top`: the whole suite, run and watched."""

from __future__ import annotations

import argparse
import asyncio
import sys

from ztgate import parts as suite_parts
from ztgate.cli.common import config_from, with_config, with_json


# The parts `ztgate status --part` can probe (the names of `ztgate up`'s children).
STATUS_PARTS = suite_parts.NAMES
# The certificates `ztgate status --identity` can present: a server part's own, or the operator's.
STATUS_IDENTITIES = (*suite_parts.SERVERS, suite_parts.OPERATOR)


def cmd_up(args: argparse.Namespace) -> int:
    from ztgate.supervisor.launcher import run_suite
    from ztgate.replicas import ReplicaError, parse

    config = config_from(args)
    try:
        counts = parse(args.replicas, config.supervisor.max_replicas)
    except ReplicaError as exc:
        print(f"ztgate up: {exc}", file=sys.stderr)
        return 2
    return asyncio.run(run_suite(config, args.config, counts, verbose=args.verbose))


def cmd_status(args: argparse.Namespace) -> int:
    from ztgate.supervisor.launcher import print_status

    return asyncio.run(print_status(config_from(args), parts=tuple(args.part or ()), as_json=args.json,
                                    identity=args.identity))


def cmd_top(args: argparse.Namespace) -> int:
    from ztgate.cli.top.app import run

    if not 0.1 <= args.interval <= 60:
        print(f"ztgate top: --interval {args.interval:g} is outside 0.1 to 60 seconds", file=sys.stderr)
        return 2
    try:
        asyncio.run(run(config_from(args), args.interval))
    except KeyboardInterrupt:
        pass
    return 0


def register_up(sub: argparse._SubParsersAction) -> None:
    p = with_config(sub.add_parser("up", help="run the whole suite behind Envoy until Ctrl-C"))
    p.add_argument("--replicas", action="append", default=[], metavar="PART=N",
                   help=f"run PART ({', '.join(suite_parts.REPLICABLE)}) as N replicas "
                        "behind Envoy, each on its configured port + i * supervisor.replica_port_stride "
                        "(repeat, or comma-separate, for several parts)")
    p.add_argument("--verbose", action="store_true",
                   help="every part's output on this terminal (default: one file per part, named at start)")
    p.set_defaults(func=cmd_up)


def register_status(sub: argparse._SubParsersAction) -> None:
    p = with_config(sub.add_parser("status", help="health of every part of a running suite"))
    p.add_argument("--part", action="append", choices=STATUS_PARTS,
                   help="only this part (repeatable): a container's own health check, over gRPC health "
                        "with the operator certificate; a wildcard listen address is probed on loopback")
    p.add_argument("--identity", choices=STATUS_IDENTITIES, default="operator",
                   help="the suite certificate to present (default operator; a part's container "
                        "checks itself with its own)")
    with_json(p)
    p.set_defaults(func=cmd_status)


def register_top(sub: argparse._SubParsersAction) -> None:
    p = with_config(sub.add_parser("top", help="live terminal view of the running suite (Ctrl-C quits)"))
    p.add_argument("--interval", type=float, default=1.0, help="seconds between refreshes (default 1)")
    p.set_defaults(func=cmd_top)
