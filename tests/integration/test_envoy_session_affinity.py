"""A real Envoy over two redaction replicas: calls of the Redaction API that name one tenant and
session always reach the same replica (where that session's vault is), sessions spread over the
replicas, and a replica that goes away takes only its own sessions with it; a call that never
reached the dead replica (connection refused) is answered by the other one.

The two replicas are recording stand-ins, not the redaction service: each answers Redact with its
own name, so that the test sees which replica a call crossed to (a fake that records what crossed
a boundary). Everything between the client and them, Envoy and its rendered bootstrap, is real."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import grpc
import pytest
import yaml
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from ztgate.common.config import load_settings
from ztgate.config import ZtgateConfig
from ztgate.serve import render_envoy
from ztgate.gateway.envoy_process import envoy_argv
from ztgate.gen.redaction.v1 import redaction_pb2, redaction_pb2_grpc
from ztgate.redaction.client import redact
from tests.procs import free_port, spawn

pytestmark = pytest.mark.slow
SERVICE = "ztgate.redaction.v1.Redaction"


class Recorder(redaction_pb2_grpc.RedactionServicer):
    """Answers with its replica's name and the session it was asked about."""

    def __init__(self, name: str) -> None:
        self.name = name

    async def Redact(self, request, context):  # noqa: N802 - the proto's name
        return redaction_pb2.RedactResponse(text=self.name, session_id=request.session_id)


async def _replica(name: str) -> tuple[grpc.aio.Server, str]:
    port = free_port()
    server = grpc.aio.server()
    redaction_pb2_grpc.add_RedactionServicer_to_server(Recorder(name), server)
    checker = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(checker, server)
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    await checker.set(SERVICE, health_pb2.HealthCheckResponse.SERVING)
    return server, f"127.0.0.1:{port}"


async def _replica_of(gateway: str, session: str) -> str:
    return (await redact(gateway, "x", session_id=session, timeout_s=5.0)).text


async def test_one_session_stays_on_one_replica_and_sessions_spread(tmp_path: Path) -> None:
    (a, a_address), (b, b_address) = await _replica("a"), await _replica("b")
    gateway, admin = f"127.0.0.1:{free_port()}", f"127.0.0.1:{free_port()}"
    config = load_settings(ZtgateConfig, None, environ={
        "ZTGATE_MESH__MTLS": "false", "ZTGATE_GATEWAY__LISTEN": gateway, "ZTGATE_GATEWAY__ADMIN": admin})
    bootstrap = tmp_path / "envoy.yaml"
    bootstrap.write_text(render_envoy(config, endpoints={"redaction": [a_address, b_address]}))
    envoy = spawn("envoy", envoy_argv(bootstrap), tmp_path)
    try:
        deadline = time.monotonic() + 60
        while True:  # until Envoy listens and has health-checked both replicas
            try:
                seen = {await _replica_of(gateway, f"warm-{i}") for i in range(16)}
                if seen == {"a", "b"}:
                    break
            except grpc.aio.AioRpcError:
                pass
            assert time.monotonic() < deadline, envoy.log()[-3000:]
            await asyncio.sleep(0.5)
        sessions = [f"session-{i}" for i in range(24)]
        placed = {s: await _replica_of(gateway, s) for s in sessions}
        for _ in range(3):
            for session in sessions:
                assert await _replica_of(gateway, session) == placed[session], session
        assert set(placed.values()) == {"a", "b"}
        # Replica b goes away: its sessions move (they are gone with it), a's stay where they were.
        await b.stop(None)
        deadline = time.monotonic() + 30
        while True:
            try:
                after = {s: await _replica_of(gateway, s) for s in sessions}
                if set(after.values()) == {"a"}:
                    break
            except grpc.aio.AioRpcError:
                pass
            assert time.monotonic() < deadline
            await asyncio.sleep(0.5)
        assert all(after[s] == "a" for s, r in placed.items() if r == "a")
    finally:
        envoy.stop()
        await a.stop(None)
        await b.stop(None)


def _without_route_retries(text: str) -> str:
    """CONTROL: the rendered bootstrap with the Redaction API route's retry policy taken out (as it
    was before calls that never reached a replica were retried)."""
    bootstrap = yaml.safe_load(text)
    hcm = bootstrap["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]
    for route in hcm["route_config"]["virtual_hosts"][0]["routes"]:
        if route["match"].get("prefix") == "/ztgate.redaction.v1.Redaction/":
            del route["route"]["retry_policy"]
    return yaml.safe_dump(bootstrap, sort_keys=False)


async def _calls_after_a_replica_dies(tmp_path: Path, edit=None) -> list[str | grpc.StatusCode]:
    """30 Redact calls (each its own session) through a real Envoy at once after replica b of two
    is stopped, before Envoy's health checks (every 5 s here) can notice: what answered each."""
    (a, a_address), (b, b_address) = await _replica("a"), await _replica("b")
    gateway, admin = f"127.0.0.1:{free_port()}", f"127.0.0.1:{free_port()}"
    config = load_settings(ZtgateConfig, None, environ={
        "ZTGATE_MESH__MTLS": "false", "ZTGATE_GATEWAY__LISTEN": gateway, "ZTGATE_GATEWAY__ADMIN": admin,
        "ZTGATE_GATEWAY__HEALTH_INTERVAL_S": "5"})
    text = render_envoy(config, endpoints={"redaction": [a_address, b_address]})
    bootstrap = tmp_path / "envoy.yaml"
    bootstrap.write_text(edit(text) if edit else text)
    envoy = spawn("envoy", envoy_argv(bootstrap), tmp_path)
    try:
        deadline = time.monotonic() + 60
        while True:  # until Envoy listens and has health-checked both replicas
            try:
                if {await _replica_of(gateway, f"warm-{i}") for i in range(16)} == {"a", "b"}:
                    break
            except grpc.aio.AioRpcError:
                pass
            assert time.monotonic() < deadline, envoy.log()[-3000:]
            await asyncio.sleep(0.5)
        await b.stop(None)  # connections to b are refused from now on
        answers: list[str | grpc.StatusCode] = []
        for i in range(30):
            try:
                answers.append(await _replica_of(gateway, f"after-{i}"))
            except grpc.aio.AioRpcError as exc:
                answers.append(exc.code())
        return answers
    finally:
        envoy.stop()
        await a.stop(None)
        await b.stop(None)


async def test_calls_that_never_reached_a_dead_replica_are_answered_by_the_other(tmp_path: Path) -> None:
    answers = await _calls_after_a_replica_dies(tmp_path)
    assert answers == ["a"] * 30


async def test_control_without_the_routes_retry_a_dead_replica_costs_calls(tmp_path: Path) -> None:
    answers = await _calls_after_a_replica_dies(tmp_path, edit=_without_route_retries)
    assert grpc.StatusCode.UNAVAILABLE in answers  # the calls hashed to b failed
