"""gRPC transport of the forwarder: sends serialized OTLP exports to one upstream collector."""

from __future__ import annotations

import grpc

from ztgate.telemetry.config import ForwardEndpoint
from ztgate.telemetry.forwarder import Outcome, SendResult
from ztgate.telemetry.retry_info import retry_delay

PATHS = {
    "metrics": "/opentelemetry.proto.collector.metrics.v1.MetricsService/Export",
    "traces": "/opentelemetry.proto.collector.trace.v1.TraceService/Export",
    "logs": "/opentelemetry.proto.collector.logs.v1.LogsService/Export",
}
# Retryable per the OTLP specification; RESOURCE_EXHAUSTED only when the server sent RetryInfo.
RETRYABLE = frozenset({grpc.StatusCode.CANCELLED, grpc.StatusCode.DEADLINE_EXCEEDED,
                       grpc.StatusCode.ABORTED, grpc.StatusCode.OUT_OF_RANGE,
                       grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DATA_LOSS})


def _identity(data: bytes) -> bytes:
    return data


class OtlpUpstream:
    def __init__(self, settings: ForwardEndpoint) -> None:
        self.settings = settings
        if settings.insecure:
            self._channel = grpc.aio.insecure_channel(settings.endpoint)
        else:
            ca = settings.ca.read_bytes() if settings.ca else None
            self._channel = grpc.aio.secure_channel(
                settings.endpoint, grpc.ssl_channel_credentials(root_certificates=ca))
        self._calls = {signal: self._channel.unary_unary(path, request_serializer=_identity,
                                                         response_deserializer=_identity)
                       for signal, path in PATHS.items()}
        self._metadata = tuple(settings.headers.items())

    async def send(self, signal: str, payload: bytes) -> SendResult:
        try:
            await self._calls[signal](payload, timeout=self.settings.timeout_s,
                                      metadata=self._metadata)
        except grpc.aio.AioRpcError as exc:
            code = exc.code()
            delay = retry_delay(exc.trailing_metadata())
            if code in RETRYABLE or (code is grpc.StatusCode.RESOURCE_EXHAUSTED
                                     and delay is not None):
                return SendResult(Outcome.RETRY, delay, code.name)
            return SendResult(Outcome.DROP, reason=code.name)
        return SendResult(Outcome.OK)

    async def close(self) -> None:
        await self._channel.close()
