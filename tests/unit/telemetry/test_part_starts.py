"""Part starts: a process (service.instance.id) new to the collector counts once per part, so a
restart shows in every deployment; memory is bounded however many ids arrive."""

from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue

from ztgate.telemetry.part_starts import PartStarts


def _export(*processes: tuple[str, str | None]) -> ExportMetricsServiceRequest:
    request = ExportMetricsServiceRequest()
    for service, instance in processes:
        rm = request.resource_metrics.add()
        rm.resource.attributes.append(KeyValue(key="service.name", value=AnyValue(string_value=service)))
        if instance is not None:
            rm.resource.attributes.append(
                KeyValue(key="service.instance.id", value=AnyValue(string_value=instance)))
    return request


def test_each_new_process_of_a_part_counts_once() -> None:
    starts = PartStarts()
    for _ in range(3):  # the same processes exporting every few seconds
        starts.observe(_export(("ztgate-redaction", "a"), ("ztgate-inference-primary", "p1")))
    assert starts.snapshot() == {"ztgate-redaction": 1, "ztgate-inference-primary": 1}
    starts.observe(_export(("ztgate-inference-primary", "p2")))  # restarted
    assert starts.snapshot()["ztgate-inference-primary"] == 2


def test_an_export_without_an_instance_id_counts_nothing() -> None:
    starts = PartStarts()
    starts.observe(_export(("envoy", None)))
    assert starts.snapshot() == {}


def test_memory_is_bounded_by_parts_and_processes_remembered() -> None:
    starts = PartStarts(max_instances=2, max_jobs=1)
    starts.observe(_export(*[("ztgate-redaction", str(i)) for i in range(10)]))
    starts.observe(_export(("other", "x")))
    assert starts.snapshot() == {"ztgate-redaction": 10}
    assert len(starts._seen["ztgate-redaction"]) == 2 and "other" not in starts._seen
