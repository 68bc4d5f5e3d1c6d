"""gRPC servicers: the standard OTLP Export services and ztgate.telemetry.v1.Telemetry/Status.

Export only counts the items and offers the request to the queue, then answers: it never waits
on aggregation. A full queue answers RESOURCE_EXHAUSTED with RetryInfo (OTLP throttling).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import grpc
from opentelemetry.proto.collector.logs.v1 import logs_service_pb2, logs_service_pb2_grpc
from opentelemetry.proto.collector.metrics.v1 import metrics_service_pb2, metrics_service_pb2_grpc
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc

from ztgate.common.handlers import unary
from ztgate.gen.telemetry.v1 import telemetry_pb2, telemetry_pb2_grpc
from ztgate.telemetry.collector import TelemetryCollector
from ztgate.telemetry.otlp_metrics import count_points
from ztgate.telemetry.otlp_signals import count_log_records, count_spans
from ztgate.telemetry.retry_info import throttle_metadata

# Full names from the proto descriptors, for health and reflection.
SERVICE_NAMES = tuple(service.full_name for module in (
    telemetry_pb2, metrics_service_pb2, trace_service_pb2, logs_service_pb2)
    for service in module.DESCRIPTOR.services_by_name.values())


async def _export(collector: TelemetryCollector, signal: str, request: Any, weight: int,
                  context: grpc.aio.ServicerContext) -> None:
    if weight and not collector.offer(signal, request, weight):
        delay = collector.settings.retry_delay_s
        message = (f"telemetry queue full ({collector.queue.depth} of "
                   f"{collector.queue.capacity} items); retry in {delay:g} s")
        await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, message,
                            trailing_metadata=throttle_metadata(message, delay))


class MetricsReceiver(metrics_service_pb2_grpc.MetricsServiceServicer):
    def __init__(self, collector: TelemetryCollector) -> None:
        self._collector = collector

    @unary
    async def Export(self, request: metrics_service_pb2.ExportMetricsServiceRequest,
                     context: grpc.aio.ServicerContext) -> Any:
        await _export(self._collector, "metrics", request, count_points(request), context)
        return metrics_service_pb2.ExportMetricsServiceResponse()


class TraceReceiver(trace_service_pb2_grpc.TraceServiceServicer):
    def __init__(self, collector: TelemetryCollector) -> None:
        self._collector = collector

    @unary
    async def Export(self, request: trace_service_pb2.ExportTraceServiceRequest,
                     context: grpc.aio.ServicerContext) -> Any:
        await _export(self._collector, "traces", request, count_spans(request), context)
        return trace_service_pb2.ExportTraceServiceResponse()


class LogsReceiver(logs_service_pb2_grpc.LogsServiceServicer):
    def __init__(self, collector: TelemetryCollector) -> None:
        self._collector = collector

    @unary
    async def Export(self, request: logs_service_pb2.ExportLogsServiceRequest,
                     context: grpc.aio.ServicerContext) -> Any:
        await _export(self._collector, "logs", request, count_log_records(request), context)
        return logs_service_pb2.ExportLogsServiceResponse()


class TelemetryServicer(telemetry_pb2_grpc.TelemetryServicer):
    def __init__(self, collector: TelemetryCollector) -> None:
        self._collector = collector

    @unary
    async def Status(self, request: telemetry_pb2.StatusRequest,
                     context: grpc.aio.ServicerContext) -> telemetry_pb2.StatusResponse:
        s = self._collector.status()
        return telemetry_pb2.StatusResponse(
            queue_depth=s.queue_depth, dropped=s.dropped, accepted=s.accepted,
            slo=telemetry_pb2.SloState(ttft_p99_ms=s.ttft_p99_ms,
                                       fallback_active=s.fallback_active, samples=s.samples))


def registrar(collector: TelemetryCollector) -> Callable[[grpc.aio.Server], None]:
    def register(server: grpc.aio.Server) -> None:
        metrics_service_pb2_grpc.add_MetricsServiceServicer_to_server(
            MetricsReceiver(collector), server)
        trace_service_pb2_grpc.add_TraceServiceServicer_to_server(TraceReceiver(collector), server)
        logs_service_pb2_grpc.add_LogsServiceServicer_to_server(LogsReceiver(collector), server)
        telemetry_pb2_grpc.add_TelemetryServicer_to_server(TelemetryServicer(collector), server)

    return register
