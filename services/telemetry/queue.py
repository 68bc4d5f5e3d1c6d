"""The bounded ingestion queue between the receivers and the aggregation.

Receivers `offer` and return at once: an export either fits (accepted) or is refused whole
(counted as dropped) so that the exporter retries later. The bound is in items (data points,
spans, log records), which is what memory grows with. An empty queue takes one export of any
size, so an export larger than the bound is not refused forever.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Item:
    # "metrics", "traces" or "logs".
    signal: str
    # The decoded OTLP export request.
    request: Any
    # Data points, spans or log records in it.
    weight: int


class IngestQueue:
    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._items: deque[Item] = deque()
        self._ready = asyncio.Event()
        self.depth = 0
        self.accepted: dict[str, int] = {}
        self.dropped: dict[str, int] = {}

    def offer(self, item: Item) -> bool:
        """Queues the item, or counts it as dropped and returns False when it does not fit."""
        if self._items and self.depth + item.weight > self.capacity:
            self.dropped[item.signal] = self.dropped.get(item.signal, 0) + item.weight
            return False
        self._items.append(item)
        self.depth += item.weight
        self.accepted[item.signal] = self.accepted.get(item.signal, 0) + item.weight
        self._ready.set()
        return True

    def take_nowait(self) -> Item | None:
        if not self._items:
            self._ready.clear()
            return None
        item = self._items.popleft()
        self.depth -= item.weight
        return item

    async def take(self) -> Item:
        """The oldest item, waiting for one."""
        while True:
            item = self.take_nowait()
            if item is not None:
                return item
            await self._ready.wait()

    def __len__(self) -> int:
        return len(self._items)

    @property
    def total_accepted(self) -> int:
        return sum(self.accepted.values())

    @property
    def total_dropped(self) -> int:
        return sum(self.dropped.values())
