"""`ztgate bench gateway`: what Envoy and its ext_proc redaction add to a unary inference call.

Three series over the same prompt, interleaved call by call (in rotating order) so that they
share the machine's state, one call at a time:

- direct: the client calls an echo inference upstream (no model: it answers at once with
  "Sure. You wrote: " and the prompt it received, so the answer carries every placeholder back);
- gateway: the same call through Envoy, whose ext_proc filter has the redaction service scrub the
  prompt (both tiers, NER included), then scrub and restore the answer;
- redaction: the redaction service's own `Redact` of the prompt, called directly: the redaction
  work plus one loopback gRPC hop (so the budget below is, if anything, generous by that hop).

Added latency is gateway minus direct, per quantile. Target: added p99 <= redaction p99 + 2 ms.
With `--auth` the gateway also checks a bearer token on every call and applies the per-tenant rate
limit (set far above what the bench sends): what turning them on adds. With `--processor noop` a
no-op processor (bench/ztgate_bench/noop_ext_proc.py) stands in for the redaction service: the series
then measure the ext_proc mechanism alone, the floor under what redaction can add.
`measure` runs against running parts; `run` starts them (redaction service, echo upstream, Envoy
with the bootstrap `ztgate envoy-config` renders) on free loopback ports and stops them after.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import platform
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from ztgate_bench.canaries import CanaryRecorder
from ztgate.common.process import free_address, is_serving, spawn, stop_all, wait_until
from ztgate_bench.redaction_metrics import percentile
from ztgate.common import pki
from ztgate.common.identity import bearer
from ztgate.common.settings import ClientTlsSettings
from ztgate.common.tls import access_interceptors, add_port, open_channel
from ztgate.config import ZtgateConfig
from ztgate.supervisor.launcher import mesh_env
from ztgate.parts import INFERENCE_SERVICE
from ztgate.gen.inference.v1 import inference_pb2, inference_pb2_grpc
from ztgate.gen.redaction.v1 import redaction_pb2, redaction_pb2_grpc

INFERENCE = INFERENCE_SERVICE
EXT_PROC = "envoy.service.ext_proc.v3.ExternalProcessor"
# A support-desk prompt: a name (NER), an email, a phone, a card and an AWS key (pattern tier).
PROMPT = ("Hi, this is Maria Gonzalez from the Lisbon office. Our invoices go to "
          "billing@acme-corp.example and my direct line is +1 415 555 0134. Last month card "
          "4111 1111 1111 1111 was charged twice. The deploy script still has AWS key "
          "AKIAZ7Q3XH2LMN4PQ5RS in it; can you write a short apology to the customer and a "
          "checklist for rotating the key?")
# Added p99 may exceed the redaction work's p99 by at most this much.
OVERHEAD_BUDGET_MS = 2.0
SERIES = ("direct", "gateway", "redaction")
# What answers Envoy's ext_proc messages: the real redaction service, or a no-op (the floor).
PROCESSORS = ("redaction", "noop")
# The echo upstream takes and answers messages up to this size (gRPC's default is 4 MiB), so that
# the gateway's limits, not the stand-in's, decide what an oversized prompt meets.
ECHO_MAX_MESSAGE_BYTES = 64 * 1024 * 1024


class EchoInference(inference_pb2_grpc.InferenceServicer):
    """Stands in for the inference service (no model): answers at once with the prompt it received;
    with a `recorder`, counts what it received (bench/ztgate_bench/canaries.py: labels, never text)."""

    def __init__(self, recorder: CanaryRecorder | None = None) -> None:
        self._recorder = recorder

    async def Generate(self, request: inference_pb2.GenerateRequest,
                       context: grpc.aio.ServicerContext) -> inference_pb2.GenerateResponse:
        if self._recorder is not None:
            self._recorder.record(request.tenant, request.SerializeToString())
        prompt = request.prompt or " ".join(m.content for m in request.messages)
        return inference_pb2.GenerateResponse(text=f"Sure. You wrote: {prompt}", finish_reason="stop",
                                              served_by="echo")


async def serve_echo(listen: str, pki_dir: Path | None = None, recorder: CanaryRecorder | None = None) -> None:
    """Runs the echo upstream (with gRPC health, SERVING) until SIGTERM; with `pki_dir`, as the
    inference primary does under `ztgate up`: its certificate, Envoy and the operator only. With
    `recorder`, its counts are written once at start and once after the server has stopped."""
    tls = pki.server_tls(pki_dir, pki.INFERENCE_PRIMARY, (pki.ENVOY, pki.OPERATOR)) if pki_dir else None
    server = grpc.aio.server(interceptors=access_interceptors(tls),
                             options=[("grpc.max_receive_message_length", ECHO_MAX_MESSAGE_BYTES),
                                      ("grpc.max_send_message_length", ECHO_MAX_MESSAGE_BYTES)])
    inference_pb2_grpc.add_InferenceServicer_to_server(EchoInference(recorder), server)
    checker = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(checker, server)
    add_port(server, listen, tls)
    await server.start()
    await checker.set(INFERENCE, health_pb2.HealthCheckResponse.SERVING)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    if recorder is not None:
        recorder.write()
    await stop.wait()
    await server.stop(0)
    if recorder is not None:
        recorder.write()


class Latencies:
    """p50 and p99 of a dataclass's `durations_ms` (milliseconds), for every bench series."""

    __slots__ = ()
    durations_ms: list[float]

    @property
    def p50_ms(self) -> float:
        return percentile(self.durations_ms, 50)

    @property
    def p99_ms(self) -> float:
        return percentile(self.durations_ms, 99)


@dataclass(frozen=True, slots=True)
class Series(Latencies):
    name: str
    durations_ms: list[float]


@dataclass(frozen=True, slots=True)
class GatewayBench:
    direct: Series
    gateway: Series
    redaction: Series
    errors: dict[str, int] = field(default_factory=dict)
    # Distinct "series: CODE: details" of failed calls (statuses say what failed, never the prompt).
    error_kinds: tuple[str, ...] = ()

    @property
    def calls(self) -> int:
        return len(self.gateway.durations_ms)

    @property
    def added_p50_ms(self) -> float:
        return self.gateway.p50_ms - self.direct.p50_ms

    @property
    def added_p99_ms(self) -> float:
        return self.gateway.p99_ms - self.direct.p99_ms

    @property
    def budget_p99_ms(self) -> float:
        return self.redaction.p99_ms + OVERHEAD_BUDGET_MS

    @property
    def target_met(self) -> bool:
        return not any(self.errors.values()) and self.added_p99_ms <= self.budget_p99_ms


async def measure(gateway: str, upstream: str, redaction: str, *, calls: int = 300, warmup: int = 30,
                  prompt: str = PROMPT, timeout_s: float = 30.0, token: str = "",
                  tls: ClientTlsSettings | None = None) -> GatewayBench:
    """Times `calls` rounds of the three series against running parts (see the module doc); the
    direct and redaction series call over mTLS with `tls` (the gateway's listener is plaintext)."""
    if calls < 1 or warmup < 0:
        raise ValueError("calls must be >= 1 and warmup >= 0")
    channels = {name: open_channel(address, creds) for name, address, creds in
                (("direct", upstream, tls), ("gateway", gateway, None), ("redaction", redaction, tls))}
    request = inference_pb2.GenerateRequest(prompt=prompt)
    generate = {name: inference_pb2_grpc.InferenceStub(channels[name]).Generate
                for name in ("direct", "gateway")}
    redact = redaction_pb2_grpc.RedactionStub(channels["redaction"]).Redact
    durations: dict[str, list[float]] = {name: [] for name in SERIES}
    errors = dict.fromkeys(SERIES, 0)
    kinds: dict[str, None] = {}

    async def once(name: str, record: bool) -> None:
        started = time.perf_counter()
        try:
            if name == "redaction":
                await redact(redaction_pb2.RedactRequest(text=prompt), timeout=timeout_s)
            else:
                await generate[name](request, timeout=timeout_s,
                                     metadata=bearer(token) if name == "gateway" else ())
        except grpc.aio.AioRpcError as exc:
            errors[name] += record
            if record:
                kinds[f"{name}: {exc.code().name}: {exc.details()}"] = None
            return
        if record:
            durations[name].append((time.perf_counter() - started) * 1000)

    try:
        for round_ in range(warmup + calls):
            shift = round_ % len(SERIES)
            for name in SERIES[shift:] + SERIES[:shift]:
                await once(name, record=round_ >= warmup)
    finally:
        for channel in channels.values():
            await channel.close()
    return GatewayBench(*(Series(name, durations[name]) for name in SERIES), errors=errors,
                        error_kinds=tuple(kinds))


def _clusters_healthy(admin: str, expected: list[str]) -> bool:
    """Envoy sees the `expected` upstreams healthy and its listeners are up: they start once its
    initialisation ends, which waits for the RTDS layer's first fetch (/ready says LIVE then)."""
    try:
        with urllib.request.urlopen(f"http://{admin}/clusters", timeout=1) as resp:  # noqa: S310 - loopback
            text = resp.read().decode()
        with urllib.request.urlopen(f"http://{admin}/ready", timeout=1) as resp:  # noqa: S310 - loopback
            live = resp.read().decode().strip() == "LIVE"
    except OSError:  # HTTPError (503 while initialising) included
        return False
    return live and all(line in text for line in expected)


@dataclass(frozen=True, slots=True)
class RunningParts:
    """Where `running_suite` started the parts, and how to call them."""

    gateway: str
    upstream: str
    redaction: str
    admin: str
    # A bearer token per tenant (empty without `auth`).
    tokens: dict[str, str]
    # The operator's credentials for direct calls to the services (None when mesh.mtls is off).
    tls: ClientTlsSettings | None
    # Each part's process id by name (redaction, redaction-2, ..., upstream, envoy).
    pids: dict[str, int] = field(default_factory=dict)


@contextlib.contextmanager
def running_suite(config: ZtgateConfig, logs: Path, start_timeout_s: float = 300.0, *, auth: bool = False,
                  processor: str = "redaction", tenants: tuple[str, ...] = ("bench",),
                  unlimited_rate: bool = True, upstream_args: tuple[str, ...] = (),
                  stop_timeout_s: float = 30.0, redaction_replicas: int = 1) -> Iterator[RunningParts]:
    """Starts redaction, the echo upstream and Envoy on free ports, and stops them after (each
    given `stop_timeout_s` to exit before it is killed). With `auth`, Envoy checks tokens (a key
    made in `logs`, a token minted per tenant) and, with `unlimited_rate`, applies a per-tenant rate
    limit far above any bench's rate (what turning it on costs; else the configured limit stays);
    with mesh.mtls (as under `ztgate up`), every hop behind Envoy is mTLS, with certificates issued
    in `logs`. `upstream_args` go to the echo upstream's command line. `redaction_replicas`
    processors run side by side, each an endpoint of Envoy's redaction clusters (as under
    `ztgate up --replicas redaction=N`); RunningParts.redaction is the first."""
    from ztgate.serve import render_envoy
    from ztgate.gateway.envoy_process import envoy_argv

    if redaction_replicas < 1:
        raise ValueError("redaction_replicas must be at least 1")
    upstream = free_address()
    replicas = [free_address() for _ in range(redaction_replicas)]
    redaction = replicas[0]
    tokens: dict[str, str] = {}
    update: dict = {"listen": free_address(), "admin": free_address(), "health_interval_s": 0.5}
    if auth:
        from ztgate.gateway.auth import keygen, mint

        key, jwks = keygen(logs / "keys", force=True)
        update["auth"] = config.gateway.auth.model_copy(update={"jwks_path": jwks})
        if unlimited_rate:
            update["rate_limit"] = config.gateway.rate_limit.model_copy(update={"requests_per_s": 1_000_000})
        # Valid an hour, or as long as the gateway accepts if that is less.
        lifetime = config.gateway.auth.max_token_lifetime_s
        tokens = {tenant: mint(key, tenant=tenant, issuer=config.gateway.auth.issuer,
                               audience=config.gateway.auth.audience,
                               tenant_claim=config.gateway.auth.tenant_claim,
                               ttl_s=min(3600, lifetime), max_ttl_s=lifetime)
                  for tenant in tenants}
    tls = None
    if config.mesh.mtls:
        issued = pki.create(logs / "pki", force=True)
        config = config.model_copy(update={"mesh": config.mesh.model_copy(update={"pki_dir": issued.dir})})
        tls = pki.operator_tls(config.mesh)
    gateway = config.gateway.model_copy(update=update)
    server = config.redaction.server.model_copy(update={"listen": redaction})
    inference = config.inference.model_copy(update={
        name: getattr(config.inference, name).model_copy(update={
            "server": getattr(config.inference, name).server.model_copy(update={"listen": upstream})})
        for name in ("primary", "fallback")})
    config = config.model_copy(update={
        "gateway": gateway, "inference": inference,
        "redaction": config.redaction.model_copy(update={"server": server})})
    bootstrap = logs / "envoy.yaml"
    bootstrap.write_text(render_envoy(config, endpoints={"redaction": replicas}))
    python = [sys.executable, "-m"]
    argvs = {
        **{f"redaction{'' if i == 0 else f'-{i + 1}'}": (
            [*python, "ztgate.cli", "serve", "redaction", "--listen", address]
            if processor == "redaction" else
            [*python, "ztgate_bench.noop_ext_proc", "--listen", address,
             *(["--pki-dir", str(config.mesh.pki_dir)] if tls else [])])
           for i, address in enumerate(replicas)},
        "upstream": [*python, "ztgate_bench.gateway_bench", "--echo-upstream", upstream,
                     *(["--pki-dir", str(config.mesh.pki_dir)] if tls else []), *upstream_args],
        "envoy": envoy_argv(bootstrap),
    }
    # The bench's redaction service keeps its generated keys with the rest of its run, in `logs`
    # (its replicas share them, as under `ztgate up`).
    redaction_env = {**mesh_env(config, pki.REDACTION),
                     "ZTGATE_REDACTION__KEYS_FILE": str(logs / "keys" / "redaction.json")}
    if processor == "redaction":
        from ztgate.redaction.anonymising import keys

        # Made once, before the replicas start (as `ztgate up` does): they must not race to write it.
        keys.resolve(config.redaction.model_copy(update={"keys_file": logs / "keys" / "redaction.json"}),
                     config.gateway.listen)
    # Each replica's peers, the others (session replication), as `ztgate up --replicas` sets them.
    peers = {f"redaction{'' if i == 0 else f'-{i + 1}'}": json.dumps([a for a in replicas if a != address])
             for i, address in enumerate(replicas)}
    processes: list[subprocess.Popen] = []
    try:
        for name, argv in argvs.items():
            processes.append(spawn(argv, logs / f"{name}.log",
                                   {**redaction_env, "ZTGATE_REDACTION__REPLICATION__PEERS": peers[name]}
                                   if name.startswith("redaction") else None))
        for address in replicas:
            wait_until(lambda address=address: is_serving(address, EXT_PROC, tls),
                       f"the redaction service at {address} SERVING", processes, logs, start_timeout_s)
        wait_until(lambda: _clusters_healthy(gateway.admin, [
            *(f"redaction::{address}::health_flags::healthy" for address in replicas),
            f"inference_primary::{upstream}::health_flags::healthy"]),
            "Envoy seeing its upstreams healthy", processes, logs, 60.0)
        yield RunningParts(gateway.listen, upstream, redaction, gateway.admin, tokens, tls,
                           {name: process.pid for name, process in zip(argvs, processes)})
    finally:
        stop_all(processes, stop_timeout_s)


def run(config: ZtgateConfig, *, calls: int = 300, warmup: int = 30,
        logs: Path | None = None, auth: bool = False, processor: str = "redaction") -> GatewayBench:
    """Starts the parts, measures, stops them."""
    if processor not in PROCESSORS:
        raise ValueError(f"processor must be one of {', '.join(PROCESSORS)}")
    logs = logs or Path(tempfile.mkdtemp(prefix="ztgate-bench-gateway-"))
    with running_suite(config, logs, auth=auth, processor=processor) as parts:
        return asyncio.run(measure(parts.gateway, parts.upstream, parts.redaction, calls=calls, warmup=warmup,
                                   token=parts.tokens.get("bench", ""), tls=parts.tls))


def _ms(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value:.2f}"


def render_report(result: GatewayBench, command: str = "ztgate bench gateway", *, mtls: bool = False) -> str:
    """The Markdown report of one run."""
    lines = [
        f"`{command}` on {platform.node()} ({platform.machine()}, {len(os.sched_getaffinity(0))} CPUs), "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: {result.calls} unary calls per series, "
        f"one at a time, interleaved; "
        f"{'mTLS behind Envoy and on the direct calls (as under `ztgate up`)' if mtls else 'plaintext behind Envoy (mesh.mtls off)'}.",
        "",
        "| series | p50 (ms) | p99 (ms) | errors |",
        "|---|---:|---:|---:|",
        *(f"| {s.name} | {_ms(s.p50_ms)} | {_ms(s.p99_ms)} | {result.errors.get(s.name, 0)} |"
          for s in (result.direct, result.gateway, result.redaction)),
        f"| added by the gateway (gateway - direct) | {_ms(result.added_p50_ms)} | "
        f"{_ms(result.added_p99_ms)} | |",
        "",
        f"Target: added p99 <= redaction p99 + {OVERHEAD_BUDGET_MS:g} ms = {_ms(result.budget_p99_ms)} ms: "
        f"{'met' if result.target_met else 'NOT met'}.",
        *(["", "Failed calls:", *(f"- {kind}" for kind in result.error_kinds)] if result.error_kinds else []),
    ]
    return "\n".join(lines) + "\n"


def main(args: argparse.Namespace) -> int:
    """`ztgate bench gateway [--config FILE] [--calls N] [--auth] [--out FILE]`; exit 1 if the target
    is missed."""
    from ztgate.config import load_config

    config = load_config(getattr(args, "config", None))
    if getattr(args, "replicas", None):
        from ztgate_bench import replica_bench

        return replica_bench.main(args, config)
    calls = getattr(args, "calls", None) or 300
    auth = bool(getattr(args, "auth", False))
    processor = getattr(args, "processor", None) or "redaction"
    print(f"starting {'redaction' if processor == 'redaction' else 'a no-op processor'}, echo upstream "
          f"and Envoy{' (tokens and rate limit on)' if auth else ''}; {calls} calls per series ...",
          file=sys.stderr, flush=True)
    if getattr(args, "api", "grpc") == "openai":
        from ztgate_bench import openai_bench

        logs = Path(tempfile.mkdtemp(prefix="ztgate-bench-openai-"))
        grpc_result, http, errors = openai_bench.run(config, calls=calls, warmup=30, auth=auth, logs=logs)
        text = openai_bench.render_side_by_side(
            grpc_result, http, errors, f"ztgate bench gateway --api openai --calls {calls}"
            f"{' --auth' if auth else ''}")
        print(text)
        if getattr(args, "out", None):
            Path(args.out).write_text(text)
        return 0
    result = run(config, calls=calls, auth=auth, processor=processor)
    command = (f"ztgate bench gateway --calls {calls}{' --auth' if auth else ''}"
               f"{' --processor noop' if processor == 'noop' else ''}")
    text = render_report(result, command, mtls=config.mesh.mtls)
    print(text)
    out = getattr(args, "out", None)
    if out:
        Path(out).write_text(text)
    return 0 if result.target_met else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="the gateway benchmark's echo upstream")
    parser.add_argument("--echo-upstream", required=True, metavar="HOST:PORT")
    parser.add_argument("--pki-dir", type=Path, help="serve mTLS with the suite's certificates there")
    parser.add_argument("--canaries", type=Path, help="JSON label -> value: count requests carrying each")
    parser.add_argument("--record", type=Path, help="where the counts go (JSON; with --canaries)")
    parsed = parser.parse_args()
    if (parsed.canaries is None) != (parsed.record is None):
        parser.error("--canaries and --record go together")
    recorder = (CanaryRecorder(CanaryRecorder.load_values(parsed.canaries), parsed.record)
                if parsed.canaries else None)
    asyncio.run(serve_echo(parsed.echo_upstream, parsed.pki_dir, recorder))
