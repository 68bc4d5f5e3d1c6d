"""Synthetic OTLP metric exports, for `ztgate bench telemetry` and tests."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from opentelemetry.proto.metrics.v1.metrics_pb2 import (
    AggregationTemporality,
    Gauge,
    Histogram,
    HistogramDataPoint,
    Metric,
    NumberDataPoint,
    ResourceMetrics,
    ScopeMetrics,
    Sum,
)
from opentelemetry.proto.resource.v1.resource_pb2 import Resource

from ztgate.common import semconv

CUMULATIVE = AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE
DELTA = AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA
Attrs = Mapping[str, str | int | float | bool]


def key_values(attrs: Attrs) -> list[KeyValue]:
    out = []
    for key, value in attrs.items():
        if isinstance(value, bool):
            av = AnyValue(bool_value=value)
        elif isinstance(value, int):
            av = AnyValue(int_value=value)
        elif isinstance(value, float):
            av = AnyValue(double_value=value)
        else:
            av = AnyValue(string_value=value)
        out.append(KeyValue(key=key, value=av))
    return out


def histogram_point(bounds: Sequence[float], values: Sequence[float], attrs: Attrs,
                    start_ns: int = 0, time_ns: int = 0) -> HistogramDataPoint:
    counts = [0] * (len(bounds) + 1)
    for v in values:
        i = next((j for j, b in enumerate(bounds) if v <= b), len(bounds))
        counts[i] += 1
    return HistogramDataPoint(attributes=key_values(attrs), start_time_unix_nano=start_ns,
                              time_unix_nano=time_ns, count=len(values), sum=float(sum(values)),
                              bucket_counts=counts, explicit_bounds=list(bounds))


def histogram_metric(name: str, unit: str, points: Sequence[HistogramDataPoint],
                     temporality: int = CUMULATIVE, description: str = "") -> Metric:
    return Metric(name=name, unit=unit, description=description,
                  histogram=Histogram(data_points=points, aggregation_temporality=temporality))


def sum_metric(name: str, unit: str, points: Sequence[tuple[Attrs, float]],
               temporality: int = CUMULATIVE, monotonic: bool = True, start_ns: int = 0) -> Metric:
    data = [NumberDataPoint(attributes=key_values(a), as_double=v, start_time_unix_nano=start_ns)
            for a, v in points]
    return Metric(name=name, unit=unit, sum=Sum(data_points=data, is_monotonic=monotonic,
                                                aggregation_temporality=temporality))


def gauge_metric(name: str, unit: str, points: Sequence[tuple[Attrs, float]]) -> Metric:
    data = [NumberDataPoint(attributes=key_values(a), as_double=v) for a, v in points]
    return Metric(name=name, unit=unit, gauge=Gauge(data_points=data))


def request(metrics: Sequence[Metric], service: str = "ztgate-test",
            instance_id: str = "") -> ExportMetricsServiceRequest:
    attrs: dict[str, str] = {"service.name": service}
    if instance_id:
        attrs["service.instance.id"] = instance_id
    return ExportMetricsServiceRequest(resource_metrics=[ResourceMetrics(
        resource=Resource(attributes=key_values(attrs)),
        scope_metrics=[ScopeMetrics(metrics=list(metrics))])])


def inference_load(points: int, seed: int = 7, series: int = 16) -> ExportMetricsServiceRequest:
    """An export shaped like the inference service's: TTFT and token-usage histograms and
    speculative-decoding counters spread over `series` label sets, `points` points in all."""
    rng = random.Random(seed)
    per_metric = max(1, points // 4)
    models = [f"model-{i}" for i in range(series)]

    def attrs(i: int) -> dict[str, str]:
        return {semconv.REQUEST_MODEL: models[i % series], semconv.OPERATION_NAME: "chat",
                semconv.INSTANCE: "primary", semconv.TENANT: f"tenant-{i % 4}"}

    ttft = [histogram_point(semconv.LATENCY_BUCKETS_S,
                            [rng.lognormvariate(-1.5, 0.6) for _ in range(8)], attrs(i))
            for i in range(per_metric)]
    tokens = [histogram_point(semconv.TOKEN_BUCKETS, [rng.randint(1, 2000) for _ in range(8)],
                              {**attrs(i), semconv.TOKEN_TYPE: "output"})
              for i in range(per_metric)]
    return request([
        histogram_metric(semconv.TIME_TO_FIRST_TOKEN, "s", ttft, DELTA),
        histogram_metric(semconv.TOKEN_USAGE, "{token}", tokens, DELTA),
        sum_metric(semconv.SPEC_DRAFT_TOKENS, "{token}",
                   [(attrs(i), rng.randint(10, 100)) for i in range(per_metric)], DELTA),
        sum_metric(semconv.SPEC_ACCEPTED_TOKENS, "{token}",
                   [(attrs(i), rng.randint(1, 10)) for i in range(points - 3 * per_metric)],
                   DELTA),
    ], service="ztgate-inference")
