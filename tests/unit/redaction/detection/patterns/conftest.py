"""The tier-1 recognizer the pattern tests share, one per module (its Hyperscan database is cached per session)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ztgate.redaction.detection.patterns.recognizer import HyperscanRecognizer
from ztgate.redaction.detection.patterns.scanner import PatternScanner


@pytest.fixture(scope="module")
def recognizer(hs_cache_dir: Path) -> HyperscanRecognizer:
    return HyperscanRecognizer(PatternScanner(cache_dir=hs_cache_dir))
