"""The `ztgate` command: run the suite or one service, and talk to it as a client would."""

# One module per verb group: serve; up, status and top (suite); envoy-config (envoy); redact and
# generate (client); certs, token and prepare (credentials); models; bench and eval (bench).

from __future__ import annotations

import argparse
import os
import sys

from ztgate.cli import bench, client, credentials, envoy, models, serve, suite
from ztgate.cli.bench import cmd_bench, cmd_eval
from ztgate.cli.client import cmd_generate, cmd_redact
from ztgate.cli.common import DEFAULT_ENVOY, config_from, _version
from ztgate.cli.credentials import cmd_certs, cmd_prepare, cmd_token
from ztgate.cli.envoy import cmd_envoy_config
from ztgate.cli.models import cmd_models, cmd_train_speculator
from ztgate.cli.serve import cmd_serve, serve_flags
from ztgate.cli.suite import STATUS_IDENTITIES, STATUS_PARTS, cmd_status, cmd_top, cmd_up
from ztgate.common.config import ConfigError

__all__ = ["DEFAULT_ENVOY", "STATUS_IDENTITIES", "STATUS_PARTS", "build_parser", "cmd_bench", "cmd_certs",
           "cmd_envoy_config", "cmd_eval", "cmd_generate", "cmd_models", "cmd_prepare", "cmd_redact",
           "cmd_serve", "cmd_status", "cmd_token", "cmd_top", "cmd_train_speculator", "cmd_up", "main",
           "serve_flags", "config_from"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ztgate", description=__doc__)
    parser.add_argument("--version", action="version", version=f"ztgate {_version()}")
    sub = parser.add_subparsers(dest="verb", required=True)
    # The verbs in the order `ztgate --help` lists them.
    serve.register(sub)
    suite.register_up(sub)
    envoy.register(sub)
    client.register_redact(sub)
    client.register_generate(sub)
    credentials.register_token(sub)
    credentials.register_certs(sub)
    credentials.register_prepare(sub)
    bench.register_bench(sub)
    bench.register_eval(sub)
    models.register(sub)
    suite.register_status(sub)
    suite.register_top(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except ConfigError as exc:
        print(f"ztgate: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`| head`): nothing more to say, and no traceback about it.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:  # noqa: BLE001 - a gRPC failure is shown as its status, not a traceback
        import grpc

        if isinstance(exc, grpc.RpcError):
            print(f"ztgate: {exc.code().name}: {exc.details()}", file=sys.stderr)
            return 1
        raise

