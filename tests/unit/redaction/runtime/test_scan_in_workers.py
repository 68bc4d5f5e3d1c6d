"""A stream's or answer's large scans go to the analysis workers, in the tenant's share of them
(RedactionService.scan_for, docs/adr/0043): in the server's threads they held the interpreter lock
that the event loop serving every tenant needs.

The service, its lanes, budget and fair share are the real ones; the workers are stood in for by
`RecordingPool`, which scans with the same pattern tier on the event loop and records what reached
it (the real workers' scan: tests/integration/test_analysis_pool.py).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from ztgate.common.errors import DeadlineExceeded
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.normalise import detect_on_view
from ztgate.redaction.detection.patterns.scanner import PatternScanner
from ztgate.redaction.policies import PolicyStore
from ztgate.redaction.runtime.thread_lanes import ThreadLanes
from ztgate.redaction.service import RedactionService
from ztgate.redaction.types import Detection
from ztgate.redaction.vault import Vault
from tests.unit.redaction.pattern_service import ScannerPool

TEST_POLICIES = Path(__file__).parents[1] / "data" / "policies"


class RecordingPool(ScannerPool):
    """The pattern tier in this process, plus `scan` as the workers answer it: detections and the
    worker's CPU; texts starting with a held prefix wait until `release()`."""

    def __init__(self, scanner: PatternScanner) -> None:
        super().__init__(scanner)
        self.scanned: list[tuple[str, int]] = []  # (first characters, length) of each scan
        self.held_prefixes: set[str] = set()
        self.cpu_s = 0.001  # what each scan cost its worker, as the workers report it
        self._released = asyncio.Event()

    async def start(self) -> None:
        """Nothing to start: the scans run here."""

    def release(self) -> None:
        self._released.set()

    async def scan(self, text: str, *, deadline: float | None = None,
                   on_abandon: object = None) -> tuple[list[Detection], float]:
        self.scanned.append((text[:16], len(text)))
        if any(text.startswith(p) for p in self.held_prefixes):
            await self._released.wait()
        return detect_on_view(self._scanner.scan, text), self.cpu_s


@pytest.fixture(scope="module")
def scanner(hs_cache_dir: Path) -> PatternScanner:
    return PatternScanner(cache_dir=hs_cache_dir)


def _service(scanner: PatternScanner, in_worker_chars: int, slots: int = 1) -> RedactionService:
    return RedactionService(policies=PolicyStore.load(TEST_POLICIES), pool=RecordingPool(scanner),
                            scanner=scanner, vault=Vault(), max_text_bytes=1 << 20,
                            lanes=ThreadLanes(8, 4), max_inflight_per_tenant=slots,
                            cpu_ms_per_s_per_tenant=250, cpu_reserve_ns_per_char=0,
                            scan_in_worker_chars=in_worker_chars,
                            operators=Operators(hash_key="test-hash-key-0123456",
                                                encrypt_key="0123456789abcdef"))


async def _stream(service: RedactionService, tenant: str, chunks: list[str]) -> tuple[str, list[str]]:
    stream = service.open_stream(tenant=tenant)
    out, kinds = "", []
    for index, chunk in enumerate(chunks):
        emitted = await service.off_loop(tenant, stream.feed, chunk, final=index == len(chunks) - 1)
        out += emitted.text
        kinds += [f.entity_type for f in emitted.findings]
    return out, kinds


VALUES = ["maria.garcia@example.com", "4111 1111 1111 1111", "+1 415 555 0134", "AKIAZ7Q3XH2LMN4PQ5RS",
          "DE89 3704 0044 0532 0130 00", "192.168.10.24"]
FRAMES = ["Reach {} today.", "value={}\n", "| {} |", "«{}»", "id: {}; ", "Ünïcode {} 名前 "]
FILLER = ["lorem ipsum ", "1-", "\t", "x" * 40 + " ", "é", "\u200b"]


@given(pieces=st.lists(st.tuples(st.sampled_from(FRAMES), st.sampled_from(VALUES), st.sampled_from(FILLER),
                                 st.integers(0, 150)), min_size=1, max_size=10),
       cuts=st.lists(st.integers(1, 3000), min_size=0, max_size=6),
       in_worker_chars=st.sampled_from([1, 64, 2048]))
@settings(max_examples=15, deadline=None)
def test_a_stream_scanned_in_the_workers_is_scrubbed_as_in_the_thread(
        scanner: PatternScanner, pieces: list[tuple[str, str, str, int]], cuts: list[int],
        in_worker_chars: int) -> None:
    """Any text of values in frames and filler, cut in any chunks: the same scrubbed text and
    findings whether its scans run in the workers or in the thread, and the scans that reached
    the workers are exactly those of at least `in_worker_chars` characters."""
    text = "".join(frame.format(value) + filler * repeat for frame, value, filler, repeat in pieces)
    bounds = sorted({min(c, len(text)) for c in cuts} | {0, len(text)})
    chunks = [text[a:b] for a, b in zip(bounds, bounds[1:])] or [text]

    async def run(chars: int) -> tuple[tuple[str, list[str]], list[tuple[str, int]]]:
        service = _service(scanner, chars)
        await service.start()
        try:
            return await _stream(service, "normal", chunks), service.pool.scanned
        finally:
            service.lanes.close()

    in_thread, none = asyncio.run(run(0))
    in_workers, scanned = asyncio.run(run(in_worker_chars))
    assert none == []
    assert in_workers == in_thread
    for value in VALUES:
        assert value not in in_workers[0]
    assert all(length >= in_worker_chars for _, length in scanned)


def test_a_large_scan_waits_for_its_own_tenants_share_and_not_another_tenants(scanner: PatternScanner) -> None:
    """One worker slot per tenant: while the attacker's large scan holds its slot, its next large
    scan waits, the normal tenant's large scan is served at once; each scan's worker CPU is charged
    to its own tenant's budget."""
    async def run() -> None:
        service = _service(scanner, 1024)
        await service.start()
        pool = service.pool
        assert isinstance(pool, RecordingPool)
        pool.held_prefixes.add("HOLD")
        pool.cpu_s = 1.0
        try:
            first = asyncio.ensure_future(_stream(service, "attacker", ["HOLD " + "1-" * 4000]))
            await asyncio.sleep(0.2)
            second = asyncio.ensure_future(_stream(service, "attacker", ["next " + "1-" * 4000]))
            normal = await asyncio.wait_for(_stream(service, "normal", [
                "Mail maria.garcia@example.com " + "lorem " * 400]), 5)
            assert "maria.garcia@example.com" not in normal[0]
            assert [p for p, _ in pool.scanned if p.startswith("next")] == []  # still waiting its turn
            assert not second.done()
            pool.release()
            await asyncio.wait_for(asyncio.gather(first, second), 5)
            assert any(p.startswith("next") for p, _ in pool.scanned)
            # 250 ms a second: one second of a worker's CPU puts a tenant in debt, two deeper.
            assert -1.0 < service.cpu_budget.left("normal") < 0
            assert service.cpu_budget.left("attacker") < -1.0
        finally:
            service.lanes.close()

    asyncio.run(run())


def test_short_texts_and_a_service_not_started_scan_in_the_thread(scanner: PatternScanner) -> None:
    """A normal answer chunk under the threshold never pays the hop; before `start` (no loop to
    reach the workers from) every scan stays here."""
    async def run(start: bool) -> list[tuple[str, int]]:
        service = _service(scanner, 4096)
        if start:
            await service.start()
        try:
            await _stream(service, "normal", ["short 4111 1111 1111 1111", " and more"])
            await _stream(service, "normal", ["long " * 2000])
            return service.pool.scanned
        finally:
            service.lanes.close()

    started = asyncio.run(run(True))
    assert [length >= 4096 for _, length in started] == [True] * len(started) and started
    assert asyncio.run(run(False)) == []


def test_a_scan_the_workers_never_answer_fails_its_chunk_by_the_pools_timeout(scanner: PatternScanner) -> None:
    """The lane's thread waits for a worker's scan no longer than the pool's timeout and a second:
    a loop that never answers (stopped, or a pool that lost the call) fails the chunk
    DEADLINE_EXCEEDED instead of holding the tenant's thread for ever."""
    async def run() -> None:
        service = _service(scanner, 1024)
        await service.start()
        pool = service.pool
        assert isinstance(pool, RecordingPool)
        pool.timeout_s = 0.2
        pool.held_prefixes.add("HOLD")
        try:
            started = asyncio.get_running_loop().time()
            with pytest.raises(DeadlineExceeded, match="redaction.analysis_timeout_s"):
                await _stream(service, "attacker", ["HOLD " + "1-" * 4000])
            assert asyncio.get_running_loop().time() - started < 5
            normal = await _stream(service, "normal", ["Mail maria.garcia@example.com today"])
            assert "maria.garcia@example.com" not in normal[0]
        finally:
            pool.release()
            service.lanes.close()

    asyncio.run(run())
