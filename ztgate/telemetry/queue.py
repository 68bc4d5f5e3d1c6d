"""The bounded ingestion queue between the receivers (event loop) and the pipeline (its thread).

Receivers `offer` and return at once: an export either fits (accepted) or is refused whole
(counted as dropped) so that the exporter retries later. The bound is in items (data points,
spans, log records), which is what memory grows with. An empty queue takes one export of any
size, so an export larger than the bound is not refused forever. Thread-safe.
"""

from __future__ import annotations

import threading
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
        self._lock = threading.Lock()
        self._ready = threading.Event()
        self.depth = 0
        self.accepted: dict[str, int] = {}
        self.dropped: dict[str, int] = {}

    def offer(self, item: Item) -> bool:
        """Queues the item, or counts it as dropped and returns False when it does not fit."""
        with self._lock:
            if self._items and self.depth + item.weight > self.capacity:
                self.dropped[item.signal] = self.dropped.get(item.signal, 0) + item.weight
                return False
            self._items.append(item)
            self.depth += item.weight
            self.accepted[item.signal] = self.accepted.get(item.signal, 0) + item.weight
            self._ready.set()
            return True

    def take_nowait(self) -> Item | None:
        with self._lock:
            if not self._items:
                self._ready.clear()
                return None
            item = self._items.popleft()
            self.depth -= item.weight
            if not self._items:
                self._ready.clear()
            return item

    def take(self, timeout_s: float) -> Item | None:
        """The oldest item, waiting up to timeout_s for one (blocking: call it off the loop)."""
        if not self._ready.wait(timeout_s):
            return None
        return self.take_nowait()

    def __len__(self) -> int:
        return len(self._items)

    @property
    def total_accepted(self) -> int:
        return sum(self.accepted.values())

    @property
    def total_dropped(self) -> int:
        return sum(self.dropped.values())
