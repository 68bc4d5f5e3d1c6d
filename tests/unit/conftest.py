"""Fixtures shared by the unit tests of several packages (redaction's and the gateway processor's)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def hs_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Hyperscan database cache private to this session (compiled once, then loaded)."""
    return tmp_path_factory.mktemp("hs-cache")
