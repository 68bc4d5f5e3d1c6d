"""Worker threads for the redaction service's in-process CPU work, shared fairly between tenants.

Stream chunks, answers through the gateway, `Restore` and large policy applications run in threads so
that the event loop keeps serving (service.py). On one shared pool, a tenant streaming 1 MiB chunks of
adversarial text held every thread, and another tenant's answer chunk waited behind all of it until
Envoy's per-message timer (gateway.redaction_message_timeout_s) reset that call mid-answer: the
caller saw a bare INTERNAL. So each tenant has a line of its own: at most `per_tenant` of its jobs run
at once, the rest wait their turn in order, and the threads it cannot take are always there for the
others. Lines exist only while a tenant has work, so idle tenants cost nothing.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


def default_per_tenant(threads: int) -> int:
    """Jobs one tenant may run at once by default: half the threads (at least one)."""
    return max(1, threads // 2)


@dataclass
class _Line:
    slots: asyncio.Semaphore
    users: int = 0  # running or waiting; the line is dropped at zero
    running: int = 0


class ThreadLanes:
    """``await lanes.run(tenant, fn, *args)``: `fn` in a worker thread, within the tenant's share."""

    def __init__(self, threads: int, per_tenant: int | None = None) -> None:
        if threads < 1:
            raise ValueError(f"redaction.worker_threads must be >= 1; got {threads}")
        per_tenant = per_tenant or default_per_tenant(threads)
        if per_tenant > threads:
            raise ValueError(f"redaction.worker_threads_per_tenant ({per_tenant}) must not exceed "
                             f"redaction.worker_threads ({threads})")
        self.threads = threads
        self.per_tenant = per_tenant
        self._executor = ThreadPoolExecutor(threads, thread_name_prefix="redaction-lane")
        self._lines: dict[str, _Line] = {}

    def running(self, tenant: str) -> int:
        """Jobs of the tenant running now (diagnostics, tests)."""
        line = self._lines.get(tenant)
        return 0 if line is None else line.running

    async def run(self, tenant: str, fn: Callable[P, T], /,
                  *args: P.args, **kwargs: P.kwargs) -> T:
        """`fn(*args, **kwargs)` in a worker thread once the tenant has a free slot.

        A cancelled caller gives its slot back only when its job ends (a thread cannot be stopped), so
        a tenant that cancels calls still holds no more than its share."""
        line = self._lines.get(tenant)
        if line is None:
            line = self._lines[tenant] = _Line(asyncio.Semaphore(self.per_tenant))
        line.users += 1
        try:
            await line.slots.acquire()
        except BaseException:
            self._leave(tenant, line)
            raise
        line.running += 1
        job: asyncio.Future[T] | None = None
        try:
            job = asyncio.get_running_loop().run_in_executor(
                self._executor, functools.partial(fn, *args, **kwargs))
            return await asyncio.shield(job)
        finally:
            if job is not None and not job.done():  # cancelled while it runs: it runs on
                job.add_done_callback(lambda _: self._release(tenant, line))
            else:
                self._release(tenant, line)

    def _release(self, tenant: str, line: _Line) -> None:
        line.running -= 1
        line.slots.release()
        self._leave(tenant, line)

    def _leave(self, tenant: str, line: _Line) -> None:
        line.users -= 1
        if line.users == 0 and self._lines.get(tenant) is line:
            del self._lines[tenant]

    def close(self) -> None:
        """Stops taking jobs; running ones finish in their threads."""
        self._executor.shutdown(wait=False, cancel_futures=True)
