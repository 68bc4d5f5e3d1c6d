"""Fair share and deadlines in the redaction service: what reaches the analysis pool, when, how many at once.

The pool is `HeldPool` (a TEST DOUBLE recording calls and holding them on demand, tests/unit/redaction/
pool_doubles.py); the service, its policies and its per-tenant slots are the real ones.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from ztgate.common.errors import DeadlineExceeded
from ztgate.redaction.runtime.fair_share import (CpuBudgetSpent, RestoreBudgetSpent, TenantBusy, TenantCalls,
                                                TenantCpu, TenantQueueFull, TenantRate, TenantSlots,
                                                default_share)
from ztgate.redaction.runtime.thread_lanes import ThreadLanes
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.patterns.scanner import PatternScanner
from ztgate.redaction.policies import PolicyStore
from ztgate.redaction.service import RedactionService
from ztgate.redaction.vault import Vault
from tests.unit.redaction.pattern_service import ScannerPool
from tests.unit.redaction.pool_doubles import HeldPool

TEST_POLICIES = Path(__file__).parents[1] / "data" / "policies"


@pytest.fixture(scope="module")
def scanner(hs_cache_dir: Path) -> PatternScanner:
    return PatternScanner(cache_dir=hs_cache_dir)


def _service(scanner: PatternScanner, pool: HeldPool, share: int | None = None,
             queued: int = 64) -> RedactionService:
    return RedactionService(policies=PolicyStore.load(TEST_POLICIES), pool=pool, scanner=scanner,
                            vault=Vault(), max_text_bytes=65536, max_inflight_per_tenant=share,
                            max_queued_per_tenant=queued,
                            operators=Operators(hash_key="test-hash-key-0123456",
                                                encrypt_key="0123456789abcdef"))


async def _until(predicate, what: str) -> None:
    for _ in range(200):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(what)


@pytest.mark.parametrize("workers, share", [(1, 1), (2, 1), (3, 2), (16, 15)])
def test_the_default_share_leaves_one_worker_to_the_other_tenants(workers: int, share: int) -> None:
    assert default_share(workers) == share


async def test_one_tenants_flood_holds_its_share_and_another_tenant_still_gets_a_worker(
        scanner: PatternScanner) -> None:
    pool = HeldPool(size=2)
    pool.held_prefixes = {"flood"}
    service = _service(scanner, pool)  # the default share: 1 of the 2 workers
    flood = [asyncio.ensure_future(service.redact(f"flood {i}", tenant="noisy")) for i in range(6)]
    await _until(lambda: pool.running == ["flood 0"], "the first flood call reached a worker")
    other = await asyncio.wait_for(service.redact("hello", tenant="quiet"), 2)  # served at once
    assert other.text == "hello"
    assert pool.texts == ["flood 0", "hello"]  # the rest of the flood waits in its own line
    assert service.tenant_slots.in_use("noisy") == 1
    pool.release()
    results = await asyncio.gather(*flood)
    assert [r.text for r in results] == [f"flood {i}" for i in range(6)]
    assert pool.texts[2:] == [f"flood {i}" for i in range(1, 6)]  # their turn, in order
    assert service.tenant_slots.in_use("noisy") == 0


async def test_one_request_with_many_messages_runs_within_the_share(scanner: PatternScanner) -> None:
    pool = HeldPool(size=4)
    pool.held_prefixes = {"msg"}
    service = _service(scanner, pool, share=2)
    call = asyncio.ensure_future(service.redact_many([f"msg {i}" for i in range(10)], tenant="acme"))
    await _until(lambda: len(pool.running) == 2, "two messages on workers")
    await asyncio.sleep(0.05)
    assert len(pool.running) == 2 and len(pool.texts) == 2  # never more than the share
    pool.release()
    assert [r.text for r in await call] == [f"msg {i}" for i in range(10)]


async def test_past_its_share_a_call_waits_its_deadline_then_fails_naming_the_setting(
        scanner: PatternScanner) -> None:
    pool = HeldPool(size=2)
    pool.held_prefixes = {"slow"}
    service = _service(scanner, pool)
    holder = asyncio.ensure_future(service.redact("slow", tenant="acme"))
    await _until(lambda: pool.running == ["slow"], "the first call on a worker")
    loop = asyncio.get_running_loop()
    started = loop.time()
    with pytest.raises(TenantBusy) as raised:
        await service.redact("next", tenant="acme", timeout_s=0.2)
    assert 0.15 < loop.time() - started < 1.5
    assert raised.value.status == "DEADLINE_EXCEEDED"
    assert "limit of 1 analyses" in str(raised.value)
    assert "redaction.max_inflight_per_tenant" in str(raised.value)
    assert "next" not in pool.texts  # it never reached the pool
    pool.release()
    await holder


async def test_the_callers_remaining_time_is_the_pools_deadline(scanner: PatternScanner) -> None:
    pool = HeldPool()
    service = _service(scanner, pool)
    loop = asyncio.get_running_loop()
    # Without a deadline of its own, a call gets the pool's timeout; a longer one is the caller's to
    # give (the pool still ends any one analysis at its timeout).
    for timeout_s, budget in [(0.5, 0.5), (None, pool.timeout_s), (1000.0, 1000.0)]:
        before = loop.time()
        await service.redact("text", timeout_s=timeout_s)
        deadline = pool.deadlines[-1]
        assert deadline is not None and before + budget <= deadline <= loop.time() + budget


async def test_a_deadline_that_passes_on_a_worker_fails_the_call_closed(scanner: PatternScanner) -> None:
    pool = HeldPool()
    pool.held_prefixes = {"slow"}
    service = _service(scanner, pool)
    with pytest.raises(DeadlineExceeded):
        await service.redact_many(["slow one", "quick"], tenant="acme", session_id="s1", timeout_s=0.1)
    # The session exists from the start (Restore accepts it), but nothing was pseudonymised in it.
    assert service.vault.entry_count("acme", "s1") == 0


async def test_the_first_text_to_fail_cancels_the_others_of_its_request(scanner: PatternScanner) -> None:
    pool = HeldPool(size=3)
    pool.held_prefixes = {"held"}
    service = _service(scanner, pool, share=3)
    with pytest.raises(RuntimeError):
        await service.redact_many(["held a", "held b", "boom"])
    assert sorted(pool.cancelled) == ["held a", "held b"]  # no worker kept for a failed request
    assert pool.running == [] and service.tenant_slots.in_use("") == 0


async def test_a_cancelled_call_leaves_the_tenants_line(scanner: PatternScanner) -> None:
    pool = HeldPool(size=2)
    pool.held_prefixes = {"held"}
    service = _service(scanner, pool)
    first = asyncio.ensure_future(service.redact("held", tenant="acme"))
    waiting = asyncio.ensure_future(service.redact("waiting", tenant="acme"))
    await _until(lambda: pool.running == ["held"], "the first call on a worker")
    first.cancel()
    waiting_done = await asyncio.wait_for(waiting, 2)  # the slot passed on to the next in line
    assert waiting_done.text == "waiting" and pool.cancelled == ["held"]
    assert service.tenant_slots.in_use("acme") == 0


def test_a_share_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match=">= 1"):
        TenantSlots(0)


async def test_a_slot_held_for_an_abandoned_worker_is_given_back_only_when_it_is_replaced() -> None:
    # A tenant whose call abandoned a worker keeps its slot until the pool says the worker is back:
    # cancelling calls cannot take workers out of service faster than the tenant's share.
    slots = TenantSlots(1)
    loop = asyncio.get_running_loop()
    replaced: asyncio.Future[None] = loop.create_future()
    async with slots.slot("attacker", loop.time() + 1) as hold:
        hold(replaced)
    assert slots.in_use("attacker") == 1
    with pytest.raises(TenantBusy):
        async with slots.slot("attacker", loop.time() + 0.05):
            pass
    async with slots.slot("normal", loop.time() + 0.05):  # another tenant is not held up
        assert slots.in_use("normal") == 1
    replaced.set_result(None)
    await asyncio.sleep(0)
    assert slots.in_use("attacker") == 0
    async with slots.slot("attacker", loop.time() + 0.05):
        assert slots.in_use("attacker") == 1
    assert slots.in_use("attacker") == 0


async def test_a_hold_on_a_future_already_done_gives_the_slot_back_at_once() -> None:
    slots = TenantSlots(1)
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()
    done.set_result(None)
    async with slots.slot("t", loop.time() + 1) as hold:
        hold(done)
    assert slots.in_use("t") == 0


async def test_past_its_queue_a_tenants_call_is_refused_at_once_naming_the_setting(
        scanner: PatternScanner) -> None:
    pool = HeldPool(size=2)
    pool.held_prefixes = {"flood"}
    service = _service(scanner, pool, queued=3)  # 1 running (the default share) and 3 waiting
    flood = [asyncio.ensure_future(service.redact(f"flood {i}", tenant="noisy")) for i in range(4)]
    await _until(lambda: service.tenant_calls.in_line("noisy") == 4, "the flood filled its line")
    sessions = len(service.vault)
    with pytest.raises(TenantQueueFull) as info:
        await asyncio.wait_for(service.redact("flood 4", tenant="noisy"), 1)  # refused, not queued
    assert info.value.status == "RESOURCE_EXHAUSTED"
    assert "redaction.max_queued_per_tenant" in str(info.value) and "3 calls waiting" in str(info.value)
    assert "flood 4" not in pool.texts and len(service.vault) == sessions
    # Another tenant's line is its own.
    assert (await asyncio.wait_for(service.redact("hello", tenant="quiet"), 2)).text == "hello"
    pool.release()
    await asyncio.gather(*flood)
    assert service.tenant_calls.in_line("noisy") == 0
    assert (await service.redact("flood again", tenant="noisy")).text == "flood again"


async def test_a_chat_request_is_one_call_in_the_queue_whatever_its_messages(
        scanner: PatternScanner) -> None:
    pool = HeldPool(size=2)
    pool.held_prefixes = {"msg"}
    service = _service(scanner, pool, queued=0)  # no call may wait: only the running one
    chat = asyncio.ensure_future(service.redact_many([f"msg {i}" for i in range(5)], tenant="acme"))
    await _until(lambda: pool.running == ["msg 0"], "the first message reached a worker")
    assert service.tenant_calls.in_line("acme") == 1
    with pytest.raises(TenantQueueFull):
        await service.redact_many(["msg second call"], tenant="acme")
    pool.release()
    assert len(await chat) == 5


@settings(max_examples=200, deadline=None)
@given(running=st.integers(1, 4), max_queued=st.integers(0, 4),
       steps=st.lists(st.tuples(st.sampled_from(["a", "b"]), st.booleans()), max_size=40))
def test_generated_arrivals_and_departures_never_overfill_a_line(running: int, max_queued: int,
                                                                   steps: list[tuple[str, bool]]) -> None:
    """A family of interleavings: a call arrives (True) or the oldest of a tenant's leaves (False).
    A call is refused exactly when its tenant's line is full, and never because of the other's."""
    calls = TenantCalls(running, max_queued)
    open_: dict[str, list] = {"a": [], "b": []}
    for tenant, arrive in steps:
        if arrive:
            full = len(open_[tenant]) >= running + max_queued
            admission = calls.admit(tenant)
            if full:
                with pytest.raises(TenantQueueFull):
                    admission.__enter__()
            else:
                admission.__enter__()
                open_[tenant].append(admission)
        elif open_[tenant]:
            open_[tenant].pop(0).__exit__(None, None, None)
        for name in ("a", "b"):
            assert calls.in_line(name) == len(open_[name]) <= running + max_queued
    for name in ("a", "b"):
        for admission in open_[name]:
            admission.__exit__(None, None, None)
    assert calls._calls == {}  # idle tenants cost nothing


# --- Restore's cost per tenant (TenantRate, RedactionService.restore_on_loop) --------------------

class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@given(per_s=st.integers(1_000, 1_000_000), sizes=st.lists(st.integers(1, 200_000), min_size=1, max_size=40),
       step_s=st.floats(0.0, 0.5))
@settings(max_examples=60, deadline=None)
def test_a_tenants_restored_characters_never_pass_its_rate_and_another_tenant_keeps_its_own(
        per_s: int, sizes: list[int], step_s: float) -> None:
    clock = _Clock()
    rate = TenantRate(per_s, per_s, "redaction.restore_chars_per_s_per_tenant", clock=clock)
    started, spent = clock.now, 0
    for size in sizes:
        try:
            rate.take("attacker", size)
            spent += size
        except RestoreBudgetSpent as refused:
            assert "redaction.restore_chars_per_s_per_tenant" in str(refused)
        clock.now += step_s
    # Never more than a burst plus what the time since allowed.
    assert spent <= per_s + (clock.now - started) * per_s + 1e-6
    rate.take("normal", per_s)   # the other tenant's bucket is whole


def test_a_refused_tenant_is_served_again_once_its_budget_refills() -> None:
    clock = _Clock()
    rate = TenantRate(1000, 1000, "setting", clock=clock)
    rate.take("t", 1000)
    with pytest.raises(RestoreBudgetSpent, match="retry in 0.5 s"):
        rate.take("t", 500)
    clock.now += 0.5
    rate.take("t", 500)
    TenantRate(0, 0, "setting").take("t", 10**9)   # 0: no limit


async def test_restore_past_the_tenants_budget_is_refused_and_another_tenant_still_restores(
        scanner: PatternScanner) -> None:
    service = RedactionService(policies=PolicyStore.load(TEST_POLICIES), pool=HeldPool(), scanner=scanner,
                               vault=Vault(), max_text_bytes=65536, restore_chars_per_s_per_tenant=100_000,
                               operators=Operators(hash_key="test-hash-key-0123456",
                                                   encrypt_key="0123456789abcdef"))
    for tenant in ("attacker", "normal"):
        with service.vault.transaction(tenant, "s1") as txn:
            txn.placeholder_for("PERSON", f"Person of {tenant}")
    large = "<PERSON_1> " * 5000   # 55,000 characters
    assert (await service.restore_on_loop(large, session_id="s1", tenant="attacker")).startswith("Person of")
    with pytest.raises(RestoreBudgetSpent):
        await service.restore_on_loop(large, session_id="s1", tenant="attacker")
    assert await service.restore_on_loop("<PERSON_1>", session_id="s1", tenant="normal") == "Person of normal"


# --- One budget of the process's CPU per tenant, across every kind of its work (TenantCpu, ADR 0031) ---

CPU_KEY = "redaction.cpu_ms_per_s_per_tenant"


@given(per_s=st.floats(0.05, 2.0), costs=st.lists(st.floats(0.0, 0.5), min_size=1, max_size=60),
       step_s=st.floats(0.0, 0.3))
@settings(max_examples=80, deadline=None)
def test_a_tenants_cpu_never_passes_its_budget_by_more_than_one_job_and_another_tenant_keeps_its_own(
        per_s: float, costs: list[float], step_s: float) -> None:
    """Whatever the mix of jobs (each charged once done, as the lanes do), the work a tenant is let
    start never takes more than a burst, what the time since refilled, and the one job that went
    into debt; the other tenant is never refused."""
    clock = _Clock()
    budget = TenantCpu(per_s, clock=clock)
    started, spent = clock.now, 0.0
    for cost in costs:
        try:
            budget.check("attacker")
        except CpuBudgetSpent as refused:
            assert CPU_KEY in str(refused) and "tenant 'attacker'" in str(refused)
        else:
            budget.charge("attacker", cost)
            spent += cost
        budget.check("normal")
        clock.now += step_s
    assert spent <= per_s + (clock.now - started) * per_s + max(costs) + 1e-9


def test_a_tenant_in_debt_is_refused_naming_the_key_until_the_debt_is_paid_back() -> None:
    clock = _Clock()
    budget = TenantCpu(0.25, clock=clock)   # 250 ms a second
    budget.check("t")
    budget.charge("t", 0.75)               # a job of 0.75 s: 0.5 s in debt
    with pytest.raises(CpuBudgetSpent, match=r"250 ms a second \(redaction.cpu_ms_per_s_per_tenant\); "
                                               r"retry in 2.0 s") as refused:
        budget.check("t")
    assert refused.value.status == "RESOURCE_EXHAUSTED"
    clock.now += 2.0
    budget.check("t")
    TenantCpu(0).charge("t", 10.0)
    TenantCpu(0).check("t")                 # 0: no limit


async def test_the_lanes_charge_each_jobs_cpu_to_its_tenant_in_threads_and_on_the_loop() -> None:
    """The CPU a job really used, measured on its thread (a job that sleeps costs nothing), and a
    Restore-like job's steps on the loop."""
    budget = TenantCpu(1e-6, burst_s=10.0)   # refills next to nothing while the test runs
    lanes = ThreadLanes(4, 2, cpu=budget)

    def spin(seconds: float) -> int:
        end, n = time.thread_time() + seconds, 0
        while time.thread_time() < end:
            n += 1
        return n

    def steps():
        for _ in range(5):
            spin(0.01)
            yield
        return "done"
    try:
        await lanes.run("busy", spin, 0.2)
        await lanes.run("sleepy", time.sleep, 0.2)
        assert await lanes.run_on_loop("loop", steps()) == "done"
    finally:
        lanes.close()
    assert 10.0 - budget.left("busy") >= 0.19
    assert 10.0 - budget.left("sleepy") < 0.05
    assert 10.0 - budget.left("loop") >= 0.045


async def test_one_tenants_streams_spend_its_cpu_budget_then_each_of_its_calls_is_refused_and_another_tenant_is_served(
        scanner: PatternScanner) -> None:
    """Every kind of the tenant's work draws from the one budget: its RedactStream chunks spend it,
    then its Redact, its next chunk and its Restore are refused at once (RESOURCE_EXHAUSTED naming
    the key), while other tenants' Redact, chunk and Restore are served. The pattern tier in
    this process stands in for the analysis workers (`ScannerPool`)."""
    service = RedactionService(policies=PolicyStore.load(TEST_POLICIES), pool=ScannerPool(scanner),
                               scanner=scanner, vault=Vault(), max_text_bytes=1 << 20, cpu_ms_per_s_per_tenant=1,
                               operators=Operators(hash_key="test-hash-key-0123456",
                                                   encrypt_key="0123456789abcdef"))
    try:
        for tenant in ("attacker", "normal"):
            with service.vault.transaction(tenant, "s1") as txn:
                txn.placeholder_for("PERSON", f"Person of {tenant}")
        stream = service.open_stream(tenant="attacker")
        chunk = "4111-1111-1111-1111 " + "1-" * 20_000 + "a"
        with pytest.raises(CpuBudgetSpent):
            for _ in range(200):   # 1 ms a second: the first chunks put the tenant in debt
                await service.off_loop("attacker", stream.feed, chunk)
        for refused_call in (lambda: service.redact("mail jane@example.com", tenant="attacker"),
                             lambda: service.off_loop("attacker", service.open_stream(tenant="attacker").feed, "x"),
                             lambda: service.restore_on_loop("<PERSON_1>", session_id="s1", tenant="attacker")):
            with pytest.raises(CpuBudgetSpent, match=f"tenant 'attacker' .*\\({CPU_KEY}\\)"):
                await refused_call()
        # Each served call is another tenant's first, so none is refused for the CPU the one before
        # it spent: 1 ms a second is less than a Redact takes on a busy machine.
        assert await service.restore_on_loop("<PERSON_1>", session_id="s1", tenant="normal") == "Person of normal"
        assert "jane@example.com" not in (await service.redact("mail jane@example.com", tenant="normal-b")).text
        out = await service.off_loop("normal-c", service.open_stream(tenant="normal-c").feed,
                                     "call 4111-1111-1111-1111", final=True)
        assert "4111-1111-1111-1111" not in out.text
        # A model's answer already under way is charged, never refused mid-answer.
        answer = service.open_output_stream(tenant="attacker", session_id="s1")
        assert (await service.off_loop("attacker", answer.feed, "fine", final=True)).text == "fine"
    finally:
        service.lanes.close()
