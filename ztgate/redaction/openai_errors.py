"""Refusals on the HTTP door in OpenAI's error shape: `{"error": {"message", "type", "param", "code"}}`
with the HTTP status an OpenAI client expects (its SDKs raise by status: 400 BadRequestError, 401,
403 PermissionDeniedError, 404 NotFoundError, 413, 429 RateLimitError, 5xx InternalServerError).

The same typed errors as the gRPC door (ztgate/common/errors.py) are mapped here once; the
message is the one a gRPC client reads, naming the field, limit or setting. Envoy's own refusals
on these routes (token, scope, rate limit, size, redaction unavailable) get the same shape from the
bootstrap's local-reply mappers (`ztgate/gateway/openai_routes.py`).
"""

from __future__ import annotations

import json

from envoy.config.core.v3 import base_pb2
from envoy.service.ext_proc.v3 import external_processor_pb2 as ep
from envoy.type.v3 import http_status_pb2

from ztgate.common.errors import ZtgateError
from ztgate.inference.limits import RequestTooLarge

# gRPC status name -> (HTTP status, OpenAI error type, code).
SHAPES: dict[str, tuple[int, str, str]] = {
    "INVALID_ARGUMENT": (400, "invalid_request_error", "invalid_request"),
    "UNAUTHENTICATED": (401, "authentication_error", "invalid_token"),
    "PERMISSION_DENIED": (403, "permission_error", "blocked_by_policy"),
    "NOT_FOUND": (404, "invalid_request_error", "not_found"),
    "RESOURCE_EXHAUSTED": (429, "rate_limit_error", "rate_limit_exceeded"),
    "UNIMPLEMENTED": (404, "invalid_request_error", "not_found"),
    "UNAVAILABLE": (503, "api_error", "redaction_unavailable"),
    "DEADLINE_EXCEEDED": (504, "api_error", "timeout"),
    "INTERNAL": (500, "api_error", "internal_error"),
}
TOO_LARGE = (413, "invalid_request_error", "request_too_large")
# Seconds a client told 429 waits before it tries again (the rate limit refills every second).
RETRY_AFTER_S = 1


def error_shape(exc: ZtgateError) -> tuple[int, dict]:
    """The HTTP status and the JSON body of a refusal."""
    status, kind, code = TOO_LARGE if isinstance(exc, RequestTooLarge) else SHAPES.get(
        exc.status, SHAPES["INTERNAL"])
    return status, {"error": {"message": str(exc), "type": kind,
                              "param": getattr(exc, "param", None), "code": code}}


def openai_refusal(exc: ZtgateError) -> ep.ProcessingResponse:
    """An ImmediateResponse Envoy sends to an OpenAI client as is (its details start with
    `ztgate_`, which the local-reply mappers leave alone)."""
    status, body = error_shape(exc)
    headers = [base_pb2.HeaderValueOption(
        header=base_pb2.HeaderValue(key="content-type", raw_value=b"application/json"),
        append_action=base_pb2.HeaderValueOption.OVERWRITE_IF_EXISTS_OR_ADD)]
    if status == 429:
        headers.append(base_pb2.HeaderValueOption(
            header=base_pb2.HeaderValue(key="retry-after", raw_value=str(RETRY_AFTER_S).encode()),
            append_action=base_pb2.HeaderValueOption.OVERWRITE_IF_EXISTS_OR_ADD))
    return ep.ProcessingResponse(immediate_response=ep.ImmediateResponse(
        status=http_status_pb2.HttpStatus(code=status),
        headers=ep.HeaderMutation(set_headers=headers),
        body=json.dumps(body).encode(),
        details=f"ztgate_openai_{body['error']['code']}"))
