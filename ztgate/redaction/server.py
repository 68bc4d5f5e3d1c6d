"""gRPC servicer of ztgate.redaction.v1.Redaction: parse, call the domain, map errors.

Stream chunks and restores run in a worker thread (`off_loop`), one chunk after the other.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import grpc

from ztgate.common.handlers import streaming, unary
from ztgate.common.identity import TenantAccess
from ztgate.common.server import ServiceSpec, serve
from ztgate.common.first_token import FirstTokenBudget
from ztgate.common.scrub_timeout import ScrubTimeouts
from ztgate.common.settings import TlsSettings
from ztgate.gen.redaction.v1 import redaction_pb2, redaction_pb2_grpc
from ztgate.inference.limits import RequestLimits
from ztgate.protocols.openai.schema import DoorOptions
from ztgate.redaction.door_metrics import DoorMetrics
from ztgate.redaction import ext_proc
from ztgate.redaction.anonymising import keys
from ztgate.redaction.metrics import ScrubPath
from ztgate.redaction.service import Finding, RedactionService

if TYPE_CHECKING:  # a type only: ztgate.config imports this package's settings
    from ztgate.config import ZtgateConfig


log = logging.getLogger(__name__)
SERVICE_NAME = redaction_pb2.DESCRIPTOR.services_by_name["Redaction"].full_name


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
        text = await self._service.off_loop(tenant, self._service.restore, request.text,
                                            session_id=request.session_id, tenant=tenant)
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


def build_spec(service: RedactionService, tls: TlsSettings | None, budget: FirstTokenBudget, *,
               limits: RequestLimits | None = None,
               timeouts: ScrubTimeouts | None = None,
               door: DoorOptions | None = None,
               own_models: frozenset[str] = frozenset(),
               door_models: frozenset[str] | None = None) -> ServiceSpec:
    """The runtime's view of the redaction service (shared by `serve` and tests); `tls` is the
    listener's, which says who may act for which tenant; `budget` sets each inference call's
    per-try timeout from its prompt; `limits` and `timeouts` (Envoy's waits for a scrubbed
    request body) bound the gateway's calls (the gateway's settings); `door`: the
    gateway.openai_* settings of the HTTP door; `own_models`: the OpenAI models ztgate's own adapter
    serves (their first-token budget is the gateway's gRPC route's, not the door's);
    `door_models`: every model the door routes, the only values of its metrics' model label."""
    access = TenantAccess(tls)

    def register(server: grpc.aio.Server) -> None:
        redaction_pb2_grpc.add_RedactionServicer_to_server(RedactionServicer(service, access), server)
        # Envoy's ext_proc filter: scrubs inference calls on their way through the gateway.
        ext_proc.ep_grpc.add_ExternalProcessorServicer_to_server(
            ext_proc.ExternalProcessorServicer(service, access, budget, limits=limits,
                                               timeouts=timeouts,
                                               door=door,
                                               own_models=own_models,
                                               door_metrics=DoorMetrics(models=door_models)), server)

    return ServiceSpec(name="redaction", service_names=[SERVICE_NAME, ext_proc.SERVICE_NAME],
                       register=register,
                       start=service.start, stop=service.close)


async def run(config: ZtgateConfig) -> None:
    """`ztgate serve redaction`."""
    operator_keys, source = keys.resolve(config)
    log.info("%s", source)  # a path, never a key
    service = RedactionService.from_settings(config.redaction, operator_keys)
    own_models = frozenset([config.inference.model_name]) if config.openai_adapter_active else frozenset()
    door_models = own_models | {m for u in config.gateway.openai_upstreams for m in u.models}
    await serve(build_spec(service, config.redaction.server.tls, config.gateway.first_token_budget,
                           limits=config.limits, timeouts=config.gateway.scrub_timeouts,
                           door=config.gateway.door_options(),
                           own_models=own_models, door_models=frozenset(door_models)),
                config.redaction.server, config.otel)
