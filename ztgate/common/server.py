"""The one server runtime: grpc.aio, health, reflection, OpenTelemetry, graceful shutdown.

A service hands `serve` a `ServiceSpec`: how to register its servicers, how to get ready (load
models, compile databases) and how to clean up. Health answers NOT_SERVING for "" and for each
of the service's names until `start` returns, and again as soon as shutdown begins.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import signal
import socket
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from ztgate.common.memory import MemoryCeiling, MemoryCeilingInterceptor
from ztgate.common.settings import OtelSettings, ServerSettings
from ztgate.common.telemetry import server_interceptors, setup_telemetry, shutdown_telemetry
from ztgate.common.tls import access_interceptors, add_port

log = logging.getLogger(__name__)


class ListenError(Exception):
    """The listen address is unusable (not loopback without TLS, taken, or malformed)."""


@dataclass
class ServiceSpec:
    # Short name for logs and telemetry (e.g. "redaction").
    name: str
    # Full proto service names, e.g. "ztgate.redaction.v1.Redaction".
    service_names: Sequence[str]
    # Adds the servicers to the server.
    register: Callable[[grpc.aio.Server], None]
    # Gets ready (slow work); health turns SERVING when it returns.
    start: Callable[[], Awaitable[None]]
    # Releases resources after the server has drained.
    stop: Callable[[], Awaitable[None]] | None = None
    # Called as shutdown begins, before the drain: ends calls that never end by themselves
    # (the collector's RTDS streams), so that the drain does not wait its whole grace for them.
    drain: Callable[[], Awaitable[None]] | None = None
    # Extra server options, e.g. message size limits.
    options: list[tuple[str, int]] = field(default_factory=list)
    # The part's memory ceiling when its server.max_rss_mib is unset (MiB; 0: none).
    default_max_rss_mib: int = 0
    # The ceiling itself, when the service checks it too (the redaction service's ext_proc admits
    # each request body by its size); else the runtime makes one from the settings.
    memory: MemoryCeiling | None = None
    # Services the runtime's memory check leaves alone (they admit their own work).
    memory_exempt: Sequence[str] = ()


def split_host_port(address: str) -> tuple[str, int]:
    """Parses host:port and [v6]:port."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise ListenError(f"listen address {address!r} must be HOST:PORT")
    return host.strip("[]"), int(port)


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and names that resolve only to loopback."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        try:
            infos = socket.getaddrinfo(host, None)
        except OSError:
            return False
        return bool(infos) and all(ipaddress.ip_address(i[4][0]).is_loopback for i in infos)


def memory_ceiling(settings: ServerSettings, part: str, default_mib: int) -> MemoryCeiling:
    """The part's ceiling: `server.max_rss_mib`, else the part's default."""
    mib = default_mib if settings.max_rss_mib is None else settings.max_rss_mib
    return MemoryCeiling(mib, part)


class Runtime:
    """A started server with its health servicer; `serve` drives one to completion."""

    def __init__(self, spec: ServiceSpec, settings: ServerSettings, otel: OtelSettings, *,
                 own_process: bool = False) -> None:
        """`own_process`: the part is the whole process (`serve`), so its default memory ceiling
        applies; a part embedded in another process (a test, a bench) has only the one its settings
        name, since the process's RSS is not the part's."""
        self.spec = spec
        self.settings = settings
        self.health = health.aio.HealthServicer()
        options = [("grpc.max_receive_message_length", settings.max_message_bytes),
                   ("grpc.max_send_message_length", settings.max_message_bytes),
                   ("grpc.so_reuseport", 0), *spec.options]
        self.memory = spec.memory or memory_ceiling(settings, spec.name,
                                                    spec.default_max_rss_mib if own_process else 0)
        exempt = frozenset([health.SERVICE_NAME, *spec.memory_exempt])
        # The caller check first: a refused caller leaves no span or duration behind. Then the
        # memory ceiling, before any work (health is never refused: it must tell the truth).
        interceptors = [*access_interceptors(settings.tls),
                        MemoryCeilingInterceptor(self.memory, exempt),
                        *server_interceptors(otel, spec.name)]
        self.server = grpc.aio.server(interceptors=interceptors, options=options)
        self.port = 0

    async def _set_all(self, status: int) -> None:
        for name in ("", *self.spec.service_names):
            await self.health.set(name, status)

    async def start(self) -> int:
        """Binds the port (NOT_SERVING), runs the service's start, then reports SERVING."""
        host, _ = split_host_port(self.settings.listen)
        if self.settings.tls is None and not is_loopback(host):
            raise ListenError(
                f"refusing to listen on {self.settings.listen} without TLS: only loopback "
                "addresses may run without certificates (set server.tls or use 127.0.0.1)")
        self.spec.register(self.server)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.server)
        reflection.enable_server_reflection(
            [*self.spec.service_names, health.SERVICE_NAME, reflection.SERVICE_NAME], self.server)
        await self._set_all(health_pb2.HealthCheckResponse.NOT_SERVING)
        try:
            self.port = add_port(self.server, self.settings.listen, self.settings.tls)
        except RuntimeError as exc:
            raise ListenError(f"cannot listen on {self.settings.listen}: {exc}") from exc
        await self.server.start()
        log.info("%s listening on %s (not serving yet)", self.spec.name, self.settings.listen,
                 extra={"address": self.settings.listen})
        await self.spec.start()
        await self._set_all(health_pb2.HealthCheckResponse.SERVING)
        log.info("%s serving", self.spec.name, extra={"state": "serving"})
        return self.port

    async def stop(self) -> None:
        """NOT_SERVING first (so balancers move away), then drain in-flight calls, then clean up."""
        await self.health.enter_graceful_shutdown()
        if self.spec.drain is not None:
            await self.spec.drain()
        await self.server.stop(self.settings.shutdown_grace_s)
        if self.spec.stop is not None:
            await self.spec.stop()
        log.info("%s stopped", self.spec.name, extra={"state": "stopped"})


async def serve(spec: ServiceSpec, settings: ServerSettings, otel: OtelSettings) -> None:
    """Runs the service until SIGTERM or SIGINT, then shuts it down gracefully."""
    setup_telemetry(otel, spec.name)
    stop_event = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop_event.set)
    runtime = Runtime(spec, settings, otel, own_process=True)
    try:
        start = asyncio.ensure_future(runtime.start())
        stopped = asyncio.ensure_future(stop_event.wait())
        done, _ = await asyncio.wait({start, stopped}, return_when=asyncio.FIRST_COMPLETED)
        if start in done:
            start.result()
            await stopped
        else:
            start.cancel()
        log.info("%s shutting down", spec.name, extra={"state": "draining"})
    finally:
        await runtime.stop()
        shutdown_telemetry()
