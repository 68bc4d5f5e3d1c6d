"""`ztgate envoy-config`: the Envoy bootstrap that `up` runs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ztgate.cli.common import config_from, with_config


def cmd_envoy_config(args: argparse.Namespace) -> int:
    from ztgate.serve import render_envoy

    text = render_envoy(config_from(args))
    if args.out:
        Path(args.out).write_text(text)
        print(f"wrote {args.out}")
    else:
        sys.stdout.write(text)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = with_config(sub.add_parser("envoy-config", help="render the Envoy bootstrap that `up` runs"))
    p.add_argument("--out", help="write to this file instead of stdout")
    p.set_defaults(func=cmd_envoy_config)
