"""The OpenAI door's metrics label a call's model only with a configured model: any other name a
client sends (random ones, 256 characters long) is `other`, so it cannot make series of its own or
push real ones into the collector's overflow. Driven through the real processor (test_openai_exchange.py's
helpers) on the pattern tier."""

from __future__ import annotations

import pytest
from envoy.service.ext_proc.v3 import external_processor_pb2 as ep
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader

from ztgate.redaction.door_metrics import OTHER_MODEL, DoorMetrics
from ztgate.redaction.openai_exchange import COMPLETIONS_PATH
from ztgate.redaction.detection.patterns.scanner import PatternScanner
from ztgate.redaction.service import RedactionService
from tests.unit.redaction.test_ext_proc import make_service, scanner  # noqa: F401 (fixture)
from tests.unit.redaction.test_openai_exchange import (MODEL, _drive, _headers, _json,
                                                       _response_headers, _sse)


@pytest.fixture
def service(scanner: PatternScanner) -> RedactionService:  # noqa: F811
    return make_service(scanner)


async def _model_label(service: RedactionService, door: DoorMetrics, reader: InMemoryMetricReader,
                       model: str) -> set[str]:
    chunks = [{"choices": [{"index": 0, "text": "Hi", "finish_reason": "stop"}]}]
    await _drive(service, [
        _headers(COMPLETIONS_PATH),
        ep.ProcessingRequest(request_body=ep.HttpBody(body=_json({"model": model, "prompt": "hi",
                                                                  "stream": True}),
                                                      end_of_stream=True)),
        _response_headers("text/event-stream"),
        ep.ProcessingRequest(response_body=ep.HttpBody(body=_sse(chunks), end_of_stream=True)),
    ], door_metrics=door)
    return {point.attributes["gen_ai.request.model"]
            for resource in reader.get_metrics_data().resource_metrics
            for scope in resource.scope_metrics for metric in scope.metrics
            for point in metric.data.data_points}


@pytest.mark.parametrize("model, label", [(MODEL, MODEL), ("x" * 256, OTHER_MODEL),
                                          ("gpt-random-7f3a", OTHER_MODEL)])
async def test_only_configured_models_name_a_series(service: RedactionService, model: str,
                                                    label: str) -> None:
    reader = InMemoryMetricReader()
    door = DoorMetrics(MeterProvider(metric_readers=[reader]).get_meter("test"),
                       models=frozenset({MODEL}))
    assert await _model_label(service, door, reader, model) == {label}
