"""`ztgate up`: the whole suite as child processes, health-checked, stopped together.

Each service runs as `ztgate serve NAME` in its own process group; Envoy runs with the bootstrap
that `ztgate envoy-config` renders. `up` waits until every service answers SERVING on gRPC
health and Envoy reports ready, prints the endpoints, and on Ctrl-C or SIGTERM (or when any
child dies) stops them all.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
import tempfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from services.common.config import load_settings
from services.config import ZtgateConfig
from services.gateway.envoy_config import render
from services.gateway.envoy_process import envoy_argv

log = logging.getLogger(__name__)


class StartError(Exception):
    """A child failed to start or to become healthy in time."""


@dataclass
class Child:
    name: str
    argv: list[str]
    # host:port whose gRPC health is polled (None: use `ready_url`).
    health_address: str | None = None
    health_service: str = ""
    ready_url: str | None = None
    process: asyncio.subprocess.Process | None = None


def suite(config: ZtgateConfig, config_path: Path | None, envoy_config: Path) -> list[Child]:
    """The children of `ztgate up`, in start order."""
    serve = [sys.executable, "-m", "services.cli", "serve"]
    extra = ["--config", str(config_path)] if config_path else []
    return [
        # First, so that the others' telemetry has somewhere to land.
        Child("telemetry", [*serve, "telemetry", *extra], config.telemetry.server.listen,
              "ztgate.telemetry.v1.Telemetry"),
        Child("redaction", [*serve, "redaction", *extra], config.redaction.server.listen,
              "ztgate.redaction.v1.Redaction"),
        Child("inference-primary", [*serve, "inference", "--instance", "primary", *extra],
              config.inference.primary.server.listen, "ztgate.inference.v1.Inference"),
        Child("inference-fallback", [*serve, "inference", "--instance", "fallback", *extra],
              config.inference.fallback.server.listen, "ztgate.inference.v1.Inference"),
        Child("envoy", envoy_argv(envoy_config),
              ready_url=f"http://{config.gateway.admin}/ready"),
    ]


def child_env(config: ZtgateConfig) -> dict[str, str]:
    """The children's environment: every service exports to the suite's own collector."""
    env = os.environ.copy()
    env.setdefault("ZTGATE_OTEL__ENABLED", "true")
    env.setdefault("ZTGATE_OTEL__ENDPOINT", config.telemetry.server.listen)
    env.setdefault("ZTGATE_OTEL__EXPORT_INTERVAL_S", "2")
    env.setdefault("ZTGATE_TELEMETRY__SLO__ENVOY_ADMIN", config.gateway.admin)
    return env


def children_config(config: ZtgateConfig, config_path: Path | None) -> ZtgateConfig:
    """The configuration as the children load it (file, then `child_env`): Envoy's bootstrap is
    rendered from it, so Envoy traces (OpenTelemetry on) to the collector the services export to."""
    return load_settings(ZtgateConfig, config_path, environ=child_env(config))


async def _healthy(child: Child) -> bool:
    if child.ready_url:
        def get() -> bool:
            try:
                with urllib.request.urlopen(child.ready_url, timeout=1) as resp:  # noqa: S310 - loopback admin
                    return resp.status == 200
            except OSError:
                return False
        return await asyncio.to_thread(get)
    assert child.health_address is not None
    async with grpc.aio.insecure_channel(child.health_address) as channel:
        try:
            reply = await health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=child.health_service), timeout=1)
        except grpc.aio.AioRpcError:
            return False
        return reply.status == health_pb2.HealthCheckResponse.SERVING


async def _wait_healthy(child: Child, timeout_s: float) -> None:
    deadline = asyncio.get_running_loop().time() + timeout_s
    while asyncio.get_running_loop().time() < deadline:
        if child.process and child.process.returncode is not None:
            raise StartError(f"{child.name} exited with code {child.process.returncode} during start")
        if await _healthy(child):
            return
        await asyncio.sleep(0.25)
    raise StartError(f"{child.name} was not healthy within {timeout_s:.0f} s")


async def _stop(children: list[Child], grace_s: float = 15.0) -> None:
    """Stops children in reverse start order, each after the next one is gone: Envoy first, the
    telemetry collector last, so every service's final export still has somewhere to land."""
    for child in reversed(children):
        if child.process is None or child.process.returncode is not None:
            continue
        child.process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(child.process.wait(), grace_s)
        except TimeoutError:
            child.process.kill()
            await child.process.wait()


async def run_suite(config: ZtgateConfig, config_path: Path | None,
                    start_timeout_s: float = 180.0) -> int:
    """Starts the suite, reports endpoints, and stops it all on a signal or a child's death."""
    workdir = Path(tempfile.mkdtemp(prefix="ztgate-up-"))
    envoy_config = workdir / "envoy.yaml"
    envoy_config.write_text(render(children_config(config, config_path)))
    children = suite(config, config_path, envoy_config)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        for child in children:
            print(f"starting {child.name} ...", flush=True)
            child.process = await asyncio.create_subprocess_exec(
                *child.argv, start_new_session=True, env=child_env(config))
            waiting = asyncio.ensure_future(_wait_healthy(child, start_timeout_s))
            stopping = asyncio.ensure_future(stop.wait())
            await asyncio.wait({waiting, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if stop.is_set():
                waiting.cancel()
                return 130
            stopping.cancel()
            waiting.result()
            print(f"  {child.name} ready", flush=True)
        print("ztgate is up:")
        print(f"  gRPC ingress (Envoy)   {config.gateway.listen}")
        print(f"  Envoy admin console    http://{config.gateway.admin}/")
        print(f"  redaction (internal)   {config.redaction.server.listen}")
        print(f"  inference primary      {config.inference.primary.server.listen} "
              f"({config.inference.primary.engine}, speculative {config.inference.primary.speculative.method})")
        print(f"  inference fallback     {config.inference.fallback.server.listen} "
              f"({config.inference.fallback.engine})")
        print(f"  telemetry OTLP         {config.telemetry.server.listen}")
        print(f"  Prometheus metrics     http://{config.telemetry.metrics_listen}/metrics")
        auth, limit = config.gateway.auth, config.gateway.rate_limit
        print("  bearer tokens          " + (
            f"required (JWKS {auth.jwks_path}; `ztgate token mint --tenant T`)" if auth.jwks_path
            else "off: every call runs as tenant default (set gateway.auth.jwks_path)"))
        if limit.requests_per_s is not None:
            print(f"  rate limit             {limit.requests_per_s}/s per tenant, "
                  f"burst {limit.bucket_size}")
        print("Ctrl-C stops everything.", flush=True)
        watchers = [asyncio.ensure_future(c.process.wait()) for c in children if c.process]
        stopping = asyncio.ensure_future(stop.wait())
        done, _ = await asyncio.wait({*watchers, stopping}, return_when=asyncio.FIRST_COMPLETED)
        for child in children:
            if child.process and child.process.returncode is not None:
                print(f"{child.name} exited with code {child.process.returncode}; stopping",
                      file=sys.stderr)
                return 1
        return 0
    except StartError as exc:
        print(f"ztgate up failed: {exc}", file=sys.stderr)
        return 1
    finally:
        print("stopping ...", flush=True)
        await _stop(children)


async def print_status(config: ZtgateConfig) -> int:
    """Prints each part's health; exit code 0 only when all are healthy."""
    envoy_config = Path(tempfile.gettempdir()) / "ztgate-status-unused.yaml"
    ok = True
    for child in suite(config, None, envoy_config):
        healthy = await _healthy(child)
        ok &= healthy
        where = child.health_address or child.ready_url
        print(f"{child.name:<18} {'SERVING' if healthy else 'DOWN':<8} {where}")
    return 0 if ok else 1
