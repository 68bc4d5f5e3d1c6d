"""Jobs under way count against their tenant's CPU budget from their start (TenantCpu.reserve,
docs/adr/0035): the jobs one tenant starts at once can no longer all begin on the same budget.

The budget, the lanes and the service are the real ones; the pattern tier in this process stands in
for the analysis workers (`ScannerPool`).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.patterns.scanner import PatternScanner
from ztgate.redaction.policies import PolicyStore
from ztgate.redaction.runtime.fair_share import CpuBudgetSpent, TenantCpu
from ztgate.redaction.runtime.thread_lanes import ThreadLanes, job_estimate_s
from ztgate.redaction.service import RedactionService
from ztgate.redaction.vault import Vault
from tests.unit.redaction.pattern_service import ScannerPool

TEST_POLICIES = Path(__file__).parents[1] / "data" / "policies"
CPU_KEY, RESERVE_KEY = "redaction.cpu_ms_per_s_per_tenant", "redaction.cpu_reserve_ns_per_char"


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _start(budget: TenantCpu, tenant: str, estimate_s: float) -> tuple[float, float] | None:
    """One refusable job's start, as the lanes and a stream chunk make it: held on the loop, then
    the job checks the budget in its thread. Returns (its estimate, what it holds), None when
    refused."""
    held = budget.reserve(tenant, estimate_s)
    with budget.job(tenant, held):
        try:
            budget.check(tenant)
        except CpuBudgetSpent as refused:
            assert CPU_KEY in str(refused) and f"tenant '{tenant}'" in str(refused)
            budget.release(tenant, held)
            return None
    return estimate_s, held


@given(per_s=st.floats(0.05, 2.0), spent_s=st.floats(0.0, 2.0),
       estimates=st.lists(st.floats(0.0, 3.0), min_size=1, max_size=12))
@settings(max_examples=120, deadline=None)
def test_jobs_started_at_once_never_take_more_than_the_bucket_and_one_job(
        per_s: float, spent_s: float, estimates: list[float]) -> None:
    """Whatever the tenant's bucket and the jobs it starts at once (none ended yet), those let
    start are estimated at no more than what its bucket held and the one job that crossed into
    debt; another tenant is never refused; once they end, only their real CPU stays charged."""
    clock = _Clock()
    budget = TenantCpu(per_s, clock=clock)
    budget.charge("attacker", spent_s)
    level = budget.left("attacker")
    admitted = [job for job in (_start(budget, "attacker", e) for e in estimates) if job is not None]
    started = [estimate for estimate, _ in admitted]
    if level >= 0:
        assert admitted, "a tenant with budget left starts at least its first job"
    assert sum(started) <= max(level, 0.0) + max(started, default=0.0) + 1e-9
    budget.check("normal")
    for _, held in admitted:
        budget.release("attacker", held)
        budget.charge("attacker", 0.001)
    assert budget.reserved("attacker") == 0.0
    assert budget.left("attacker") == pytest.approx(level - 0.001 * len(admitted))


@given(per_s=st.floats(0.1, 2.0), shares=st.lists(st.floats(0.0, 1.0), min_size=1, max_size=8))
@settings(max_examples=80, deadline=None)
def test_jobs_whose_estimates_fit_the_bucket_all_start(per_s: float, shares: list[float]) -> None:
    """A tenant's concurrent jobs that its bucket covers (a normal tenant's answer chunks and
    prompts) are never refused by the reservations."""
    budget = TenantCpu(per_s, clock=_Clock())
    total = sum(shares) or 1.0
    estimates = [0.999 * per_s * s / total for s in shares]   # together, just within one bucket
    assert all(_start(budget, "normal", e) is not None for e in estimates)


@given(chars=st.integers(0, 1 << 20), ns=st.integers(0, 5000), nbytes=st.integers(0, 4096))
@settings(max_examples=50, deadline=None)
def test_a_jobs_estimate_is_its_texts_length_at_the_setting(chars: int, ns: int, nbytes: int) -> None:
    args, kwargs = ("x" * chars, 7), {"body": b"y" * nbytes, "final": True}
    assert job_estimate_s(ns / 1e9, args, kwargs) == pytest.approx((chars + nbytes) * ns / 1e9)


@pytest.fixture(scope="module")
def scanner(hs_cache_dir: Path) -> PatternScanner:
    return PatternScanner(cache_dir=hs_cache_dir)


def _service(scanner: PatternScanner, reserve_ns_per_char: int) -> RedactionService:
    return RedactionService(policies=PolicyStore.load(TEST_POLICIES), pool=ScannerPool(scanner),
                            scanner=scanner, vault=Vault(), max_text_bytes=1 << 20,
                            lanes=ThreadLanes(8, 4), cpu_ms_per_s_per_tenant=250,
                            cpu_reserve_ns_per_char=reserve_ns_per_char,
                            operators=Operators(hash_key="test-hash-key-0123456",
                                                encrypt_key="0123456789abcdef"))


async def _chunks_at_once(service: RedactionService, chunks: list[str]) -> list[str]:
    """One tenant's RedactStream chunks, each on a stream of its own, all sent at once: the
    status of each ("OK" or the refusal's message)."""
    async def one(text: str) -> str:
        try:
            await service.off_loop("attacker", service.open_stream(tenant="attacker").feed, text, final=True)
        except CpuBudgetSpent as refused:
            return str(refused)
        return "OK"
    return list(await asyncio.gather(*(one(text) for text in chunks)))


@given(size=st.integers(300_000, 400_000), count=st.integers(2, 4),
       word=st.sampled_from(["lorem ", "1-", "Ünïcode ", "ab\t"]))
@settings(max_examples=4, deadline=None)
def test_one_tenants_large_chunks_sent_at_once_start_one_at_a_time_and_another_tenant_is_served(
        scanner: PatternScanner, size: int, count: int, word: str) -> None:
    """Four threads of its own, 250 ms a second: chunks estimated past its bucket sent together
    start one, the others are refused at their start naming both keys; without the reservation
    (0) every one of them started on the same budget."""
    chunk = (word * (size // len(word) + 1))[:size]

    async def run(reserve_ns_per_char: int) -> list[str]:
        service = _service(scanner, reserve_ns_per_char)
        try:
            statuses = await _chunks_at_once(service, [chunk] * count)
            out = await service.off_loop("normal", service.open_stream(tenant="normal").feed,
                                         "call 4111-1111-1111-1111", final=True)
            assert "4111-1111-1111-1111" not in out.text
            assert service.cpu_budget.reserved("attacker") == 0.0   # all given back
            return statuses
        finally:
            service.lanes.close()

    with_reservation = asyncio.run(run(1000))
    assert with_reservation.count("OK") == 1
    for refused in (s for s in with_reservation if s != "OK"):
        assert "tenant 'attacker'" in refused and CPU_KEY in refused and RESERVE_KEY in refused
    assert asyncio.run(run(0)) == ["OK"] * count
