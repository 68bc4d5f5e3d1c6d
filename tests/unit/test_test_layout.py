"""The suite's own layout: pytest's default import mode needs every test module's basename unique.

Two `test_x.py` in different folders collect fine one folder at a time and break the whole session
("import file mismatch"), which is how a CI run once died at collection.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def test_test_module_basenames_are_unique() -> None:
    names = Counter(p.name for p in TESTS.rglob("test_*.py"))
    assert [n for n, k in names.items() if k > 1] == []
