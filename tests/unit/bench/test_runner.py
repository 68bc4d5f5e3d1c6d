"""The benchmark driver: same results for sync and async calls, real concurrency, count and duration limits."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from ztgate_bench.runner import arun_concurrent, arun_sequential, is_async, run_concurrent, run_sequential

TEXTS = ["alpha", "beta", "gamma"]


def upper(text: str) -> str:
    return text.upper()


async def aupper(text: str) -> str:
    await asyncio.sleep(0)
    return text.upper()


class AsyncCallable:
    async def __call__(self, text: str) -> str:
        return text.upper()


def test_is_async_recognises_coroutine_functions_and_callable_objects() -> None:
    assert is_async(aupper) and is_async(AsyncCallable())
    assert not is_async(upper)


@pytest.mark.parametrize("call", [upper, aupper, AsyncCallable()], ids=["sync", "async", "async-object"])
def test_sequential_run_answers_every_text_in_order(call) -> None:
    result = run_sequential(call, TEXTS, warmup=2)
    assert result.outputs == ["ALPHA", "BETA", "GAMMA"]
    assert result.indices == [0, 1, 2]
    assert len(result.durations_s) == 3 and all(d >= 0 for d in result.durations_s)
    assert result.clients == 1 and result.calls == 3 and result.throughput_rps > 0


@pytest.mark.parametrize("call", [upper, aupper], ids=["sync", "async"])
def test_concurrent_run_cycles_texts_up_to_count(call) -> None:
    result = run_concurrent(call, TEXTS, clients=4, count=10)
    assert result.calls == 10
    assert result.indices == [i % 3 for i in range(10)]
    assert result.outputs == [TEXTS[i % 3].upper() for i in range(10)]
    assert result.clients == 4


def test_concurrent_run_defaults_to_one_call_per_text() -> None:
    assert run_concurrent(upper, TEXTS, clients=2).calls == 3


def test_sync_calls_really_overlap_on_threads() -> None:
    in_flight, peak, lock = 0, 0, threading.Lock()

    def slow(text: str) -> str:
        nonlocal in_flight, peak
        with lock:
            in_flight += 1
            peak = max(peak, in_flight)
        time.sleep(0.05)
        with lock:
            in_flight -= 1
        return text

    result = run_concurrent(slow, TEXTS, clients=8, count=16)
    assert peak == 8
    assert result.wall_s < 0.05 * 16 / 2


def test_async_calls_really_overlap_on_the_loop() -> None:
    async def slow(text: str) -> str:
        await asyncio.sleep(0.05)
        return text

    result = run_concurrent(slow, TEXTS, clients=16, count=32)
    assert result.calls == 32 and result.wall_s < 0.05 * 32 / 4


def test_duration_limit_stops_issuing_calls() -> None:
    def slow(text: str) -> str:
        time.sleep(0.01)
        return text

    result = run_concurrent(slow, TEXTS, clients=2, duration_s=0.1)
    assert 2 <= result.calls <= 40
    assert result.wall_s < 1.0


async def test_arun_variants_work_inside_a_running_loop() -> None:
    seq = await arun_sequential(aupper, TEXTS)
    conc = await arun_concurrent(upper, TEXTS, clients=3, count=6)
    assert seq.outputs == ["ALPHA", "BETA", "GAMMA"]
    assert conc.outputs == [TEXTS[i % 3].upper() for i in range(6)]


def test_a_sync_function_returning_an_awaitable_is_rejected() -> None:
    def sneaky(text: str):
        return aupper(text)

    with pytest.raises(TypeError, match="async def"):
        run_sequential(sneaky, TEXTS)


@pytest.mark.parametrize("kwargs", [{"clients": 0}, {"count": -1}, {"duration_s": 0}])
def test_invalid_run_arguments_are_rejected(kwargs) -> None:
    with pytest.raises(ValueError):
        run_concurrent(upper, TEXTS, **kwargs)


def test_no_texts_is_rejected() -> None:
    with pytest.raises(ValueError, match="no texts"):
        run_sequential(upper, [])


def test_errors_from_the_call_propagate() -> None:
    def boom(text: str) -> str:
        raise RuntimeError("backend down")

    with pytest.raises(RuntimeError, match="backend down"):
        run_concurrent(boom, TEXTS, clients=2)
