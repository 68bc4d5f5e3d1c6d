"""Forwarding upstream: bounded buffer (oldest dropped), backoff on retryable errors, no hang."""

import asyncio

import pytest

from ztgate.telemetry.forwarder import Forwarder, Outcome, SendResult


class Upstream:
    def __init__(self, results: list[SendResult]) -> None:
        self.results = results
        self.received: list[bytes] = []

    async def __call__(self, signal: str, payload: bytes) -> SendResult:
        result = self.results.pop(0) if self.results else SendResult(Outcome.OK)
        if result.outcome is Outcome.OK:
            self.received.append(payload)
        return result


def _forwarder(upstream, sleeps: list[float], max_bytes: int = 100) -> Forwarder:
    async def sleep(s: float) -> None:
        sleeps.append(s)
        await asyncio.sleep(0)

    return Forwarder("up", upstream, ["metrics"], max_bytes, initial_backoff_s=0.5,
                     max_backoff_s=4.0, sleep=sleep, jitter=lambda: 0.5)


async def _run_until(forwarder: Forwarder, done) -> None:
    task = asyncio.create_task(forwarder.run())
    try:
        for _ in range(1000):
            if done():
                return
            await asyncio.sleep(0)
        raise AssertionError("forwarder did not get there in 1000 loop turns")
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


def test_buffer_is_bounded_in_bytes_and_drops_the_oldest() -> None:
    f = _forwarder(Upstream([]), [], max_bytes=25)
    for i in range(5):
        f.offer("metrics", bytes([i]) * 10)
    f.offer("traces", b"t" * 10)  # not a forwarded signal
    f.offer("metrics", b"x" * 26)  # larger than the whole buffer
    assert len(f) == 2 and f.buffered_bytes == 20 and f.dropped_overflow == 4


async def test_retryable_failures_back_off_exponentially_then_deliver_in_order() -> None:
    retry = SendResult(Outcome.RETRY, reason="UNAVAILABLE")
    upstream = Upstream([retry, retry, retry])
    sleeps: list[float] = []
    f = _forwarder(upstream, sleeps)
    f.offer("metrics", b"a")
    f.offer("metrics", b"b")
    await _run_until(f, lambda: len(upstream.received) == 2)
    assert upstream.received == [b"a", b"b"]
    assert sleeps == [0.5, 1.0, 2.0] and f.retries == 3 and f.sent == 2


async def test_delay_asked_by_the_upstream_wins_and_backoff_is_capped() -> None:
    upstream = Upstream([SendResult(Outcome.RETRY, 3.0, "RESOURCE_EXHAUSTED")]
                        + [SendResult(Outcome.RETRY, reason="UNAVAILABLE")] * 6)
    sleeps: list[float] = []
    f = _forwarder(upstream, sleeps)
    f.offer("metrics", b"a")
    await _run_until(f, lambda: upstream.received == [b"a"])
    assert sleeps[0] == 3.0 and max(sleeps) == 4.0


async def test_permanent_refusal_drops_the_export_and_moves_on() -> None:
    upstream = Upstream([SendResult(Outcome.DROP, reason="INVALID_ARGUMENT")])
    f = _forwarder(upstream, [])
    f.offer("metrics", b"bad")
    f.offer("metrics", b"good")
    await _run_until(f, lambda: upstream.received == [b"good"])
    assert f.dropped_rejected == 1 and f.buffered_bytes == 0


@pytest.mark.parametrize("attempt, expected", [(0, 0.5), (3, 4.0), (40, 4.0)])
def test_backoff_grows_and_is_capped(attempt, expected) -> None:
    f = _forwarder(Upstream([]), [])
    assert f.backoff_s(attempt, None) == expected
