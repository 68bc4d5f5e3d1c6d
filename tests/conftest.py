"""Test tiers by folder: tests/integration and tests/e2e start real processes and are `slow`.

`make check` runs `-m "not slow and not engine"` (tests/unit and the layout checks, without the unit
modules that load an engine library); `make test` runs every tier. A test in tests/unit that starts a
real process marks itself `slow` too.
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest
from _pytest.mark.expression import Expression
from hypothesis import settings

# CI judges one fixed set of generated examples per property (derandomize), with no wall-clock
# deadline on a shared 2-core runner: a red CI names a bug, not the day's seed or load. Every other
# run searches afresh (Hypothesis' default profile) and keeps what it finds in .hypothesis/.
settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

TESTS = Path(__file__).resolve().parent
# Folders whose every test starts real processes (Envoy, engines, a whole suite).
SLOW_TIERS = ("integration", "e2e")
# Unit modules that load an engine library (torch, vLLM, transformers) at import, and the helpers they
# share: `engine`, run by `make test` and `make unit-engine`, not by `make check`. The layout test
# (tests/unit/test_test_layout.py) holds this list equal to the modules that really do.
ENGINE_UNIT_MODULES = frozenset({
    "unit/inference/test_hallucination_score.py", "unit/inference/test_speculation_schedule.py",
    "unit/inference/test_vllm_cpu_fixes.py", "unit/speculators/test_speculator_checkpoint.py",
    "unit/speculators/test_speculator_resume.py", "unit/speculators/test_medusa_heads.py",
    "unit/speculators/test_speculator_vocab.py", "unit/speculators/speculator_fixtures.py",
    "unit/speculators/test_device_training.py", "unit/speculators/tiny_llama.py",
})


def tier_of(path: Path) -> str:
    """The tier folder a test file is in (unit, integration, e2e, ...); "" outside tests/."""
    try:
        return path.resolve().relative_to(TESTS).parts[0]
    except (ValueError, IndexError):
        return ""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(str(item.path))
        if tier_of(path) in SLOW_TIERS:
            item.add_marker(pytest.mark.slow)
        elif _relative(path) in ENGINE_UNIT_MODULES:
            item.add_marker(pytest.mark.engine)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Not even import an engine module when `-m` leaves out every engine test (`make check`'s "not engine"):
    deselecting after collection would still import torch and vLLM, seconds of every fast run."""
    if _relative(collection_path) in ENGINE_UNIT_MODULES and not _engine_tests_selectable(config):
        return True
    return None


def _engine_tests_selectable(config: pytest.Config) -> bool:
    """Whether `-m` could select a test marked `engine`, whatever other markers it carries."""
    markexpr = config.getoption("markexpr", "")
    if not markexpr:
        return True
    expression = Expression.compile(markexpr)
    others = sorted(expression.idents() - {"engine"})
    for values in itertools.product((False, True), repeat=len(others)):
        marks = {"engine", *(name for name, on in zip(others, values) if on)}
        if expression.evaluate(lambda name, /, **kwargs: name in marks):
            return True
    return False


def _relative(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(TESTS))
    except ValueError:
        return ""
