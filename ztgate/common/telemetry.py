"""OpenTelemetry set-up for every service: traces and metrics over OTLP/gRPC, on by config.

Export is asynchronous (batch span processor, periodic metric reader), so a slow or absent
collector never slows a request down.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable

import grpc
from opentelemetry import metrics, trace

from ztgate.common.settings import OtelSettings

log = logging.getLogger(__name__)
_providers: list[object] = []
# gRPC services whose calls are not traced: infrastructure, not requests.
UNTRACED_SERVICE_PREFIXES = ("grpc.health.", "grpc.reflection.")


def setup_telemetry(settings: OtelSettings, service: str) -> None:
    """Installs tracer and meter providers exporting to the collector; a no-op when disabled."""
    if not settings.enabled or _providers:
        return
    from opentelemetry.exporter.otlp.proto.grpc.metric_exporter import OTLPMetricExporter
    from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import PeriodicExportingMetricReader
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    from ztgate.common.tls import client_credentials

    # With TLS the exporters verify the collector (and, with a certificate, present this service's).
    transport: dict[str, object] = (
        {"insecure": False, "credentials": client_credentials(settings.tls)} if settings.tls
        else {"insecure": True})
    # One id per process (the OTel convention): the collector counts a new one as a part's start.
    resource = Resource.create({"service.name": f"ztgate-{service}",
                                "service.instance.id": uuid.uuid4().hex})
    tracer_provider = TracerProvider(resource=resource)
    tracer_provider.add_span_processor(
        BatchSpanProcessor(OTLPSpanExporter(endpoint=settings.endpoint, **transport)))
    trace.set_tracer_provider(tracer_provider)
    reader = PeriodicExportingMetricReader(
        OTLPMetricExporter(endpoint=settings.endpoint, **transport),
        export_interval_millis=settings.export_interval_s * 1000)
    meter_provider = MeterProvider(resource=resource, metric_readers=[reader])
    metrics.set_meter_provider(meter_provider)
    _providers.extend([tracer_provider, meter_provider])
    log.info("telemetry export to %s enabled (%s)", settings.endpoint,
             "mTLS" if settings.tls and settings.tls.cert else "TLS" if settings.tls else "plaintext",
             extra={"address": settings.endpoint})


def server_interceptors(settings: OtelSettings, service: str) -> list[grpc.aio.ServerInterceptor]:
    """The gRPC server instrumentation (spans continuing the caller's traceparent) when enabled."""
    if not settings.enabled:
        return []
    from opentelemetry.instrumentation.grpc import aio_server_interceptor

    from ztgate.common.rpc_metrics import RpcMetricsInterceptor

    return [aio_server_interceptor(filter_=traced_call()), RpcMetricsInterceptor()]


def traced_call() -> Callable[[grpc.HandlerCallDetails], bool]:
    """Which calls get a server span: not health checks (Envoy's every second, per upstream, each
    would be a trace of its own) nor reflection; every call of a service's own API does."""
    from opentelemetry.instrumentation.grpc import filters

    return filters.negate(filters.any_of(*(filters.service_prefix(prefix)
                                           for prefix in UNTRACED_SERVICE_PREFIXES)))


def shutdown_telemetry() -> None:
    """Flushes and stops the providers installed by `setup_telemetry`."""
    while _providers:
        provider = _providers.pop()
        try:
            provider.shutdown()  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001 - shutdown must not mask the exit path
            log.warning("telemetry provider shutdown failed", exc_info=True)
