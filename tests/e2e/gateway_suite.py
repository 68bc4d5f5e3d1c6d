"""The gateway under test: a real redaction service and a real Envoy in front of two RECORDING
inference upstreams (`RecordingInference`, test doubles written here, no model) as primary and
fallback. Shared by the e2e modules that each run one suite (`start_suite`)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from pathlib import Path

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from services.common.config import load_settings
from services.config import ZtgateConfig
from services.gateway.envoy_config import render
from services.gateway.envoy_process import envoy_argv
from services.gen.ztgate.inference.v1 import inference_pb2 as ipb
from services.gen.ztgate.inference.v1 import inference_pb2_grpc
from services.redaction.vault import PLACEHOLDER_RE
from tests.procs import Child, admin_get, free_port, spawn, spawn_service, wait_serving
from tests.suite_pki import PLAINTEXT

INFERENCE = "ztgate.inference.v1.Inference"
# What the recording upstream's "model" leaks in every answer.
MODEL_SECRETS = ("AKIAQ4RT7YU2IO9PLK3J", "ghp_" + "Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo8N")

class RecordingInference(inference_pb2_grpc.InferenceServicer):
    """TEST DOUBLE of the inference service (no model): records every GenerateRequest it receives
    and answers with text that echoes every placeholder it saw in the prompt plus secrets of its own
    ("Hello <PERSON_1> <EMAIL_ADDRESS_1> ..., your key is AKIA..."). GenerateStream sends that text
    in `chunk_chars`-character chunks, so placeholders and secrets are split across messages.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.requests: list[ipb.GenerateRequest] = []
        self.delay_s = 0.0
        self.chunk_chars = 3
        self.health = health.aio.HealthServicer()
        self.server = grpc.aio.server()
        inference_pb2_grpc.add_InferenceServicer_to_server(self, self.server)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.server)
        self.port = self.server.add_insecure_port("127.0.0.1:0")

    async def start(self) -> None:
        await self.server.start()
        await self.health.set(INFERENCE, health_pb2.HealthCheckResponse.SERVING)

    def answer(self, request: ipb.GenerateRequest) -> str:
        seen = " ".join([request.prompt, *(m.content for m in request.messages)])
        placeholders = [m.group(0) for m in PLACEHOLDER_RE.finditer(seen)]
        return (f"Hello {' '.join(placeholders)}, your key is {MODEL_SECRETS[0]} "
                f"and your token {MODEL_SECRETS[1]}.")

    async def Generate(self, request, context):
        self.requests.append(request)
        await asyncio.sleep(self.delay_s)
        return ipb.GenerateResponse(text=self.answer(request), token_ids=[1, 2, 3],
                                    finish_reason="stop", served_by=self.name)

    async def GenerateStream(self, request, context):
        self.requests.append(request)
        await asyncio.sleep(self.delay_s)
        text = self.answer(request)
        for start in range(0, len(text), self.chunk_chars):
            yield ipb.GenerateChunk(text=text[start:start + self.chunk_chars], token_ids=[start])
            await asyncio.sleep(0.001)
        yield ipb.GenerateChunk(finish_reason="stop", served_by=self.name)


@dataclass
class Suite:
    redaction: Child
    envoy: Child
    primary: RecordingInference
    fallback: RecordingInference
    gateway: str
    admin: str
    redaction_address: str

    def recorded(self) -> list[ipb.GenerateRequest]:
        return self.primary.requests + self.fallback.requests


def wait_for(predicate, what: str, timeout: float = 60.0, child: Child | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if predicate():
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"{what} within {timeout} s" + (f":\n{child.log()[-3000:]}" if child else ""))


async def start_suite(logs: Path, *, policies: dict[str, str], message_timeout_s: float,
                      gateway_env: dict[str, str] | None = None) -> Suite:
    """Starts the parts and waits until Envoy sees every upstream healthy; `stop_suite` undoes it.
    `policies`: redaction policy files by name; `gateway_env`: more ZTGATE_* settings for Envoy's."""
    folder = logs / "policies"
    folder.mkdir()
    for name, text in policies.items():
        (folder / name).write_text(text)
    primary, fallback = RecordingInference("primary"), RecordingInference("fallback")
    await primary.start()
    await fallback.start()
    redaction_address = f"127.0.0.1:{free_port()}"
    env = {"ZTGATE_GATEWAY__LISTEN": f"127.0.0.1:{free_port()}",
           "ZTGATE_GATEWAY__ADMIN": f"127.0.0.1:{free_port()}",
           "ZTGATE_GATEWAY__HEALTH_INTERVAL_S": "0.5",
           "ZTGATE_GATEWAY__REDACTION_MESSAGE_TIMEOUT_S": str(message_timeout_s),
           "ZTGATE_INFERENCE__PRIMARY__SERVER__LISTEN": f"127.0.0.1:{primary.port}",
           "ZTGATE_INFERENCE__FALLBACK__SERVER__LISTEN": f"127.0.0.1:{fallback.port}",
           "ZTGATE_REDACTION__SERVER__LISTEN": redaction_address,
           # The parts here are started by hand, without certificates (mTLS: test_up_and_gateway).
           **PLAINTEXT, **(gateway_env or {})}
    # The same settings as Envoy's (one ztgate.yaml in a deployment): the redaction service reads
    # the gateway's message timeout and the request limits too.
    redaction = spawn_service("redaction", "redaction", redaction_address, logs, env={
        **env, "ZTGATE_REDACTION__WORKERS": "1", "ZTGATE_REDACTION__POLICIES": f"[{folder}]",
        "ZTGATE_CACHE_DIR": str(logs / "cache")})
    bootstrap = logs / "envoy.yaml"
    bootstrap.write_text(render(load_settings(ZtgateConfig, None, environ=env)))
    envoy = spawn("envoy", envoy_argv(bootstrap), logs)
    suite = Suite(redaction, envoy, primary, fallback, env["ZTGATE_GATEWAY__LISTEN"],
                  env["ZTGATE_GATEWAY__ADMIN"], redaction_address)
    try:
        await asyncio.to_thread(wait_serving, redaction, redaction_address,
                                "envoy.service.ext_proc.v3.ExternalProcessor")

        def healthy() -> bool:
            clusters = admin_get(suite.admin, "/clusters")
            return all(f"{name}::{address}::health_flags::healthy" in clusters for name, address in [
                ("redaction", redaction_address), ("inference_primary", f"127.0.0.1:{primary.port}"),
                ("inference_fallback", f"127.0.0.1:{fallback.port}")])

        await asyncio.to_thread(wait_for, healthy, "Envoy sees every upstream healthy", 60.0, envoy)
    except BaseException:
        await stop_suite(suite)
        raise
    return suite


async def stop_suite(suite: Suite) -> None:
    suite.envoy.stop()
    suite.redaction.stop()
    await suite.primary.server.stop(0)
    await suite.fallback.server.stop(0)


