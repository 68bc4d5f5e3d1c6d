"""Thread lanes: one tenant's CPU work off the event loop never holds the threads another's needs."""

from __future__ import annotations

import asyncio
import sys
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ztgate.redaction.runtime.thread_lanes import SWITCH_INTERVAL_S, ThreadLanes, default_per_tenant


def _blocker(gate: threading.Event) -> str:
    gate.wait(10)
    return "done"


async def test_a_tenant_flooding_the_threads_leaves_room_for_another() -> None:
    lanes = ThreadLanes(threads=4, per_tenant=2)
    gate = threading.Event()
    try:
        flood = [asyncio.ensure_future(lanes.run("attacker", _blocker, gate)) for _ in range(12)]
        await asyncio.sleep(0.05)
        assert lanes.running("attacker") == 2
        # The other tenant's job runs at once although twelve of the attacker's are in line.
        assert await asyncio.wait_for(lanes.run("normal", lambda: "served"), 2) == "served"
        gate.set()
        assert await asyncio.gather(*flood) == ["done"] * 12
        assert lanes.running("attacker") == 0
    finally:
        gate.set()
        lanes.close()


async def test_one_shared_pool_would_have_made_the_other_tenant_wait() -> None:
    """The control: with one tenant's share equal to every thread, the other tenant waits behind it
    (what the lanes exist to prevent)."""
    lanes = ThreadLanes(threads=2, per_tenant=2)
    gate = threading.Event()
    try:
        flood = [asyncio.ensure_future(lanes.run("attacker", _blocker, gate)) for _ in range(4)]
        await asyncio.sleep(0.05)
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(asyncio.shield(lanes.run("normal", lambda: 1)), 0.3)
        gate.set()
        await asyncio.gather(*flood)
    finally:
        gate.set()
        lanes.close()


async def test_a_cancelled_caller_keeps_its_slot_until_its_job_ends() -> None:
    lanes = ThreadLanes(threads=2, per_tenant=1)
    gate = threading.Event()
    try:
        first = asyncio.ensure_future(lanes.run("t", _blocker, gate))
        await asyncio.sleep(0.05)
        first.cancel()
        with pytest.raises(asyncio.CancelledError):
            await first
        # The thread still runs the cancelled job: the tenant's one slot is still taken.
        assert lanes.running("t") == 1
        second = asyncio.ensure_future(lanes.run("t", lambda: "next"))
        await asyncio.sleep(0.1)
        assert not second.done()
        gate.set()
        assert await asyncio.wait_for(second, 2) == "next"
        assert lanes.running("t") == 0 and not lanes._slots._lines
    finally:
        gate.set()
        lanes.close()


async def test_a_tenants_jobs_start_in_the_order_they_came() -> None:
    lanes = ThreadLanes(threads=4, per_tenant=1)
    started: list[int] = []
    try:
        await asyncio.gather(*(lanes.run("t", started.append, i) for i in range(20)))
        assert started == list(range(20))
    finally:
        lanes.close()


async def test_an_error_in_a_job_reaches_the_caller_and_frees_the_slot() -> None:
    lanes = ThreadLanes(threads=1, per_tenant=1)

    def boom() -> None:
        raise ValueError("bad chunk")
    try:
        with pytest.raises(ValueError, match="bad chunk"):
            await lanes.run("t", boom)
        assert await lanes.run("t", lambda: 2) == 2
        assert not lanes._slots._lines
    finally:
        lanes.close()


async def test_the_job_may_take_arguments_named_like_the_lanes_own() -> None:
    """`Restore` passes `tenant=` to the job: the lane's own tenant is positional only."""
    lanes = ThreadLanes(threads=1)

    def restore(text: str, *, tenant: str, fn: str) -> str:
        return f"{text}/{tenant}/{fn}"
    try:
        assert await lanes.run("lane", restore, "x", tenant="t", fn="f") == "x/t/f"
    finally:
        lanes.close()


@pytest.mark.parametrize(("threads", "per_tenant", "message"), [
    (0, None, "redaction.worker_threads must be >= 1"),
    (2, 3, r"redaction.worker_threads_per_tenant \(3\) must not exceed redaction.worker_threads \(2\)"),
])
def test_impossible_shares_are_refused_naming_the_setting(threads: int, per_tenant: int | None,
                                                         message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ThreadLanes(threads, per_tenant)


@given(threads=st.integers(1, 64))
def test_the_default_share_leaves_threads_for_others_whenever_there_are_two(threads: int) -> None:
    share = default_per_tenant(threads)
    assert 1 <= share <= threads
    assert threads == 1 or share < threads


@settings(max_examples=25, deadline=None)
@given(jobs=st.lists(st.tuples(st.sampled_from("abc"), st.integers(0, 3)), min_size=1, max_size=30),
       threads=st.integers(2, 6))
def test_no_tenant_ever_runs_more_than_its_share_and_every_job_finishes(
        jobs: list[tuple[str, int]], threads: int) -> None:
    per_tenant = default_per_tenant(threads)
    lock = threading.Lock()
    running: dict[str, int] = {}
    peak: dict[str, int] = {}

    def job(tenant: str, ms: int) -> str:
        with lock:
            running[tenant] = running.get(tenant, 0) + 1
            peak[tenant] = max(peak.get(tenant, 0), running[tenant])
        time.sleep(ms / 1000)
        with lock:
            running[tenant] -= 1
        return tenant

    async def main() -> list[str]:
        lanes = ThreadLanes(threads, per_tenant)
        try:
            return await asyncio.gather(*(lanes.run(t, job, t, ms) for t, ms in jobs))
        finally:
            assert not lanes._slots._lines
            lanes.close()
    assert asyncio.run(main()) == [t for t, _ in jobs]
    assert max(peak.values()) <= per_tenant


def _busy(stop: threading.Event) -> int:
    """A CPU-bound job in pure Python (it holds the interpreter lock whenever it can)."""
    n = 0
    while not stop.is_set():
        n = sum(range(2000)) + n % 7
    return n


async def _twenty_wake_ups() -> float:
    """Seconds the event loop takes for 20 short timers in a row, as a call's messages wake it."""
    started = time.perf_counter()
    for _ in range(20):
        await asyncio.sleep(0.0005)
    return time.perf_counter() - started


async def _wake_ups_beside_one_busy_lane(lanes: ThreadLanes) -> float:
    stop = threading.Event()
    job = asyncio.ensure_future(lanes.run("attacker", _busy, stop))
    await asyncio.sleep(0.05)
    try:
        return sorted([await _twenty_wake_ups() for _ in range(9)])[4]  # the median
    finally:
        stop.set()
        await job


async def test_a_tenants_cpu_bound_job_hands_the_interpreter_lock_back_to_the_event_loop_soon() -> None:
    """The event loop shares the interpreter lock with the lanes' threads; with CPython's default
    5 ms switch interval each of its wake-ups waited up to 5 ms behind another tenant's CPU-bound
    job. Creating the lanes shortens the interval; the control (FAULT INJECTED: the interval put
    back to the default for the same lanes) is measured in the same test, on the same machine."""
    lanes = ThreadLanes(threads=2, per_tenant=1)
    try:
        assert sys.getswitchinterval() <= SWITCH_INTERVAL_S
        short = await _wake_ups_beside_one_busy_lane(lanes)
        sys.setswitchinterval(0.005)
        try:
            control = await _wake_ups_beside_one_busy_lane(lanes)
        finally:
            sys.setswitchinterval(SWITCH_INTERVAL_S)
    finally:
        lanes.close()
    assert short * 2 < control, (short, control)
