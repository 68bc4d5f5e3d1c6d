"""What every verb group shares: the configuration as the command line gives it, and common flags."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from ztgate import parts as suite_parts
from ztgate.common.config import ConfigError

DEFAULT_ENVOY = "127.0.0.1:8080"


def _version() -> str:
    """The installed distribution's version (pyproject's), as pip recorded it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ztgate")
    except PackageNotFoundError:
        return "unknown (not installed: run `make install`)"


def config_from(args: argparse.Namespace, flags: dict[str, tuple[str, str]] | None = None):
    """The configuration: the file, the ZTGATE_* environment, then `flags` ({key path: (flag,
    value)}), which go through the same loader as ZTGATE_* variables, so a flag is validated as the
    key it sets; ConfigError names the flag."""
    from ztgate.common.config import load_settings
    from ztgate.config import ZtgateConfig

    flags = flags or {}
    environ = {**os.environ, **{suite_parts.env_var(key): value for key, (_, value) in flags.items()}}
    try:
        return load_settings(ZtgateConfig, getattr(args, "config", None), environ=environ)
    except ConfigError as exc:
        if not flags:
            raise
        said = ", ".join(f"{flag} {value} sets {key}" for key, (flag, value) in flags.items())
        raise ConfigError(f"{exc}\n  (from the command line: {said})") from None


def with_json(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true",
                   help="print the reply as JSON (proto field names), one object a line, for scripts")

def with_gateway_credentials(p: argparse.ArgumentParser) -> None:
    p.add_argument("--token", default=os.environ.get("ZTGATE_TOKEN", ""),
                   help="bearer token for a gateway that checks them (default $ZTGATE_TOKEN)")
    p.add_argument("--tls-ca", type=Path, default=os.environ.get("ZTGATE_TLS_CA") or None,
                   help="CA of a gateway that serves TLS (gateway.tls; default $ZTGATE_TLS_CA)")
    p.add_argument("--tls-cert", type=Path, default=os.environ.get("ZTGATE_TLS_CERT") or None,
                   help="client certificate for a gateway that requires one (default $ZTGATE_TLS_CERT)")
    p.add_argument("--tls-key", type=Path, default=os.environ.get("ZTGATE_TLS_KEY") or None,
                   help="its private key (default $ZTGATE_TLS_KEY)")

def with_config(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    p.add_argument("--config", type=Path, help="ztgate.yaml (default: $ZTGATE_CONFIG or built-in defaults)")
    return p
