"""`ztgate up` keeps the suite running when a part is killed or frozen, and refuses to start beside a
running suite: one real suite (vLLM primary, transformers fallback, redaction, collector, Envoy),
broken in order, each check waiting until the suite has healed. The primary is killed, then frozen,
each time under steady load through Envoy (bench/ztgate_bench/failover_load.py, as `ztgate bench
failover` runs it): at most one call in 60 may be lost (the one on the primary when it went)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest

from ztgate.common.config import load_settings
from ztgate_bench.attack_load import Call
from ztgate_bench.failover_load import steady_load
from ztgate.common.lifetime import descendants, group_members
from ztgate.config import ZtgateConfig
from ztgate.gen.inference.v1 import inference_pb2_grpc
from ztgate.gen.redaction.v1 import redaction_pb2 as rpb
from ztgate.gen.redaction.v1 import redaction_pb2_grpc
from ztgate.inference.client import build_request
from ztgate.supervisor.launcher import suite as suite_parts
from tests.e2e.gateway_suite import wait_for
from tests.e2e.up_suite import ENV_KEYS, start_up, up_env
from tests.procs import Child, alive, spawn

pytestmark = pytest.mark.slow

# Quick to notice a frozen part: three failed checks a second apart, each given 2 s; and time for
# vLLM to start on a small machine shared with other work.
SUPERVISOR = {"ZTGATE_SUPERVISOR__CHECK_INTERVAL_S": "1", "ZTGATE_SUPERVISOR__CHECK_TIMEOUT_S": "2",
              "ZTGATE_SUPERVISOR__FAILURE_THRESHOLD": "3", "ZTGATE_SUPERVISOR__BACKOFF__INITIAL_S": "0.5",
              "ZTGATE_SUPERVISOR__START_TIMEOUT_S": "600",
              # What is checked is that calls go on, not how fast: on a shared 2-core machine, with
              # vLLM restarting beside it, the fallback's first token can take longer than the
              # 1.2 s TTFT budget of a try (gateway.inference.per_try_timeout_s).
              "ZTGATE_GATEWAY__INFERENCE__PER_TRY_TIMEOUT_S": "30"}
# The target: of 60 calls under steady load while the primary is killed or frozen, at most
# one is lost.
LOAD_CALLS, MAX_LOST = 60, 1
PARTS = ("telemetry", "redaction", "inference-primary", "inference-fallback", "openai-adapter", "envoy")


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Child, dict[str, str]]]:
    logs = tmp_path_factory.mktemp("up-supervision")
    env = up_env(logs, **SUPERVISOR)
    try:
        child = start_up(logs, env, timeout_s=900)
    except RuntimeError as exc:
        pytest.fail(str(exc))
    yield child, env
    if child.process.poll() is None:
        os.kill(child.process.pid, signal.SIGCONT)  # in case a check failed while `up` was frozen
    child.stop(signal.SIGINT)


def _pid(up: Child, part: str) -> int:
    """The part's current process, as `up` reported it ("X ready (pid N)", "X ready again ...")."""
    pids = re.findall(rf"^  {re.escape(part)} ready(?: again)? \(pid (\d+)\)$", up.log(), re.MULTILINE)
    assert pids, f"{part} was never reported ready:\n{up.log()[-3000:]}"
    return int(pids[-1])


def _serving(env: dict[str, str], part: str) -> bool:
    """The part answers SERVING (the health check `up` and `ztgate status` use, with the operator's
    certificate)."""
    config = load_settings(ZtgateConfig, None, environ={**os.environ, **env})
    [child] = [c for c in suite_parts(config, None, Path("unused")) if c.name == part]
    return asyncio.run(child.probe(timeout_s=2))


def _generate(env: dict[str, str]) -> str:
    """A greedy call through Envoy; which instance served it."""
    with grpc.insecure_channel(env["ZTGATE_GATEWAY__LISTEN"]) as channel:
        reply = inference_pb2_grpc.InferenceStub(channel).Generate(
            build_request("Say hello.", chat=True, max_tokens=4, temperature=0), timeout=60)
    return reply.served_by


def _redact(env: dict[str, str]) -> str:
    with grpc.insecure_channel(env["ZTGATE_GATEWAY__LISTEN"]) as channel:
        return redaction_pb2_grpc.RedactionStub(channel).Redact(
            rpb.RedactRequest(text="Mail jane.doe@example.com"), timeout=60).text


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def test_each_part_runs_in_a_process_group_of_its_own(suite) -> None:
    up, _ = suite
    for part in PARTS:
        pid = _pid(up, part)
        assert alive(pid) and os.getpgid(pid) == pid, part
    primary = _pid(up, "inference-primary")
    assert any("EngineCore" in _cmdline(p) for p in group_members(primary))  # vLLM's engine process


def test_a_second_up_with_the_same_config_fails_at_once_naming_the_port(suite, tmp_path: Path) -> None:
    up, env = suite
    before = {part: _pid(up, part) for part in PARTS}
    second = spawn("up-second", [sys.executable, "-m", "ztgate.cli", "up"], tmp_path, env)
    assert second.process.wait(timeout=120) == 1
    log = second.log()
    assert "already in use" in log and "gateway.listen" in log and "redaction.server.listen" in log
    assert not re.search(r"^starting |^  \S+ ready|ztgate is up", log, re.MULTILINE)
    # The first suite is untouched: the same processes, all serving.
    assert {part: _pid(up, part) for part in PARTS} == before
    assert all(alive(pid) for pid in before.values())
    assert all(_serving(env, part) for part in PARTS)


def _under_load(env: dict[str, str], fault: Callable[[], None], before: int = 5) -> list[Call]:
    """LOAD_CALLS Generate calls through Envoy, one at a time (a 60 s deadline each); `fault` runs
    once `before` of them have finished, while the next one is in flight."""
    calls: list[Call] = []
    load = threading.Thread(target=lambda: asyncio.run(steady_load(
        env["ZTGATE_GATEWAY__LISTEN"], max_calls=LOAD_CALLS, timeout_s=60, calls=calls)))
    load.start()
    try:
        wait_for(lambda: len(calls) >= before, f"{before} calls before the fault", timeout=300)
        time.sleep(0.1)  # the next call is on its way
        fault()
    finally:
        load.join(LOAD_CALLS * 70)
    assert not load.is_alive() and len(calls) == LOAD_CALLS
    return calls


def _lost(calls: list[Call]) -> list[str]:
    return [f"{c.code}: {c.detail}" for c in calls if c.code != "OK"]


def _family(pid: int) -> list[int]:
    """The part's process and everything it started, by process group and by parentage (/proc)."""
    return sorted({pid, *group_members(pid), *descendants(pid)})


def _no_orphan_of(family: list[int]) -> bool:
    return not any(alive(p) for p in family)


def _wait_gone(family: list[int], timeout: float) -> None:
    try:
        wait_for(lambda: _no_orphan_of(family), "the old primary's processes are gone", timeout=timeout)
    except AssertionError as exc:
        left = [f"{p} {_cmdline(p)[:80]}" for p in family if alive(p)]
        raise AssertionError(f"{exc}; left: {left}") from None


def test_a_killed_primary_under_load_costs_at_most_one_call_takes_its_engine_along_and_comes_back(
        suite) -> None:
    up, env = suite
    primary = _pid(up, "inference-primary")
    family = _family(primary)
    assert any("EngineCore" in _cmdline(p) for p in family)

    def kill() -> None:
        # With `up` frozen nothing cleans up for the primary: its EngineCore must go by itself.
        os.kill(up.process.pid, signal.SIGSTOP)
        try:
            os.kill(primary, signal.SIGKILL)
            _wait_gone(family, timeout=20)
        finally:
            os.kill(up.process.pid, signal.SIGCONT)

    calls = _under_load(env, kill)
    assert len(_lost(calls)) <= MAX_LOST, _lost(calls)
    assert "fallback" in {c.served_by for c in calls[6:]}  # the fallback answered meanwhile
    wait_for(lambda: _pid(up, "inference-primary") != primary and _serving(env, "inference-primary"),
             "the primary was restarted and serves", timeout=660, child=up)
    assert "inference-primary was killed by SIGKILL; restarting it" in up.log()
    assert group_members(primary) == [] and _no_orphan_of(family)  # nothing of the old primary is left
    wait_for(lambda: _generate(env) == "primary", "the gateway sends greedy calls to the primary again",
             timeout=120)


def test_a_frozen_primary_under_load_costs_at_most_one_call_and_is_replaced_whole(suite) -> None:
    """SIGSTOP: alive but answering nothing, health checks included. Envoy's health checks take it
    out of rotation, and `up`'s find it frozen and replace it (its whole process group killed);
    nobody sends SIGCONT."""
    up, env = suite
    primary = _pid(up, "inference-primary")
    family = _family(primary)
    assert any("EngineCore" in _cmdline(p) for p in family)
    calls = _under_load(env, lambda: os.kill(primary, signal.SIGSTOP))
    assert len(_lost(calls)) <= MAX_LOST, _lost(calls)
    assert "fallback" in {c.served_by for c in calls[6:]}
    wait_for(lambda: _pid(up, "inference-primary") != primary and _serving(env, "inference-primary"),
             "the frozen primary was replaced and serves", timeout=660, child=up)
    assert "inference-primary failed 3 health checks in a row" in up.log()
    assert group_members(primary) == [] and _no_orphan_of(family)  # frozen processes too: all gone
    wait_for(lambda: _generate(env) == "primary", "the gateway sends greedy calls to the primary again",
             timeout=120)


def test_a_frozen_collector_costs_the_request_path_nothing_and_is_restarted(suite) -> None:
    up, env = suite
    telemetry = _pid(up, "telemetry")
    os.kill(telemetry, signal.SIGSTOP)
    try:
        assert _generate(env) in ("primary", "fallback")
        assert "jane.doe@example.com" not in _redact(env)
        wait_for(lambda: _pid(up, "telemetry") != telemetry and _serving(env, "telemetry"),
                 "the frozen collector was replaced", timeout=120, child=up)
    finally:
        if alive(telemetry):
            os.kill(telemetry, signal.SIGCONT)
    assert "telemetry failed 3 health checks in a row" in up.log()
    assert not alive(telemetry)


def test_a_killed_collector_comes_back_while_calls_go_on(suite) -> None:
    up, env = suite
    telemetry = _pid(up, "telemetry")
    os.kill(telemetry, signal.SIGKILL)
    assert _generate(env) in ("primary", "fallback")
    assert "jane.doe@example.com" not in _redact(env)
    wait_for(lambda: _pid(up, "telemetry") != telemetry and _serving(env, "telemetry"),
             "the collector is back", timeout=120, child=up)
    assert "GIVING UP" not in up.log()


def test_ctrl_c_leaves_no_process_of_the_suite_behind(suite) -> None:
    up, env = suite
    groups = [_pid(up, part) for part in PARTS]
    # Each part may take supervisor.stop_grace_s (15 s) to drain, one after the other.
    assert up.stop(signal.SIGINT, timeout=len(PARTS) * 15 + 15) == 0
    assert all(group_members(pgid) == [] for pgid in groups)
    for key in ENV_KEYS:
        host, port = env[key].rsplit(":", 1)
        with pytest.raises(OSError):
            socket.create_connection((host, int(port)), timeout=1).close()
