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
from datetime import UTC, datetime, timedelta
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from services.common import pki
from services.common.config import load_settings
from services.common.settings import ClientTlsSettings
from services.common.tls import client_credentials
from services.config import ZtgateConfig
from services.gateway.auth import TokenError, keygen_at
from services.gateway.envoy_config import check_exposure, render
from services.gateway.envoy_process import envoy_argv
from services.redaction import keys

log = logging.getLogger(__name__)


class StartError(Exception):
    """A child failed to start or to become healthy in time."""


# Per part: its key path in the configuration, and the suite identities it takes calls from.
# Only Envoy calls the redaction and inference services (plus `ztgate up`'s health checks, and the
# collector's SLO probes of the primary); every part exports telemetry to the collector.
SERVED_PARTS: dict[str, tuple[str, tuple[str, ...]]] = {
    pki.TELEMETRY: ("TELEMETRY__SERVER", (pki.ENVOY, pki.OPERATOR, *pki.SERVERS)),
    pki.REDACTION: ("REDACTION__SERVER", (pki.ENVOY, pki.OPERATOR)),
    pki.INFERENCE_PRIMARY: ("INFERENCE__PRIMARY__SERVER", (pki.ENVOY, pki.OPERATOR, pki.TELEMETRY)),
    pki.INFERENCE_FALLBACK: ("INFERENCE__FALLBACK__SERVER", (pki.ENVOY, pki.OPERATOR)),
}


@dataclass
class Child:
    # The part's name, also its identity in the suite's certificates.
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


def mesh_env(config: ZtgateConfig, part: str) -> dict[str, str]:
    """With mesh.mtls, the settings that make `part` serve with its own certificate, require one
    from the callers it accepts, and present its own to the collector; else nothing."""
    if not config.mesh.mtls or part not in SERVED_PARTS:
        return {}
    suite = pki.Pki.of(config.mesh)
    key_path, callers = SERVED_PARTS[part]
    return {
        f"ZTGATE_{key_path}__TLS__CERT": str(suite.cert(part)),
        f"ZTGATE_{key_path}__TLS__KEY": str(suite.key(part)),
        f"ZTGATE_{key_path}__TLS__CLIENT_CA": str(suite.ca),
        f"ZTGATE_{key_path}__TLS__ALLOWED_CLIENTS": "[" + ", ".join(callers) + "]",
        "ZTGATE_OTEL__TLS__CA": str(suite.ca),
        "ZTGATE_OTEL__TLS__CERT": str(suite.cert(part)),
        "ZTGATE_OTEL__TLS__KEY": str(suite.key(part)),
    }


def child_env(config: ZtgateConfig, part: str | None = None) -> dict[str, str]:
    """A child's environment: every service exports to the suite's own collector, over mTLS with
    mesh.mtls (`mesh_env`)."""
    env = os.environ.copy()
    env.setdefault("ZTGATE_OTEL__ENABLED", "true")
    env.setdefault("ZTGATE_OTEL__ENDPOINT", config.telemetry.server.listen)
    env.setdefault("ZTGATE_OTEL__EXPORT_INTERVAL_S", "2")
    env.setdefault("ZTGATE_TELEMETRY__SLO__ENVOY_ADMIN", config.gateway.admin)
    if part is not None:
        env.update(mesh_env(config, part))
    return env


def prepare_pki(config: ZtgateConfig) -> str | None:
    """Issues the suite's certificates if the folder has none; a line to print, None without mTLS.
    Raises pki.PkiError when they are incomplete or expired."""
    if not config.mesh.mtls:
        return None
    suite = pki.Pki.of(config.mesh)
    created = not suite.exists()
    if created:
        pki.create(suite.dir)
    expiry = suite.check()
    line = f"{'issued' if created else 'using'} the suite's certificates in {suite.dir}"
    left = expiry - datetime.now(UTC)
    if left < timedelta(days=pki.RENEW_WARNING_DAYS):
        line += f" (WARNING: they expire in {left.days} days; `ztgate certs init --force`)"
    return line


def prepare_tokens(config: ZtgateConfig) -> str | None:
    """With `gateway.auth.keygen_if_missing` and no file at `gateway.auth.jwks_path`, makes a
    signing key and that JWKS (a fresh install's first start); a line to print, else None.
    Raises TokenError."""
    auth = config.gateway.auth
    if auth.jwks_path is None or not auth.keygen_if_missing:
        return None
    jwks = auth.jwks_path.expanduser().resolve()
    if jwks.exists():
        return None
    key, _ = keygen_at(jwks)
    return (f"made the gateway's token signing key {key} (keep it private) and its JWKS {jwks}; "
            "mint a token with `ztgate token mint --tenant T`")


def prepare(config: ZtgateConfig) -> list[str]:
    """What `up` makes on a fresh install before any child starts (the suite's certificates, the
    token keys when asked, the redaction keys), or checks on a later start: lines to print.
    Raises PkiError, TokenError or ConfigError."""
    lines = [line for line in (prepare_pki(config), prepare_tokens(config)) if line]
    # The redaction child reads the same file (it resolves its keys again, the same way).
    lines.append(keys.resolve(config)[1])
    return lines


def children_config(config: ZtgateConfig, config_path: Path | None) -> ZtgateConfig:
    """The configuration as the children load it (file, then `child_env`): Envoy's bootstrap is
    rendered from it, so Envoy traces (OpenTelemetry on) to the collector the services export to."""
    return load_settings(ZtgateConfig, config_path, environ=child_env(config))


async def _healthy(child: Child, tls: ClientTlsSettings | None = None) -> bool:
    if child.ready_url:
        def get() -> bool:
            try:
                with urllib.request.urlopen(child.ready_url, timeout=1) as resp:  # noqa: S310 - loopback admin
                    return resp.status == 200
            except OSError:
                return False
        return await asyncio.to_thread(get)
    assert child.health_address is not None
    channel = (grpc.aio.secure_channel(child.health_address, client_credentials(tls)) if tls
               else grpc.aio.insecure_channel(child.health_address))
    async with channel:
        try:
            reply = await health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=child.health_service), timeout=1)
        except grpc.aio.AioRpcError:
            return False
        return reply.status == health_pb2.HealthCheckResponse.SERVING


async def _wait_healthy(child: Child, timeout_s: float, tls: ClientTlsSettings | None) -> None:
    deadline = asyncio.get_running_loop().time() + timeout_s
    while asyncio.get_running_loop().time() < deadline:
        if child.process and child.process.returncode is not None:
            raise StartError(f"{child.name} exited with code {child.process.returncode} during start")
        if await _healthy(child, tls):
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
    envoy_settings = children_config(config, config_path)
    # First, before anything is written: raises EnvoyConfigError for what must not be exposed.
    warnings = check_exposure(envoy_settings)
    for warning in warnings:
        print(f"\n{'!' * 78}\n{warning}\n{'!' * 78}\n", file=sys.stderr, flush=True)
    try:
        lines = prepare(config)
    except (pki.PkiError, TokenError) as exc:
        print(f"ztgate up failed: {exc}", file=sys.stderr)
        return 1
    for line in lines:
        print(line, flush=True)
    tls = pki.operator_tls(config.mesh)
    workdir = Path(tempfile.mkdtemp(prefix="ztgate-up-"))
    envoy_config = workdir / "envoy.yaml"
    envoy_config.write_text(render(envoy_settings))
    children = suite(config, config_path, envoy_config)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        for child in children:
            print(f"starting {child.name} ...", flush=True)
            child.process = await asyncio.create_subprocess_exec(
                *child.argv, start_new_session=True, env=child_env(config, child.name))
            waiting = asyncio.ensure_future(_wait_healthy(child, start_timeout_s, tls))
            stopping = asyncio.ensure_future(stop.wait())
            await asyncio.wait({waiting, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if stop.is_set():
                waiting.cancel()
                return 130
            stopping.cancel()
            waiting.result()
            print(f"  {child.name} ready", flush=True)
        print("ztgate is up:")
        ingress = config.gateway.tls
        print(f"  gRPC ingress (Envoy)   {config.gateway.listen} ("
              + ("plaintext" if ingress is None else "TLS, client certificates required"
                 if ingress.client_ca else "TLS") + ")")
        print(f"  Envoy admin console    http://{config.gateway.admin}/")
        print(f"  redaction (internal)   {config.redaction.server.listen}")
        print(f"  inference primary      {config.inference.primary.server.listen} "
              f"({config.inference.primary.engine}, speculative {config.inference.primary.speculative.method})")
        print(f"  inference fallback     {config.inference.fallback.server.listen} "
              f"({config.inference.fallback.engine})")
        print(f"  telemetry OTLP         {config.telemetry.server.listen}")
        print(f"  Prometheus metrics     http://{config.telemetry.metrics_listen}/metrics")
        print("  inside the suite       " + (
            f"mTLS (certificates in {config.mesh.pki_dir}; services accept only the parts that call them)"
            if tls else "plaintext on loopback (mesh.mtls is off)"))
        auth, limit = config.gateway.auth, config.gateway.rate_limit
        print("  bearer tokens          " + (
            f"required (JWKS {auth.jwks_path}, at most {auth.max_token_lifetime_s} s each; "
            "`ztgate token mint --tenant T`)" if auth.jwks_path
            else "off: every call runs as tenant default (set gateway.auth.jwks_path)"))
        for warning in warnings:  # again, last thing on screen
            print(warning, file=sys.stderr, flush=True)
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
    tls = pki.operator_tls(config.mesh)
    if tls is not None:
        try:
            pki.Pki.of(config.mesh).check()
        except pki.PkiError as exc:
            print(f"ztgate status: {exc}", file=sys.stderr)
            return 1
    for child in suite(config, None, envoy_config):
        healthy = await _healthy(child, tls)
        ok &= healthy
        where = child.health_address or child.ready_url
        print(f"{child.name:<18} {'SERVING' if healthy else 'DOWN':<8} {where}")
    return 0 if ok else 1
