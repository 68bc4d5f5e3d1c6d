"""`ztgate serve telemetry`: the collector behind the shared gRPC runtime."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from ztgate.common.server import ListenError, ServiceSpec, is_loopback, serve, split_host_port
from ztgate.common.settings import ClientTlsSettings, OtelSettings
from ztgate.telemetry.collector import TelemetryCollector
from ztgate.telemetry.config import ForwardEndpoint, TelemetrySettings
from ztgate.telemetry.envoy_admin import PRIMARY_BUDGET_MISSES, EnvoyAdmin
from ztgate.telemetry.forwarder import Send
from ztgate.telemetry.otlp_client import OtlpUpstream
from ztgate.telemetry.otlp_receivers import SERVICE_NAMES, registrar
from ztgate.telemetry.slo_probe import PrimaryProbe



@dataclass(frozen=True)
class TelemetryInputs:
    """What `ztgate serve telemetry` runs with: its own section, and what it needs from the others
    (built from the whole configuration by ztgate/serve.py)."""

    telemetry: TelemetrySettings
    otel: OtelSettings
    # The SLO controller probes the primary inference instance at this address, with these
    # credentials (the telemetry identity's; None without mTLS).
    primary: str
    probe_tls: ClientTlsSettings | None


# The collector's memory ceiling unless telemetry.server.max_rss_mib says otherwise: well above what
# it holds once ready (docs/operations/limits.md); its SLO window and series are bounded.
DEFAULT_MAX_RSS_MIB = 512


def _upstream(endpoint: ForwardEndpoint) -> tuple[Send, Callable[[], Awaitable[None]]]:
    client = OtlpUpstream(endpoint)
    return client.send, client.close


def build_collector(settings: TelemetrySettings, probe: PrimaryProbe | None = None) -> TelemetryCollector:
    """The collector with its real transports (upstream OTLP over gRPC; for the SLO controller,
    Envoy's per-try-timeout counter where its admin console is configured, and the probe of the
    primary when one is given)."""
    host, port = split_host_port(settings.metrics.listen)
    if settings.metrics.tls is None and not is_loopback(host):
        raise ListenError(f"refusing to serve /metrics on {settings.metrics.listen} without TLS: "
                          "set telemetry.metrics.tls or use a loopback address")
    misses = None
    if settings.slo.envoy_admin is not None:
        admin = EnvoyAdmin(settings.slo.envoy_admin, settings.slo.admin_timeout_s)

        async def misses() -> int | None:
            return await admin.counter(PRIMARY_BUDGET_MISSES)

    return TelemetryCollector(settings, host, port, upstream=_upstream,
                              misses=misses, probe=probe,
                              closers=[probe.close] if probe is not None else [])


def primary_probe(inputs: TelemetryInputs) -> PrimaryProbe | None:
    """The SLO controller's probe of the primary (as the telemetry identity under mTLS), or None
    when probing is off."""
    if not (inputs.telemetry.slo.enabled and inputs.telemetry.slo.probe_interval_s > 0):
        return None
    return PrimaryProbe(inputs.primary, inputs.probe_tls)


def build_spec(collector: TelemetryCollector) -> ServiceSpec:
    """The runtime's view of the collector (shared by `run` and tests)."""
    async def drain() -> None:
        collector.runtime.close()

    return ServiceSpec(name="telemetry", service_names=list(SERVICE_NAMES),
                       register=registrar(collector), start=collector.start,
                       stop=collector.stop, drain=drain,
                       default_max_rss_mib=DEFAULT_MAX_RSS_MIB)


async def run(inputs: TelemetryInputs) -> None:
    """`ztgate serve telemetry [--metrics-listen HOST:PORT]` (the flag is applied by the loader)."""
    collector = build_collector(inputs.telemetry, primary_probe(inputs))
    # The collector does not export its own telemetry to itself: its metrics are exposed directly.
    otel = inputs.otel.model_copy(update={"enabled": False})
    await serve(build_spec(collector), inputs.telemetry.server, otel)
