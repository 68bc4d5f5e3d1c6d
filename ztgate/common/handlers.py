"""Maps errors raised by domain code to gRPC statuses, in one place for every servicer."""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import grpc

from ztgate.common.errors import ZtgateError

log = logging.getLogger(__name__)
F = TypeVar("F", bound=Callable[..., Awaitable[Any]])
S = TypeVar("S", bound=Callable[..., AsyncIterator[Any]])


async def abort_for(context: grpc.aio.ServicerContext, exc: BaseException, method: str) -> None:
    """Aborts the call with the status of a typed error, or INTERNAL without details."""
    if isinstance(exc, ZtgateError):
        code = grpc.StatusCode[exc.status]
        log.info("%s rejected: %s", method, code.name, extra={"method": method, "code": code.name})
        await context.abort(code, str(exc))
    log.error("%s failed with %s", method, type(exc).__name__,
              extra={"method": method, "code": "INTERNAL"})
    # Fail closed and say nothing of the input: internal messages may quote it.
    await context.abort(grpc.StatusCode.INTERNAL,
                        f"internal error ({type(exc).__name__}); nothing was processed")


def unary(method: F) -> F:
    """Wraps a unary servicer method: typed errors become statuses, timings are logged."""

    @functools.wraps(method)
    async def wrapper(self: Any, request: Any, context: grpc.aio.ServicerContext) -> Any:
        started = time.perf_counter()
        try:
            return await method(self, request, context)
        except grpc.aio.AbortError:
            raise
        except Exception as exc:  # noqa: BLE001 - every failure must become a status
            await abort_for(context, exc, method.__name__)
        finally:
            log.debug("%s done", method.__name__, extra={
                "method": method.__name__,
                "duration_ms": round((time.perf_counter() - started) * 1000, 3)})

    return wrapper  # type: ignore[return-value]


def streaming(method: S) -> S:
    """Wraps a response-streaming servicer method (an async generator) the same way."""

    @functools.wraps(method)
    async def wrapper(self: Any, request: Any, context: grpc.aio.ServicerContext) -> Any:
        try:
            async for item in method(self, request, context):
                yield item
        except grpc.aio.AbortError:
            raise
        except Exception as exc:  # noqa: BLE001
            await abort_for(context, exc, method.__name__)

    return wrapper  # type: ignore[return-value]
