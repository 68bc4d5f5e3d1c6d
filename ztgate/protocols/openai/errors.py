"""Refusals on the HTTP door in OpenAI's error shape: `{"error": {"message", "type", "param", "code"}}`
with the HTTP status an OpenAI client expects (its SDKs raise by status: 400 BadRequestError, 401,
403 PermissionDeniedError, 404 NotFoundError, 413, 429 RateLimitError, 5xx InternalServerError).

The same typed errors as the gRPC door (ztgate/common/errors.py) are mapped here once; the message
is the one a gRPC client reads, naming the field, limit or setting.
"""

from __future__ import annotations

from ztgate.common.errors import InvalidArgument, NotFound, RequestTooLarge, ZtgateError

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


class OpenAIRequestError(InvalidArgument):
    """A malformed, unknown or refused field (HTTP 400); `param` names it."""

    def __init__(self, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.param = param


class UnknownRoute(NotFound):
    """A path under /v1/ the gateway does not serve (HTTP 404)."""


def error_shape(exc: ZtgateError) -> tuple[int, dict]:
    """The HTTP status and the JSON body of a refusal."""
    status, kind, code = TOO_LARGE if isinstance(exc, RequestTooLarge) else SHAPES.get(
        exc.status, SHAPES["INTERNAL"])
    return status, {"error": {"message": str(exc), "type": kind,
                              "param": getattr(exc, "param", None), "code": code}}


def refusal_headers(status: int) -> dict[str, str]:
    """The headers of a refusal with HTTP `status`: its body is JSON, and a 429 says when to try
    again (the gateway's processor sends these; Envoy's own refusals on these routes get the same
    from the bootstrap's local-reply mappers, ztgate/gateway/openai_routes.py)."""
    headers = {"content-type": "application/json"}
    if status == 429:
        headers["retry-after"] = str(RETRY_AFTER_S)
    return headers


class AnswerUnreadable(ZtgateError):
    """An upstream's answer the gateway cannot read: the call fails rather than pass it on
    unscrubbed (HTTP 500)."""

    status = "INTERNAL"
