"""Zero trust under attack (issue #10): one tenant's worst inputs must not slow, fail or leak another's calls.

Through a real Envoy (tokens on: tenants `normal` and `attacker`, each with a verified token) and
the real redaction service, in front of the RECORDING inference upstreams of gateway_suite.py (test
doubles: they keep every request they receive, so a canary that reached a model is seen). The
attacker is `ztgate bench attack`'s (bench/ztgate_bench/attack_load.py), run in a process of its own so
that its client work never shares the event loop that times the normal tenant's calls. Select with
`-m attack`.

Two suites, each stopped before the tests read its figures, so that damage cannot spill from one
scenario into the next: the session flood and then the stream chunks share one (the flood leaves
no work behind, its sessions bounded by the attacker's vault quota, while a stream chunk may leave
the redaction service stuck in a scan); every attack kind at once gets the other.

Latency bound, and why it has a floor: the issue's target is a concurrent Generate within 2x of its
unloaded p99. Unloaded, a Generate through the gateway takes 20-60 ms here, on 2 cores shared with
other jobs, where scheduling alone moves a call by tens of milliseconds. So the bound is
max(2 x p99 unloaded, p99 unloaded + 0.25 s): still far below what a held event loop or a starved
pool costs (seconds, or a failed call), and not at the mercy of the machine's neighbours.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from ztgate_bench.attack_load import (
    BENCH_KINDS,
    KINDS,
    NORMAL_VALUES,
    AttackerProcess,
    AttackPlan,
    Call,
    KindFigures,
    normal_load,
    restorable,
)
from ztgate_bench.canaries import Canaries, carried
from ztgate_bench.redaction_metrics import percentile
from ztgate.gateway.auth import keygen, mint
from ztgate.redaction.config import DEFAULT_POLICY_DIR
from tests.e2e.gateway_suite import Suite, start_suite, stop_suite
from tests.procs import compiled_cache_dir

pytestmark = [pytest.mark.slow, pytest.mark.attack]

NORMAL, ATTACKER = "normal", "attacker"
SEED = 11
UNLOADED_CALLS = 20
ATTACKED_CALLS = 20
# Seconds the attacker runs; the normal tenant's calls are spread over all but the first and last,
# and none starts after it.
ATTACK_S = 12.0
RAMP_S = 1.0
# Deadlines: of a normal call, of an attack call (a shorter one only makes the attacker send more).
NORMAL_TIMEOUT_S = 10.0
ATTACK_TIMEOUT_S = 5.0
# Seconds each part gets to exit at the end (a redaction service stuck in a scan is then killed).
STOP_TIMEOUT_S = 5.0
# The normal tenant's sessions per scenario, made before the attack and restored after it.
VICTIM_SESSIONS = 5
# The vault of the suite the flood runs on, small so that within the phase the flood of fresh
# sessions overruns the attacker's quota and makes more sessions than the whole vault holds: past
# its quota a tenant makes way from its own sessions only, so the normal tenant's must all survive.
# The cap holds two tenants' full quotas, so neither tenant is ever refused.
VAULT_SESSIONS_PER_TENANT = 20
VAULT_SESSIONS = 2 * VAULT_SESSIONS_PER_TENANT


@dataclass
class AttackRun:
    unloaded: list[Call]
    attacked: list[Call]
    attacks: dict[str, KindFigures]
    # Labels of canaries (the attacker's and the normal tenant's values) found in what the
    # recording upstreams received during this scenario.
    leaks: list[str]
    # The normal tenant's sessions, made before the attack, restored after it.
    sessions: Counter[str]


async def _start(logs: Path, vault: dict[str, str] | None = None) -> tuple[Suite, dict[str, str]]:
    """A suite with tokens on (`vault`: more ZTGATE_REDACTION__VAULT__* settings), and a token per tenant."""
    key, jwks = keygen(logs / "keys")
    tokens = {t: mint(key, tenant=t, issuer="ztgate", audience="ztgate-gateway") for t in (NORMAL, ATTACKER)}
    suite = await start_suite(logs, policies={"default.yaml": (DEFAULT_POLICY_DIR / "default.yaml").read_text()},
                              message_timeout_s=2.0, gateway_env={"ZTGATE_GATEWAY__AUTH__JWKS_PATH": str(jwks),
                                                                  # The defences behind the rate limit
                                                                  # (on by default with tokens) are
                                                                  # what these attacks test.
                                                                  "ZTGATE_GATEWAY__RATE_LIMIT__WITH_TOKENS_PER_S": "null"},
                              # Two analysis workers, the default on this 2-core machine (one per
                              # CPU): a tenant's fair share is one less than the workers, so the
                              # attacker can never hold the one the normal tenant needs.
                              redaction_env={"ZTGATE_CACHE_DIR": str(compiled_cache_dir()), "ZTGATE_REDACTION__WORKERS": "2",
                                             **(vault or {})})
    return suite, tokens


async def _attack_run(suite: Suite, tokens: dict[str, str], kinds: tuple[str, ...]) -> AttackRun:
    """One scenario on a running suite: the normal tenant's Generate alone, its Redact sessions, the
    attack with its Generate calls paced over it, then its sessions restored."""
    gateway, token = suite.gateway, tokens[NORMAL]
    recorded_before = len(suite.recorded())
    await normal_load(gateway, token, calls=3, methods=("Generate",))  # connections, first-call caches
    unloaded = await normal_load(gateway, token, calls=UNLOADED_CALLS, methods=("Generate",))
    victim = await normal_load(gateway, token, calls=VICTIM_SESSIONS, methods=("Redact",))
    assert len(victim.sessions) == VICTIM_SESSIONS, victim.calls
    plan = AttackPlan(gateway=gateway, token=tokens[ATTACKER], kinds=kinds, duration_s=ATTACK_S,
                      call_timeout_s=ATTACK_TIMEOUT_S, seed=SEED, victim_tenant=NORMAL,
                      victim_sessions=tuple(victim.sessions))
    with AttackerProcess() as attacker:
        started = time.monotonic()
        attack = asyncio.ensure_future(attacker.run(plan))
        await asyncio.sleep(RAMP_S)
        attacked = await normal_load(gateway, token, calls=ATTACKED_CALLS, methods=("Generate",),
                                     interval_s=(ATTACK_S - 2 * RAMP_S) / ATTACKED_CALLS,
                                     until=started + ATTACK_S, timeout_s=NORMAL_TIMEOUT_S)
        figures = await attack
    assert all(figures[kind].calls >= 1 for kind in kinds), figures  # the attack did run
    sessions = await restorable(gateway, token, victim.sessions)
    values = {**Canaries.from_seed(SEED).labelled(), **NORMAL_VALUES}
    leaks = carried(b"".join(r.SerializeToString() for r in suite.recorded()[recorded_before:]), values)
    return AttackRun(unloaded.calls, attacked.calls, figures, leaks, sessions)


def _failed(calls: list[Call]) -> Counter[str]:
    return Counter(c.code for c in calls if c.code != "OK")


def _failures(calls: list[Call]) -> list[tuple[str, str, str, float]]:
    """What a failed call got, whole (status, message, who served it, when): enough to tell an
    ext_proc refusal from Envoy's own reset or the upstream's error."""
    return [(c.code, c.detail, c.served_by, round(c.started_s, 2)) for c in calls if c.code != "OK"]


# --- one suite, two scenarios: the tenancy attacks alone (a flood of fresh sessions past the
# attacker's quota and the vault's cap, and Restore of the normal tenant's session ids: alone, so
# that nothing else slows the flood), then the stream chunks (the 32 KB "1-" * 16000 + "a" chunk
# and a 1 MiB chunk of adversarial text) ----------------------------------------------------------


@pytest.fixture(scope="module")
async def flood_then_streams(tmp_path_factory: pytest.TempPathFactory) -> tuple[AttackRun, AttackRun]:
    suite, tokens = await _start(tmp_path_factory.mktemp("attack-flood-streams"), vault={
        "ZTGATE_REDACTION__VAULT__MAX_SESSIONS": str(VAULT_SESSIONS),
        "ZTGATE_REDACTION__VAULT__MAX_SESSIONS_PER_TENANT": str(VAULT_SESSIONS_PER_TENANT)})
    try:
        flood = await _attack_run(suite, tokens, ("session_flood", "cross_tenant_restore"))
        streams = await _attack_run(suite, tokens, ("stream_32k", "stream_1mib"))
    finally:
        await stop_suite(suite, STOP_TIMEOUT_S)
    return flood, streams


@pytest.fixture(scope="module")
def flood_attack(flood_then_streams: tuple[AttackRun, AttackRun]) -> AttackRun:
    return flood_then_streams[0]


@pytest.fixture(scope="module")
def stream_attack(flood_then_streams: tuple[AttackRun, AttackRun]) -> AttackRun:
    return flood_then_streams[1]


async def test_a_session_flood_does_not_evict_another_tenants_sessions(flood_attack) -> None:
    flood = flood_attack.attacks["session_flood"]
    # Every flood call left a fresh session, more than the attacker's quota and than the whole
    # vault holds: past its quota the attacker made way from its own sessions, and was never refused.
    assert flood.statuses == {"Redact OK": flood.calls} and flood.calls > VAULT_SESSIONS, flood.statuses
    assert flood_attack.sessions == Counter(restored=VICTIM_SESSIONS), (flood_attack.sessions, flood.statuses)


async def test_restore_of_another_tenants_sessions_hands_back_nothing_during_a_flood(flood_attack) -> None:
    restores = flood_attack.attacks["cross_tenant_restore"]
    # The attacker's tenant holds no such session: NOT_FOUND, as for a session that never was.
    assert restores.calls >= 1 and restores.statuses == {"Restore NOT_FOUND": restores.calls}, restores.statuses
    assert restores.victim_values_returned == 0


async def test_every_normal_call_succeeds_during_the_flood(flood_attack) -> None:
    assert not _failed(flood_attack.attacked), _failures(flood_attack.attacked)
    assert len(flood_attack.attacked) == ATTACKED_CALLS, "not every normal call was made within the attack"


async def test_stream_chunks_leave_a_concurrent_generate_within_twice_its_unloaded_p99(stream_attack) -> None:
    unloaded_p99 = percentile([c.duration_ms for c in stream_attack.unloaded], 99) / 1000
    bound = max(2 * unloaded_p99, unloaded_p99 + 0.25)
    attacked_p99 = percentile([c.duration_ms for c in stream_attack.attacked], 99) / 1000
    assert attacked_p99 <= bound, (
        f"Generate p99 {attacked_p99:.3f} s under the stream-chunk attack, unloaded {unloaded_p99:.3f} s, "
        f"bound {bound:.3f} s; attack statuses {[(k, f.statuses) for k, f in stream_attack.attacks.items()]}")


async def test_every_normal_call_succeeds_during_the_stream_chunk_attack(stream_attack) -> None:
    assert not _failed(stream_attack.attacked), _failures(stream_attack.attacked)
    assert len(stream_attack.attacked) == ATTACKED_CALLS, "not every normal call was made within the attack"


async def test_no_canary_reaches_the_upstream_during_the_stream_chunk_attack(stream_attack) -> None:
    assert stream_attack.leaks == []
    assert not any(f.canaries_in_answers for f in stream_attack.attacks.values())


# --- every attack kind at once (bench/ztgate_bench/attack_load.py KINDS), on a suite of its own -------


@pytest.fixture(scope="module")
async def every_attack(tmp_path_factory: pytest.TempPathFactory) -> AttackRun:
    suite, tokens = await _start(tmp_path_factory.mktemp("attack-all"))
    try:
        # Every kind the attacker sends, the shared-capacity ones of issue #28 among them (held
        # tokenless streams, a queue flood, large door bodies, large Restores on its own live session,
        # a metric-label flood, large prompts). Left out: replica_kill, the bench's own act on a suite
        # of two replicas. Two normal Generate calls once failed UNAVAILABLE here with them; see
        # docs/results/attack.md for what was found and changed.
        return await _attack_run(suite, tokens, tuple(k for k in KINDS if k not in BENCH_KINDS))
    finally:
        await stop_suite(suite, STOP_TIMEOUT_S)


async def test_every_normal_call_succeeds_while_every_attack_runs(every_attack) -> None:
    assert not _failed(every_attack.attacked), _failures(every_attack.attacked)
    assert len(every_attack.attacked) == ATTACKED_CALLS, "not every normal call was made within the attack"


async def test_no_canary_reaches_the_upstream_while_every_attack_runs(every_attack) -> None:
    assert every_attack.leaks == []
    assert {k: f.canaries_in_answers for k, f in every_attack.attacks.items() if f.canaries_in_answers} == {}


async def test_restore_never_hands_another_tenants_values_to_the_attacker(every_attack) -> None:
    restores = every_attack.attacks["cross_tenant_restore"]
    assert restores.calls >= 1 and restores.victim_values_returned == 0, restores.statuses
