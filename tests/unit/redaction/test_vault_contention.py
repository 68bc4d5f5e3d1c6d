"""Restore's regex runs outside the vault's lock, in one C pass: four tenant threads restoring
1 MiB texts back to back on their own live session (in the service's worker threads, as the
Restore RPC runs them) leave another tenant's Redact, on the event loop, answered in milliseconds.

The service is the real one on the pattern tier (`ScannerPool`, test_ext_proc.py). The control
uses `RegexUnderLockVault`, a FAULT INJECTED vault whose restore runs its regex holding the lock
(as the vault did before), and shows the same Redacts waiting hundreds of milliseconds.
"""

from __future__ import annotations

import asyncio
import statistics
import time

import pytest

from hypothesis import given, settings, strategies as st

from ztgate.common.identity import TenantAccess
from ztgate.gen.redaction.v1 import redaction_pb2 as rpb
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.patterns.scanner import PatternScanner
from ztgate.redaction.policies import PolicyStore
from ztgate.redaction.runtime.fair_share import RestoreBudgetSpent
from ztgate.redaction.server import RedactionServicer
from ztgate.redaction.service import RedactionService
from ztgate.redaction import vault as vault_module
from ztgate.redaction.vault import _PLACEHOLDER_SPLIT, PLACEHOLDER_RE, SessionUnknownError, Vault, _key
from tests.fake_context import FakeContext
from tests.unit.redaction.pattern_service import TEST_POLICIES, ScannerPool, scanner  # noqa: F401

EMAIL = "jane.doe@example.com"
MIB = 1 << 20
# Seconds each of the four threads keeps restoring; another tenant redacts meanwhile.
SUSTAINED_S = 1.5
# The yardstick is one 1 MiB Restore alone, timed in the test (so a busy host slows both sides):
# a Redact whose median time during the Restores passes it was stalled. Measured on 2 shared
# cores: Restore alone ~35 ms; Redacts during the Restores ~1 ms with the regex outside the lock,
# 230-490 ms under it.


class RegexUnderLockVault(Vault):
    """FAULT INJECTED: Restore as it was, the whole regex pass with the vault's lock held."""

    def restore(self, tenant: str | None, session_id: str, text: str) -> str:
        with self._lock:
            originals = self._live_session(_key(tenant, session_id)).originals
            return PLACEHOLDER_RE.sub(lambda m: originals.get(m.group(0), m.group(0)), text)


def _service(scanner: PatternScanner, vault: Vault) -> RedactionService:  # noqa: F811
    return RedactionService(policies=PolicyStore.load(TEST_POLICIES), pool=ScannerPool(scanner),
                            scanner=scanner, vault=vault, max_text_bytes=MIB,
                            operators=Operators(hash_key="test-hash-key-0123456",
                                                encrypt_key="0123456789abcdef"))


async def _redacts_during_four_restore_threads(
        service: RedactionService) -> tuple[list[float], list[int], float]:
    """Another tenant's Redact latencies (seconds) while four threads of tenant `owner` restore a
    1 MiB text of its session's placeholders back to back; how many Restores each thread did; and
    the seconds one such Restore takes alone (the best of three)."""
    mine = await service.redact(f"mail {EMAIL}", tenant="owner")
    [placeholder] = [f.replacement for f in mine.findings]
    big = f"{placeholder} " * (MIB // (len(placeholder) + 1))
    alone = []
    for _ in range(3):
        started = time.perf_counter()
        service.restore(big, session_id=mine.session_id, tenant="owner")
        alone.append(time.perf_counter() - started)

    def restoring() -> int:
        done, end = 0, time.monotonic() + SUSTAINED_S
        while time.monotonic() < end:
            restored = service.restore(big, session_id=mine.session_id, tenant="owner")
            assert restored.count(EMAIL) == big.count(placeholder)
            done += 1
        return done

    threads = [asyncio.ensure_future(service.off_loop("owner", restoring)) for _ in range(4)]
    await asyncio.sleep(0.1)
    latencies: list[float] = []
    while not all(t.done() for t in threads) and len(latencies) < 20:
        started = time.perf_counter()
        other = await asyncio.wait_for(service.redact(f"mail {EMAIL}", tenant="quiet"), 30)
        latencies.append(time.perf_counter() - started)
        assert EMAIL not in other.text
        await asyncio.sleep(0.02)
    return latencies, await asyncio.gather(*threads), min(alone)


async def test_another_tenants_redact_is_not_stalled_by_four_threads_of_large_restores(
        scanner: PatternScanner) -> None:  # noqa: F811
    """Measured against the control in the same test, on the same machine: with the regex under the
    lock (the control) the event loop waits on the vault's lock for whole Restores; without it, only
    for the interpreter lock between the restoring threads' C calls (a loaded 2-core machine makes
    that tens of milliseconds, so the bound is relative, not one Restore's time)."""
    latencies, restores, _ = await _redacts_during_four_restore_threads(_service(scanner, Vault()))
    assert len(latencies) >= 5 and all(n >= 2 for n in restores)  # they overlapped, for real
    control, _, alone = await _redacts_during_four_restore_threads(_service(scanner, RegexUnderLockVault()))
    # The control: the event loop sat on the vault's lock, for more than a whole Restore at a time.
    assert statistics.median(control) > alone, (control, alone)
    assert statistics.median(latencies) * 2 < statistics.median(control), (latencies, control)


PLACEHOLDERS = st.sampled_from(["<PERSON_1>", "<PERSON_12>", "<EMAIL_ADDRESS_1>", "<PERSON_2>",
                                "<PERSON_1", "PERSON_1>", "<<PERSON_1>>", "<person_1>", "<X_0>"])


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(PLACEHOLDERS | st.text(max_size=8), max_size=30))
def test_generated_texts_restore_exactly_as_one_regex_substitution_would(pieces: list[str]) -> None:
    """The split-and-join restore equals the substitution it replaced, on texts mixing real,
    unknown, truncated and nested placeholders with arbitrary text."""
    vault = Vault()
    with vault.transaction("t", "s") as txn:
        first = txn.placeholder_for("PERSON", "Jane <PERSON_2> Doe")  # an original that looks like one
        second = txn.placeholder_for("PERSON", "Joe")
        third = txn.placeholder_for("EMAIL_ADDRESS", "j@x.org")
    originals = {first: "Jane <PERSON_2> Doe", second: "Joe", third: "j@x.org"}
    text = "".join(pieces)
    expected = PLACEHOLDER_RE.sub(lambda m: originals.get(m.group(0), m.group(0)), text)
    assert vault.restore("t", "s", text) == expected


class WholeTextInThreadsVault(Vault):
    """FAULT INJECTED: Restore as it ran before issue #28's e2e finding, its regex over the whole
    text in one C call (the caller runs it in a worker thread, as the Restore RPC then did)."""

    def restore(self, tenant: str | None, session_id: str, text: str) -> str:
        parts = _PLACEHOLDER_SPLIT.split(text)
        with self._lock:
            originals = self._session_for_restore(_key(tenant, session_id), session_id).originals
        parts[1::2] = [originals.get(name, name) for name in parts[1::2]]
        return "".join(parts)


async def _loop_lag_during_four_restores(service: RedactionService, on_loop: bool) -> tuple[list[float], list[int]]:
    """How late each 2 ms tick of the event loop came (seconds) while tenant `owner` ran four
    Restores of 1 MiB of its own placeholders back to back, for SUSTAINED_S: on the loop a slice
    at a time, through the Restore RPC (`on_loop`), or each in a worker thread (`off_loop`, as the RPC
    ran them before).
    Every other tenant's call waits for the loop as these ticks do. And how many Restores each did."""
    mine = await service.redact(f"mail {EMAIL}", tenant="owner")
    [placeholder] = [f.replacement for f in mine.findings]
    big = f"{placeholder} " * (MIB // (len(placeholder) + 1))
    servicer = RedactionServicer(service, TenantAccess(None))

    async def restoring() -> int:
        done, end = 0, time.monotonic() + SUSTAINED_S
        while time.monotonic() < end:
            if on_loop:  # the Restore RPC, as the server runs it
                reply = await servicer.Restore(rpb.RestoreRequest(text=big, session_id=mine.session_id,
                                                                  tenant="owner"), FakeContext())
                restored = reply.text
            else:
                restored = await service.off_loop("owner", service.restore, big, session_id=mine.session_id,
                                                  tenant="owner")
            assert restored.count(EMAIL) == big.count(placeholder)
            done += 1
        return done

    restorers = [asyncio.ensure_future(restoring()) for _ in range(4)]
    lags: list[float] = []
    while not all(r.done() for r in restorers):
        started = time.perf_counter()
        await asyncio.sleep(0.002)
        lags.append(time.perf_counter() - started - 0.002)
    return lags, await asyncio.gather(*restorers)


async def test_four_large_restores_leave_the_event_loop_to_every_other_tenant(
        scanner: PatternScanner) -> None:  # noqa: F811
    """The e2e's every-attack run (tests/e2e/test_attack.py) lost two of the normal tenant's
    Generate calls at Envoy's per-message timeout while the attacker restored 1 MiB on its own
    session, four at once: each Restore ran its regex in a worker thread, in C calls that held the
    interpreter lock, and the event loop (every tenant's calls) waited for it behind them. Now the
    RPC runs Restore on the loop a slice at a time. Measured against the control, the same Restores
    in threads over the whole text, in the same test: on 2 shared cores the loop's 90th-percentile
    lag was 2-4 ms on the loop (at most 15 ms) against 48-50 ms in threads (at most 60-110 ms)."""
    lags, restores = await _loop_lag_during_four_restores(_service(scanner, Vault()), on_loop=True)
    assert all(n >= 2 for n in restores) and len(lags) >= 20, (restores, len(lags))  # they overlapped
    control, control_restores = await _loop_lag_during_four_restores(
        _service(scanner, WholeTextInThreadsVault()), on_loop=False)
    assert all(n >= 2 for n in control_restores), control_restores
    p90, control_p90 = (statistics.quantiles(x, n=10)[-1] for x in (lags, control))
    assert p90 * 3 < control_p90, (p90, control_p90)
    assert p90 < 0.05, p90   # a slice is ~0.3 ms: the loop waits for a few of them, never a whole Restore
    # The worst single lag is the machine's as much as ours (another process's burst on 2 shared cores):
    # bounded far under Envoy's 2 s per-message timeout, not compared with the control's.
    assert max(lags) < 0.25, max(lags)


@settings(max_examples=200, deadline=None)
@given(pieces=st.lists(PLACEHOLDERS | st.text(max_size=8), max_size=40), size=st.integers(1, 24))
def test_sliced_restore_equals_the_whole_text_substitution(pieces: list[str], size: int) -> None:
    """Restore a slice at a time (cut before a "<", slices as small as one character here) gives
    what one substitution over the whole text gives."""
    vault = Vault()
    with vault.transaction("t", "s") as txn:
        first = txn.placeholder_for("PERSON", "Jane Doe")
        second = txn.placeholder_for("EMAIL_ADDRESS", "j@x.org")
    originals = {first: "Jane Doe", second: "j@x.org"}
    text = "".join(pieces)
    expected = PLACEHOLDER_RE.sub(lambda m: originals.get(m.group(0), m.group(0)), text)
    pieces_of_text = list(vault_module._slices(text, size))
    assert "".join(pieces_of_text) == text and all(p.startswith("<") for p in pieces_of_text[1:])
    whole, vault_module.RESTORE_SLICE_CHARS = vault_module.RESTORE_SLICE_CHARS, size
    try:
        assert vault.restore("t", "s", text) == expected
    finally:
        vault_module.RESTORE_SLICE_CHARS = whole


class RecordingSplit:
    """Records what crossed into the regex: the length of each text Restore's split was given
    (a recorder around the real pattern, which still does the splitting)."""

    def __init__(self) -> None:
        self.lengths: list[int] = []

    def split(self, text: str) -> list[str]:
        self.lengths.append(len(text))
        return _PLACEHOLDER_SPLIT.split(text)


def test_a_large_restore_splits_in_slices_so_no_c_call_holds_the_interpreter_lock_long(monkeypatch) -> None:
    """A Restore runs in a worker thread beside the event loop that serves every tenant, and a C
    call keeps the interpreter lock until it returns: 1 MiB of placeholders goes to the regex in
    slices of RESTORE_SLICE_CHARS (plus at most the placeholder a cut waits for), restored exactly."""
    recorder = RecordingSplit()
    monkeypatch.setattr(vault_module, "_PLACEHOLDER_SPLIT", recorder)
    vault = Vault()
    with vault.transaction("t", "s") as txn:
        placeholder = txn.placeholder_for("EMAIL_ADDRESS", EMAIL)
    big = f"{placeholder} " * (MIB // (len(placeholder) + 1))
    restored = vault.restore("t", "s", big)
    assert restored == big.replace(placeholder, EMAIL)
    assert len(recorder.lengths) >= MIB // vault_module.RESTORE_SLICE_CHARS
    assert max(recorder.lengths) <= vault_module.RESTORE_SLICE_CHARS + len(placeholder) + 1
    assert sum(recorder.lengths) == len(big)


def test_a_restore_on_a_session_the_tenant_lacks_is_refused_before_any_pass_over_the_text(monkeypatch) -> None:
    recorder = RecordingSplit()
    monkeypatch.setattr(vault_module, "_PLACEHOLDER_SPLIT", recorder)
    vault = Vault()
    with vault.transaction("owner", "s") as txn:
        placeholder = txn.placeholder_for("EMAIL_ADDRESS", EMAIL)
    with pytest.raises(SessionUnknownError):
        vault.restore("someone-else", "s", f"{placeholder} " * 1000)
    assert recorder.lengths == []


async def _loop_lag_during_restores(service: RedactionService, restorers: int) -> tuple[list[float], int]:
    """How late each 2 ms tick of the event loop came (seconds) while tenant `owner` ran `restorers`
    Restore RPCs of 1 MiB of its own placeholders at once, back to back, for SUSTAINED_S; and how
    many Restores were done in all."""
    mine = await service.redact(f"mail {EMAIL}", tenant="owner")
    [placeholder] = [f.replacement for f in mine.findings]
    request = rpb.RestoreRequest(text=f"{placeholder} " * (MIB // (len(placeholder) + 1)),
                                 session_id=mine.session_id, tenant="owner")
    servicer = RedactionServicer(service, TenantAccess(None))

    async def restoring() -> int:
        done, end = 0, time.monotonic() + SUSTAINED_S
        while time.monotonic() < end:
            reply = await servicer.Restore(request, FakeContext())
            assert reply.text.count(EMAIL) == request.text.count(placeholder)
            done += 1
        return done

    tasks = [asyncio.ensure_future(restoring()) for _ in range(restorers)]
    lags: list[float] = []
    while not all(t.done() for t in tasks):
        started = time.perf_counter()
        await asyncio.sleep(0.002)
        lags.append(time.perf_counter() - started - 0.002)
    return lags, sum(await asyncio.gather(*tasks))


async def test_a_tenants_four_restores_hold_each_turn_of_the_loop_no_longer_than_one(
        scanner: PatternScanner) -> None:  # noqa: F811
    """The attack bench's `live_restore` (four 1 MiB Restores at once on the attacker's own session)
    cost the normal tenant 4.8x its Generate p99: every turn of the event loop, which carries every
    tenant's calls, ran one slice of each of the four Restores (about 4 x 0.5 ms) before another
    tenant's callback. A tenant's work on the loop now takes one slice per turn however many calls it
    sends (its other Restores wait their turn in its own line): the loop's median lag with four at
    once stays near the lag with one. Measured against one Restore in the same test (so a busy host
    slows both sides); before the change four gave 2.5-4x the median lag of one."""
    service = _service(scanner, Vault())
    one, done_one = await _loop_lag_during_restores(service, 1)
    four, done_four = await _loop_lag_during_restores(service, 4)
    assert done_one >= 5 and done_four >= 5, (done_one, done_four)  # they ran, for real
    median_one, median_four = statistics.median(one), statistics.median(four)
    assert median_four < 1.6 * median_one + 0.0003, (median_one, median_four)
    # The same tenant's Restores still progress as fast together as one after the other.
    assert done_four >= 0.6 * done_one, (done_one, done_four)


async def test_a_tenants_restore_budget_gives_the_loop_back_to_other_tenants(
        scanner: PatternScanner) -> None:  # noqa: F811
    """The attack bench's `live_restore` after 0015: four 1 MiB Restores at once still had a step in
    every turn of the event loop, 40 a second through the gateway, and the loop's lag (what every
    other tenant's call waits at each step) averaged 1.7-2.0 ms against 0.15 ms alone. With the
    tenant's Restore budget (redaction.restore_chars_per_s_per_tenant, 4 Mi characters a second) the
    same four restorers are refused past it and the loop's mean lag falls (0.35 -> 0.18 ms and
    2.0 -> 1.2 ms in two runs on 2 shared cores); measured against the same four without a budget
    in the test. A refused client tries again 80 ms later: the
    gateway's per-tenant rate limit (50 calls a second) lets four clients through about that often."""
    def service(per_s: int) -> RedactionService:
        return RedactionService(policies=PolicyStore.load(TEST_POLICIES), pool=ScannerPool(scanner),
                                scanner=scanner, vault=Vault(), max_text_bytes=MIB,
                                restore_chars_per_s_per_tenant=per_s,
                                operators=Operators(hash_key="test-hash-key-0123456",
                                                    encrypt_key="0123456789abcdef"))

    async def lags(svc: RedactionService) -> tuple[list[float], int]:
        mine = await svc.redact(f"mail {EMAIL}", tenant="owner")
        [placeholder] = [f.replacement for f in mine.findings]
        text = f"{placeholder} " * (MIB // (len(placeholder) + 1))

        async def restoring() -> int:
            done, end = 0, time.monotonic() + SUSTAINED_S
            while time.monotonic() < end:
                try:
                    await svc.restore_on_loop(text, session_id=mine.session_id, tenant="owner")
                    done += 1
                except RestoreBudgetSpent:
                    await asyncio.sleep(0.08)
            return done

        tasks = [asyncio.ensure_future(restoring()) for _ in range(4)]
        ticks: list[float] = []
        while not all(t.done() for t in tasks):
            started = time.perf_counter()
            await asyncio.sleep(0.002)
            ticks.append(time.perf_counter() - started - 0.002)
        return ticks, sum(await asyncio.gather(*tasks))

    free, done_free = await lags(service(0))
    budgeted, done_budgeted = await lags(service(4 * MIB))
    assert done_free >= 10 and 1 <= done_budgeted <= 4 + 4 * SUSTAINED_S + 1, (done_free, done_budgeted)
    assert statistics.mean(budgeted) < 0.7 * statistics.mean(free), (statistics.mean(free), statistics.mean(budgeted))
