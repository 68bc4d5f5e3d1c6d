"""A TEST DOUBLE of the analysis worker pool that records what reached it and holds calls on demand.

It finds nothing (no model loads), so the tests using it are about what reaches the pool, when and how
many at once: the per-tenant share, deadlines, cancellation. It keeps the pool's contract for deadlines
(DEADLINE_EXCEEDED when the caller's deadline passes while a call is held).
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection

from ztgate.common.errors import DeadlineExceeded
from ztgate.redaction.types import PATTERN_PII_ENTITY_TYPES, SECRET_ENTITY_TYPES, Detection


class HeldPool:
    """`size` workers; calls whose text starts with a held prefix wait until `release()`."""

    timeout_s = 10.0

    def __init__(self, size: int = 2) -> None:
        self.size = size
        self.supported_entities = PATTERN_PII_ENTITY_TYPES | SECRET_ENTITY_TYPES
        self.texts: list[str] = []  # every text that reached the pool, in order
        self.deadlines: list[float | None] = []
        self.running: list[str] = []  # texts on a worker now
        self.cancelled: list[str] = []
        self.held_prefixes: set[str] = set()
        self._workers = asyncio.Semaphore(size)
        self._released = asyncio.Event()

    def release(self) -> None:
        self._released.set()

    async def analyze(self, text: str, entities: Collection[str] | None = None, *,
                      deadline: float | None = None, on_abandon: object = None) -> list[Detection]:
        self.texts.append(text)
        self.deadlines.append(deadline)
        async with self._workers:
            self.running.append(text)
            try:
                if text.startswith("boom"):
                    raise RuntimeError("a worker failed")
                if any(text.startswith(p) for p in self.held_prefixes):
                    try:
                        async with asyncio.timeout_at(deadline):
                            await self._released.wait()
                    except TimeoutError:
                        raise DeadlineExceeded("analysis did not finish within the call's deadline") from None
                    except asyncio.CancelledError:
                        self.cancelled.append(text)
                        raise
                return []
            finally:
                self.running.remove(text)
