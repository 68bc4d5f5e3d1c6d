"""ztgate.example.yaml documents the defaults: it is generated from the settings classes and their
comments (no drift), it loads, and it says what the code does. Every YAML example in the README and
docs/ that is a ztgate configuration loads as one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from ztgate import config_schema
from ztgate.common.config import load_settings
from ztgate.config import ZtgateConfig

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "ztgate.example.yaml"
SECTIONS = set(ZtgateConfig.model_fields)


def test_example_config_loads_and_equals_the_defaults() -> None:
    assert load_settings(ZtgateConfig, EXAMPLE, environ={}) == ZtgateConfig()


def test_the_committed_example_is_the_generated_one() -> None:
    assert EXAMPLE.read_text(encoding="utf-8") == config_schema.example(), (
        "run `python -m ztgate.config_schema` and commit ztgate.example.yaml")


def test_the_example_carries_each_keys_comment() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    assert "  # Envoy's gRPC ingress, the only address clients use.\n  listen: 127.0.0.1:8080\n" in text


def _config_examples() -> list[tuple[str, str]]:
    """(place, text) of every ```yaml block in the README and docs/ whose top-level keys are all
    sections of ztgate.yaml."""
    found = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for match in re.finditer(r"```ya?ml\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            data = yaml.safe_load(match.group(1))
            if isinstance(data, dict) and data and set(data) <= SECTIONS:
                line = page.read_text(encoding="utf-8")[:match.start()].count("\n") + 1
                found.append((f"{page.relative_to(ROOT)}:{line}", match.group(1)))
    return found


def test_the_docs_have_configuration_examples() -> None:
    assert len(_config_examples()) >= 3  # operations.md's OpenAI door (2), speculator.md


@pytest.mark.parametrize(("place", "text"), _config_examples(), ids=[p for p, _ in _config_examples()])
def test_every_configuration_example_in_the_docs_loads(tmp_path: Path, place: str, text: str) -> None:
    path = tmp_path / "ztgate.yaml"
    path.write_text(text, encoding="utf-8")
    load_settings(ZtgateConfig, path, environ={})  # raises ConfigError naming the key
