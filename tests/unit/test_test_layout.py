"""The suite's own layout: pytest's default import mode needs every test module's basename unique.

Two `test_x.py` in different folders collect fine one folder at a time and break the whole session
("import file mismatch"), which is how a CI run once died at collection.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tests.conftest import ENGINE_UNIT_MODULES

TESTS = Path(__file__).resolve().parents[1]


def test_test_module_basenames_are_unique() -> None:
    names = Counter(p.name for p in TESTS.rglob("test_*.py"))
    assert [n for n, k in names.items() if k > 1] == []


class _RecordingItem:
    """Stands in for a collected pytest item: records the markers the tier hook adds (a fake only
    to see what crossed that boundary)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.markers: list[str] = []

    def add_marker(self, marker: object) -> None:
        self.markers.append(getattr(marker, "name", str(marker)))


def test_integration_and_e2e_tests_are_slow_by_their_folder() -> None:
    from tests.conftest import pytest_collection_modifyitems

    items = {tier: _RecordingItem(TESTS / tier / "test_x.py") for tier in ("unit", "integration", "e2e")}
    items["unmarked"] = _RecordingItem(TESTS / "e2e" / "test_up_and_gateway.py")
    pytest_collection_modifyitems(None, list(items.values()))  # type: ignore[arg-type]
    assert {tier: item.markers for tier, item in items.items()} == {
        "unit": [], "integration": ["slow"], "e2e": ["slow"], "unmarked": ["slow"]}


# Engine libraries: a unit module imports them inside the tests that need them, so that `make check`
# (the unit tier) does not pay their import; the modules that cannot are marked `engine` by
# tests/conftest.py's list (left out of `make check`, run by `make test`).
_ENGINE_MODULES = ("torch", "vllm", "transformers")
_ENGINE_IMPORT_EXCEPTIONS = ENGINE_UNIT_MODULES


def _module_level_imports(path: Path) -> set[str]:
    import ast

    names: set[str] = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_unit_modules_do_not_import_engines_at_module_level() -> None:
    offenders = {str(p.relative_to(TESTS)) for p in (TESTS / "unit").rglob("*.py")
                 if _module_level_imports(p) & set(_ENGINE_MODULES)}
    assert offenders - _ENGINE_IMPORT_EXCEPTIONS == set()
    assert _ENGINE_IMPORT_EXCEPTIONS - offenders == set(), "an exception was fixed: take it off the list"
