"""The gateway under test: a real redaction service and a real Envoy in front of two RECORDING
inference upstreams (`RecordingInference`, test doubles written here, no model) as primary and
fallback. Shared by the e2e modules that each run one suite (`start_suite`; `add_gateway` puts a
second Envoy, configured otherwise, in front of the same parts). Plaintext inside the suite unless
`mesh=True`: then every part serves mTLS with the session's certificates (tests/suite_pki.py),
as under `ztgate up`."""

from __future__ import annotations

import asyncio
import urllib.error
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import grpc
import yaml
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from ztgate.common import pki
from ztgate.common.config import load_settings
from ztgate.common.tls import add_port
from ztgate.config import ZtgateConfig
from ztgate.serve import render_envoy
from ztgate.gateway.envoy_process import envoy_argv
from ztgate.gen.inference.v1 import inference_pb2 as ipb
from ztgate.gen.inference.v1 import inference_pb2_grpc
from ztgate.supervisor.launcher import mesh_env as part_mesh_env
from tests.stand_ins import pseudonyms_in
from tests.procs import Child, admin_get, compiled_cache_dir, free_port, spawn, spawn_service, wait_serving
from tests.suite_pki import PLAINTEXT, mesh_env, shared_pki

INFERENCE = "ztgate.inference.v1.Inference"
# What the recording upstream's "model" leaks in every answer.
MODEL_SECRETS = ("AKIAQ4RT7YU2IO9PLK3J", "ghp_" + "Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo8N")

class RecordingInference(inference_pb2_grpc.InferenceServicer):
    """TEST DOUBLE of the inference service (no model): records every GenerateRequest it receives
    and answers with text that echoes every placeholder and stand-in it saw in the prompt
    (tests/stand_ins.py) plus secrets of its own ("Hello Cornelia Greaves gideon.ashcombe@example.org
    <CREDIT_CARD_1> ..., your key is AKIA..."). GenerateStream sends that text in `chunk_chars`-character
    chunks, so stand-ins, placeholders and secrets are split across messages.

    Its first token (response headers, as the real service sends them) comes after `delay_s` plus
    `prefill_s_per_token` per prompt token (4 UTF-8 bytes a token), like a model's prefill. Faults a
    test may inject: `fail` (answer that gRPC status), `hang_after_first` (a stream that stops after
    its first chunk). GetScore records its ScoreRequest and answers a fixed score.
    """

    def __init__(self, name: str, mesh: bool = False) -> None:
        self.name = name
        self.requests: list[ipb.GenerateRequest] = []
        self.delay_s = 0.0
        self.prefill_s_per_token = 0.0
        self.fail: grpc.StatusCode | None = None
        self.hang_after_first = False
        self.chunk_chars = 3
        self.score_requests: list[ipb.ScoreRequest] = []
        self.inflight = self.max_inflight = 0
        self.health = health.aio.HealthServicer()
        self.server = grpc.aio.server()
        inference_pb2_grpc.add_InferenceServicer_to_server(self, self.server)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.server)
        # With mesh: the instance's own certificate, and Envoy's required, as `ztgate up` sets it.
        part = f"inference-{name}"
        tls = pki.server_tls(shared_pki().dir, part, (pki.ENVOY,)) if mesh else None
        self.port = add_port(self.server, "127.0.0.1:0", tls)

    async def start(self) -> None:
        await self.server.start()
        await self.health.set(INFERENCE, health_pb2.HealthCheckResponse.SERVING)

    def answer(self, request: ipb.GenerateRequest) -> str:
        seen = " ".join([request.prompt, *(m.content for m in request.messages)])
        return (f"Hello {' '.join(pseudonyms_in(seen))}, your key is {MODEL_SECRETS[0]} "
                f"and your token {MODEL_SECRETS[1]}.")

    async def _first_token(self, request: ipb.GenerateRequest, context) -> None:
        """Waits as a model would before its first token, then sends the response headers."""
        self.requests.append(request)
        if self.fail is not None:
            await context.abort(self.fail, f"{self.name} fails (injected)")
        size = len(request.prompt.encode()) + sum(len(m.content.encode()) for m in request.messages)
        await asyncio.sleep(self.delay_s + self.prefill_s_per_token * math.ceil(size / 4))
        await context.send_initial_metadata((("x-ztgate-served-by", self.name),))

    async def Generate(self, request, context):
        self.inflight += 1
        self.max_inflight = max(self.max_inflight, self.inflight)
        try:
            await self._first_token(request, context)
            return ipb.GenerateResponse(text=self.answer(request), token_ids=[1, 2, 3],
                                        finish_reason="stop", served_by=self.name)
        finally:
            self.inflight -= 1

    async def GenerateStream(self, request, context):
        await self._first_token(request, context)
        text = self.answer(request)
        for start in range(0, len(text), self.chunk_chars):
            yield ipb.GenerateChunk(text=text[start:start + self.chunk_chars], token_ids=[start])
            while self.hang_after_first:
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.001)
        yield ipb.GenerateChunk(finish_reason="stop", served_by=self.name)

    async def GetScore(self, request, context):
        self.score_requests.append(request)
        return ipb.ScoreResponse(request_id=request.request_id, hallucination_score=0.25,
                                 state="scored")


@dataclass
class Suite:
    redaction: Child
    envoy: Child
    primary: RecordingInference
    fallback: RecordingInference
    gateway: str
    admin: str
    redaction_address: str
    # The settings the parts were started with (more Envoys render their bootstrap from them).
    env: dict[str, str]
    logs: Path
    extra_envoys: list[Child]

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
                      gateway_env: dict[str, str] | None = None, mesh: bool = False,
                      redaction_env: dict[str, str] | None = None) -> Suite:
    """Starts the parts and waits until Envoy sees every upstream healthy; `stop_suite` undoes it.
    `policies`: redaction policy files by name; `gateway_env`: more ZTGATE_* settings for Envoy's;
    `redaction_env`: more for the redaction service's (after the mesh's)."""
    folder = logs / "policies"
    folder.mkdir()
    for name, text in policies.items():
        (folder / name).write_text(text)
    primary, fallback = RecordingInference("primary", mesh), RecordingInference("fallback", mesh)
    await primary.start()
    await fallback.start()
    redaction_address = f"127.0.0.1:{free_port()}"
    env = {"ZTGATE_GATEWAY__LISTEN": f"127.0.0.1:{free_port()}",
           "ZTGATE_GATEWAY__ADMIN": f"127.0.0.1:{free_port()}",
           "ZTGATE_GATEWAY__HEALTH_INTERVAL_S": "0.5",
           "ZTGATE_GATEWAY__REDACTION__MESSAGE_TIMEOUT_S": str(message_timeout_s),
           "ZTGATE_INFERENCE__PRIMARY__SERVER__LISTEN": f"127.0.0.1:{primary.port}",
           "ZTGATE_INFERENCE__FALLBACK__SERVER__LISTEN": f"127.0.0.1:{fallback.port}",
           "ZTGATE_REDACTION__SERVER__LISTEN": redaction_address,
           # Where Envoy subscribes to the runtime (RTDS): a test's own collector may serve it.
           "ZTGATE_TELEMETRY__SERVER__LISTEN": f"127.0.0.1:{free_port()}",
           # Without mesh the parts are started by hand, without certificates.
           **(mesh_env() if mesh else PLAINTEXT)}
    gateway_env = {**env, **(gateway_env or {})}
    part_env = part_mesh_env(load_settings(ZtgateConfig, None, environ=env), pki.REDACTION)
    # The redaction service reads the gateway's settings too (as under `ztgate up`, where every
    # part loads one file): its ext_proc sets each call's per-try timeout and Envoy's wait for a
    # scrubbed body from them, and checks the request limits.
    redaction = spawn_service("redaction", "redaction", redaction_address, logs, env={
        **gateway_env, **part_env, "ZTGATE_REDACTION__WORKERS": "1",
        "ZTGATE_REDACTION__POLICIES": f"[{folder}]", "ZTGATE_CACHE_DIR": str(compiled_cache_dir()),
        **(redaction_env or {})})
    bootstrap = logs / "envoy.yaml"
    bootstrap.write_text(render_envoy(load_settings(ZtgateConfig, None, environ=gateway_env)))
    envoy = spawn("envoy", envoy_argv(bootstrap), logs)
    suite = Suite(redaction, envoy, primary, fallback, gateway_env["ZTGATE_GATEWAY__LISTEN"],
                  gateway_env["ZTGATE_GATEWAY__ADMIN"], redaction_address, env, logs, [])
    try:
        if not mesh:  # with mesh only a certificate may ask; Envoy's health checks below do
            await asyncio.to_thread(wait_serving, redaction, redaction_address,
                                    "envoy.service.ext_proc.v3.ExternalProcessor")
        await _wait_healthy(suite, suite.admin, envoy, 180.0 if mesh else 60.0)
    except BaseException:
        await stop_suite(suite)
        raise
    return suite


def _envoy_live(admin: str) -> bool:
    try:
        return admin_get(admin, "/ready").strip() == "LIVE"
    except urllib.error.HTTPError:  # 503 while initialising
        return False


async def _wait_healthy(suite: Suite, admin: str, envoy: Child, timeout: float) -> None:
    def healthy() -> bool:
        if suite.redaction.process.poll() is not None:
            raise AssertionError(f"redaction exited:\n{suite.redaction.log()[-3000:]}")
        clusters = admin_get(admin, "/clusters")
        upstreams = all(f"{name}::{address}::health_flags::healthy" in clusters for name, address in [
            ("redaction", suite.redaction_address), ("inference_primary", f"127.0.0.1:{suite.primary.port}"),
            ("inference_fallback", f"127.0.0.1:{suite.fallback.port}")])
        # Listeners start only once Envoy's initialisation ends, which waits for the RTDS layer's first
        # fetch (up to its initial_fetch_timeout where no collector answers): /ready says LIVE then.
        return upstreams and _envoy_live(admin)

    await asyncio.to_thread(wait_for, healthy, "Envoy sees every upstream healthy", timeout, envoy)


async def add_gateway(suite: Suite, name: str, gateway_env: dict[str, str],
                      edit: Callable[[dict], None] | None = None) -> tuple[str, str]:
    """Another Envoy in front of the suite's parts, with more ZTGATE_* settings; its (listener,
    admin) once it sees every upstream healthy. `stop_suite` stops it too. `edit` changes the
    rendered bootstrap in place first (a control test's bootstrap without a defence)."""
    env = {**suite.env, "ZTGATE_GATEWAY__LISTEN": f"127.0.0.1:{free_port()}",
           "ZTGATE_GATEWAY__ADMIN": f"127.0.0.1:{free_port()}", **gateway_env}
    bootstrap = suite.logs / f"{name}.yaml"
    text = render_envoy(load_settings(ZtgateConfig, None, environ=env))
    if edit is not None:
        tree = yaml.safe_load(text)
        edit(tree)
        text = yaml.safe_dump(tree, sort_keys=False)
    bootstrap.write_text(text)
    envoy = spawn(name, envoy_argv(bootstrap), suite.logs)
    suite.extra_envoys.append(envoy)
    await _wait_healthy(suite, env["ZTGATE_GATEWAY__ADMIN"], envoy, 60.0)
    return env["ZTGATE_GATEWAY__LISTEN"], env["ZTGATE_GATEWAY__ADMIN"]


async def stop_suite(suite: Suite, stop_timeout_s: float = 30.0) -> None:
    """Stops every part; each process gets `stop_timeout_s` to exit after SIGTERM, then is killed
    (a redaction service stuck in a scan may not answer SIGTERM at all)."""
    for envoy in suite.extra_envoys:
        envoy.stop(timeout=stop_timeout_s)
    suite.envoy.stop(timeout=stop_timeout_s)
    suite.redaction.stop(timeout=stop_timeout_s)
    await suite.primary.server.stop(0)
    await suite.fallback.server.stop(0)


