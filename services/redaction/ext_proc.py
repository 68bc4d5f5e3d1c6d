"""Envoy's external processor (envoy.service.ext_proc.v3.ExternalProcessor) for inference calls.

Envoy runs its ext_proc filter on every route but the redaction service's own, with
`failure_mode_allow: false`, request headers SEND, request body BUFFERED, response body STREAMED
(envoy/envoy.yaml). Each HTTP call is one `Process` stream here, so the call's state (tenant,
redaction session) lives in the stream:

- request headers: the method must be one `exchange.METHODS` knows, else UNIMPLEMENTED; the tenant is
  the `x-ztgate-tenant` header, which Envoy strips from clients before any filter and only sets
  itself (from a verified token); a client asks the upstream for uncompressed answers;
- request body: scrubbed and re-framed (`InferenceExchange.request_body`); a `block` answers
  PERMISSION_DENIED, a malformed body INVALID_ARGUMENT, and nothing reaches the upstream;
- response body chunks: secrets scrubbed, pseudonyms restored (`InferenceExchange.response_body`).

Refusals are ext_proc ImmediateResponses carrying a gRPC status, which Envoy turns into a
trailers-only gRPC answer. Any other failure also refuses (INTERNAL): the filter never lets the
original text through.
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
from services.redaction.exchange import InferenceExchange
from services.redaction.service import RedactionService

log = logging.getLogger(__name__)

SERVICE_NAME = "envoy.service.ext_proc.v3.ExternalProcessor"
# Set by Envoy from the verified token; a client's copy is removed before any filter runs.
TENANT_HEADER = "x-ztgate-tenant"

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


def _headers(request: ep.HttpHeaders) -> dict[str, str]:
    return {h.key: h.raw_value.decode("utf-8", "replace") if h.raw_value else h.value
            for h in request.headers.headers}


def _set(key: str, value: str) -> base_pb2.HeaderValueOption:
    return base_pb2.HeaderValueOption(
        header=base_pb2.HeaderValue(key=key, raw_value=value.encode()),
        append_action=base_pb2.HeaderValueOption.OVERWRITE_IF_EXISTS_OR_ADD)


def _body(data: bytes) -> ep.CommonResponse:
    mutation = ep.BodyMutation(body=data) if data else ep.BodyMutation(clear_body=True)
    return ep.CommonResponse(body_mutation=mutation)


class ExternalProcessorServicer(ep_grpc.ExternalProcessorServicer):
    def __init__(self, service: RedactionService) -> None:
        self._service = service

    def _on_request_headers(self, request: ep.HttpHeaders) -> tuple[InferenceExchange, ep.ProcessingResponse]:
        headers = _headers(request)
        exchange = InferenceExchange(self._service, headers.get(":path", ""),
                                     headers.get(TENANT_HEADER, ""))
        if request.end_of_stream:
            raise _BodyMissing()
        mutation = ep.HeaderMutation(set_headers=[_set("grpc-accept-encoding", "identity")],
                                     remove_headers=["content-length"] if "content-length" in headers else [])
        return exchange, ep.ProcessingResponse(request_headers=ep.HeadersResponse(
            response=ep.CommonResponse(header_mutation=mutation)))

    async def Process(self, request_iterator: AsyncIterator[ep.ProcessingRequest],
                      context: grpc.aio.ServicerContext) -> AsyncIterator[ep.ProcessingResponse]:
        exchange: InferenceExchange | None = None
        started = time.perf_counter()
        try:
            async for request in request_iterator:
                kind = request.WhichOneof("request")
                try:
                    if kind == "request_headers":
                        exchange, response = self._on_request_headers(request.request_headers)
                    elif exchange is None:
                        raise _OutOfOrder(kind)
                    elif kind == "request_body":
                        outcome = await exchange.request_body(request.request_body.body)
                        if outcome.findings:
                            log.debug("prompt scrubbed", extra={
                                "event": "gateway_prompt_scrubbed", "tenant": exchange.tenant,
                                "entity_types": outcome.findings})
                        response = ep.ProcessingResponse(request_body=ep.BodyResponse(
                            response=_body(outcome.body)))
                    elif kind == "response_body":
                        body = request.response_body
                        response = ep.ProcessingResponse(response_body=ep.BodyResponse(
                            response=_body(exchange.response_body(body.body, body.end_of_stream))))
                    elif kind == "response_headers":
                        response = ep.ProcessingResponse(response_headers=ep.HeadersResponse())
                    elif kind == "response_trailers":
                        response = ep.ProcessingResponse(response_trailers=ep.TrailersResponse())
                    elif kind == "request_trailers":
                        response = ep.ProcessingResponse(request_trailers=ep.TrailersResponse())
                    else:
                        raise _OutOfOrder(kind)
                except ZtgateError as exc:
                    code = grpc.StatusCode[exc.status]
                    log.info("gateway refused a call: %s", code.name,
                             extra={"event": "gateway_refused", "code": code.name,
                                    "method": kind, "tenant": exchange.tenant if exchange else ""})
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
