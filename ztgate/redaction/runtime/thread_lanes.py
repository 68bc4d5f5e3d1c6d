"""Worker threads for the redaction service's in-process CPU work, shared fairly between tenants.

Stream chunks, answers through the gateway, `Restore` and large policy applications run in threads so
that the event loop keeps serving (service.py). On one shared pool, a tenant streaming 1 MiB chunks of
adversarial text held every thread, and another tenant's answer chunk waited behind all of it until
Envoy's per-message timer (gateway.redaction.message_timeout_s) reset that call mid-answer: the
caller saw a bare INTERNAL. So each tenant has a line of its own: at most `per_tenant` of its jobs run
at once, the rest wait their turn in order, and the threads it cannot take are always there for the
others. The lines are the analysis workers' own (fair_share.TenantSlots): in order, dropped when idle,
and a cancelled call's slot kept until its job really ends.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Callable, Generator
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from ztgate.redaction.runtime.fair_share import TenantCpu, TenantSlots

P = ParamSpec("P")
T = TypeVar("T")


# How long a thread keeps the interpreter lock while another waits for it (CPython's default: 5 ms).
# The event loop that serves every tenant's calls shares that lock with these threads, and wakes tens
# of times in one call (each ext_proc message, each worker's answer); each time it waited up to the
# whole interval behind another tenant's CPU-bound job. Measured on 2 shared cores: 20 wake-ups of the
# loop took 23 ms alone, 138 ms beside one thread restoring 1 MiB texts and 695 ms beside four; at
# 0.5 ms, 41 and 129 ms (the attack bench's `live_restore`: the normal tenant's p99 8.8x).
SWITCH_INTERVAL_S = 0.0005


def job_estimate_s(s_per_char: float, args: tuple[object, ...], kwargs: dict[str, object]) -> float:
    """A job's CPU estimated from the text it is given: its str and bytes arguments' lengths."""
    chars = sum(len(a) for a in (*args, *kwargs.values()) if isinstance(a, (str, bytes, bytearray)))
    return chars * s_per_char


def default_per_tenant(threads: int) -> int:
    """Jobs one tenant may run at once by default: half the threads (at least one)."""
    return max(1, threads // 2)


class ThreadLanes:
    """``await lanes.run(tenant, fn, *args)``: `fn` in a worker thread, within the tenant's share."""

    def __init__(self, threads: int, per_tenant: int | None = None, cpu: TenantCpu | None = None,
                 reserve_ns_per_char: int = 0) -> None:
        if threads < 1:
            raise ValueError(f"redaction.worker_threads must be >= 1; got {threads}")
        per_tenant = per_tenant or default_per_tenant(threads)
        if per_tenant > threads:
            raise ValueError(f"redaction.worker_threads_per_tenant ({per_tenant}) must not exceed "
                             f"redaction.worker_threads ({threads})")
        self.threads = threads
        self.per_tenant = per_tenant
        # Process-wide: the lanes' threads hand the lock back to the event loop sooner.
        if sys.getswitchinterval() > SWITCH_INTERVAL_S:
            sys.setswitchinterval(SWITCH_INTERVAL_S)
        self._executor = ThreadPoolExecutor(threads, thread_name_prefix="redaction-lane")
        # The same per-tenant lines as the analysis workers' fair share.
        self._slots = TenantSlots(per_tenant, "thread jobs", "redaction.worker_threads_per_tenant")
        # One job of a tenant at a time on the event loop (`run_on_loop`): each turn of the loop then
        # runs at most one step of each tenant, however many calls it sends (docs/adr/0015).
        self._on_loop = TenantSlots(1, "jobs on the event loop", "redaction.worker_threads_per_tenant")
        # Each job's CPU (its thread's, or the loop's for its steps) is charged to its tenant's one
        # budget of the process's CPU (fair_share.TenantCpu; the service checks it at each call).
        self.cpu = cpu or TenantCpu(0)
        # Each job in a thread holds an estimate of its CPU from its start, by the characters (or
        # bytes) of text it is given (`job_estimate_s`), so that the jobs a tenant starts at once
        # count before they end (TenantCpu.reserve; 0: none; docs/adr/0035).
        self.reserve_s_per_char = reserve_ns_per_char / 1e9

    def running(self, tenant: str) -> int:
        """Jobs of the tenant running now (diagnostics, tests)."""
        return self._slots.in_use(tenant)

    async def run(self, tenant: str, fn: Callable[P, T], /,
                  *args: P.args, **kwargs: P.kwargs) -> T:
        """`fn(*args, **kwargs)` in a worker thread once the tenant has a free slot.

        A cancelled caller gives its slot back only when its job ends (a thread cannot be stopped), so
        a tenant that cancels calls still holds no more than its share."""
        spent = [0.0]
        held = 0.0

        def timed() -> T:
            started = time.thread_time()
            try:
                with self.cpu.job(tenant, held):
                    return fn(*args, **kwargs)
            finally:
                spent[0] = time.thread_time() - started

        def settle(_: object) -> None:
            self.cpu.release(tenant, held)
            self.cpu.charge(tenant, spent[0])

        async with self._slots.slot(tenant, None) as hold:
            # Held from the job's start (on the loop, so no other job of the tenant starts between
            # the reservation and the check), given back and charged for real when it ends.
            held = self.cpu.reserve(tenant, job_estimate_s(self.reserve_s_per_char, args, kwargs))
            job = asyncio.get_running_loop().run_in_executor(self._executor, timed)
            # Charged on the loop when the job ends, also when its caller has gone.
            job.add_done_callback(settle)
            hold(job)
            return await asyncio.shield(job)

    async def run_on_loop(self, tenant: str, steps: Generator[None, None, T]) -> T:
        """`steps` driven to its end on the event loop, one step per turn of the loop, within the
        tenant's share (its jobs in threads and here count together). For CPU work in short C calls
        (a Restore's regex slices): in a thread, each call holds the interpreter lock, and the
        event loop, which serves every tenant, waited behind a tenant's threads for hundreds of
        milliseconds at a time; here it serves every other call between two steps.

        One such job of a tenant runs at a time, the rest wait in its line in order: with four at
        once, each turn of the loop ran a step of each of the four before another tenant's
        callback (the attack bench's `live_restore`), so one tenant's share of the loop grew with
        the calls it sent; now it is one step a turn (docs/adr/0015)."""
        async with self._slots.slot(tenant, None), self._on_loop.slot(tenant, None):
            while True:
                started = time.thread_time()
                try:
                    next(steps)
                except StopIteration as done:
                    return done.value
                finally:
                    self.cpu.charge(tenant, time.thread_time() - started)
                await asyncio.sleep(0)

    def close(self) -> None:
        """Stops taking jobs; running ones finish in their threads."""
        self._executor.shutdown(wait=False, cancel_futures=True)
