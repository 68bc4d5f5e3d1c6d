"""`rpc.server.duration` for every gRPC method: the gRPC instrumentation emits spans only."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

import grpc
from opentelemetry import metrics

from ztgate.common.semconv import RPC_BUCKETS_MS, RPC_SERVER_DURATION

_KINDS = ("unary_unary", "unary_stream", "stream_unary", "stream_stream")


class RpcMetricsInterceptor(grpc.aio.ServerInterceptor):
    """Records call duration by rpc.service, rpc.method and rpc.grpc.status_code."""

    def __init__(self, meter: metrics.Meter | None = None) -> None:
        meter = meter or metrics.get_meter("ztgate.rpc")
        self._duration = meter.create_histogram(
            RPC_SERVER_DURATION, unit="ms", description="Duration of gRPC server calls",
            explicit_bucket_boundaries_advisory=RPC_BUCKETS_MS)

    def _record(self, started: float, context: grpc.aio.ServicerContext, code: grpc.StatusCode,
                service: str, method: str) -> None:
        final = context.code() or code
        self._duration.record((time.perf_counter() - started) * 1000, {
            "rpc.system": "grpc", "rpc.service": service, "rpc.method": method,
            "rpc.grpc.status_code": final.value[0]})

    async def intercept_service(self, continuation: Callable[[Any], Awaitable[Any]],
                                details: grpc.HandlerCallDetails) -> Any:
        handler = await continuation(details)
        if handler is None:
            return None
        service, _, method = details.method.lstrip("/").rpartition("/")
        kind = next(k for k in _KINDS if getattr(handler, k) is not None)
        inner = getattr(handler, kind)
        record = self._record

        if kind.endswith("unary"):
            async def timed(request: Any, context: grpc.aio.ServicerContext) -> Any:
                started, code = time.perf_counter(), grpc.StatusCode.OK
                try:
                    return await inner(request, context)
                except BaseException:
                    code = grpc.StatusCode.UNKNOWN
                    raise
                finally:
                    record(started, context, code, service, method)
        else:
            async def timed(request: Any, context: grpc.aio.ServicerContext) -> Any:  # type: ignore[misc]
                started, code = time.perf_counter(), grpc.StatusCode.OK
                try:
                    async for item in inner(request, context):
                        yield item
                except BaseException:
                    code = grpc.StatusCode.UNKNOWN
                    raise
                finally:
                    record(started, context, code, service, method)

        return getattr(grpc, f"{kind}_rpc_method_handler")(
            timed, request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer)
