"""Test tiers by folder: tests/integration and tests/e2e start real processes and are `slow`.

`make check` runs `-m "not slow"` (tests/unit and the layout checks); `make test` runs every tier.
A test in tests/unit that starts a real process marks itself `slow` too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
# Folders whose every test starts real processes (Envoy, engines, a whole suite).
SLOW_TIERS = ("integration", "e2e")


def tier_of(path: Path) -> str:
    """The tier folder a test file is in (unit, integration, e2e, ...); "" outside tests/."""
    try:
        return path.resolve().relative_to(TESTS).parts[0]
    except (ValueError, IndexError):
        return ""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if tier_of(Path(str(item.path))) in SLOW_TIERS:
            item.add_marker(pytest.mark.slow)
