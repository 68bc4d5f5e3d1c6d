"""In-flight limiter: past the configured number of concurrent requests, reject at once (no queue)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from ztgate.common.errors import ResourceExhausted


class Overloaded(ResourceExhausted):
    """Too many requests in flight; the servicer answers RESOURCE_EXHAUSTED so the caller (Envoy)
    can retry elsewhere."""


class AdmissionLimiter:
    """Counts requests in flight; `slot()` admits one or raises Overloaded without waiting.

    Hold the slot for the whole request, the last streamed chunk included.
    """

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"the in-flight limit must be >= 1; got {limit}")
        self.limit = limit
        self._in_flight = 0
        self.admitted = 0
        self.rejected = 0
        self._lock = threading.Lock()

    @property
    def in_flight(self) -> int:
        return self._in_flight

    def try_acquire(self) -> bool:
        with self._lock:
            if self._in_flight >= self.limit:
                self.rejected += 1
                return False
            self._in_flight += 1
            self.admitted += 1
            return True

    def release(self) -> None:
        with self._lock:
            if self._in_flight == 0:
                raise RuntimeError("release() without a matching acquire")
            self._in_flight -= 1

    @contextmanager
    def slot(self) -> Iterator[None]:
        if not self.try_acquire():
            raise Overloaded(
                f"this instance is serving its limit of {self.limit} concurrent requests; retry shortly "
                "or on another instance")
        try:
            yield
        finally:
            self.release()
