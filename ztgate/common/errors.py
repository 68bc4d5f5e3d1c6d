"""Typed errors that domain code raises without importing grpc; the runtime maps them to statuses.

Each message is shown to the caller, so it says what to change and never quotes payload text.
"""

from __future__ import annotations


class ZtgateError(Exception):
    """Base of errors that reach a caller with a specific gRPC status."""

    # Name of a grpc.StatusCode member.
    status = "INTERNAL"


class InvalidArgument(ZtgateError):
    status = "INVALID_ARGUMENT"


class ResourceExhausted(ZtgateError):
    status = "RESOURCE_EXHAUSTED"


class PermissionDenied(ZtgateError):
    status = "PERMISSION_DENIED"


class NotFound(ZtgateError):
    status = "NOT_FOUND"


class Unavailable(ZtgateError):
    status = "UNAVAILABLE"


class DeadlineExceeded(ZtgateError):
    status = "DEADLINE_EXCEEDED"


class RequestTooLarge(ResourceExhausted):
    """A request past a size limit (RESOURCE_EXHAUSTED); the message names the setting."""
