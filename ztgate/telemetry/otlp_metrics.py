"""Folds OTLP metric exports into the aggregation (the OTLP-to-Prometheus data model mapping).

Sum (monotonic) -> counter, Sum (non-monotonic) and Gauge -> gauge, Histogram (explicit
buckets) -> histogram; cumulative points replace, delta points add. Resource attributes give
the `job` (service.namespace/service.name) and `instance` (service.instance.id) labels, point
attributes the other labels. Exponential histograms and summaries are counted as unsupported.
Histogram points can also be handed to observers (the SLO controller) before aggregation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from opentelemetry.proto.metrics.v1.metrics_pb2 import AggregationTemporality

from ztgate.telemetry.aggregate import Aggregator, Kind, Labels
from ztgate.telemetry.naming import label_name, metric_name
from ztgate.common.semconv import DESCRIPTIONS

CUMULATIVE = AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE
DELTA = AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA
# DataPointFlags.FLAG_NO_RECORDED_VALUE: a staleness marker, not a value.
NO_RECORDED_VALUE = 1
# Longest label value kept; longer values are cut (label values are bounded, not payloads).
MAX_LABEL_VALUE = 256


class HistogramObserver(Protocol):
    def wants(self, name: str) -> bool: ...

    def observe(self, name: str, labels: Labels, bounds: Sequence[float], counts: Sequence[float],
                start_ns: int, cumulative: bool) -> None:
        """bounds in seconds (factor applied), counts per bucket (not cumulative)."""


def any_value_text(value: AnyValue) -> str:
    which = value.WhichOneof("value")
    if which == "string_value":
        return value.string_value[:MAX_LABEL_VALUE]
    if which == "bool_value":
        text = "true" if value.bool_value else "false"
    elif which == "int_value":
        text = str(value.int_value)
    elif which == "double_value":
        text = repr(value.double_value)
    elif which == "array_value":
        text = "[" + ",".join(any_value_text(v) for v in value.array_value.values) + "]"
    elif which == "bytes_value":
        text = value.bytes_value.hex()
    else:
        text = ""
    return text[:MAX_LABEL_VALUE]


def _labels(resource: Labels, attributes: Iterable[KeyValue]) -> Labels:
    items = dict(resource)
    items.update([(label_name(kv.key), any_value_text(kv.value)) for kv in attributes])
    return tuple(sorted(items.items()))


def resource_labels(attributes: Iterable[KeyValue]) -> Labels:
    attrs = {kv.key: any_value_text(kv.value) for kv in attributes}
    out = []
    name = attrs.get("service.name")
    if name:
        namespace = attrs.get("service.namespace")
        out.append(("job", f"{namespace}/{name}" if namespace else name))
    if attrs.get("service.instance.id"):
        out.append(("instance", attrs["service.instance.id"]))
    return tuple(out)


def count_points(request: ExportMetricsServiceRequest) -> int:
    """Data points in an export (the queue's unit of weight)."""
    total = 0
    for rm in request.resource_metrics:
        for sm in rm.scope_metrics:
            for metric in sm.metrics:
                which = metric.WhichOneof("data")
                if which is not None:
                    total += len(getattr(metric, which).data_points)
    return total


def fold(request: ExportMetricsServiceRequest, agg: Aggregator,
         observers: Sequence[HistogramObserver] = ()) -> int:
    """Folds every data point into `agg`; returns how many points were folded."""
    folded = 0
    with agg.lock:
        agg.now = agg.clock()
        for rm in request.resource_metrics:
            resource = resource_labels(rm.resource.attributes)
            for sm in rm.scope_metrics:
                for metric in sm.metrics:
                    folded += _fold_metric(metric, resource, agg, observers)
    return folded


def _fold_metric(metric, resource: Labels, agg: Aggregator,
                 observers: Sequence[HistogramObserver]) -> int:
    which = metric.WhichOneof("data")
    if which is None:
        return 0
    data = getattr(metric, which)
    points = data.data_points
    if which == "sum":
        kind = Kind.COUNTER if data.is_monotonic else Kind.GAUGE
    elif which == "gauge":
        kind = Kind.GAUGE
    elif which == "histogram":
        kind = Kind.HISTOGRAM
    else:  # exponential_histogram, summary
        agg.drop("unsupported", len(points))
        return 0
    name, factor = metric_name(metric.name, metric.unit, kind.value)
    fam = agg.family(name, kind, metric.description or DESCRIPTIONS.get(metric.name, ""))
    if fam is None:
        agg.drop(agg.reject_reason(name, kind), len(points))
        return 0
    delta = which == "sum" and data.aggregation_temporality == DELTA
    folded = 0
    if kind is not Kind.HISTOGRAM:
        for p in points:
            if p.flags & NO_RECORDED_VALUE:
                continue
            value = p.as_double if p.WhichOneof("value") == "as_double" else float(p.as_int)
            agg.number(fam, _labels(resource, p.attributes), value * factor, delta,
                       p.start_time_unix_nano)
            folded += 1
        return folded
    cumulative = data.aggregation_temporality != DELTA
    watching = [o for o in observers if o.wants(metric.name)]
    for p in points:
        if p.flags & NO_RECORDED_VALUE:
            continue
        bounds = tuple(b * factor for b in p.explicit_bounds) if factor != 1.0 \
            else tuple(p.explicit_bounds)
        counts = list(p.bucket_counts) if p.bucket_counts else [float(p.count)]
        if len(counts) != len(bounds) + 1:
            agg.drop("malformed")
            continue
        labels = _labels(resource, p.attributes)
        for observer in watching:
            observer.observe(metric.name, labels, bounds, counts, p.start_time_unix_nano,
                             cumulative)
        agg.histogram(fam, labels, bounds, counts, p.sum * factor, float(p.count), cumulative,
                      p.start_time_unix_nano)
        folded += 1
    return folded
