"""Envoy's external processor (envoy.service.ext_proc.v3.ExternalProcessor) for inference calls.

Each HTTP call is one `Process` stream, so the call's state (tenant, redaction session) lives in the
stream. Request headers are SEND and the body BUFFERED, so the headers wait for the scrubbed body
(with headers SKIP, a retry would replay the original body). The body is checked, scrubbed and
re-framed by `grpc_api.py` or `openai_api.py`; answers are scrubbed chunk by chunk. Every failure
refuses (`failure_mode_allow: false`): the original text never passes. Served in the redaction part's
process. The whole sequence, timeouts and refusals: docs/architecture.md ("Module notes").
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

import grpc
from envoy.config.core.v3 import base_pb2
from envoy.service.ext_proc.v3 import external_processor_pb2 as ep
from envoy.service.ext_proc.v3 import external_processor_pb2_grpc as ep_grpc
from envoy.type.v3 import http_status_pb2

from ztgate.common.errors import DeadlineExceeded, InvalidArgument, ZtgateError
from ztgate.common.first_token import FirstTokenBudget
from ztgate.common.identity import TENANT_HEADER, TenantAccess
from ztgate.common.memory import MemoryCeiling
from ztgate.common.scrub_timeout import ScrubTimeouts, scrub_budget_s
from ztgate.common.tls import peer_name
from ztgate.gateway.processor.grpc_api import InferenceExchange, RequestOutcome
from ztgate.gateway.processor.openai_api import OpenAIExchange, OpenAIOutcome
from ztgate.gateway.processor.openai_metrics import DoorMetrics
from ztgate.inference.limits import RequestLimits
from ztgate.protocols.openai.errors import error_shape, refusal_headers
from ztgate.protocols.openai.fields import MODEL_HEADER, OPENAI_PREFIX
from ztgate.protocols.openai.schema import DoorOptions
from ztgate.redaction.metrics import ScrubPath
from ztgate.redaction.server import Hosted
from ztgate.redaction.service import RedactionService


log = logging.getLogger(__name__)

SERVICE_NAME = "envoy.service.ext_proc.v3.ExternalProcessor"
# Answers come uncompressed: a codec the gateway cannot read would fail the call.
_IDENTITY = base_pb2.HeaderValueOption(
    header=base_pb2.HeaderValue(key="grpc-accept-encoding", raw_value=b"identity"),
    append_action=base_pb2.HeaderValueOption.OVERWRITE_IF_EXISTS_OR_ADD)

# Envoy's buffer filter (the request-size limit, ztgate/gateway/templates/envoy.yaml) sets content-length on the body it
# read; the scrubbed body has another length, and ext_proc refuses a body that disagrees with it.
_STALE_HEADERS = ["content-length"]

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


def openai_refusal(exc: ZtgateError) -> ep.ProcessingResponse:
    """An ImmediateResponse in OpenAI's error shape (ztgate/protocols/openai/errors.py), which Envoy
    sends to an OpenAI client as is: its details start with `ztgate_`, which the bootstrap's
    local-reply mappers leave alone (ztgate/gateway/openai_routes.py gives Envoy's own refusals on
    these routes the same shape)."""
    status, body = error_shape(exc)
    headers = [_set(key, value) for key, value in refusal_headers(status).items()]
    return ep.ProcessingResponse(immediate_response=ep.ImmediateResponse(
        status=http_status_pb2.HttpStatus(code=status),
        headers=ep.HeaderMutation(set_headers=headers),
        body=json.dumps(body).encode(),
        details=f"ztgate_openai_{body['error']['code']}"))


def _body(data: bytes) -> ep.CommonResponse:
    mutation = ep.BodyMutation(body=data) if data else ep.BodyMutation(clear_body=True)
    return ep.CommonResponse(body_mutation=mutation)


# A request body may take this many times its size while it is parsed, scrubbed and re-encoded
# (its bytes, the parsed objects, the scrubbed texts, the new body and its message).
BODY_GROWTH = 6

# Read by Envoy's router: the call's per-try timeout, i.e. its first-token budget.
PER_TRY_TIMEOUT_HEADER = "x-envoy-upstream-rq-per-try-timeout-ms"


def per_try_timeout_ms(outcome: RequestOutcome | OpenAIOutcome, budget: FirstTokenBudget) -> int:
    """The per-try timeout of a call: its prompt's first-token budget, or a GetScore's wait."""
    if outcome.score_wait_s is not None:
        return budget.score_wait_ms(outcome.score_wait_s)
    return budget.budget_ms_for_bytes(outcome.prompt_bytes)


def _set(key: str, value: str) -> base_pb2.HeaderValueOption:
    return base_pb2.HeaderValueOption(
        header=base_pb2.HeaderValue(key=key, raw_value=value.encode()),
        append_action=base_pb2.HeaderValueOption.OVERWRITE_IF_EXISTS_OR_ADD)


def _request_body(outcome: RequestOutcome | OpenAIOutcome, budget: FirstTokenBudget,
                  own_models: frozenset[str] = frozenset()) -> ep.CommonResponse:
    """`own_models`: OpenAI models of ztgate's own adapter, which calls the gateway's gRPC route,
    where this budget is set again per try: a per-try timeout on the door's hop too would end the
    call while that route is still failing over to the other instance."""
    common = _body(outcome.body)
    if not isinstance(outcome, OpenAIOutcome) or (outcome.stream and outcome.model not in own_models):
        common.header_mutation.set_headers.append(
            _set(PER_TRY_TIMEOUT_HEADER, str(per_try_timeout_ms(outcome, budget))))
    if isinstance(outcome, OpenAIOutcome):
        # Envoy routes an OpenAI call by its model (to the upstream that serves it): the route is
        # picked again now that the header is set.
        common.header_mutation.set_headers.append(_set(MODEL_HEADER, outcome.model))
        common.clear_route_cache = True
    return common


def _header(message: ep.HttpHeaders, key: str) -> str:
    for header in message.headers.headers:
        if header.key == key:
            return header.raw_value.decode("latin-1") if header.raw_value else header.value
    return ""


def _path(message: ep.HttpHeaders) -> str:
    for header in message.headers.headers:
        if header.key == ":path":
            return header.raw_value.decode("utf-8", "replace") if header.raw_value else header.value
    return ""


def _path_and_tenant(message: ep.HttpHeaders) -> tuple[str, str | None]:
    path = ""
    tenants: list[str] = []
    for header in message.headers.headers:
        value = header.raw_value.decode("utf-8", "replace") if header.raw_value else header.value
        if header.key == ":path":
            path = value
        elif header.key == TENANT_HEADER:
            tenants.append(value)
    if len(tenants) > 1:
        raise InvalidArgument(f"the call carries {len(tenants)} {TENANT_HEADER} headers; Envoy sets one")
    return path, tenants[0] if tenants else None


class ExternalProcessorServicer(ep_grpc.ExternalProcessorServicer):
    def __init__(self, service: RedactionService, access: TenantAccess, budget: FirstTokenBudget,
                 *, limits: RequestLimits | None = None,
                 timeouts: ScrubTimeouts | None = None,
                 door: DoorOptions | None = None,
                 door_metrics: DoorMetrics | None = None,
                 own_models: frozenset[str] = frozenset(),
                 memory: MemoryCeiling | None = None) -> None:
        self._service = service
        # The part's RSS ceiling: each request body is admitted by it, before it is parsed.
        self._memory = memory or MemoryCeiling(0, "redaction")
        # GenAI metrics of the OpenAI door's calls (the gRPC door's come from the inference service).
        self._door_metrics = door_metrics or DoorMetrics()
        self._access = access
        self._budget = budget
        self._limits = limits or RequestLimits()
        # Envoy's waits for a scrubbed body (the gateway.redaction_*message_timeout* settings);
        # None: not known here (the caller's own deadline, if any, bounds the scrub).
        self._timeouts = timeouts
        # The operator's choices for the HTTP door (gateway.openai_* settings).
        self._door = door or DoorOptions()
        # Models served by ztgate's own OpenAI adapter (no per-try timeout on the door's hop).
        self._own_models = own_models

    def _wait_s(self, body: bytes) -> float | None:
        """Envoy's wait for the answer on this request body; None when not known."""
        return self._timeouts.for_body(len(body)) if self._timeouts is not None else None

    def _extension(self, kind: str | None, request: ep.ProcessingRequest,
                  exchange: InferenceExchange | OpenAIExchange | None) -> ep.ProcessingResponse | None:
        """The override_message_timeout to send before scrubbing this request body, if any: Envoy
        restarts its timer for the body at that, up to the filter's max_message_timeout."""
        if kind != "request_body" or exchange is None or self._timeouts is None:
            return None
        override = self._timeouts.override_s(len(request.request_body.body))
        if override is None:
            return None
        response = ep.ProcessingResponse()
        response.override_message_timeout.FromMilliseconds(round(override * 1000))
        return response

    async def _request_body(self, exchange: InferenceExchange | OpenAIExchange, body: bytes,
                            context: grpc.aio.ServicerContext | None) -> ep.ProcessingResponse:
        wait = self._wait_s(body)
        budgets = [scrub_budget_s(wait)] if wait is not None else []
        remaining = context.time_remaining() if context is not None else None
        if remaining is not None:
            budgets.append(remaining)
        try:
            outcome = await exchange.request_body(body, timeout_s=min(budgets, default=None))
        except DeadlineExceeded as exc:
            if wait is None:
                raise
            raise _TooSlow(f"{exc}: the gateway waits {wait:g} s for this request to be scrubbed "
                           "(gateway.redaction.message_timeout_s, plus "
                           "gateway.redaction.message_timeout_per_kib_s a KiB up to "
                           "gateway.redaction.max_message_timeout_s); nothing was forwarded. "
                           "Shorten the prompt, or raise those settings") from None
        if outcome.findings:
            log.debug("prompt scrubbed", extra={"event": "gateway_prompt_scrubbed",
                                                "tenant": exchange.tenant,
                                                "entity_types": outcome.findings})
        return ep.ProcessingResponse(request_body=ep.BodyResponse(
            response=_request_body(outcome, self._budget, self._own_models)))

    def _exchange(self, path: str, tenant: str) -> InferenceExchange | OpenAIExchange:
        if path.startswith(OPENAI_PREFIX):
            return OpenAIExchange(self._service, path, tenant, limits=self._limits,
                                  options=self._door)
        return InferenceExchange(self._service, path, tenant, limits=self._limits)

    async def _respond(self, kind: str | None, request: ep.ProcessingRequest,
                       exchange: Exchange | None, caller: str | None,
                       context: grpc.aio.ServicerContext | None = None
                       ) -> tuple[Exchange | None, ep.ProcessingResponse]:
        if kind == "request_headers" and exchange is None:
            path, header = _path_and_tenant(request.request_headers)
            exchange = self._exchange(path, self._access.decide(caller, header, ""))
            if request.request_headers.end_of_stream:
                raise _BodyMissing()
            # A tenant that has spent its share of this process's CPU (redaction.cpu_ms_per_s_per_tenant)
            # is refused here, 429 on the door, before Envoy sends its body over (up to 2 MiB).
            self._service.check_cpu(exchange.tenant)
            grpc_only = [] if isinstance(exchange, OpenAIExchange) else [_IDENTITY]
            mutation = ep.HeaderMutation(set_headers=grpc_only, remove_headers=_STALE_HEADERS)
            return exchange, ep.ProcessingResponse(request_headers=ep.HeadersResponse(
                response=ep.CommonResponse(header_mutation=mutation)))
        if kind == "request_body" and exchange is not None:
            self._service.check_cpu(exchange.tenant)  # again: its other calls may have spent it since
            started = time.perf_counter()
            response = await self._request_body(exchange, request.request_body.body, context)
            self._service.metrics.scrubbed(ScrubPath.GATEWAY_REQUEST, exchange.tenant,
                                           time.perf_counter() - started)
            return exchange, response
        if kind == "response_body" and exchange is not None:
            body = request.response_body
            started = time.perf_counter()
            data = await exchange.response_body(body.body, body.end_of_stream)
            self._service.metrics.scrubbed(ScrubPath.GATEWAY_ANSWER, exchange.tenant,
                                           time.perf_counter() - started)
            if body.end_of_stream and isinstance(exchange, OpenAIExchange):
                self._door_metrics.finished(exchange)
            return exchange, ep.ProcessingResponse(response_body=ep.BodyResponse(response=_body(data)))
        if kind == "response_headers" and isinstance(exchange, OpenAIExchange):
            # Sent on the HTTP door's routes only (their per-route processing mode): the body is
            # rewritten to another length, and its content-type says how to read it.
            exchange.response_headers(_header(request.response_headers, "content-type"),
                                      _header(request.response_headers, "content-encoding"))
            mutation = ep.HeaderMutation(remove_headers=_STALE_HEADERS)
            return exchange, ep.ProcessingResponse(response_headers=ep.HeadersResponse(
                response=ep.CommonResponse(header_mutation=mutation)))
        if kind == "response_headers" and exchange is not None:
            return exchange, ep.ProcessingResponse(response_headers=ep.HeadersResponse())
        if kind == "response_trailers" and exchange is not None:
            return exchange, ep.ProcessingResponse(response_trailers=ep.TrailersResponse())
        raise _OutOfOrder(kind)

    async def Process(self, request_iterator: AsyncIterator[ep.ProcessingRequest],
                      context: grpc.aio.ServicerContext) -> AsyncIterator[ep.ProcessingResponse]:
        exchange: Exchange | None = None
        openai = False  # a call on the HTTP door: refusals in OpenAI's error shape
        envoy_reply = False  # an answer Envoy made itself before any request reached this stream
        started = time.perf_counter()
        caller = peer_name(context)
        reserved = 0  # memory promised to this call's request body until it is scrubbed
        try:
            async for request in request_iterator:
                kind = request.WhichOneof("request")
                if kind == "request_headers" and exchange is None:
                    openai = _path(request.request_headers).startswith(OPENAI_PREFIX)
                envoy_reply = envoy_reply or (exchange is None and kind == "response_headers")
                if envoy_reply and kind in ("response_headers", "response_body"):
                    # Envoy's own answer (a token or rate-limit refusal) on a route whose answer
                    # headers this processor sees (the HTTP door's): the call never reached this
                    # processor, so no upstream; it passes as Envoy made it.
                    yield _pass_through(kind)
                    continue
                try:
                    if kind == "request_headers" and exchange is None:
                        reserved = self._admit(request.request_headers)
                    extension = self._extension(kind, request, exchange)
                    if extension is not None:
                        yield extension
                    exchange, response = await self._respond(kind, request, exchange, caller, context)
                    if kind == "request_body":
                        self._memory.release(reserved)
                        reserved = 0
                except Exception as exc:  # noqa: BLE001 - fail closed: counted, then refused
                    self._service.metrics.failed(_scrub_path(kind), exchange.tenant if exchange else None, exc)
                    yield self._refusal(exc, kind, exchange, openai)
                    return
                yield response
        finally:
            self._memory.release(reserved)
            if exchange is not None:
                exchange.close()
            log.debug("ext_proc stream done", extra={
                "event": "gateway_call_done",
                "duration_ms": round((time.perf_counter() - started) * 1000, 3)})

    def _admit(self, headers: ep.HttpHeaders) -> int:
        """Admits a call by the part's memory ceiling before its body is read (Envoy's buffer
        filter has read it whole and set its content-length), reserving what the body may grow
        into while it is parsed, scrubbed and re-encoded; MemoryCeilingReached (RESOURCE_EXHAUSTED,
        429 on the door) near the ceiling, and the body is never read here."""
        length = _header(headers, "content-length")
        size = int(length) if length.isdigit() else self._limits.max_request_bytes
        return self._memory.reserve(BODY_GROWTH * min(size, self._limits.max_request_bytes))

    @staticmethod
    def _refusal(exc: Exception, kind: str | None, exchange: Exchange | None,
                 openai: bool) -> ep.ProcessingResponse:
        """The ImmediateResponse for a failed message: a typed error's status and message, else
        INTERNAL saying nothing of the text (fail closed); in OpenAI's shape on the HTTP door."""
        if isinstance(exc, ZtgateError):
            code = grpc.StatusCode[exc.status]
            log.info("gateway refused a call: %s", code.name, extra={
                "event": "gateway_refused", "code": code.name, "method": kind,
                "tenant": exchange.tenant if exchange else ""})
            return openai_refusal(exc) if openai else refusal(code, str(exc))
        log.error("gateway processing failed with %s", type(exc).__name__,
                  extra={"event": "gateway_failed", "method": kind}, exc_info=exc)
        message = f"redaction failed ({type(exc).__name__}); nothing was forwarded"
        return openai_refusal(ZtgateError(message)) if openai else refusal(grpc.StatusCode.INTERNAL, message)


@dataclass(frozen=True)
class ProcessorInputs:
    """What the processor runs with, built from the whole configuration by ztgate/serve.py."""

    limits: RequestLimits
    # Each inference call's per-try timeout (its first-token budget) and Envoy's waits for a
    # scrubbed body (gateway.inference, gateway.redaction).
    first_token: FirstTokenBudget
    scrub_timeouts: ScrubTimeouts
    # The HTTP door's gateway.openai_* options.
    door: DoorOptions
    # The OpenAI models ztgate's own adapter serves (their first-token budget is the gateway's gRPC
    # route's, not the door's), and every model the door routes (its metrics' only model labels).
    own_models: frozenset[str]
    door_models: frozenset[str]


def hosted(inputs: ProcessorInputs) -> Hosted:
    """The processor as the redaction part's process serves it (`RedactionInputs.hosted`)."""

    def register(service: RedactionService, access: TenantAccess, server: grpc.aio.Server,
                 memory: MemoryCeiling) -> None:
        ep_grpc.add_ExternalProcessorServicer_to_server(ExternalProcessorServicer(
            service, access, inputs.first_token, limits=inputs.limits,
            timeouts=inputs.scrub_timeouts, door=inputs.door, own_models=inputs.own_models,
            door_metrics=DoorMetrics(models=inputs.door_models), memory=memory), server)

    return Hosted(SERVICE_NAME, register)


def _scrub_path(kind: str | None) -> ScrubPath:
    """The scrubbing path an ext_proc message belongs to: the answer's, else the request's."""
    return ScrubPath.GATEWAY_ANSWER if kind and kind.startswith("response_") else ScrubPath.GATEWAY_REQUEST


Exchange = InferenceExchange | OpenAIExchange


def _pass_through(kind: str) -> ep.ProcessingResponse:
    if kind == "response_headers":
        return ep.ProcessingResponse(response_headers=ep.HeadersResponse())
    return ep.ProcessingResponse(response_body=ep.BodyResponse())


class _TooSlow(DeadlineExceeded):
    """Scrubbing a request body did not finish before the gateway's per-message timeout."""


class _BodyMissing(ZtgateError):
    status = "INVALID_ARGUMENT"

    def __init__(self) -> None:
        super().__init__("an inference call without a request message")


class _OutOfOrder(ZtgateError):
    def __init__(self, kind: str | None) -> None:
        super().__init__(f"unexpected ext_proc message {kind or '(empty)'} for this call")
