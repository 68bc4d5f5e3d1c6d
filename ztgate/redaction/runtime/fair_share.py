"""Fair share of the analysis workers: at most so many analyses of one tenant at once.

Without it one tenant's flood fills the pool's queue and every other tenant waits behind it. Past the
cap a call waits in its tenant's own line rather than being refused (a chat request is several texts,
and every call has a deadline); the line is bounded too (`TenantCalls`, `max_queued`), since waiting
calls hold memory. Details and the refusals: docs/architecture.md ("Module notes").
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Any

from ztgate.common.errors import DeadlineExceeded, ResourceExhausted


class TenantBusy(DeadlineExceeded):
    """The call's deadline passed while the tenant's analyses filled its share of the workers."""


class TenantQueueFull(ResourceExhausted):
    """The tenant already has its limit of calls waiting for its share of the workers."""


def default_share(workers: int) -> int:
    """Analyses one tenant may run at once by default: all but one worker (at least one)."""
    return max(1, workers - 1)


@dataclass
class _Line:
    slots: asyncio.Semaphore
    users: int = 0  # holding or waiting; the line is dropped at zero, so idle tenants cost nothing
    held: int = 0


class TenantSlots:
    """``async with slots.slot(tenant, deadline)``: holds one of the tenant's `limit` slots (of the
    analysis workers; thread_lanes.py uses the same lines for the server's threads). `what` and
    `setting` name them in the refusal."""

    def __init__(self, limit: int, what: str = "analyses",
                 setting: str = "redaction.max_inflight_per_tenant") -> None:
        if limit < 1:
            raise ValueError(f"the per-tenant limit must be >= 1; got {limit}")
        self.limit = limit
        self.what, self.setting = what, setting
        self._lines: dict[str, _Line] = {}

    def in_use(self, tenant: str) -> int:
        """Slots the tenant holds now (diagnostics, tests)."""
        line = self._lines.get(tenant)
        return 0 if line is None else line.held

    @asynccontextmanager
    async def slot(self, tenant: str,
                   deadline: float | None) -> AsyncIterator[Callable[[asyncio.Future[Any]], None]]:
        """Waits (in order) until `deadline`, in the event loop's clock (None: as long as it takes),
        for one of the tenant's slots.

        Yields `hold(future)`: the slot is then kept past the block until `future` is done. The pool
        calls it when the tenant's call abandons a worker (a cancelled or overrun analysis), so the
        worker's replacement counts against the tenant that caused it, not against everyone else:
        a tenant cannot take workers out of service faster than its share."""
        line = self._lines.get(tenant)
        if line is None:
            line = self._lines[tenant] = _Line(asyncio.Semaphore(self.limit))
        line.users += 1
        try:
            try:
                async with asyncio.timeout_at(deadline):
                    await line.slots.acquire()
            except TimeoutError:
                raise TenantBusy(
                    f"tenant '{tenant or 'default'}' already has its limit of {self.limit} {self.what} "
                    f"running ({self.setting}), and this call's deadline passed "
                    "before its turn: send fewer texts at once, or allow more time") from None
            line.held += 1
            kept: list[asyncio.Future[Any]] = []
            try:
                yield kept.append
            finally:
                pending = next((f for f in kept if not f.done()), None)
                if pending is None:
                    self._release(tenant, line)
                else:
                    line.users += 1  # the line outlives this call until the slot is given back
                    pending.add_done_callback(lambda _: self._release(tenant, line, leave=True))
        finally:
            self._leave(tenant, line)

    def _release(self, tenant: str, line: _Line, *, leave: bool = False) -> None:
        line.held -= 1
        line.slots.release()
        if leave:
            self._leave(tenant, line)

    def _leave(self, tenant: str, line: _Line) -> None:
        line.users -= 1
        if line.users == 0 and self._lines.get(tenant) is line:
            del self._lines[tenant]


class TenantCalls:
    """``with calls.admit(tenant):`` around one call's whole wait for, and use of, the tenant's
    slots (however many texts it has): at most `running + max_queued` of a tenant's calls are in
    its line at once, where `running` is its share of slots; the next is refused at once."""

    def __init__(self, running: int, max_queued: int,
                 setting: str = "redaction.max_queued_per_tenant") -> None:
        if running < 1 or max_queued < 0:
            raise ValueError(f"need running >= 1 and max_queued >= 0; got {running}, {max_queued}")
        self.running, self.max_queued, self.setting = running, max_queued, setting
        self._calls: dict[str, int] = {}

    def in_line(self, tenant: str) -> int:
        """The tenant's calls waiting or running now (diagnostics, tests)."""
        return self._calls.get(tenant, 0)

    @contextmanager
    def admit(self, tenant: str) -> Iterator[None]:
        """Refuses (TenantQueueFull) when the tenant's line is full; else holds a place in it for
        the block. Synchronous: nothing runs between the check and the count."""
        calls = self._calls.get(tenant, 0)
        if calls >= self.running + self.max_queued:
            raise TenantQueueFull(
                f"tenant '{tenant or 'default'}' already has {self.max_queued} calls waiting for its "
                f"share of the analysis workers ({self.setting}), besides those running: retry "
                "when some have finished, or send fewer calls at once")
        self._calls[tenant] = calls + 1
        try:
            yield
        finally:
            left = self._calls[tenant] - 1
            if left:
                self._calls[tenant] = left
            else:
                del self._calls[tenant]  # idle tenants cost nothing


class RestoreBudgetSpent(ResourceExhausted):
    """The tenant has had its Restore characters for now (`TenantRate`)."""


class _TenantBuckets:
    """Token buckets per tenant that refill at `per_s` a second up to `capacity`; buckets of tenants that have
    been full a while are forgotten past `max_tenants` (idle tenants cost nothing)."""

    def __init__(self, per_s: float, capacity: float, max_tenants: int,
                 clock: Callable[[], float] | None) -> None:
        self.per_s = per_s
        self._capacity = capacity
        self._clock = clock or time.monotonic
        self._buckets: dict[str, tuple[float, float]] = {}   # tenant -> (level, at)
        self._max_tenants = max_tenants

    def _level(self, tenant: str, now: float) -> float:
        level, at = self._buckets.get(tenant, (self._capacity, now))
        return min(self._capacity, level + (now - at) * self.per_s)

    def _set(self, tenant: str, level: float, now: float) -> None:
        self._buckets[tenant] = (level, now)
        if len(self._buckets) > self._max_tenants:
            for name in [t for t in self._buckets if self._level(t, now) >= self._capacity]:
                del self._buckets[name]


class TenantRate(_TenantBuckets):
    """A token bucket of cost per tenant (Restore's characters): a tenant may spend `per_s` a
    second, `burst` at once; a call past it is refused at once (RESOURCE_EXHAUSTED naming
    `setting`), not queued, so a refused call holds nothing. 0 `per_s`: no limit. Buckets of
    tenants that have been full a while are forgotten past `max_tenants`."""

    def __init__(self, per_s: int, burst: int, setting: str, max_tenants: int = 10_000,
                 clock: Callable[[], float] | None = None) -> None:
        self.burst, self.setting = max(burst, per_s), setting
        super().__init__(per_s, float(self.burst), max_tenants, clock)

    def take(self, tenant: str, cost: int) -> None:
        if self.per_s <= 0:
            return
        now = self._clock()
        tokens = self._level(tenant, now)
        if cost > tokens:
            self._buckets[tenant] = (tokens, now)
            wait_s = (cost - tokens) / self.per_s
            raise RestoreBudgetSpent(
                f"the tenant's Restore budget of {self.per_s} characters a second on this replica is "
                f"spent ({self.setting}); retry in {wait_s:.1f} s")
        self._set(tenant, tokens - cost, now)


class CpuBudgetSpent(ResourceExhausted):
    """The tenant has used its share of the server process's CPU for now (`TenantCpu`)."""


class TenantCpu(_TenantBuckets):
    """One budget of the server process's CPU per tenant, across every kind of its work there.

    The work is charged once it is done, in CPU seconds measured on the thread that ran it
    (`charge`: stream and answer chunks, policy applications and Restore slices, thread_lanes.py);
    a tenant that has spent more than it has refilled (its bucket below zero) is refused at its
    next call (`check`), until `per_s` a second has paid the debt back. A bucket holds at most
    `burst_s`. Each limit of one kind of work (threads per tenant, Restore characters) leaves the
    others free: without this, one tenant sending every kind at once took the CPU that another
    tenant's calls needed (docs/adr/0031). 0 `per_s`: no limit.

    Jobs under way count before they end (`reserve`, `release`): each holds an estimate of its CPU
    from its start, and a tenant whose bucket less its jobs' estimates is below zero is refused as
    one in debt. Charged only at their end, the jobs a tenant started at once (its four threads'
    worth of 1 MiB stream chunks, each seconds long) all began while it still had budget; now the
    first large one takes the budget and the next are refused at their start (docs/adr/0035)."""

    def __init__(self, per_s: float, burst_s: float | None = None,
                 setting: str = "redaction.cpu_ms_per_s_per_tenant", max_tenants: int = 10_000,
                 clock: Callable[[], float] | None = None,
                 reserve_setting: str = "redaction.cpu_reserve_ns_per_char") -> None:
        self.burst_s = per_s if burst_s is None else max(burst_s, per_s)
        self.setting, self.reserve_setting = setting, reserve_setting
        super().__init__(per_s, self.burst_s, max_tenants, clock)
        self._reserved: dict[str, float] = {}   # tenant -> CPU seconds its jobs under way hold
        self._own = threading.local()          # the reservation of the job running in this thread

    def reserved(self, tenant: str) -> float:
        """CPU seconds the tenant's jobs under way hold now (diagnostics, tests)."""
        return self._reserved.get(tenant, 0.0)

    def _free(self, tenant: str, now: float) -> float:
        """The bucket less the estimates of the tenant's jobs under way, bar the one running in
        the calling thread (it checks whether its own work may go on: `job`)."""
        own = getattr(self._own, "held", None)
        mine = own[1] if own is not None and own[0] == tenant else 0.0
        return self._level(tenant, now) - self._reserved.get(tenant, 0.0) + mine

    def reserve(self, tenant: str, cpu_s: float) -> float:
        """Holds `cpu_s` for a job of the tenant that starts now, unless the tenant is already in
        debt counting its jobs under way (then nothing is held, and the job, if refusable, is
        refused by its own `check`). Returns what was held, for `release`. Called on the loop."""
        if self.per_s <= 0 or cpu_s <= 0 or self._free(tenant, self._clock()) < 0:
            return 0.0
        self._reserved[tenant] = self._reserved.get(tenant, 0.0) + cpu_s
        return cpu_s

    def release(self, tenant: str, held_s: float) -> None:
        """Gives back what `reserve` held once the job has ended (its real CPU is `charge`d)."""
        if held_s <= 0:
            return
        left = self._reserved.get(tenant, 0.0) - held_s
        if left > 1e-12:
            self._reserved[tenant] = left
        else:
            self._reserved.pop(tenant, None)   # idle tenants cost nothing

    @contextmanager
    def job(self, tenant: str, held_s: float) -> Iterator[None]:
        """Around a job's work in its thread: its own reservation does not count against its own
        `check` (only the tenant's other jobs under way do)."""
        self._own.held = (tenant, held_s)
        try:
            yield
        finally:
            self._own.held = None

    def left(self, tenant: str) -> float:
        """CPU seconds the tenant has left now (below zero: its debt); diagnostics, tests."""
        return self._level(tenant, self._clock()) if self.per_s > 0 else float("inf")

    def check(self, tenant: str) -> None:
        """Refuses (CpuBudgetSpent, RESOURCE_EXHAUSTED naming the setting) a tenant in debt,
        counting the estimates of its jobs under way."""
        if self.per_s <= 0:
            return
        left = self._free(tenant, self._clock())
        if left < 0:
            under_way = (f", counting its jobs under way at {self.reserve_setting}"
                         if self._reserved.get(tenant) else "")
            raise CpuBudgetSpent(
                f"tenant '{tenant or 'default'}' has used its share of the redaction service's CPU on "
                f"this replica, {self.per_s * 1000:g} ms a second ({self.setting}{under_way}); "
                f"retry in {-left / self.per_s:.1f} s")

    def charge(self, tenant: str, cpu_s: float) -> None:
        """Takes `cpu_s` from the tenant's bucket (it may go below zero: the work is done)."""
        if self.per_s <= 0 or cpu_s <= 0:
            return
        now = self._clock()
        self._set(tenant, self._level(tenant, now) - cpu_s, now)
