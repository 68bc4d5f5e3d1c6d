"""The exposition text: what Prometheus parses from the aggregation and the collector's state."""

from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from ztgate.common import semconv
from ztgate_bench import otlp_synthetic as synthetic
from ztgate.telemetry.collector import TelemetryCollector
from ztgate.telemetry.config import SloSettings, TelemetrySettings
from ztgate.telemetry.otlp_metrics import fold


def _collector(**kw) -> TelemetryCollector:
    settings = TelemetrySettings(slo=SloSettings(enabled=False), **kw)
    return TelemetryCollector(settings, "127.0.0.1", 0)


def _scrape(c: TelemetryCollector) -> dict:
    text = generate_latest(c.exposition.registry).decode()
    return {f.name: f for f in text_string_to_metric_families(text)}


def test_histogram_buckets_are_cumulative_with_inf_sum_and_count() -> None:
    c = _collector()
    point = synthetic.histogram_point((0.5, 1.2), [0.1, 0.7, 0.9, 3.0],
                                      {semconv.REQUEST_MODEL: "m"})
    fold(synthetic.request([synthetic.histogram_metric(semconv.TIME_TO_FIRST_TOKEN, "s",
                                                       [point])]), c.aggregator)
    fam = _scrape(c)["gen_ai_server_time_to_first_token_seconds"]
    assert fam.type == "histogram" and fam.documentation == "Time to first token"
    buckets = {s.labels["le"]: s.value for s in fam.samples if s.name.endswith("_bucket")}
    assert buckets == {"0.5": 1, "1.2": 3, "+Inf": 4}
    count = next(s.value for s in fam.samples if s.name.endswith("_count"))
    assert count == 4


def test_counters_get_total_and_overflow_shows_as_other_with_a_count() -> None:
    c = _collector(max_series_per_metric=2)
    fold(synthetic.request([synthetic.sum_metric(
        semconv.REDACTION_FINDINGS, "{finding}",
        [({semconv.ENTITY_TYPE: e}, 1.0) for e in ("A", "B", "C", "D")], synthetic.DELTA)]),
        c.aggregator)
    fams = _scrape(c)
    samples = fams["ztgate_redaction_findings"].samples
    assert {s.name for s in samples} == {"ztgate_redaction_findings_total"}
    assert {s.labels["ztgate_entity_type"]: s.value for s in samples} == {"A": 1, "B": 1,
                                                                          "other": 2}
    overflow = fams["ztgate_telemetry_overflow_points"].samples
    assert [(s.labels["metric"], s.value) for s in overflow] == [("ztgate_redaction_findings", 2)]


def test_own_metrics_report_queue_and_refusals() -> None:
    c = _collector(queue_size=3)
    assert c.offer("metrics", object(), 3)
    assert not c.offer("metrics", object(), 2)
    fams = _scrape(c)
    assert fams["ztgate_telemetry_queue_depth"].samples[0].value == 3
    refused = {s.labels["signal"]: s.value for s in fams["ztgate_telemetry_refused_items"].samples}
    assert refused["metrics"] == 2
    status = c.status()
    assert (status.queue_depth, status.accepted, status.dropped) == (3, 3, 2)
