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


def _lookup(tree: Mapping[str, Any], path: str) -> bool:
    """Whether the dotted key `path` is present in `tree`."""
    node: Any = tree
    for key in path.split("."):
        if not isinstance(node, Mapping) or key not in node:
            return False
        node = node[key]
    return True


def env_var(path: str) -> str:
    """The ZTGATE_* variable that sets the dotted key `path`."""
    return ENV_PREFIX + path.upper().replace(".", "__")


def refuse_moved(moved: Mapping[str, str], file_data: Mapping[str, Any], file: object,
                 environ: Mapping[str, str]) -> None:
    """A key that moved ({old dotted path: new}) is an error naming its new place, wherever it is
    set (the file, a ZTGATE_* variable for it or for a key under it): never silently ignored,
    never silently mapped."""
    problems = []
    for old, new in moved.items():
        if _lookup(file_data, old):
            problems.append(f"  {old} (in {file}) has moved: it is now {new}")
        prefix = env_var(old)
        for name in sorted(environ):
            if name == prefix or name.startswith(prefix + "__"):
                below = name[len(prefix):].lower().replace("__", ".")
                problems.append(f"  {name} sets {old}{below}, which has moved: use "
                                f"{env_var(new)}{name[len(prefix):]} ({new}{below})")
    if problems:
        raise ConfigError("configuration keys that have moved (CHANGELOG.md):\n" + "\n".join(problems))


def _describe(exc: ValidationError, source: str) -> str:
    lines = [f"invalid configuration ({source}):"]
    for err in exc.errors():
        key = ".".join(str(part) for part in err["loc"]) or "(top level)"
        reason = "unknown key" if err["type"] == "extra_forbidden" else err["msg"]
        lines.append(f"  {key}: {reason}")
    return "\n".join(lines)


def load_settings(model: type[M], path: Path | str | None = None,
                  environ: Mapping[str, str] | None = None, moved: Mapping[str, str] | None = None) -> M:
    """Builds `model` from the file (explicit path, else $ZTGATE_CONFIG, else defaults) and env;
    a key of `moved` ({old dotted path: new}; default: the model's MOVED_KEYS) set in either is
    refused naming its new place."""
    environ = os.environ if environ is None else environ
    chosen = path or environ.get(CONFIG_ENV)
    # Start from the defaults so a partial section (one key of an instance) keeps the rest.
    data: dict[str, Any] = model().model_dump()
    from_file = read_yaml(Path(chosen)) if chosen else {}
    moved = getattr(model, "MOVED_KEYS", {}) if moved is None else moved
    refuse_moved(moved, from_file, chosen, environ)
    from_env = env_overrides(environ)
    data = _merge(_merge(data, from_file), from_env)
    source = f"file {chosen} and ZTGATE_* environment" if chosen else "ZTGATE_* environment"
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, source)) from None
