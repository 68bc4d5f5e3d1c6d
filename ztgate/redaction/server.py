"""gRPC servicer of ztgate.redaction.v1.Redaction: parse, call the domain, map errors.

Stream chunks and restores run in a worker thread (`off_loop`), one chunk after the other. The
part's process also serves what the composition hands in on its service (`Hosted`: the gateway's
ext_proc processor, composed by ztgate/serve.py; redaction does not import the gateway).
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass

import grpc

from ztgate.common.handlers import streaming, unary
from ztgate.common.identity import TenantAccess
from ztgate.common.memory import MemoryCeiling
from ztgate.common.server import ServiceSpec, memory_ceiling, serve
from ztgate.common.settings import OtelSettings, TlsSettings
from ztgate.gen.redaction.v1 import redaction_pb2, redaction_pb2_grpc
from ztgate.redaction.anonymising import keys
from ztgate.redaction.config import RedactionSettings
from ztgate.redaction.metrics import ScrubPath
from ztgate.redaction.replication import (ReplicationMetrics, Replicator, SessionReplicaServicer,
                                          client_tls, new_instance)
from ztgate.redaction.replication import SERVICE_NAME as REPLICA_SERVICE_NAME
from ztgate.redaction.service import Finding, RedactionService



log = logging.getLogger(__name__)
SERVICE_NAME = redaction_pb2.DESCRIPTOR.services_by_name["Redaction"].full_name
# The redaction service's memory ceiling unless redaction.server.max_rss_mib says otherwise: about
# twice what its server process holds once ready (docs/operations/limits.md,
# docs/adr/0006-memory-ceiling-per-part.md); the rest is room for bodies in flight and the vault.
DEFAULT_MAX_RSS_MIB = 1536


def _finding(f: Finding) -> redaction_pb2.Finding:
    return redaction_pb2.Finding(entity_type=f.entity_type, start=f.start, end=f.end, score=f.score,
                                 recognizer=f.recognizer, replacement=f.replacement, action=f.action)


class RedactionServicer(redaction_pb2_grpc.RedactionServicer):
    def __init__(self, service: RedactionService, access: TenantAccess) -> None:
        self._service = service
        # Which tenant a call acts for: by the caller's certificate, never the request's say-so.
        self._tenant = access.caller_tenant

    @unary
    async def Redact(self, request: redaction_pb2.RedactRequest,
                     context: grpc.aio.ServicerContext) -> redaction_pb2.RedactResponse:
        with self._service.metrics.watch(ScrubPath.REDACT) as scrub:
            scrub.tenant = self._tenant(context, request.tenant)
            result = await self._service.redact(request.text, policy=request.policy,
                                                tenant=scrub.tenant, session_id=request.session_id,
                                                timeout_s=context.time_remaining())
        return redaction_pb2.RedactResponse(text=result.text, session_id=result.session_id,
                                            findings=[_finding(f) for f in result.findings])

    @unary
    async def Analyze(self, request: redaction_pb2.AnalyzeRequest,
                      context: grpc.aio.ServicerContext) -> redaction_pb2.AnalyzeResponse:
        findings = await self._service.analyze(request.text, policy=request.policy,
                                               tenant=self._tenant(context, request.tenant),
                                               timeout_s=context.time_remaining())
        return redaction_pb2.AnalyzeResponse(findings=[_finding(f) for f in findings])

    @unary
    async def Restore(self, request: redaction_pb2.RestoreRequest,
                      context: grpc.aio.ServicerContext) -> redaction_pb2.RestoreResponse:
        tenant = self._tenant(context, request.tenant)
        text = await self._service.restore_on_loop(request.text, session_id=request.session_id,
                                                   tenant=tenant)
        return redaction_pb2.RestoreResponse(text=text)

    @streaming
    async def RedactStream(self, request_iterator: AsyncIterator[redaction_pb2.RedactChunk],
                           context: grpc.aio.ServicerContext) -> AsyncIterator[redaction_pb2.RedactChunk]:
        metrics = self._service.metrics
        stream = None
        async for chunk in request_iterator:
            with metrics.watch(ScrubPath.REDACT_STREAM, stream and stream.tenant) as scrub:
                if stream is None:
                    scrub.tenant = self._tenant(context, chunk.tenant)
                    stream = self._service.open_stream(policy=chunk.policy, tenant=scrub.tenant,
                                                       session_id=chunk.session_id)
                    scrub.tenant = stream.tenant
                out = await self._service.off_loop(stream.tenant, stream.feed, chunk.text,
                                                   final=chunk.final)
            yield redaction_pb2.RedactChunk(text=out.text, session_id=stream.session_id,
                                            final=chunk.final,
                                            findings=[_finding(f) for f in out.findings])
            if chunk.final:
                return
        if stream is not None:
            with metrics.watch(ScrubPath.REDACT_STREAM, stream.tenant):
                tail = await self._service.off_loop(stream.tenant, stream.finish)
            yield redaction_pb2.RedactChunk(text=tail.text, session_id=stream.session_id,
                                            final=True, findings=[_finding(f) for f in tail.findings])


@dataclass(frozen=True)
class Hosted:
    """Another API this part's process serves beside Redaction, on its service: the gateway's
    ext_proc processor, which the composition (the CLI's serve branch) hands in."""

    # Its full proto service name (health reports it, reflection lists it).
    service_name: str
    # Adds its servicer to the server, given the redaction service and who may act for which
    # tenant on this listener, and the part's memory ceiling, which it checks for its own work
    # (called as the server starts, after telemetry is set up).
    register: Callable[[RedactionService, TenantAccess, grpc.aio.Server, MemoryCeiling], None]


@dataclass(frozen=True)
class RedactionInputs:
    """What `ztgate serve redaction` runs with: its own section, and what it needs from the
    others (built from the whole configuration by ztgate/serve.py)."""

    redaction: RedactionSettings
    otel: OtelSettings
    # gateway.listen: generated keys are refused when it, or the service, is off loopback.
    gateway_listen: str
    # The other APIs the part's process serves (the gateway's ext_proc processor).
    hosted: Sequence[Hosted] = ()


@dataclass(frozen=True)
class Replication:
    """Session replication between replicas (replication.py): what takes peers' sessions, and what
    sends this replica's (None: no peers)."""

    servicer: SessionReplicaServicer
    replicator: Replicator | None
    # Seconds the start waits for the peers' sessions before SERVING (0: it does not ask them).
    ready_wait_s: float = 0.0


def replication_for(service: RedactionService, settings: RedactionSettings,
                    instance: str | None = None) -> Replication | None:
    """The part's replication as configured (None when redaction.replication.enabled is off)."""
    config = settings.replication
    if not config.enabled:
        return None
    instance = instance or new_instance()
    counted = ReplicationMetrics()
    servicer = SessionReplicaServicer(service.vault, settings.server.tls, instance, counted, config)
    replicator = (Replicator(service.vault, config, client_tls(settings.server.tls), instance, counted)
                  if config.peers else None)
    return Replication(servicer, replicator, config.ready_wait_s)


def build_spec(service: RedactionService, tls: TlsSettings | None, *,
               hosted: Sequence[Hosted] = (), memory: MemoryCeiling | None = None,
               replication: Replication | None = None) -> ServiceSpec:
    """The runtime's view of the redaction service (shared by `serve` and tests); `tls` is the
    listener's, which says who may act for which tenant; `hosted`: the other APIs served on the
    service (the gateway's processor), which admit their own work by `memory`, the part's RSS
    ceiling (None: none); `replication`: sessions to and from peer replicas (None: none)."""
    access = TenantAccess(tls)
    ceiling = memory or MemoryCeiling(0, "redaction")
    replicator = replication.replicator if replication else None

    def register(server: grpc.aio.Server) -> None:
        redaction_pb2_grpc.add_RedactionServicer_to_server(RedactionServicer(service, access), server)
        if replication is not None:
            redaction_pb2_grpc.add_SessionReplicaServicer_to_server(replication.servicer, server)
        for other in hosted:
            other.register(service, access, server, ceiling)

    async def start() -> None:
        # The listener is bound (NOT_SERVING) before this runs, so peers can send and answer; the
        # peers are asked while the service loads, and SERVING waits for their sessions (bounded).
        wait_s = replication.ready_wait_s if replication is not None else 0.0
        if replicator is not None:
            await replicator.start()
            if wait_s > 0:
                replicator.ask_peers()
        started = time.monotonic()
        await service.start()
        if replicator is not None and wait_s > 0:
            await replicator.ready(wait_s - (time.monotonic() - started))

    async def stop() -> None:
        if replicator is not None:
            await replicator.close()
        await service.close()

    names = [SERVICE_NAME, *([REPLICA_SERVICE_NAME] if replication else []), *(h.service_name for h in hosted)]
    return ServiceSpec(name="redaction", service_names=names,
                       register=register,
                       start=start, stop=stop,
                       default_max_rss_mib=DEFAULT_MAX_RSS_MIB, memory=memory,
                       memory_exempt=[h.service_name for h in hosted])


async def run(inputs: RedactionInputs) -> None:
    """`ztgate serve redaction`."""
    operator_keys, source = keys.resolve(inputs.redaction, inputs.gateway_listen)
    log.info("%s", source)  # a path, never a key
    service = RedactionService.from_settings(inputs.redaction, operator_keys)
    memory = memory_ceiling(inputs.redaction.server, "redaction", DEFAULT_MAX_RSS_MIB)
    await serve(build_spec(service, inputs.redaction.server.tls, hosted=inputs.hosted, memory=memory,
                           replication=replication_for(service, inputs.redaction)),
                inputs.redaction.server, inputs.otel)
