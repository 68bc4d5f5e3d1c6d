"""`ztgate up --replicas redaction=2`: one real suite (vLLM primary, transformers fallback, two
redaction replicas, collector, Envoy) with a RECORDING OpenAI upstream behind the HTTP door (a test
double, tests/e2e/openai_upstream.py, that records every body it receives: what crossed the gateway).

Checked: each replica serves on its own port and Envoy balances over both; a Redaction API session
is restored on the replica that holds it (the vault is per replica); and SIGKILL of one replica
under steady load (Generate calls as `ztgate bench failover` sends them, plus OpenAI-door calls
carrying canaries) fails the calls it was scrubbing closed, lets no canary through, and the calls
after it go to the other replica. The test prints how many calls failed and over how long."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import grpc
import pytest

from ztgate_bench.attack_load import Call
from ztgate_bench.canaries import Canaries, carried
from ztgate_bench.failover_load import steady_load
from ztgate.common import pki
from ztgate.common.config import load_settings
from ztgate.common.identity import SESSION_HEADER
from ztgate.common.tls import open_channel
from ztgate.config import ZtgateConfig
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
    env = up_env(logs, **SUPERVISOR,
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


async def _redact_and_restore(env: dict[str, str], session: str) -> tuple[str, str]:
    """Redact then Restore through Envoy in one session; (redacted, restored)."""
    metadata = ((SESSION_HEADER, session),)
    async with grpc.aio.insecure_channel(env["ZTGATE_GATEWAY__LISTEN"]) as channel:
        stub = redaction_pb2_grpc.RedactionStub(channel)
        redacted = await stub.Redact(rpb.RedactRequest(text=f"Mail {session}@example.com today",
                                                       session_id=session), metadata=metadata, timeout=60)
        restored = await stub.Restore(rpb.RestoreRequest(text=redacted.text, session_id=session),
                                      metadata=metadata, timeout=60)
    return redacted.text, restored.text


async def _restores_directly(address: str, tls, session: str, text: str) -> bool:
    """Whether the replica at `address`, called directly as the operator, restores the session."""
    async with open_channel(address, tls) as channel:
        try:
            reply = await redaction_pb2_grpc.RedactionStub(channel).Restore(
                rpb.RestoreRequest(text=text, session_id=session), timeout=30)
        except grpc.aio.AioRpcError:
            return False
    return f"{session}@example.com" in reply.text


def test_a_session_is_restored_on_the_replica_that_holds_it(suite) -> None:
    """The vault is per replica: Envoy hashes tenant + session onto one replica, so every Restore
    through Envoy finds its session, and called directly exactly one replica holds each."""
    _, env, _ = suite
    replicas = env["REPLICAS"].split()
    tls = pki.operator_tls(_config(env).mesh)
    holders: list[str] = []
    for number in range(SESSIONS):
        session = f"replica-session-{number}"
        redacted, restored = asyncio.run(_redact_and_restore(env, session))
        assert f"{session}@example.com" not in redacted
        assert restored == f"Mail {session}@example.com today", (session, redacted, restored)
        [holder] = [a for a in replicas if asyncio.run(_restores_directly(a, tls, session, redacted))]
        holders.append(holder)
    # Both replicas hold sessions (12 sessions all on one of two: about 1 in 2000 by chance).
    assert set(holders) == set(replicas), holders


def _openai_load(env: dict[str, str], stop: threading.Event, results: list[tuple[float, int]]) -> None:
    """Chat completions through the HTTP door, each carrying the canaries, until `stop`: (start
    time, HTTP status) per call."""
    body = json.dumps({"model": "echo", "messages": [
        {"role": "user", "content": f"Please handle this.{CANARIES.sentence()}"}]}).encode()
    url = f"http://{env['ZTGATE_GATEWAY__LISTEN']}/v1/chat/completions"
    while not stop.is_set():
        started = time.monotonic()
        request = urllib.request.Request(url, body, {"content-type": "application/json"})
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
    calls: list[Call] = []
    door: list[tuple[float, int]] = []
    stop_door = threading.Event()
    received_before = len(upstream.received)
    load = threading.Thread(target=lambda: asyncio.run(steady_load(
        env["ZTGATE_GATEWAY__LISTEN"], clients=2, max_calls=LOAD_CALLS, timeout_s=60, calls=calls)))
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
    print(line)
    record_property("replica_kill", line)
    wait_for(lambda: _pid(up, "redaction#2") != victim, "redaction#2 restarted", timeout=300, child=up)
    assert "redaction#2 was killed by SIGKILL; restarting it" in up.log()
    assert "GIVING UP" not in up.log()
    wait_for(lambda: _envoy_healthy(env, env["REPLICAS"].split()), "both replicas healthy again",
             timeout=120)
