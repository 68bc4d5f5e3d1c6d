"""`ztgate up --replicas redaction=2`: one real suite (vLLM primary, transformers fallback, two
redaction replicas, collector, Envoy; mTLS between them and tokens on at Envoy) with a RECORDING
OpenAI upstream behind the HTTP door (a test double, tests/e2e/openai_upstream.py, that records
every body it receives: what crossed the gateway).

Checked: each replica serves on its own port and Envoy balances over both; a Redaction API session
made through Envoy is held by both replicas (session replication, redaction/replication.py); and
SIGKILL of one replica under steady load (Generate calls as `ztgate bench failover` sends them, plus
OpenAI-door calls carrying canaries) fails the calls it was scrubbing closed, lets no canary through,
and the calls after it go to the other replica, where every session made before the kill still
restores through Envoy and goes on with the same stand-ins. The test prints how many calls failed
and over how long, and how many sessions restored.

Control: `ZTGATE_E2E_REPLICATION=off` runs the same suite with redaction.replication.enabled off;
the sessions the dead replica held are then lost (NOT_FOUND) and the kill test fails
(docs/results/attack.md gives the figures of both runs)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import threading
import time
import urllib.error
from collections import Counter
import urllib.request
from collections.abc import Iterator

import grpc
import pytest

from ztgate_bench.attack_load import Call
from ztgate_bench.canaries import Canaries, carried
from ztgate_bench.failover_load import steady_load
from ztgate.common import pki
from ztgate.common.config import load_settings
from ztgate.common.identity import SESSION_HEADER, bearer
from ztgate.common.tls import open_channel
from ztgate.config import ZtgateConfig
from ztgate.gateway.auth import keygen, mint
from ztgate.gen.redaction.v1 import redaction_pb2 as rpb
from ztgate.gen.redaction.v1 import redaction_pb2_grpc
from tests.e2e.gateway_suite import wait_for
from tests.e2e.openai_upstream import RecordingOpenAI
from tests.e2e.up_suite import start_up, up_env
from tests.procs import Child, alive, free_port

pytestmark = pytest.mark.slow

SUPERVISOR = {"ZTGATE_SUPERVISOR__CHECK_INTERVAL_S": "1", "ZTGATE_SUPERVISOR__CHECK_TIMEOUT_S": "2",
              "ZTGATE_SUPERVISOR__BACKOFF__INITIAL_S": "0.5", "ZTGATE_SUPERVISOR__START_TIMEOUT_S": "600",
              # What is checked is which calls fail, not how fast the rest are (a shared 2-core
              # machine, vLLM beside two redaction replicas).
              "ZTGATE_GATEWAY__INFERENCE__PER_TRY_TIMEOUT_S": "30",
              "ZTGATE_GATEWAY__HEALTH_INTERVAL_S": "0.5"}
LOAD_CALLS = 40
SESSIONS = 12
# Sessions made through Envoy before the kill, restored through it after.
KILL_SESSIONS = 16
TENANT = "acme"
# The control: the same suite without session replication (module doc).
REPLICATION = os.environ.get("ZTGATE_E2E_REPLICATION", "on") != "off"
CANARIES = Canaries.from_seed(16)


def _replica_ports() -> tuple[int, int]:
    """Two free ports for the replicas, the second within the stride's bounds of the first."""
    for _ in range(200):
        first, second = free_port(), free_port()
        if 0 < second - first <= 10_000:
            return first, second
    raise AssertionError("no two free ports in order")


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Child, dict[str, str], RecordingOpenAI]]:
    logs = tmp_path_factory.mktemp("up-replicas")
    upstream = RecordingOpenAI("echo", chunk_chars=64)
    upstream.start()
    first, second = _replica_ports()
    key, jwks = keygen(logs / "tokens")
    env = up_env(logs, **SUPERVISOR,
                 ZTGATE_GATEWAY__AUTH__JWKS_PATH=str(jwks),
                 # What is checked is which calls fail; the per-tenant rate limit (on by default
                 # with tokens) is not what this suite tests.
                 ZTGATE_GATEWAY__RATE_LIMIT__WITH_TOKENS_PER_S="null",
                 ZTGATE_REDACTION__REPLICATION__ENABLED=str(REPLICATION).lower(),
                 ZTGATE_REDACTION__SERVER__LISTEN=f"127.0.0.1:{first}",
                 ZTGATE_SUPERVISOR__REPLICA_PORT_STRIDE=str(second - first),
                 ZTGATE_GATEWAY__OPENAI_UPSTREAMS=json.dumps(
                     [{"name": "echo", "base_url": upstream.base_url, "models": ["echo"]}]))
    try:
        child = start_up(logs, env, timeout_s=900, args=("--replicas", "redaction=2"))
    except RuntimeError as exc:
        upstream.stop()
        pytest.fail(str(exc))
    env["REPLICAS"] = f"127.0.0.1:{first} 127.0.0.1:{second}"
    env["TOKEN"] = mint(key, tenant=TENANT, issuer="ztgate", audience="ztgate-gateway")
    yield child, env, upstream
    if child.process.poll() is None:
        os.kill(child.process.pid, signal.SIGCONT)
    child.stop(signal.SIGINT, timeout=120)
    upstream.stop()


def _pid(up: Child, part: str) -> int:
    pids = re.findall(rf"^  {re.escape(part)} ready(?: again)? \(pid (\d+)\)$", up.log(), re.MULTILINE)
    assert pids, f"{part} was never reported ready:\n{up.log()[-3000:]}"
    return int(pids[-1])


def _config(env: dict[str, str]) -> ZtgateConfig:
    return load_settings(ZtgateConfig, None, environ={**os.environ, **env})


def _envoy_healthy(env: dict[str, str], addresses: list[str]) -> bool:
    with urllib.request.urlopen(f"http://{env['ZTGATE_GATEWAY__ADMIN']}/clusters", timeout=2) as resp:  # noqa: S310
        text = resp.read().decode()
    return all(f"{cluster}::{a}::health_flags::healthy" in text
               for a in addresses for cluster in ("redaction", "redaction_sessions"))


def test_each_replica_serves_on_its_own_port_and_envoy_balances_over_both(suite) -> None:
    up, env, _ = suite
    replicas = env["REPLICAS"].split()
    assert f"redaction (internal)   {', '.join(replicas)}" in up.log()
    first, second = _pid(up, "redaction#1"), _pid(up, "redaction#2")
    assert first != second and alive(first) and alive(second)
    wait_for(lambda: _envoy_healthy(env, replicas), "Envoy sees both replicas healthy", timeout=30)


async def _redact(env: dict[str, str], session: str, text: str) -> str:
    """Redact through Envoy in one session (the tenant: the token's)."""
    metadata = ((SESSION_HEADER, session), *bearer(env["TOKEN"]))
    async with grpc.aio.insecure_channel(env["ZTGATE_GATEWAY__LISTEN"]) as channel:
        reply = await redaction_pb2_grpc.RedactionStub(channel).Redact(
            rpb.RedactRequest(text=text, session_id=session), metadata=metadata, timeout=60)
    return reply.text


async def _restore(env: dict[str, str], session: str, text: str) -> str:
    """Restore through Envoy; the status name when it fails."""
    metadata = ((SESSION_HEADER, session), *bearer(env["TOKEN"]))
    async with grpc.aio.insecure_channel(env["ZTGATE_GATEWAY__LISTEN"]) as channel:
        try:
            reply = await redaction_pb2_grpc.RedactionStub(channel).Restore(
                rpb.RestoreRequest(text=text, session_id=session), metadata=metadata, timeout=60)
        except grpc.aio.AioRpcError as exc:
            return exc.code().name
    return reply.text


async def _redact_and_restore(env: dict[str, str], session: str) -> tuple[str, str]:
    """Redact then Restore through Envoy in one session; (redacted, restored)."""
    redacted = await _redact(env, session, f"Mail {session}@example.com today")
    return redacted, await _restore(env, session, redacted)


async def _restores_directly(address: str, tls, session: str, text: str) -> bool:
    """Whether the replica at `address`, called directly as the operator for the token's tenant,
    restores the session."""
    async with open_channel(address, tls) as channel:
        try:
            reply = await redaction_pb2_grpc.RedactionStub(channel).Restore(
                rpb.RestoreRequest(text=text, session_id=session, tenant=TENANT), timeout=30)
        except grpc.aio.AioRpcError:
            return False
    return f"{session}@example.com" in reply.text


def _again(session: str) -> str:
    """What continues a session after the kill: a new value, then the session's own."""
    return f"Again new-{session}@example.com and {session}@example.com"


def _held_by(env: dict[str, str], session: str, text: str) -> list[str]:
    """The replicas that, called directly, restore the session."""
    tls = pki.operator_tls(_config(env).mesh)
    return [a for a in env["REPLICAS"].split() if asyncio.run(_restores_directly(a, tls, session, text))]


def _held_by_both_soon(env: dict[str, str], made: dict[str, str], timeout_s: float = 10.0) -> bool:
    """Whether both replicas hold every session of `made` within `timeout_s` (replication is off
    the request path: a session reaches the peer a moment after its Redact is answered)."""
    ends = time.monotonic() + timeout_s
    while time.monotonic() < ends:
        if all(len(_held_by(env, session, text)) == 2 for session, text in made.items()):
            return True
        time.sleep(0.3)
    return False


def test_a_session_is_held_by_both_replicas_and_restores_through_envoy(suite) -> None:
    """Envoy hashes tenant + session onto one replica; that replica hands the session to the
    other, so that, called directly, both restore it."""
    _, env, _ = suite
    made = {}
    for number in range(SESSIONS):
        session = f"replica-session-{number}"
        redacted, restored = asyncio.run(_redact_and_restore(env, session))
        assert f"{session}@example.com" not in redacted
        assert restored == f"Mail {session}@example.com today", (session, redacted, restored)
        made[session] = redacted
    assert _held_by_both_soon(env, made), {s: _held_by(env, s, t) for s, t in made.items()}


def _openai_load(env: dict[str, str], stop: threading.Event, results: list[tuple[float, int]]) -> None:
    """Chat completions through the HTTP door, each carrying the canaries, until `stop`: (start
    time, HTTP status) per call."""
    body = json.dumps({"model": "echo", "messages": [
        {"role": "user", "content": f"Please handle this.{CANARIES.sentence()}"}]}).encode()
    url = f"http://{env['ZTGATE_GATEWAY__LISTEN']}/v1/chat/completions"
    headers = {"content-type": "application/json", "authorization": f"Bearer {env['TOKEN']}"}
    while not stop.is_set():
        started = time.monotonic()
        request = urllib.request.Request(url, body, headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as resp:  # noqa: S310 - loopback
                resp.read()
                status = resp.status
        except urllib.error.HTTPError as exc:
            status = exc.code
        except OSError:
            status = 0
        results.append((started, status))
        time.sleep(0.2)


def test_a_killed_replica_under_load_fails_its_calls_closed_and_the_other_takes_the_rest(
        suite, record_property) -> None:
    up, env, upstream = suite
    victim = _pid(up, "redaction#2")
    # Sessions made through Envoy before the kill (about half on the replica that dies).
    made = {f"kill-session-{n}": "" for n in range(KILL_SESSIONS)}
    added_s = time.monotonic()
    for session in made:
        made[session] = asyncio.run(_redact(env, session, f"Mail {session}@example.com today"))
    replicated = _held_by_both_soon(env, made)
    added_s = time.monotonic() - added_s
    calls: list[Call] = []
    door: list[tuple[float, int]] = []
    stop_door = threading.Event()
    received_before = len(upstream.received)
    load = threading.Thread(target=lambda: asyncio.run(steady_load(
        env["ZTGATE_GATEWAY__LISTEN"], env["TOKEN"], clients=2, max_calls=LOAD_CALLS, timeout_s=60,
        calls=calls)))
    canaries = threading.Thread(target=_openai_load, args=(env, stop_door, door))
    load.start()
    canaries.start()
    killed_at = 0.0
    try:
        wait_for(lambda: len(calls) >= 6, "6 calls before the kill", timeout=300)
        # `up` frozen: nobody restarts the replica while the rest of the load runs, so the calls
        # after the kill show that the other replica takes them all.
        os.kill(up.process.pid, signal.SIGSTOP)
        try:
            os.kill(victim, signal.SIGKILL)
            killed_at = time.monotonic()
            load.join(LOAD_CALLS * 70)
            # Every session made before the kill, restored through Envoy on the replica left, then
            # continued there: a new value first, then the session's value, which keeps the
            # stand-in it had (a session started afresh would number it second: another one).
            checking = time.monotonic()
            restored = {session: asyncio.run(_restore(env, session, text)) for session, text in made.items()}
            again = {session: asyncio.run(_redact(env, session, _again(session))) for session in made}
            added_s += time.monotonic() - checking
        finally:
            os.kill(up.process.pid, signal.SIGCONT)
    finally:
        stop_door.set()
        load.join(LOAD_CALLS * 70)
        canaries.join(60)
    assert not load.is_alive() and len(calls) == LOAD_CALLS
    # No canary reached the model: not before, during or after the kill.
    leaked = [label for r in upstream.received[received_before:]
              for label in carried(r.body, CANARIES.labelled())]
    assert leaked == []
    assert any(status == 200 for _, status in door), door  # the door's calls did go through
    failed = sorted([c for c in calls if c.code != "OK"], key=lambda c: c.started_s)
    door_failed = sorted(t for t, status in door if status != 200)
    # Every failure is a refusal (fail closed), none is a call that began long after the kill.
    assert all(c.code in ("UNAVAILABLE", "INTERNAL", "UNKNOWN", "DEADLINE_EXCEEDED") for c in failed), failed
    after = sorted((c for c in calls if c.started_s > killed_at), key=lambda c: c.started_s)
    assert len(after) >= 10 and all(c.code == "OK" for c in after[-10:]), [c.code for c in after]
    starts = [c.started_s for c in failed] + door_failed
    ends = [c.started_s + c.duration_ms / 1000 for c in failed] + door_failed
    window = (max(ends) - min(starts)) if starts else 0.0
    line = (f"SIGKILL of redaction#2 under load: {len(failed)} of {len(calls)} Generate calls and "
            f"{len(door_failed)} of {len(door)} OpenAI-door calls failed (closed), over {window:.1f} s "
            f"from the first failing call's start; {len(after)} Generate calls after the kill, the "
            f"last 10 all OK on redaction#1; canaries through: {len(leaked)}")
    back = [s for s, text in restored.items() if text == f"Mail {s}@example.com today"]
    stand_ins = {s: made[s].split()[1] for s in made}
    kept = [s for s in made if again[s].split()[-1] == stand_ins[s]]
    line += (f"; sessions made before the kill restored through Envoy after it: {len(back)} of "
             f"{len(made)} (the others: {dict(Counter(v for v in restored.values() if 'example.com' not in v))}), "
             f"continued with the same stand-in: {len(kept)}; replication "
             f"{'on' if REPLICATION else 'off (control)'}, both replicas held them before the kill: {replicated}; "
             f"the sessions' steps took {added_s:.1f} s")
    print(line)
    record_property("replica_kill", line)
    assert len(back) == len(made), restored
    assert len(kept) == len(made), (stand_ins, again)
    wait_for(lambda: _pid(up, "redaction#2") != victim, "redaction#2 restarted", timeout=300, child=up)
    assert "redaction#2 was killed by SIGKILL; restarting it" in up.log()
    assert "GIVING UP" not in up.log()
    wait_for(lambda: _envoy_healthy(env, env["REPLICAS"].split()), "both replicas healthy again",
             timeout=120)
    # The ring hands the dead replica's sessions back to its restart, which asked the survivor for
    # every session before it reported SERVING (redaction.replication.ready_wait_s): as soon as Envoy
    # reads it healthy, every session restores through Envoy, with no wait for the survivor's send.
    after_restart = {session: asyncio.run(_restore(env, session, again[session])) for session in made}
    assert all(text == _again(session) for session, text in after_restart.items()), after_restart
    assert all(len(_held_by(env, s, t)) == 2 for s, t in again.items()), {
        s: _held_by(env, s, t) for s, t in again.items()}
