"""Counting and reading the OTLP trace and log exports (metrics are in otlp_metrics.py).

Spans are only counted (and forwarded). Log records named `gen_ai.evaluation.result` (the
event that carries each hallucination score) are logged by the collector and counted by
evaluation name; other log records are only counted (and forwarded).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from ztgate.telemetry.otlp_metrics import any_value_text
from ztgate.common.semconv import EVALUATION_EVENT, EVALUATION_NAME, EVALUATION_SCORE

log = logging.getLogger(__name__)


def count_spans(request: ExportTraceServiceRequest) -> int:
    return sum(len(ss.spans) for rs in request.resource_spans for ss in rs.scope_spans)


def count_log_records(request: ExportLogsServiceRequest) -> int:
    return sum(len(sl.log_records) for rl in request.resource_logs for sl in rl.scope_logs)


def evaluation_events(request: ExportLogsServiceRequest) -> Iterator[tuple[str, float | None]]:
    """(evaluation name, score) of every gen_ai.evaluation.result event in the export."""
    for rl in request.resource_logs:
        for sl in rl.scope_logs:
            for record in sl.log_records:
                attrs = {kv.key: kv.value for kv in record.attributes}
                name = record.event_name
                if not name and "event.name" in attrs:
                    name = attrs["event.name"].string_value
                if name != EVALUATION_EVENT:
                    continue
                evaluation = any_value_text(attrs[EVALUATION_NAME]) \
                    if EVALUATION_NAME in attrs else "unknown"
                score = None
                if EVALUATION_SCORE in attrs:
                    value = attrs[EVALUATION_SCORE]
                    which = value.WhichOneof("value")
                    if which == "double_value":
                        score = value.double_value
                    elif which == "int_value":
                        score = float(value.int_value)
                yield evaluation, score


def log_evaluation(evaluation: str, score: float | None) -> None:
    log.info("%s %s score=%s", EVALUATION_EVENT, evaluation,
             "none" if score is None else f"{score:.4f}", extra={"event": EVALUATION_EVENT})
