"""Drives a text-to-text call over a list of texts, one at a time or from N concurrent clients, and times it.

``call`` is either a plain function ``(text) -> str`` (run on threads when concurrent) or a coroutine
function ``async (text) -> str`` (run as asyncio tasks), so that an in-process redactor and a gRPC client
stub plug in the same way. The ``run_*`` functions are for synchronous callers; from inside a running event
loop use the ``arun_*`` coroutines.
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

SyncCall = Callable[[str], str]
AsyncCall = Callable[[str], Awaitable[str]]
Call = SyncCall | AsyncCall


@dataclass(frozen=True, slots=True)
class RunResult:
    """The calls of one run, in the order they were issued.

    ``indices[i]`` is the position in the input texts of call ``i`` (texts are cycled when a run makes more
    calls than there are texts); ``outputs[i]`` and ``durations_s[i]`` are its answer and its latency.
    """

    outputs: list[str]
    indices: list[int]
    durations_s: list[float]
    wall_s: float
    clients: int

    @property
    def calls(self) -> int:
        return len(self.outputs)

    @property
    def throughput_rps(self) -> float:
        return self.calls / self.wall_s if self.wall_s > 0 else 0.0


def is_async(call: Call) -> bool:
    """True for a coroutine function, or an object whose ``__call__`` is one."""
    return inspect.iscoroutinefunction(call) or inspect.iscoroutinefunction(getattr(type(call), "__call__", None))


def _plan(texts: Sequence[str], clients: int, count: int | None, duration_s: float | None) -> int | None:
    """Validate the arguments; return the number of calls to make (None: until the duration is spent)."""
    if not texts:
        raise ValueError("no texts to run")
    if clients < 1:
        raise ValueError(f"clients must be >= 1, got {clients}")
    if count is not None and count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    if duration_s is not None and duration_s <= 0:
        raise ValueError(f"duration_s must be > 0, got {duration_s}")
    if count is None and duration_s is None:
        return len(texts)
    return count


def _sync_only(call: Call, output: object) -> str:
    if inspect.isawaitable(output):
        if inspect.iscoroutine(output):
            output.close()  # never awaited: close it rather than leave a "never awaited" warning behind
        raise TypeError(f"{call!r} returned an awaitable; declare it `async def` so the runner awaits it")
    return output  # type: ignore[return-value]


def _warm_up_sync(call: SyncCall, texts: Sequence[str], warmup: int) -> None:
    for i in range(warmup):
        _sync_only(call, call(texts[i % len(texts)]))


class _Ticket:
    """Hands out call numbers to clients until the count or the deadline is reached (thread-safe)."""

    def __init__(self, count: int | None, deadline: float | None) -> None:
        self._numbers = itertools.count()
        self._lock = threading.Lock()
        self._count = count
        self._deadline = deadline

    def next(self) -> int | None:
        if self._deadline is not None and time.perf_counter() >= self._deadline:
            return None
        with self._lock:
            number = next(self._numbers)
        if self._count is not None and number >= self._count:
            return None
        return number


def _collect(records: list[tuple[int, str, float]], n_texts: int, wall_s: float, clients: int) -> RunResult:
    records.sort(key=lambda r: r[0])
    return RunResult(
        outputs=[r[1] for r in records], indices=[r[0] % n_texts for r in records],
        durations_s=[r[2] for r in records], wall_s=wall_s, clients=clients,
    )


def run_sequential(call: Call, texts: Sequence[str], *, warmup: int = 0) -> RunResult:
    """One call per text, in order, one at a time; ``warmup`` extra untimed calls first."""
    if is_async(call):
        return asyncio.run(arun_sequential(call, texts, warmup=warmup))
    _plan(texts, 1, None, None)
    sync_call: SyncCall = call  # type: ignore[assignment]
    _warm_up_sync(sync_call, texts, warmup)
    records: list[tuple[int, str, float]] = []
    start = time.perf_counter()
    for i, text in enumerate(texts):
        t0 = time.perf_counter()
        output = _sync_only(call, sync_call(text))
        records.append((i, output, time.perf_counter() - t0))
    return _collect(records, len(texts), time.perf_counter() - start, 1)


def run_concurrent(call: Call, texts: Sequence[str], *, clients: int = 16, count: int | None = None,
                   duration_s: float | None = None, warmup: int = 0) -> RunResult:
    """``clients`` concurrent clients, each issuing its next call as soon as its last one is answered.

    Stops after ``count`` calls, or once ``duration_s`` has passed (calls in flight then still complete),
    whichever comes first; with neither, makes one call per text. Sync calls run on ``clients`` threads.
    """
    if is_async(call):
        return asyncio.run(arun_concurrent(call, texts, clients=clients, count=count, duration_s=duration_s,
                                           warmup=warmup))
    count = _plan(texts, clients, count, duration_s)
    sync_call: SyncCall = call  # type: ignore[assignment]
    _warm_up_sync(sync_call, texts, warmup)
    start = time.perf_counter()
    tickets = _Ticket(count, None if duration_s is None else start + duration_s)

    def client() -> list[tuple[int, str, float]]:
        done = []
        while (number := tickets.next()) is not None:
            t0 = time.perf_counter()
            output = _sync_only(call, sync_call(texts[number % len(texts)]))
            done.append((number, output, time.perf_counter() - t0))
        return done

    with ThreadPoolExecutor(max_workers=clients, thread_name_prefix="bench-client") as pool:
        futures = [pool.submit(client) for _ in range(clients)]
        records = [r for f in futures for r in f.result()]
    return _collect(records, len(texts), time.perf_counter() - start, clients)


async def _acall(call: Call, text: str, pool: ThreadPoolExecutor | None = None) -> str:
    if is_async(call):
        return await call(text)  # type: ignore[misc]
    return _sync_only(call, await asyncio.get_running_loop().run_in_executor(pool, call, text))


async def arun_sequential(call: Call, texts: Sequence[str], *, warmup: int = 0) -> RunResult:
    """run_sequential for callers already inside an event loop (a sync call then runs on a thread)."""
    _plan(texts, 1, None, None)
    for i in range(warmup):
        await _acall(call, texts[i % len(texts)])
    records: list[tuple[int, str, float]] = []
    start = time.perf_counter()
    for i, text in enumerate(texts):
        t0 = time.perf_counter()
        output = await _acall(call, text)
        records.append((i, output, time.perf_counter() - t0))
    return _collect(records, len(texts), time.perf_counter() - start, 1)


async def arun_concurrent(call: Call, texts: Sequence[str], *, clients: int = 16, count: int | None = None,
                          duration_s: float | None = None, warmup: int = 0) -> RunResult:
    """run_concurrent for callers already inside an event loop: ``clients`` tasks on this loop (a sync
    call then runs on a pool of ``clients`` threads)."""
    count = _plan(texts, clients, count, duration_s)
    pool = None if is_async(call) else ThreadPoolExecutor(max_workers=clients, thread_name_prefix="bench-client")
    try:
        for i in range(warmup):
            await _acall(call, texts[i % len(texts)], pool)
        start = time.perf_counter()
        tickets = _Ticket(count, None if duration_s is None else start + duration_s)
        records: list[tuple[int, str, float]] = []

        async def client() -> None:
            while (number := tickets.next()) is not None:
                t0 = time.perf_counter()
                output = await _acall(call, texts[number % len(texts)], pool)
                records.append((number, output, time.perf_counter() - t0))

        await asyncio.gather(*(client() for _ in range(clients)))
        return _collect(records, len(texts), time.perf_counter() - start, clients)
    finally:
        if pool is not None:
            pool.shutdown(wait=False)
