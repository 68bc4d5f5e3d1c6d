"""`ztgate up`: the whole suite as child processes, supervised, stopped together.

Each service runs as `ztgate serve NAME` in its own process group; Envoy runs with the bootstrap
that `ztgate envoy-config` renders. `up` refuses to start when any address it would listen on is
taken, starts each part once the one before answers SERVING (from its own process), prints the
endpoints, restarts a part that dies or stops answering (ztgate/supervisor/), and on Ctrl-C or
SIGTERM stops them all.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shutil
import signal
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from collections.abc import Mapping, Sequence
from pathlib import Path

from ztgate import parts
from ztgate.common import pki
from ztgate.common.config import load_settings
from ztgate.common.ports import bind_error
from ztgate.config import ZtgateConfig
from ztgate.gateway.auth import TokenError, keygen_at
from ztgate.gateway.envoy_config import check_exposure, rate_limit_in_force
from ztgate.gateway.envoy_process import envoy_argv
from ztgate.redaction.anonymising import keys
from ztgate.parts import active as active_parts
from ztgate.replicas import Replica, ReplicaError, envoy_endpoints, plan
from ztgate.serve import render_envoy
from ztgate.supervisor.child import Child, Listen, StartError
from ztgate.supervisor.supervisor import Supervisor

log = logging.getLogger(__name__)


# Parts whose replicas hand their sessions to each other, and the setting that names the peers.
REPLICATED_SESSIONS = {"redaction": parts.env_var("redaction.replication.peers")}
# Every address `ztgate up` listens on, by its setting (replicas follow from these). A harness that runs a
# suite of its own beside others (the eval, the failover bench, the e2e tests) gives each a free port.
LISTEN_SETTINGS = parts.LISTEN_SETTINGS


def listen_variables() -> tuple[str, ...]:
    """The environment variables that move each of LISTEN_SETTINGS (ZTGATE_GATEWAY__LISTEN, ...)."""
    return tuple(parts.env_var(setting) for setting in LISTEN_SETTINGS)


# Per part that serves gRPC with a certificate: the variable prefix of its server block, and the
# suite identities it takes calls from (ztgate/parts.py says who calls whom).
SERVED_PARTS: dict[str, tuple[str, tuple[str, ...]]] = {
    part.name: (parts.env_var(part.tls_section).removeprefix("ZTGATE_"), part.allowed_callers())
    for part in parts.PARTS if part.tls_section}


def _ready_url(config: ZtgateConfig, part: parts.Part) -> str | None:
    """The HTTP readiness URL of a part that is no gRPC server (health over gRPC otherwise)."""
    if part.ready_setting is None:
        return None
    return f"http://{_probe_address(str(parts.setting(config, part.ready_setting)))}/ready"


def suite(config: ZtgateConfig, config_path: Path | None, envoy_config: Path,
          planned: Mapping[str, Sequence[Replica]] | None = None) -> list[Child]:
    """The children of `ztgate up`, in start order (ztgate/parts.py); `planned` (ztgate/replicas.py
    `plan`) runs a part as several replicas, each a child of its own on its own address."""
    serve = [sys.executable, "-m", "ztgate.cli", "serve"]
    extra = ["--config", str(config_path)] if config_path else []
    planned = planned or plan(config, {})

    def argv(part: parts.Part) -> list[str]:
        return [*serve, *part.serve, *extra] if part.serve is not None else envoy_argv(envoy_config)

    children = []
    for part in parts.active(config):
        if part.replicable:
            children += [
                Child(r.name, argv(part), r.address, part.service or "", essential=part.essential,
                      group=part.name,
                      listens=(Listen(part.listen, r.address, "" if r.index == 0 else
                                      f" + {r.index} * supervisor.replica_port_stride, replica "
                                      f"{r.index + 1}"),))
                for r in planned[part.name]]
            continue
        ready_url = _ready_url(config, part)
        children.append(Child(
            part.name, argv(part), None if ready_url else part.address(config), part.service or "",
            ready_url=ready_url, essential=part.essential,
            listens=tuple(Listen(s, str(parts.setting(config, s)))
                          for s in (part.listen, *part.also_listens))))
    tls = pki.operator_tls(config.mesh)
    for child in children:
        child.env = child_env(config, child.group)
        if parts.BY_NAME[child.group].replicable:
            # Each replica on its own address (the first: the configured one).
            child.env[parts.env_var(parts.BY_NAME[child.group].listen)] = child.listens[0].address
            if child.group in REPLICATED_SESSIONS:
                # Its peers: the part's other replicas (session replication, redaction/replication.py).
                peers = [r.address for r in planned[child.group] if r.address != child.listens[0].address]
                child.env[REPLICATED_SESSIONS[child.group]] = json.dumps(peers)
        child.tls = tls if child.health_address else None
    return children


def address_problems(children: list[Child]) -> list[str]:
    """What stops the suite from listening where it is configured to: an address taken (by another
    `ztgate up`, or anything else), unusable, or set for two parts at once; [] when all are free.
    Checked before anything starts, so that nothing is reported ready that is not the suite's own."""
    problems = []
    seen: dict[str, Listen] = {}
    for listen in (listen for child in children for listen in child.listens):
        if (first := seen.setdefault(listen.address, listen)) is not listen:
            problems.append(f"{listen.address} is set for both {first.setting}{first.note} and "
                            f"{listen.setting}{listen.note}; "
                            f"give {listen.setting} ({listen.env_var}) an address of its own")
        elif (error := bind_error(listen.address)) is not None:
            problems.append(listen.refusal(error))
    return problems


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
    lines.append(keys.resolve(config.redaction, config.gateway.listen)[1])
    return lines


def children_config(config: ZtgateConfig, config_path: Path | None) -> ZtgateConfig:
    """The configuration as the children load it (file, then `child_env`): Envoy's bootstrap is
    rendered from it, so Envoy traces (OpenTelemetry on) to the collector the services export to."""
    return load_settings(ZtgateConfig, config_path, environ=child_env(config))


def send_logs_to_files(children: Sequence[Child]) -> Path:
    """Gives each child a log file of its own (NAME.log) in a fresh folder, kept after `up` stops;
    the folder. Without this (`--verbose`) every part writes to `up`'s terminal."""
    folder = Path(tempfile.mkdtemp(prefix="ztgate-up-logs-"))
    for child in children:
        child.log_path = folder / f"{child.name}.log"
    return folder


async def run_suite(config: ZtgateConfig, config_path: Path | None,
                    replica_counts: Mapping[str, int] | None = None, verbose: bool = False) -> int:
    """Starts the suite, reports endpoints, keeps every part running (restarting one that dies or
    stops answering), and stops it all on a signal or when an essential part is given up on.
    `replica_counts` (`--replicas`, ztgate/replicas.py `parse`) runs parts as several replicas.
    Each part's output goes to a file of its own, named on screen; `verbose`: to the terminal."""
    try:
        planned = plan(config, replica_counts or {})
    except ReplicaError as exc:
        print(f"ztgate up failed: nothing was started, because {exc}", file=sys.stderr)
        return 2
    envoy_settings = children_config(config, config_path)
    # First, before anything is written: raises EnvoyConfigError for what must not be exposed.
    warnings = check_exposure(envoy_settings.gateway)
    for warning in warnings:
        print(f"\n{'!' * 78}\n{warning}\n{'!' * 78}\n", file=sys.stderr, flush=True)
    workdir = Path(tempfile.mkdtemp(prefix="ztgate-up-"))
    envoy_config = workdir / "envoy.yaml"
    children = suite(config, config_path, envoy_config, planned)
    if problems := address_problems(children):
        shutil.rmtree(workdir, ignore_errors=True)
        print("ztgate up failed: nothing was started, because\n  " + "\n  ".join(problems),
              file=sys.stderr)
        return 1
    try:
        lines = prepare(config)
    except (pki.PkiError, TokenError) as exc:
        shutil.rmtree(workdir, ignore_errors=True)
        print(f"ztgate up failed: {exc}", file=sys.stderr)
        return 1
    for line in lines:
        print(line, flush=True)
    tls = pki.operator_tls(config.mesh)
    envoy_config.write_text(render_envoy(envoy_settings, endpoints=envoy_endpoints(planned)))
    logs = None if verbose else send_logs_to_files(children)
    print(f"starting {', '.join(child.name for child in children)}; "
          + (f"each part's output goes to {logs}/<part>.log (--verbose: here)" if logs
             else "their output follows"), flush=True)
    supervisor = Supervisor(children, config.supervisor)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        if not await supervisor.start_all(stop):
            return 130
        print("ztgate is up:")
        ingress = config.gateway.tls
        print(f"  gRPC ingress (Envoy)   {config.gateway.listen} ("
              + ("plaintext" if ingress is None else "TLS, client certificates required"
                 if ingress.client_ca else "TLS") + ")")
        print(f"  Envoy admin console    http://{config.gateway.admin}/")
        where = {part: ", ".join(r.address for r in reps) for part, reps in planned.items()}
        print(f"  redaction (internal)   {where['redaction']}")
        print(f"  inference primary      {where['inference-primary']} "
              f"({config.inference.primary.engine}, speculative {config.inference.primary.speculative.method})")
        print(f"  inference fallback     {where['inference-fallback']} "
              f"({config.inference.fallback.engine})")
        print("  OpenAI door (/v1)      " + (
            f"{config.inference.model_name} via the adapter at {config.openai_adapter.listen}"
            if config.openai_adapter_active
            else f"ztgate's own model off ({config.openai_adapter_off_reason})"))
        print(f"  telemetry OTLP         {config.telemetry.server.listen}")
        print(f"  Prometheus metrics     http://{config.telemetry.metrics.listen}/metrics")
        if logs:
            print(f"  logs                   {logs}/<part>.log (one file per part, kept after a stop)")
        print("  inside the suite       " + (
            f"mTLS (certificates in {config.mesh.pki_dir}; services accept only the parts that call them)"
            if tls else "plaintext on loopback (mesh.mtls is off)"))
        auth = config.gateway.auth
        print("  bearer tokens          " + (
            f"required (JWKS {auth.jwks_path}, at most {auth.max_token_lifetime_s} s each; "
            "`ztgate token mint --tenant T`)" if auth.jwks_path
            else "off: every call runs as tenant default (set gateway.auth.jwks_path)"))
        for warning in warnings:  # again, last thing on screen
            print(warning, file=sys.stderr, flush=True)
        in_force = rate_limit_in_force(config.gateway)
        if in_force is not None:
            print(f"  rate limit             {in_force[0]}/s per tenant, burst {in_force[1]}")
        s = config.supervisor
        print(f"A part that exits or fails {s.failure_threshold} health checks in a row is restarted "
              f"(at most {s.max_restarts} times in {s.restart_window_s:g} s). Ctrl-C stops everything.",
              flush=True)
        return await supervisor.supervise(stop)
    except StartError as exc:
        print(f"ztgate up failed: {exc}", file=sys.stderr)
        return 1
    finally:
        print("stopping ...", flush=True)
        await supervisor.stop_all()
        shutil.rmtree(workdir, ignore_errors=True)
        if logs and any(f.stat().st_size for f in logs.iterdir()):
            print(f"the parts' logs stay in {logs}", flush=True)
        elif logs:
            shutil.rmtree(logs, ignore_errors=True)  # no part wrote anything


def _probe_address(address: str) -> str:
    """Where a health check dials a part that listens on `address`: a wildcard host (a container's
    0.0.0.0) on loopback, whose name its certificate carries."""
    host, port = address.rsplit(":", 1)
    return f"127.0.0.1:{port}" if host.strip("[]") in ("0.0.0.0", "::", "") else address


async def part_health(config: ZtgateConfig, parts: tuple[str, ...] = (),
                      identity: str = pki.OPERATOR, timeout_s: float = 1.0) -> list[dict[str, object]]:
    """Each part's health (or only `parts`'), probed at once on the address each part is configured
    on (a replicated part's first replica): part, healthy, address; shared by `status` and `top`."""
    tls = pki.operator_tls(config.mesh) if identity == pki.OPERATOR else pki.part_tls(config.mesh, identity)
    probes = []
    for part in active_parts(config):
        if parts and part.name not in parts:
            continue
        ready_url = _ready_url(config, part)
        probes.append(Child(part.name, [], None if ready_url else _probe_address(part.address(config)),
                            part.service or "", ready_url=ready_url, tls=None if ready_url else tls))
    healthy = await asyncio.gather(*(probe.probe(timeout_s) for probe in probes))
    return [{"part": probe.name, "healthy": ok, "address": probe.health_address or probe.ready_url}
            for probe, ok in zip(probes, healthy)]


async def print_status(config: ZtgateConfig, parts: tuple[str, ...] = (), as_json: bool = False,
                       identity: str = pki.OPERATOR) -> int:
    """Prints each part's health (or only `parts`'): a table, or with `as_json` one JSON object;
    exit code 0 only when all are healthy. `identity`: the certificate presented (a part's
    container checks itself with its own, and holds no other)."""
    ok = True
    # A container's own check (`--part`) holds only its part's certificates and the operator's.
    if config.mesh.mtls and not parts:
        try:
            pki.Pki.of(config.mesh).check()
        except pki.PkiError as exc:
            print(f"ztgate status: {exc}", file=sys.stderr)
            return 1
    report = await part_health(config, parts, identity)
    for entry in report:
        ok = ok and bool(entry["healthy"])
        if not as_json:
            print(f"{entry['part']:<18} {'SERVING' if entry['healthy'] else 'DOWN':<8} {entry['address']}")
    if as_json:
        print(json.dumps({"healthy": ok, "parts": report}, sort_keys=True))
    return 0 if ok else 1
