"""The inference service reports each first token twice: its TTFT, and its excess over the prompt's
prefill allowance (the comparable figure the SLO controller judges), with the prompt's exact token
count from the engine; the primary ends a try past the budget of that count and reports a miss; the
labels name only the configured model and a bounded set of tenants. Recorded through the real
OpenTelemetry SDK into an in-memory reader."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader

from ztgate.common import semconv
from ztgate.common.first_token import FirstTokenBudget
from ztgate.common.semconv import PROBE_TENANT
from ztgate.common.settings import ServerSettings
from ztgate.common.tenants import is_tenant
from ztgate.inference.admission import Overloaded
from ztgate.inference.config import InstanceSettings
from ztgate.inference.engines.base import collect
from ztgate.inference.engines.request import GenerationRequest, engine_request_id
from ztgate.inference.metrics import OTHER_TENANT, InferenceMetrics, TenantLabels
from ztgate.inference.service import FirstTokenLate, InferenceService
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


# --- the primary holds each try to the budget of its prompt's real token count -------------------

class _SlowFirstToken(_ScriptedEngine):
    """TEST DOUBLE: the scripted engine (one token per word of the prompt) with its first token
    `delay_s` after the prompt is tokenised, standing for a prefill that takes that long."""

    def __init__(self, delay_s: float) -> None:
        super().__init__(n=2)
        self.delay_s = delay_s

    async def _stream(self, request, prompt_ids, max_tokens):
        await asyncio.sleep(self.delay_s)
        async for delta in super()._stream(request, prompt_ids, max_tokens):
            yield delta


def _points(reader: InMemoryMetricReader, name: str) -> list:
    return [p for rm in reader.get_metrics_data().resource_metrics for sm in rm.scope_metrics
            for m in sm.metrics if m.name == name for p in m.data.data_points]


def _misses(reader: InMemoryMetricReader) -> int:
    """Excess samples above the histogram's last bound: what the SLO window counts as misses."""
    return sum(p.bucket_counts[-1] for p in _points(reader, semconv.FIRST_TOKEN_EXCESS))


DIGITS = "7 " * 40  # 40 tokens of the scripted engine, 80 bytes


async def _serve(delay_s: float, per_1k_tokens_s: float, *, hold: bool) -> tuple[InMemoryMetricReader, _SlowFirstToken,
                                                                                  BaseException | None]:
    reader = InMemoryMetricReader()
    meter = MeterProvider(metric_readers=[reader]).get_meter("test")
    budget = FirstTokenBudget(base_s=0.05, per_1k_tokens_s=per_1k_tokens_s, max_s=60.0, bytes_per_token=1.0)
    engine = _SlowFirstToken(delay_s)
    await engine.start()
    service = InferenceService(engine, INSTANCE, metrics=InferenceMetrics("m", "primary", meter, budget),
                               hold_budget=hold)
    try:
        await collect(service.generate(GenerationRequest(prompt=DIGITS, tenant="acme", request_id="r1")), "x")
    except BaseException as exc:  # noqa: BLE001 - returned for the test to judge
        return reader, engine, exc
    return reader, engine, None


async def test_a_first_token_within_the_budget_of_the_real_token_count_is_served() -> None:
    # 40 tokens at 10 s per 1,000: 0.05 + 0.4 s. The first token after 0.15 s is within it.
    reader, engine, error = await _serve(0.15, 10.0, hold=True)
    assert error is None and engine.aborted == []
    assert _misses(reader) == 0
    assert sum(p.count for p in _points(reader, semconv.FIRST_TOKEN_EXCESS)) == 1


async def test_a_try_past_its_budget_ends_unavailable_and_counts_one_miss_for_its_tenant() -> None:
    # 40 tokens at 1 s per 1,000: 0.05 + 0.04 s; the first token would come after 0.5 s.
    started = asyncio.get_running_loop().time()
    reader, engine, error = await _serve(0.5, 1.0, hold=True)
    took = asyncio.get_running_loop().time() - started
    assert isinstance(error, FirstTokenLate) and error.status == "UNAVAILABLE"
    assert "0.1 s for 40 prompt tokens" in str(error) and "7 7" not in str(error)  # no prompt text
    assert took < 0.4  # ended at its budget, not at the first token
    assert engine.aborted == [engine_request_id("acme", "r1")]  # the engine's work stops too
    assert _misses(reader) == 1
    [point] = [p for p in _points(reader, semconv.FIRST_TOKEN_EXCESS) if p.bucket_counts[-1]]
    assert point.attributes[semconv.TENANT] == "acme"  # the SLO's tenant guard can leave it out
    assert not _points(reader, semconv.TIME_TO_FIRST_TOKEN)  # no first token came


async def test_the_fallback_leaves_its_tries_to_envoys_outer_bound() -> None:
    reader, engine, error = await _serve(0.3, 1.0, hold=False)
    assert error is None and engine.aborted == []
    assert _misses(reader) == 0


@pytest.mark.parametrize("hold, misses", [(True, 1), (False, 0)], ids=["primary", "fallback"])
async def test_a_try_refused_at_the_primarys_admission_limit_is_a_miss_of_its_tenant(hold: bool, misses: int) -> None:
    """Envoy retries a RESOURCE_EXHAUSTED on the fallback and counts that retry; the primary reports the
    try as the caller's miss, so that the SLO controller can tell it from a try of no tenant's (issue #28)."""
    reader = InMemoryMetricReader()
    meter = MeterProvider(metric_readers=[reader]).get_meter("test")
    budget = FirstTokenBudget(base_s=5.0, per_1k_tokens_s=10.0, max_s=60.0, bytes_per_token=1.0)
    engine = _SlowFirstToken(0.3)
    await engine.start()
    service = InferenceService(engine, INSTANCE.model_copy(update={"max_inflight": 1}),
                               metrics=InferenceMetrics("m", "primary", meter, budget), hold_budget=hold)
    first = asyncio.ensure_future(collect(service.generate(
        GenerationRequest(prompt=DIGITS, tenant="acme", request_id="r1")), "x"))
    await asyncio.sleep(0.05)  # the first call holds the one slot
    with pytest.raises(Overloaded):
        await collect(service.generate(GenerationRequest(prompt=DIGITS, tenant="mallory", request_id="r2")), "x")
    await first
    assert _misses(reader) == misses
    assert [p.attributes[semconv.TENANT] for p in _points(reader, semconv.FIRST_TOKEN_EXCESS)
            if p.bucket_counts[-1]] == ["mallory"] * misses


# --- label values are bounded: no caller makes series ------------------------------------------

@settings(max_examples=20, deadline=None)
@given(st.lists(st.text(min_size=0, max_size=40), min_size=1, max_size=60))
def test_tenant_labels_name_the_first_tenants_only_and_the_model_is_the_configured_one(names: list[str]) -> None:
    reader = InMemoryMetricReader()
    meter = MeterProvider(metric_readers=[reader]).get_meter("test")
    metrics = InferenceMetrics("SmolLM2-135M-Instruct", "primary", meter, max_tenants=3)
    for name in [*names, PROBE_TENANT]:
        metrics.first_token(0.1, name, 10)
        metrics.score(0.5, name)
    named = {n for n in dict.fromkeys(names) if n and is_tenant(n)}
    first = list(dict.fromkeys(n for n in names if n and is_tenant(n) and n != PROBE_TENANT))[:3]
    allowed = set(first) | {OTHER_TENANT, PROBE_TENANT}
    labels = set()
    for name in (semconv.TIME_TO_FIRST_TOKEN, semconv.HALLUCINATION_SCORE):
        for point in _points(reader, name):
            assert point.attributes[semconv.REQUEST_MODEL] == "SmolLM2-135M-Instruct"
            if semconv.TENANT in point.attributes:
                labels.add(point.attributes[semconv.TENANT])
    assert labels <= allowed and PROBE_TENANT in labels
    assert len(labels - {OTHER_TENANT, PROBE_TENANT}) <= 3
    assert (OTHER_TENANT in labels) == (len(named - {PROBE_TENANT}) > 3 or any(
        n and not is_tenant(n) for n in names))


def test_random_tenant_names_keep_the_series_bounded() -> None:
    """A flood of random tenant names: the first `max_tenants` are named, the rest are one series."""
    import random
    import string

    rng = random.Random(28)
    labels = TenantLabels(max_tenants=5)
    names = ["".join(rng.choices(string.ascii_letters + string.digits, k=rng.randint(1, 128))) for _ in range(500)]
    values = {labels(name) for name in names}
    assert values == set(names[:5]) | {OTHER_TENANT}
    assert labels(names[0]) == names[0] and labels(PROBE_TENANT) == PROBE_TENANT
    assert labels("not a tenant/") == OTHER_TENANT
