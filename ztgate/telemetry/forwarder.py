"""Copies of accepted exports to one upstream OTLP collector, with retry and a bounded buffer.

Payloads wait in a buffer bounded in bytes; when it is full the oldest are dropped (counted),
so an upstream that is down costs at most `max_buffer_bytes`. One export is in flight at a time;
a retryable failure is retried with exponential backoff and jitter (or after the delay the
upstream asked for), a permanent one drops the export (counted).
"""

from __future__ import annotations

import asyncio
import enum
import logging
import random
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

log = logging.getLogger(__name__)


class Outcome(enum.Enum):
    OK = "ok"
    RETRY = "retry"
    DROP = "drop"


@dataclass(frozen=True)
class SendResult:
    outcome: Outcome
    # Delay the upstream asked for (RetryInfo), seconds.
    retry_after_s: float | None = None
    # Short reason for logs (a status code name).
    reason: str = ""


Send = Callable[[str, bytes], Awaitable[SendResult]]


class Forwarder:
    def __init__(self, name: str, send: Send, signals: Iterable[str], max_buffer_bytes: int,
                 initial_backoff_s: float, max_backoff_s: float,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 jitter: Callable[[], float] = random.random) -> None:
        self.name = name
        self._send = send
        self.signals = frozenset(signals)
        self.max_buffer_bytes = max_buffer_bytes
        self.initial_backoff_s = initial_backoff_s
        self.max_backoff_s = max_backoff_s
        self._sleep = sleep
        self._jitter = jitter
        self._buffer: deque[tuple[int, str, bytes]] = deque()
        self._seq = 0
        self._ready = asyncio.Event()
        self.buffered_bytes = 0
        # Exports sent, dropped for room (overflow), dropped as refused (rejected), retries made.
        self.sent = 0
        self.dropped_overflow = 0
        self.dropped_rejected = 0
        self.retries = 0

    def __len__(self) -> int:
        return len(self._buffer)

    def offer(self, signal: str, payload: bytes) -> None:
        """Buffers a serialized export; never waits."""
        if signal not in self.signals:
            return
        if len(payload) > self.max_buffer_bytes:
            self.dropped_overflow += 1
            return
        self._seq += 1
        self._buffer.append((self._seq, signal, payload))
        self.buffered_bytes += len(payload)
        while self.buffered_bytes > self.max_buffer_bytes:
            _, _, old = self._buffer.popleft()
            self.buffered_bytes -= len(old)
            self.dropped_overflow += 1
        self._ready.set()

    def _pop_if_head(self, seq: int) -> None:
        if self._buffer and self._buffer[0][0] == seq:
            _, _, payload = self._buffer.popleft()
            self.buffered_bytes -= len(payload)

    def backoff_s(self, attempt: int, asked: float | None) -> float:
        if asked is not None:
            return min(asked, self.max_backoff_s)
        base = min(self.max_backoff_s, self.initial_backoff_s * (2 ** min(attempt, 30)))
        return base * (0.8 + 0.4 * self._jitter())

    async def run(self) -> None:
        """Sends until cancelled."""
        attempt = 0
        while True:
            if not self._buffer:
                self._ready.clear()
                await self._ready.wait()
                continue
            seq, signal, payload = self._buffer[0]
            try:
                result = await self._send(signal, payload)
            except Exception as exc:  # noqa: BLE001 - a transport bug must not stop forwarding
                result = SendResult(Outcome.RETRY, reason=type(exc).__name__)
            if result.outcome is Outcome.OK:
                self._pop_if_head(seq)
                self.sent += 1
                if attempt:
                    log.info("upstream %s reachable again", self.name,
                             extra={"address": self.name, "event": "forward_recovered"})
                attempt = 0
                continue
            if result.outcome is Outcome.DROP:
                self._pop_if_head(seq)
                self.dropped_rejected += 1
                log.warning("upstream %s refused an export (%s); dropped", self.name,
                            result.reason, extra={"address": self.name, "code": result.reason})
                continue
            if attempt == 0:
                log.warning("upstream %s unavailable (%s); retrying with backoff", self.name,
                            result.reason, extra={"address": self.name, "code": result.reason})
            delay = self.backoff_s(attempt, result.retry_after_s)
            attempt += 1
            self.retries += 1
            await self._sleep(delay)
