"""Settings of the telemetry collector (the `telemetry:` section of ztgate.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator

from ztgate.common.settings import ServerSettings, Strict, TlsSettings, listen_address

Signal = Literal["metrics", "traces", "logs"]


class ForwardEndpoint(Strict):
    # host:port of an upstream OTLP/gRPC collector.
    endpoint: str
    # Plaintext gRPC; only for loopback or a trusted network. Otherwise TLS is used.
    insecure: bool = False
    # CA bundle that the upstream's certificate must chain to (system roots when unset).
    ca: Path | None = None
    # Static metadata sent with every export (e.g. an API key header).
    headers: dict[str, str] = {}
    # Which signals go to this upstream.
    signals: list[Signal] = ["metrics", "traces", "logs"]
    # Bytes of serialized exports kept while the upstream is slow or down; oldest dropped past it.
    max_buffer_bytes: int = Field(default=16 * 1024 * 1024, gt=0)
    # Seconds one export call may take.
    timeout_s: float = Field(default=5.0, gt=0)
    # First retry delay, seconds; doubles per failure (with jitter) up to max_backoff_s.
    initial_backoff_s: float = Field(default=0.5, gt=0)
    # Longest delay between retries, seconds.
    max_backoff_s: float = Field(default=30.0, gt=0)


class SloSettings(Strict):
    # Runs the controller; off means the collector publishes no runtime and Envoy routes by the
    # route's default (every call starts on the primary).
    enabled: bool = True
    # Envoy admin console whose per-try-timeout counter the controller reads (GET /stats, read
    # only; loopback). Unset (null) where the collector cannot reach it (compose, Kubernetes):
    # the probes then run in both states instead. `ztgate up` sets it to gateway.admin.
    envoy_admin: str | None = None
    # Envoy runtime key read by the inference route's runtime_fraction (percent to the primary).
    runtime_key: str = "ztgate.inference.primary_percent"
    # Name of the RTDS layer (and resource) that the collector serves and Envoy's bootstrap
    # subscribes to: the controller publishes runtime_key there.
    rtds_layer: str = Field(default="ztgate_slo", pattern=r"^[a-z][a-z0-9_]{0,63}$")
    # Percent sent to the primary while the SLO is breached (0 = all to the fallback).
    fallback_percent: int = Field(default=0, ge=0, le=100)
    # Percent sent to the primary in normal operation.
    primary_percent: int = Field(default=100, ge=0, le=100)
    # Value of the `ztgate.instance` attribute that marks the primary's data points.
    instance: str = "primary"
    # P99 time to first token (beyond the prompt's prefill allowance, so comparable across prompt
    # sizes) above this (ms) moves traffic to the fallback; best set on a histogram bucket bound.
    # A try Envoy abandoned at its per-try timeout counts above it: keep it at or below
    # gateway.inference.per_try_timeout_s.
    ttft_trip_ms: float = Field(default=1200.0, gt=0)
    # P99 TTFT below this (ms) moves traffic back (hysteresis); must be under ttft_trip_ms.
    ttft_recover_ms: float = Field(default=800.0, gt=0)
    # Optional second signal: P99 time per output token above this (ms) also trips; None = off.
    tpot_trip_ms: float | None = Field(default=None, gt=0)
    # P99 time per output token below this (ms) is needed to recover when tpot_trip_ms is set.
    tpot_recover_ms: float | None = Field(default=None, gt=0)
    # Seconds of data in the rolling window.
    window_s: float = Field(default=60.0, gt=0)
    # Fewest samples in the window before any decision is taken.
    min_samples: int = Field(default=50, ge=1)
    # No one tenant decides: while two or more tenants have samples in the window, the P99s are
    # judged without the tenant that raises them most (its few slow first tokens, say from
    # digit-dense prompts, no longer move every tenant to the fallback). Samples of no tenant
    # (abandoned tries, probes) always count; with one tenant alone the window counts whole.
    tenant_guard: bool = True
    # Seconds a retry that Envoy counted on a primary-first call waits for the primary's own report
    # of that try (a first token past its budget, or its admission limit: a miss with its tenant).
    # Reported, it is not counted again; unreported by then (a primary that could not end its own
    # try, or refused the connection), it counts as a miss of no tenant. Keep it above the
    # services' otel.export_interval_s (5 s; 2 s under `ztgate up`).
    attribution_wait_s: float = Field(default=10.0, ge=0)
    # Seconds between evaluations.
    evaluate_interval_s: float = Field(default=1.0, gt=0)
    # Seconds a state is held at least before the next transition (anti-flapping).
    min_hold_s: float = Field(default=10.0, ge=0)
    # Seconds a read of Envoy's admin console may take.
    admin_timeout_s: float = Field(default=2.0, gt=0)
    # Seconds between probes of the primary while traffic is moved off it: one short greedy call
    # (one token) straight to the primary (inference.primary.server.listen, as the telemetry
    # identity under mTLS), timed to its first token; past ttft_trip_ms it is a miss. They keep
    # the window fed so that the controller can recover; 0 turns them off (recovery then needs
    # fallback_percent above 0 or direct callers of the primary).
    probe_interval_s: float = Field(default=1.0, ge=0)

    @model_validator(mode="after")
    def _hysteresis(self) -> "SloSettings":
        if self.ttft_recover_ms >= self.ttft_trip_ms:
            raise ValueError("ttft_recover_ms must be below ttft_trip_ms (hysteresis)")
        if (self.tpot_trip_ms is None) != (self.tpot_recover_ms is None):
            raise ValueError("set both tpot_trip_ms and tpot_recover_ms, or neither")
        if (self.tpot_trip_ms is not None and self.tpot_recover_ms is not None
                and self.tpot_recover_ms >= self.tpot_trip_ms):
            raise ValueError("tpot_recover_ms must be below tpot_trip_ms (hysteresis)")
        if self.fallback_percent >= self.primary_percent:
            raise ValueError("fallback_percent must be below primary_percent")
        return self


class MetricsSettings(Strict):
    # host:port of the Prometheus exposition (GET /metrics). Without tls, loopback only.
    listen: str = "127.0.0.1:9464"
    # TLS for the exposition; required on a non-loopback listen.
    tls: TlsSettings | None = None

    @field_validator("listen")
    @classmethod
    def _host_and_port(cls, value: str) -> str:
        return listen_address(value)


class TelemetrySettings(Strict):
    # OTLP/gRPC receiver and ztgate.telemetry.v1.Telemetry; exports up to 32 MiB (a backlog flush).
    server: ServerSettings = ServerSettings(listen="127.0.0.1:4317",
                                            max_message_bytes=32 * 1024 * 1024)
    # The Prometheus exposition (GET /metrics): its address and TLS.
    metrics: MetricsSettings = MetricsSettings()
    # Items (data points, spans, log records) queued for aggregation; beyond it exports are refused.
    queue_size: int = Field(default=100_000, gt=0)
    # Delay suggested to a refused exporter (RetryInfo), seconds.
    retry_delay_s: float = Field(default=1.0, gt=0)
    # Distinct label sets kept per metric; more are folded into one `other` series and counted.
    max_series_per_metric: int = Field(default=2_000, gt=0)
    # Distinct metric names kept; data points of further names are dropped and counted.
    max_metrics: int = Field(default=1_000, gt=0)
    # Seconds after which a series that receives no data leaves the exposition.
    series_ttl_s: float = Field(default=900.0, gt=0)
    # Upstream OTLP collectors that receive a copy of everything accepted.
    forward: list[ForwardEndpoint] = []
    slo: SloSettings = SloSettings()
