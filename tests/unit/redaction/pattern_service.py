"""The real redaction service on the pattern tier alone, for tests that need no NER model.

The RedactionService is the real one (policies, operators, vault, Hyperscan pattern tier) with its
analysis pool replaced by the pattern tier in this process (`ScannerPool`); the PII it finds is what
the pattern tier finds (emails, phones, cards). Used by the redaction service's tests and the
gateway processor's (tests/unit/gateway/processor/). `scanner` is a fixture: import it too.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterable
from pathlib import Path

import pytest

from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.patterns.scanner import PatternScanner
from ztgate.redaction.policies import PolicyStore
from ztgate.redaction.service import RedactionService
from ztgate.redaction.types import PATTERN_PII_ENTITY_TYPES, SECRET_ENTITY_TYPES, Detection
from ztgate.redaction.vault import Vault

TEST_POLICIES = Path(__file__).parent / "data" / "policies"


class ScannerPool:
    """Stands in for the analysis worker pool: the pattern tier only, in this process."""

    size = 2
    timeout_s = 10.0

    def __init__(self, scanner: PatternScanner) -> None:
        self._scanner = scanner
        self.supported_entities = PATTERN_PII_ENTITY_TYPES | SECRET_ENTITY_TYPES

    async def analyze(self, text: str, entities: Iterable[str] | None = None, *,
                      deadline: float | None = None, on_abandon: object = None) -> list[Detection]:
        wanted = None if entities is None else set(entities)
        return [d for d in self._scanner.scan(text) if wanted is None or d.entity_type in wanted]


class SlowScanner:
    """The real scanner, slowed and watched (a fault injected): each scan blocks its thread for
    `delay_s` and records the thread it ran on."""

    def __init__(self, scanner: PatternScanner, delay_s: float = 0.2) -> None:
        self._scanner = scanner
        self._delay_s = delay_s
        self.threads: list[int] = []

    def scan(self, text: str) -> list[Detection]:
        self.threads.append(threading.get_ident())
        time.sleep(self._delay_s)
        return self._scanner.scan(text)


class Ticker:
    """Counts how often the event loop ran a 10 ms timer: a blocked loop counts nothing."""

    def __init__(self) -> None:
        self.ticks = 0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(0.01)
            self.ticks += 1

    async def __aenter__(self) -> Ticker:
        self._task = asyncio.create_task(self._run())
        await asyncio.sleep(0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()


@pytest.fixture(scope="module")
def scanner(hs_cache_dir: Path) -> PatternScanner:
    return PatternScanner(cache_dir=hs_cache_dir)


def make_service(scanner: PatternScanner, stream_scanner: object | None = None) -> RedactionService:
    """The real service on the pattern tier; `stream_scanner` scans streams and answers in its place."""
    return RedactionService(policies=PolicyStore.load(TEST_POLICIES), pool=ScannerPool(scanner),
                            scanner=stream_scanner or scanner, vault=Vault(), max_text_bytes=65536,
                            operators=Operators(hash_key="test-hash-key-0123456", encrypt_key="0123456789abcdef"))
