"""gRPC servicer of ztgate.redaction.v1.Redaction: parse, call the domain, map errors.

Stream chunks and restores run in a worker thread (`off_loop`), one chunk after the other.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import grpc

from services.common.handlers import streaming, unary
from services.common.identity import caller_tenant
from services.common.server import ServiceSpec, serve
from services.config import ZtgateConfig
from services.gen.ztgate.redaction.v1 import redaction_pb2, redaction_pb2_grpc
from services.redaction import ext_proc
from services.redaction.service import Finding, RedactionService, off_loop

SERVICE_NAME = "ztgate.redaction.v1.Redaction"


def _tenant(request_tenant: str, context: grpc.aio.ServicerContext) -> str:
    return caller_tenant(context, request_tenant)


def _finding(f: Finding) -> redaction_pb2.Finding:
    return redaction_pb2.Finding(entity_type=f.entity_type, start=f.start, end=f.end, score=f.score,
                                 recognizer=f.recognizer, replacement=f.replacement, action=f.action)


class RedactionServicer(redaction_pb2_grpc.RedactionServicer):
    def __init__(self, service: RedactionService) -> None:
        self._service = service

    @unary
    async def Redact(self, request: redaction_pb2.RedactRequest,
                     context: grpc.aio.ServicerContext) -> redaction_pb2.RedactResponse:
        result = await self._service.redact(request.text, policy=request.policy,
                                            tenant=_tenant(request.tenant, context),
                                            session_id=request.session_id)
        return redaction_pb2.RedactResponse(text=result.text, session_id=result.session_id,
                                            findings=[_finding(f) for f in result.findings])

    @unary
    async def Analyze(self, request: redaction_pb2.AnalyzeRequest,
                      context: grpc.aio.ServicerContext) -> redaction_pb2.AnalyzeResponse:
        findings = await self._service.analyze(request.text, policy=request.policy,
                                               tenant=_tenant(request.tenant, context))
        return redaction_pb2.AnalyzeResponse(findings=[_finding(f) for f in findings])

    @unary
    async def Restore(self, request: redaction_pb2.RestoreRequest,
                      context: grpc.aio.ServicerContext) -> redaction_pb2.RestoreResponse:
        text = await off_loop(self._service.restore, request.text, session_id=request.session_id,
                              tenant=_tenant(request.tenant, context))
        return redaction_pb2.RestoreResponse(text=text)

    @streaming
    async def RedactStream(self, request_iterator: AsyncIterator[redaction_pb2.RedactChunk],
                           context: grpc.aio.ServicerContext) -> AsyncIterator[redaction_pb2.RedactChunk]:
        stream = None
        async for chunk in request_iterator:
            if stream is None:
                stream = self._service.open_stream(policy=chunk.policy,
                                                   tenant=_tenant(chunk.tenant, context),
                                                   session_id=chunk.session_id)
            out = await off_loop(stream.feed, chunk.text, final=chunk.final)
            yield redaction_pb2.RedactChunk(text=out.text, session_id=stream.session_id,
                                            final=chunk.final,
                                            findings=[_finding(f) for f in out.findings])
            if chunk.final:
                return
        if stream is not None:
            tail = await off_loop(stream.finish)
            yield redaction_pb2.RedactChunk(text=tail.text, session_id=stream.session_id,
                                            final=True, findings=[_finding(f) for f in tail.findings])


def build_spec(service: RedactionService) -> ServiceSpec:
    """The runtime's view of the redaction service (shared by `serve` and tests)."""

    def register(server: grpc.aio.Server) -> None:
        redaction_pb2_grpc.add_RedactionServicer_to_server(RedactionServicer(service), server)
        # Envoy's ext_proc filter: scrubs inference calls on their way through the gateway.
        ext_proc.ep_grpc.add_ExternalProcessorServicer_to_server(
            ext_proc.ExternalProcessorServicer(service), server)

    return ServiceSpec(name="redaction", service_names=[SERVICE_NAME, ext_proc.SERVICE_NAME],
                       register=register,
                       start=service.start, stop=service.close)


async def run(config: ZtgateConfig) -> None:
    """`ztgate serve redaction`."""
    service = RedactionService.from_settings(config.redaction)
    await serve(build_spec(service), config.redaction.server, config.otel)
