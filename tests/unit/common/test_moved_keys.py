"""Keys that moved into a section of their own (ztgate/config.py's MOVED_KEYS): each one, set at
its old place in the file or in a ZTGATE_* variable, stops start-up with a message naming its new
place; set at the new place it works. The keys the README shows did not move."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from ztgate.common.config import ConfigError, load_settings
from ztgate.config import MOVED_KEYS, ZtgateConfig

ROOT = Path(__file__).resolve().parents[3]


def _default(path: str) -> Any:
    value: Any = ZtgateConfig().model_dump(mode="json")
    for key in path.split("."):
        value = value[key]
    return value


def _nested(path: str, value: Any) -> dict[str, Any]:
    tree: dict[str, Any] = {}
    node = tree
    keys = path.split(".")
    for key in keys[:-1]:
        node = node.setdefault(key, {})
    node[keys[-1]] = value
    return tree


def _env(path: str) -> str:
    return "ZTGATE_" + path.upper().replace(".", "__")


@pytest.mark.parametrize(("old", "new"), sorted(MOVED_KEYS.items()))
def test_a_moved_key_in_the_file_is_refused_naming_its_new_place(tmp_path: Path, old: str, new: str) -> None:
    path = tmp_path / "ztgate.yaml"
    path.write_text(yaml.safe_dump(_nested(old, _default(new))))
    with pytest.raises(ConfigError) as refused:
        load_settings(ZtgateConfig, path, environ={})
    assert f"{old} (in {path}) has moved: it is now {new}" in str(refused.value)


@pytest.mark.parametrize(("old", "new"), sorted(MOVED_KEYS.items()))
def test_a_moved_key_in_the_environment_is_refused_naming_its_new_variable(old: str, new: str) -> None:
    value = _default(new)
    with pytest.raises(ConfigError) as refused:
        load_settings(ZtgateConfig, None, environ={_env(old): yaml.safe_dump(value).strip()
                                                   if not isinstance(value, dict) else "{}"})
    assert f"{_env(old)} sets {old}, which has moved: use {_env(new)} ({new})" in str(refused.value)


def test_a_variable_for_a_key_under_a_moved_section_names_its_own_new_variable() -> None:
    with pytest.raises(ConfigError) as refused:
        load_settings(ZtgateConfig, None, environ={"ZTGATE_GATEWAY__INFERENCE_BREAKERS__MAX_REQUESTS": "7"})
    assert ("ZTGATE_GATEWAY__INFERENCE_BREAKERS__MAX_REQUESTS sets gateway.inference_breakers.max_requests, "
            "which has moved: use ZTGATE_GATEWAY__INFERENCE__BREAKERS__MAX_REQUESTS "
            "(gateway.inference.breakers.max_requests)") in str(refused.value)
    moved = load_settings(ZtgateConfig, None, environ={"ZTGATE_GATEWAY__INFERENCE__BREAKERS__MAX_REQUESTS": "7"})
    assert moved.gateway.inference.breakers.max_requests == 7


def test_every_moved_key_is_named_at_once(tmp_path: Path) -> None:
    path = tmp_path / "ztgate.yaml"
    path.write_text("gateway:\n  inference_retries: 0\n  redaction_timeout_s: 5\n")
    with pytest.raises(ConfigError) as refused:
        load_settings(ZtgateConfig, path, environ={"ZTGATE_SUPERVISOR__BACKOFF_MAX_S": "9"})
    assert sorted(line.split()[0] for line in str(refused.value).splitlines()[1:]) == [
        "ZTGATE_SUPERVISOR__BACKOFF_MAX_S", "gateway.inference_retries", "gateway.redaction_timeout_s"]


@pytest.mark.parametrize(("old", "new"), sorted(MOVED_KEYS.items()))
def test_the_new_place_is_a_key_that_loads(tmp_path: Path, old: str, new: str) -> None:
    path = tmp_path / "ztgate.yaml"
    path.write_text(yaml.safe_dump(_nested(new, _default(new))))
    assert load_settings(ZtgateConfig, path, environ={}) == ZtgateConfig()


def _readme_keys() -> set[str]:
    """Dotted keys the README names in backticks or ZTGATE_* variables, under a section of ztgate.yaml."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    sections = "|".join(ZtgateConfig.model_fields)
    keys = set(re.findall(rf"`((?:{sections})(?:\.[a-z0-9_]+)+)`", text))
    keys |= {m.lower().replace("__", ".") for m in re.findall(r"ZTGATE_((?:[A-Z0-9_]+__)+[A-Z0-9_]+)", text)}
    return keys


def test_no_key_the_readme_shows_has_moved() -> None:
    shown = _readme_keys()
    assert {"gateway.openai_upstreams", "gateway.openai_extra_fields", "gateway.openai_max_choices",
            "redaction.server.listen", "gateway.auth.jwks_path"} <= shown
    assert shown.isdisjoint(MOVED_KEYS)
    for key in shown:  # and each is a key of the configuration
        _default(key)
