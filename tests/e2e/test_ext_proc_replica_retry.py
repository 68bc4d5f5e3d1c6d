"""A scrub stream that a dead replica never answered is opened on another: two real redaction
replicas (`ztgate serve redaction`, one analysis worker each) behind two real Envoys rendered by
`ztgate envoy-config`, in front of RECORDING inference upstreams (`RecordingInference`, test doubles
in gateway_suite.py, no model). One Envoy runs the rendered bootstrap; the CONTROL Envoy the same
with the ext_proc filter's gRPC retry policy taken out.

One replica is frozen while calls are in flight, then SIGKILLed (their streams are reset on the
connection it held, before any answer); right after, before either Envoy's health checks (every
20 s here) can notice, both Envoys get the same `Generate` calls in turn (their connections are
refused). Every call needs its ext_proc stream, which Envoy's gRPC client opens on one replica of
the `redaction` cluster (round robin): the rendered Envoy answers them all, scrubbed, and the
control loses the calls whose stream met the dead replica (UNAVAILABLE: the processor unreachable
fails closed). The route retries (tested in tests/integration/test_envoy_session_affinity.py) do
not cover this stream."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import grpc
import pytest
import yaml

from ztgate.common.config import load_settings
from ztgate.config import ZtgateConfig
from ztgate.serve import render_envoy
from ztgate.gateway.envoy_process import envoy_argv
from ztgate.gen.inference.v1 import inference_pb2 as ipb
from ztgate.gen.inference.v1 import inference_pb2_grpc
from tests.e2e.gateway_suite import RecordingInference, wait_for
from tests.procs import Child, admin_get, compiled_cache_dir, free_port, spawn, spawn_service, wait_serving
from tests.suite_pki import PLAINTEXT

pytestmark = pytest.mark.slow

EMAIL = "jane.doe@example.com"
CALLS = 24  # per Envoy, after the kill
IN_FLIGHT = 6  # per Envoy, sent before the kill


def _redaction_cluster_stats(admin: str) -> dict[str, int]:
    """The counters of the ext_proc cluster that say how its streams met the dead replica."""
    names = ("upstream_cx_connect_fail", "upstream_cx_destroy_remote_with_active_rq", "upstream_rq_retry",
             "upstream_rq_retry_success")
    lines = admin_get(admin, "/stats?filter=^cluster\\.redaction\\.upstream_").splitlines()
    values = dict(line.split(": ", 1) for line in lines if ": " in line)
    return {name: int(values[f"cluster.redaction.{name}"]) for name in names}


def _without_ext_proc_retry(text: str) -> str:
    """CONTROL: the rendered bootstrap without the ext_proc stream's retry policy."""
    bootstrap = yaml.safe_load(text)
    hcm = bootstrap["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]
    [ext_proc] = [f for f in hcm["http_filters"] if f["name"] == "envoy.filters.http.ext_proc"]
    del ext_proc["typed_config"]["grpc_service"]["retry_policy"]
    return yaml.safe_dump(bootstrap, sort_keys=False)


def _both_healthy(admin: str, replicas: list[str]) -> bool:
    """Envoy serves (/ready LIVE; a 503 before is an OSError to wait_for) and has health-checked
    both replicas."""
    clusters = admin_get(admin, "/clusters")
    return (admin_get(admin, "/ready").strip() == "LIVE"
            and all(f"redaction::{a}::health_flags::healthy" in clusters for a in replicas))


async def _generate(gateway: str) -> str:
    """One Generate through `gateway`: "OK" or the status code's name."""
    async with grpc.aio.insecure_channel(gateway) as channel:
        try:
            await inference_pb2_grpc.InferenceStub(channel).Generate(
                ipb.GenerateRequest(prompt=f"Mail me at {EMAIL}"), timeout=30)
        except grpc.aio.AioRpcError as exc:
            return exc.code().name
    return "OK"


async def test_a_scrub_stream_that_met_a_killed_replica_is_opened_on_the_other(tmp_path: Path) -> None:
    primary, fallback = RecordingInference("primary"), RecordingInference("fallback")
    await primary.start()
    await fallback.start()
    replicas = [f"127.0.0.1:{free_port()}", f"127.0.0.1:{free_port()}"]
    env = {**PLAINTEXT, "ZTGATE_GATEWAY__HEALTH_INTERVAL_S": "20",
           "ZTGATE_INFERENCE__PRIMARY__SERVER__LISTEN": f"127.0.0.1:{primary.port}",
           "ZTGATE_INFERENCE__FALLBACK__SERVER__LISTEN": f"127.0.0.1:{fallback.port}",
           "ZTGATE_REDACTION__SERVER__LISTEN": replicas[0],
           "ZTGATE_TELEMETRY__SERVER__LISTEN": f"127.0.0.1:{free_port()}",
           # What is checked is which calls fail, not how fast (a shared 2-core machine).
           "ZTGATE_GATEWAY__REDACTION__MESSAGE_TIMEOUT_S": "10",
           "ZTGATE_GATEWAY__INFERENCE__PER_TRY_TIMEOUT_S": "10"}
    children: list[Child] = []
    try:
        for number, address in enumerate(replicas):
            children.append(spawn_service(f"redaction-{number}", "redaction", address, tmp_path, env={
                **env, "ZTGATE_REDACTION__WORKERS": "1", "ZTGATE_CACHE_DIR": str(compiled_cache_dir())}))
        for child, address in zip(children, replicas):
            await asyncio.to_thread(wait_serving, child, address, "envoy.service.ext_proc.v3.ExternalProcessor",
                                    300.0)
        gateways: dict[str, tuple[str, str]] = {}
        for name, edit in (("envoy", None), ("envoy-control", _without_ext_proc_retry)):
            gateway, admin = f"127.0.0.1:{free_port()}", f"127.0.0.1:{free_port()}"
            config = load_settings(ZtgateConfig, None, environ={
                **env, "ZTGATE_GATEWAY__LISTEN": gateway, "ZTGATE_GATEWAY__ADMIN": admin})
            text = render_envoy(config, endpoints={"redaction": replicas})
            bootstrap = tmp_path / f"{name}.yaml"
            bootstrap.write_text(edit(text) if edit else text)
            envoy = spawn(name, envoy_argv(bootstrap), tmp_path)
            children.append(envoy)
            await asyncio.to_thread(wait_for, lambda a=admin: _both_healthy(a, replicas),
                                    f"{name} sees both replicas healthy", 90.0, envoy)
            gateways[name] = (gateway, admin)
        # Both Envoys hold a connection to each replica (round robin over a few warm calls).
        for gateway, _ in gateways.values():
            assert [await _generate(gateway) for _ in range(6)] == ["OK"] * 6
        before = len(primary.requests) + len(fallback.requests)

        # Streams already sent to the replica when it dies: it is frozen (SIGSTOP) while each Envoy
        # opens IN_FLIGHT scrub streams, about half of them on it (round robin on each of Envoy's
        # workers), then killed, so those streams are reset before any answer came.
        victim = children[1].process.pid
        os.kill(victim, signal.SIGSTOP)
        in_flight = {name: [asyncio.create_task(_generate(gateway)) for _ in range(IN_FLIGHT)]
                     for name, (gateway, _) in gateways.items()}
        await asyncio.sleep(1.5)
        os.kill(victim, signal.SIGKILL)  # connections to it are refused from now on
        answers: dict[str, list[str]] = {name: list(await asyncio.gather(*tasks))
                                         for name, tasks in in_flight.items()}
        # Streams opened after the kill: their connection is refused.
        for _ in range(CALLS):
            for name, (gateway, _) in gateways.items():
                answers[name].append(await _generate(gateway))
        # Still inside the window: neither Envoy's health checks had marked the replica down.
        for name, (_, admin) in gateways.items():
            assert f"redaction::{replicas[1]}::health_flags::healthy" in admin_get(admin, "/clusters"), name

        stats = {name: _redaction_cluster_stats(admin) for name, (_, admin) in gateways.items()}
        total = IN_FLIGHT + CALLS
        print(f"after SIGKILL of one of two replicas: rendered Envoy {answers['envoy'].count('OK')} "
              f"of {total} Generate calls answered; control without the ext_proc retry "
              f"{answers['envoy-control'].count('OK')} of {total}; redaction cluster: {stats}")
        # Both classes were met: streams reset on a connection the replica held, and refused ones.
        assert stats["envoy"]["upstream_cx_destroy_remote_with_active_rq"] >= 1, stats
        assert stats["envoy"]["upstream_cx_connect_fail"] >= 1, stats
        assert answers["envoy"] == ["OK"] * total
        # CONTROL: without the retry, the streams that met the dead replica failed (closed), of
        # both classes.
        assert "UNAVAILABLE" in answers["envoy-control"][:IN_FLIGHT], answers["envoy-control"]
        assert "UNAVAILABLE" in answers["envoy-control"][IN_FLIGHT:], answers["envoy-control"]
        assert set(answers["envoy-control"]) <= {"OK", "UNAVAILABLE"}, answers["envoy-control"]
        # Every answered call reached the upstream once, scrubbed: a retried stream never
        # doubles the inference call behind it.
        sent = primary.requests[before:] + fallback.requests[before:]
        assert len(sent) == total + answers["envoy-control"].count("OK")
        assert all(EMAIL not in r.prompt for r in sent)
    finally:
        for child in reversed(children):
            child.stop(timeout=15)
        await primary.server.stop(0)
        await fallback.server.stop(0)
