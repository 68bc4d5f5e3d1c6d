"""The inference service reports each first token twice: its TTFT, and its excess over the prompt's
prefill allowance (the comparable figure the SLO controller judges), with the prompt's exact token
count from the engine. Recorded through the real OpenTelemetry SDK into an in-memory reader."""

from __future__ import annotations

import pytest
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader

from ztgate.common import semconv
from ztgate.common.first_token import FirstTokenBudget
from ztgate.common.settings import ServerSettings
from ztgate.inference.config import InstanceSettings
from ztgate.inference.engines.base import collect
from ztgate.inference.engines.request import GenerationRequest
from ztgate.inference.metrics import InferenceMetrics
from ztgate.inference.service import InferenceService
from tests.unit.inference.test_engine_contract import _ScriptedEngine

INSTANCE = InstanceSettings(name="primary", server=ServerSettings(listen="127.0.0.1:0"), engine="vllm")


def _sums(reader: InMemoryMetricReader) -> dict[str, tuple[float, int]]:
    out = {}
    for rm in reader.get_metrics_data().resource_metrics:
        for sm in rm.scope_metrics:
            for metric in sm.metrics:
                points = [p for p in metric.data.data_points if hasattr(p, "bucket_counts")]
                if points:
                    out[metric.name] = (sum(p.sum for p in points), sum(p.count for p in points))
    return out


@pytest.mark.parametrize("words", [1, 40])
async def test_first_token_excess_takes_the_exact_prompts_allowance_off_its_ttft(words: int) -> None:
    reader = InMemoryMetricReader()
    meter = MeterProvider(metric_readers=[reader]).get_meter("test")
    # 1 s per token: any prompt's allowance dwarfs the scripted engine's millisecond TTFT.
    budget = FirstTokenBudget(base_s=1.2, per_1k_tokens_s=1000.0, max_s=1e6, bytes_per_token=2.5)
    engine = _ScriptedEngine(n=3)
    await engine.start()
    service = InferenceService(engine, INSTANCE, metrics=InferenceMetrics("m", "primary", meter, budget))
    await collect(service.generate(GenerationRequest(prompt="w " * words)), "x")
    sums = _sums(reader)
    ttft_sum, ttft_count = sums[semconv.TIME_TO_FIRST_TOKEN]
    assert ttft_count == 1 and 0 < ttft_sum < 1
    assert sums[semconv.FIRST_TOKEN_EXCESS] == (0.0, 1)  # its `words` tokens allow `words` seconds


async def test_without_a_budget_only_the_ttft_is_recorded() -> None:
    reader = InMemoryMetricReader()
    meter = MeterProvider(metric_readers=[reader]).get_meter("test")
    engine = _ScriptedEngine(n=2)
    await engine.start()
    service = InferenceService(engine, INSTANCE, metrics=InferenceMetrics("m", "primary", meter))
    await collect(service.generate(GenerationRequest(prompt="hello")), "x")
    assert set(_sums(reader)) >= {semconv.TIME_TO_FIRST_TOKEN}
    assert semconv.FIRST_TOKEN_EXCESS not in _sums(reader)
