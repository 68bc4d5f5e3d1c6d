"""Envoy's external processor (envoy.service.ext_proc.v3.ExternalProcessor) for inference calls.

Envoy runs its ext_proc filter on every route but the redaction service's own, with
`failure_mode_allow: false`, request headers SEND, request body BUFFERED and response body STREAMED
(envoy/envoy.yaml). Each HTTP call is one `Process` stream here, so the call's state (tenant,
redaction session) lives in the stream:

- request headers: the method (`:path`) and the tenant, the `x-ztgate-tenant` header, which Envoy
  strips from clients before any filter and only sets itself (from a verified token);
- request body: the method must be one `exchange.METHODS` knows, else UNIMPLEMENTED; the body is
  scrubbed and re-framed (`InferenceExchange.request_body`); a `block` answers PERMISSION_DENIED, a
  malformed body INVALID_ARGUMENT, and nothing reaches the upstream;
- response body chunks: secrets scrubbed, pseudonyms restored (`InferenceExchange.response_body`, in a
  worker thread: a call's messages are handled one after the other, so its chunks keep their order).

Request headers must be SEND, and a body without them is refused: with headers SKIP, Envoy passes
the headers on to the router before the body is scrubbed, the router starts the upstream try, and
a retry (the primary refusing the connection) replays the body ext_proc is still holding, the
original. With SEND and a BUFFERED body, the headers wait for the body's answer.

Refusals are ext_proc ImmediateResponses carrying a gRPC status, which Envoy turns into a
trailers-only gRPC answer (or a reset stream once the answer has begun). Any other failure also
refuses (INTERNAL): the filter never lets the original text through.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator

import grpc
from envoy.config.core.v3 import base_pb2
from envoy.service.ext_proc.v3 import external_processor_pb2 as ep
from envoy.service.ext_proc.v3 import external_processor_pb2_grpc as ep_grpc
from envoy.type.v3 import http_status_pb2

from services.common.errors import ZtgateError
from services.common.identity import TENANT_HEADER
from services.redaction.exchange import InferenceExchange
from services.redaction.service import RedactionService

log = logging.getLogger(__name__)

SERVICE_NAME = "envoy.service.ext_proc.v3.ExternalProcessor"
# Answers come uncompressed: a codec the gateway cannot read would fail the call.
_IDENTITY = base_pb2.HeaderValueOption(
    header=base_pb2.HeaderValue(key="grpc-accept-encoding", raw_value=b"identity"),
    append_action=base_pb2.HeaderValueOption.OVERWRITE_IF_EXISTS_OR_ADD)

_HTTP_STATUS = {
    grpc.StatusCode.INVALID_ARGUMENT: http_status_pb2.BadRequest,
    grpc.StatusCode.PERMISSION_DENIED: http_status_pb2.Forbidden,
    grpc.StatusCode.RESOURCE_EXHAUSTED: http_status_pb2.TooManyRequests,
    grpc.StatusCode.UNIMPLEMENTED: http_status_pb2.NotImplemented,
    grpc.StatusCode.UNAVAILABLE: http_status_pb2.ServiceUnavailable,
    grpc.StatusCode.DEADLINE_EXCEEDED: http_status_pb2.GatewayTimeout,
}


def refusal(code: grpc.StatusCode, message: str) -> ep.ProcessingResponse:
    """An ImmediateResponse that Envoy sends to a gRPC client as `code` with `message`."""
    return ep.ProcessingResponse(immediate_response=ep.ImmediateResponse(
        status=http_status_pb2.HttpStatus(code=_HTTP_STATUS.get(code, http_status_pb2.InternalServerError)),
        grpc_status=ep.GrpcStatus(status=code.value[0]),
        body=message.encode("utf-8"),
        details=f"ztgate_redaction_{code.name.lower()}"))


def _body(data: bytes) -> ep.CommonResponse:
    mutation = ep.BodyMutation(body=data) if data else ep.BodyMutation(clear_body=True)
    return ep.CommonResponse(body_mutation=mutation)


def _path_and_tenant(message: ep.HttpHeaders) -> tuple[str, str]:
    path = tenant = ""
    for header in message.headers.headers:
        value = header.raw_value.decode("utf-8", "replace") if header.raw_value else header.value
        if header.key == ":path":
            path = value
        elif header.key == TENANT_HEADER:
            tenant = value
    return path, tenant


class ExternalProcessorServicer(ep_grpc.ExternalProcessorServicer):
    def __init__(self, service: RedactionService) -> None:
        self._service = service

    async def _respond(self, kind: str | None, request: ep.ProcessingRequest,
                       exchange: InferenceExchange | None
                       ) -> tuple[InferenceExchange | None, ep.ProcessingResponse]:
        if kind == "request_headers" and exchange is None:
            exchange = InferenceExchange(self._service, *_path_and_tenant(request.request_headers))
            if request.request_headers.end_of_stream:
                raise _BodyMissing()
            mutation = ep.HeaderMutation(set_headers=[_IDENTITY])
            return exchange, ep.ProcessingResponse(request_headers=ep.HeadersResponse(
                response=ep.CommonResponse(header_mutation=mutation)))
        if kind == "request_body" and exchange is not None:
            outcome = await exchange.request_body(request.request_body.body)
            if outcome.findings:
                log.debug("prompt scrubbed", extra={"event": "gateway_prompt_scrubbed",
                                                    "tenant": exchange.tenant,
                                                    "entity_types": outcome.findings})
            return exchange, ep.ProcessingResponse(request_body=ep.BodyResponse(
                response=_body(outcome.body)))
        if kind == "response_body" and exchange is not None:
            body = request.response_body
            data = await exchange.response_body(body.body, body.end_of_stream)
            return exchange, ep.ProcessingResponse(response_body=ep.BodyResponse(response=_body(data)))
        if kind == "response_headers" and exchange is not None:
            return exchange, ep.ProcessingResponse(response_headers=ep.HeadersResponse())
        if kind == "response_trailers" and exchange is not None:
            return exchange, ep.ProcessingResponse(response_trailers=ep.TrailersResponse())
        raise _OutOfOrder(kind)

    async def Process(self, request_iterator: AsyncIterator[ep.ProcessingRequest],
                      context: grpc.aio.ServicerContext) -> AsyncIterator[ep.ProcessingResponse]:
        exchange: InferenceExchange | None = None
        started = time.perf_counter()
        try:
            async for request in request_iterator:
                kind = request.WhichOneof("request")
                try:
                    exchange, response = await self._respond(kind, request, exchange)
                except ZtgateError as exc:
                    code = grpc.StatusCode[exc.status]
                    log.info("gateway refused a call: %s", code.name, extra={
                        "event": "gateway_refused", "code": code.name, "method": kind,
                        "tenant": exchange.tenant if exchange else ""})
                    yield refusal(code, str(exc))
                    return
                except Exception as exc:  # noqa: BLE001 - fail closed, and say nothing of the text
                    log.error("gateway processing failed with %s", type(exc).__name__,
                              extra={"event": "gateway_failed", "method": kind}, exc_info=True)
                    yield refusal(grpc.StatusCode.INTERNAL, f"redaction failed ({type(exc).__name__}); "
                                  "nothing was forwarded")
                    return
                yield response
        finally:
            if exchange is not None:
                exchange.close()
            log.debug("ext_proc stream done", extra={
                "event": "gateway_call_done",
                "duration_ms": round((time.perf_counter() - started) * 1000, 3)})


class _BodyMissing(ZtgateError):
    status = "INVALID_ARGUMENT"

    def __init__(self) -> None:
        super().__init__("an inference call without a request message")


class _OutOfOrder(ZtgateError):
    def __init__(self, kind: str | None) -> None:
        super().__init__(f"unexpected ext_proc message {kind or '(empty)'} for this call")
