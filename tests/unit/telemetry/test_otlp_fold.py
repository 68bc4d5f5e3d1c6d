"""OTLP metric exports map onto Prometheus families: types, temporality, units and labels."""

import pytest

from ztgate.common import semconv
from ztgate_bench import otlp_synthetic as synthetic
from ztgate.telemetry.aggregate import Aggregator, Kind
from ztgate.telemetry.otlp_metrics import count_points, fold
from opentelemetry.proto.metrics.v1.metrics_pb2 import (
    ExponentialHistogram, ExponentialHistogramDataPoint, Metric)


def _fold(*metrics, **kw) -> Aggregator:
    agg = Aggregator(100, 100, 60.0)
    fold(synthetic.request(list(metrics), **kw), agg)
    return agg


def _families(agg: Aggregator) -> dict:
    return {f.name: f for f in agg.snapshot()}


def test_sum_monotonic_is_a_counter_and_non_monotonic_a_gauge() -> None:
    agg = _fold(synthetic.sum_metric("a.count", "{x}", [({}, 3.0)]),
                synthetic.sum_metric("queue.items", "{x}", [({}, -2.0)], monotonic=False),
                synthetic.gauge_metric("cache.hit", "1", [({}, 0.5)]))
    fams = _families(agg)
    assert fams["a_count"].kind is Kind.COUNTER
    assert fams["queue_items"].kind is Kind.GAUGE
    assert fams["cache_hit_ratio"].kind is Kind.GAUGE


def test_resource_gives_job_and_instance_and_attributes_give_labels() -> None:
    agg = _fold(synthetic.sum_metric(semconv.REDACTION_FINDINGS, "{finding}", [(
        {semconv.ENTITY_TYPE: "EMAIL_ADDRESS", semconv.ACTION: "redact", semconv.TENANT: "acme"},
        2.0)]), service="ztgate-redaction", instance_id="r1")
    series = _families(agg)["ztgate_redaction_findings"].series[0]
    assert dict(series.labels) == {"job": "ztgate-redaction", "instance": "r1",
                                   "ztgate_entity_type": "EMAIL_ADDRESS", "ztgate_action": "redact",
                                   "ztgate_tenant": "acme"}
    assert series.value == 2.0


def test_millisecond_histograms_are_exposed_in_seconds() -> None:
    point = synthetic.histogram_point((10.0, 100.0), [5.0, 50.0, 500.0],
                                      {"rpc.method": "Redact", "rpc.grpc.status_code": 0})
    agg = _fold(synthetic.histogram_metric(semconv.RPC_SERVER_DURATION, "ms", [point]))
    series = _families(agg)["rpc_server_duration_seconds"].series[0]
    assert series.bounds == (0.01, 0.1)
    assert series.counts == [1, 1, 1] and series.sum == pytest.approx(0.555)
    assert dict(series.labels)["rpc_grpc_status_code"] == "0"


def test_delta_histograms_accumulate_across_exports_and_cumulative_replace() -> None:
    agg = Aggregator(100, 100, 60.0)
    bounds = (1.0,)
    for values in ([0.5], [0.5, 2.0]):
        fold(synthetic.request([synthetic.histogram_metric(
            "d.lat", "s", [synthetic.histogram_point(bounds, values, {})], synthetic.DELTA),
            synthetic.histogram_metric(
            "c.lat", "s", [synthetic.histogram_point(bounds, values, {})])]), agg)
    fams = _families(agg)
    assert fams["d_lat_seconds"].series[0].count == 3
    assert fams["c_lat_seconds"].series[0].count == 2


def test_unsupported_types_are_counted_not_exposed() -> None:
    exp = Metric(name="e", exponential_histogram=ExponentialHistogram(
        data_points=[ExponentialHistogramDataPoint(count=1)]))
    agg = _fold(exp)
    assert agg.dropped == {"unsupported": 1}
    assert _families(agg) == {}


def test_histogram_observers_see_points_of_the_metrics_they_want() -> None:
    seen = []

    class Observer:
        def wants(self, name):
            return name == semconv.TIME_TO_FIRST_TOKEN

        def observe(self, name, labels, bounds, counts, start_ns, cumulative):
            seen.append((dict(labels)["ztgate_instance"], list(counts), cumulative))

    agg = Aggregator(100, 100, 60.0)
    req = synthetic.request([
        synthetic.histogram_metric(semconv.TIME_TO_FIRST_TOKEN, "s", [synthetic.histogram_point(
            (1.2,), [0.1, 2.0], {semconv.INSTANCE: "primary"})]),
        synthetic.histogram_metric(semconv.REQUEST_DURATION, "s", [synthetic.histogram_point(
            (1.2,), [0.1], {semconv.INSTANCE: "primary"})])])
    assert count_points(req) == 2
    fold(req, agg, [Observer()])
    assert seen == [("primary", [1, 1], True)]
