"""Loads one YAML file into a typed settings model, with `ZTGATE_*` environment overrides.

An override names a key path with double underscores: `ZTGATE_REDACTION__LISTEN=127.0.0.1:6000`
sets `redaction.listen`. Values are parsed as YAML scalars, so numbers and booleans work.
Unknown keys, in the file or the environment, stop start-up with a message naming them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

ENV_PREFIX = "ZTGATE_"
# Names a configuration file when no --config flag is given.
CONFIG_ENV = "ZTGATE_CONFIG"

M = TypeVar("M", bound=BaseModel)


class ConfigError(Exception):
    """Configuration that cannot be used; the message names the file or key to fix."""


def _set_path(tree: dict[str, Any], path: list[str], value: Any) -> None:
    node = tree
    for key in path[:-1]:
        child = node.setdefault(key, {})
        if not isinstance(child, dict):
            raise ConfigError(f"cannot override {'.'.join(path)}: {key} is not a section")
        node = child
    node[path[-1]] = value


def env_overrides(environ: Mapping[str, str]) -> dict[str, Any]:
    """Turns `ZTGATE_A__B=v` variables into a nested mapping {a: {b: v}}."""
    tree: dict[str, Any] = {}
    for name, raw in sorted(environ.items()):
        if not name.startswith(ENV_PREFIX) or "__" not in name:
            continue
        path = [part.lower() for part in name[len(ENV_PREFIX):].split("__")]
        if not all(path):
            raise ConfigError(f"environment variable {name}: empty key in its path")
        try:
            value = yaml.safe_load(raw) if raw.strip() else raw
        except yaml.YAMLError:
            value = raw
        _set_path(tree, path, value)
    return tree


def _merge(base: dict[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def read_yaml(path: Path) -> dict[str, Any]:
    """Reads a YAML mapping; a file that cannot be read or parsed is an error, never skipped."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read configuration file {path}: {exc.strerror}") from exc
    except yaml.YAMLError as exc:
        raise ConfigError(f"configuration file {path} is not valid YAML: {exc}") from exc
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"configuration file {path} must hold a mapping at the top level")
    return data


def _describe(exc: ValidationError, source: str) -> str:
    lines = [f"invalid configuration ({source}):"]
    for err in exc.errors():
        key = ".".join(str(part) for part in err["loc"]) or "(top level)"
        reason = "unknown key" if err["type"] == "extra_forbidden" else err["msg"]
        lines.append(f"  {key}: {reason}")
    return "\n".join(lines)


def load_settings(model: type[M], path: Path | str | None = None,
                  environ: Mapping[str, str] | None = None) -> M:
    """Builds `model` from the file (explicit path, else $ZTGATE_CONFIG, else defaults) and env."""
    environ = os.environ if environ is None else environ
    chosen = path or environ.get(CONFIG_ENV)
    # Start from the defaults so a partial section (one key of an instance) keeps the rest.
    data: dict[str, Any] = model().model_dump()
    if chosen:
        data = _merge(data, read_yaml(Path(chosen)))
    data = _merge(data, env_overrides(environ))
    source = f"file {chosen} and ZTGATE_* environment" if chosen else "ZTGATE_* environment"
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, source)) from None
