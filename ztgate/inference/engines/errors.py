"""The engines' errors, each a domain error the servicer maps to one gRPC status."""

from __future__ import annotations

from ztgate.common.errors import InvalidArgument, Unavailable


class InvalidRequest(InvalidArgument, ValueError):
    """The request cannot be served as given (INVALID_ARGUMENT); the message says what to change."""


class EngineConfigError(RuntimeError):
    """The engine configuration cannot work; the message says which setting to fix."""


class EngineNotReady(Unavailable):
    """The engine has not finished starting, or has been closed (UNAVAILABLE)."""


class SamplingUnsupported(Unavailable):
    """This engine cannot sample this request correctly (UNAVAILABLE: through the gateway, Envoy's
    retry policy sends the call to the other instance)."""
