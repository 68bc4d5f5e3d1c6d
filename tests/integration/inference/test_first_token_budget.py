"""First-token budgets from the served model's own token count (issue #28, item 4), on the real model.

Digit-dense text is 1.0 byte per token of the default model. The gateway used to estimate a prompt's
tokens at 2.5 bytes each, so a digit prompt got 40% of its prefill allowance: a healthy instance
missed it, each miss counted as a worst-case sample, and a few such prompts could move every tenant
to the fallback. Now the primary holds each try to the budget of the prompt's real token count, and
the gateway's per-try timeout is an outer bound from bytes (one token per byte, plus a base).

Four digit-dense prompts are served by the real model through the inference service twice: first
with no budget held, to measure this host's time to their first token, from which the budget's
per-1,000-token figure is set (HEADROOM times the slowest, so that the test judges the budget's
token count, not the host's speed); then on the primary's path (budget held, misses recorded where
the SLO window reads them): 0 misses. The control judges the first run's first tokens against the
budget computed the old way (tokens estimated at 2.5 bytes each: Envoy's per-try timeout before),
which gives them 40% of that allowance: the slowest, at least, misses it.
"""

from __future__ import annotations

import random
import time

import grpc
import pytest
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader

from ztgate.common import semconv
from ztgate.common.first_token import FirstTokenBudget
from ztgate.common.server import Runtime
from ztgate.common.settings import OtelSettings, ServerSettings
from ztgate.gen.inference.v1 import inference_pb2 as pb
from ztgate.gen.inference.v1 import inference_pb2_grpc
from ztgate.inference.config import InstanceSettings
from ztgate.inference.engines.request import GenerationRequest, SamplingParams
from ztgate.inference.metrics import InferenceMetrics
from ztgate.inference.server import build_spec
from ztgate.inference.service import FirstTokenLate, InferenceService

DIGITS = 600  # per prompt: 600 tokens of the default model
BASE_S = 0.02  # small, so that the token count, not the base, decides (the default is 1.2 s)
# The real budget allows this many times the slowest first token measured; the old estimate 40% of that.
HEADROOM = 2.0
PRIMARY = InstanceSettings(name="primary", server=ServerSettings(listen="127.0.0.1:0"), engine="transformers")


def _digit_prompts(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice("0123456789") for _ in range(DIGITS)) for _ in range(n)]


async def _first_token_s(service: InferenceService, prompt: str, tenant: str) -> float:
    """Seconds to the first token of `prompt` through the service (FirstTokenLate passes up)."""
    request = GenerationRequest(prompt=prompt, tenant=tenant,
                                sampling=SamplingParams(temperature=0, max_tokens=1))
    started = time.perf_counter()
    stream = service.generate(request)
    try:
        async for delta in stream:
            if delta.token_ids:
                return time.perf_counter() - started
    finally:
        await stream.aclose()
    raise AssertionError("no token came")


def _misses(reader: InMemoryMetricReader) -> int:
    """Excess samples above the histogram's last bound: the misses the SLO window counts."""
    return sum(p.bucket_counts[-1] for rm in reader.get_metrics_data().resource_metrics
               for sm in rm.scope_metrics for m in sm.metrics if m.name == semconv.FIRST_TOKEN_EXCESS
               for p in m.data.data_points)


async def test_digit_dense_prompts_meet_the_budget_of_their_real_token_count(hf_engine) -> None:
    # The session's engine: the fallback's stack (transformers, float32, no speculation).
    engine = hf_engine
    tokenizer = engine.tokenizer
    prompts = _digit_prompts(4, seed=28)
    tokens = [len(tokenizer(p, add_special_tokens=True)["input_ids"]) for p in prompts]
    assert all(len(p.encode()) / t <= 1.05 for p, t in zip(prompts, tokens))  # 1.0 byte a token

    # This host's first tokens on these prompts, the budget not held.
    free = InferenceService(engine, PRIMARY)
    measured = [await _first_token_s(free, p, "calibration") for p in prompts]
    per_1k_tokens_s = HEADROOM * max(measured) / (max(tokens) / 1000)
    budget = FirstTokenBudget(base_s=BASE_S, per_1k_tokens_s=per_1k_tokens_s, max_s=600.0, bytes_per_token=1.0)

    # The primary's path: each try held to the budget of its real token count.
    reader = InMemoryMetricReader()
    meter = MeterProvider(metric_readers=[reader]).get_meter("test")
    primary = InferenceService(engine, PRIMARY, hold_budget=True,
                               metrics=InferenceMetrics(engine.model_name, "primary", meter, budget))
    served, ended = [], 0
    for prompt in prompts:
        try:
            served.append(await _first_token_s(primary, prompt, "digits"))
        except FirstTokenLate:
            ended += 1
    per_try_s = [budget.budget_ms_for_bytes(len(p.encode())) / 1000 for p in prompts]
    print(f"prompts {tokens} tokens; first run TTFT {[round(m, 3) for m in measured]} s; held run TTFT "
          f"{[round(s, 3) for s in served]} s; budgets {[round(budget.budget_s(t), 3) for t in tokens]} s")
    assert ended == 0 and _misses(reader) == 0  # 0 budget misses
    assert all(s < p for s, p in zip(served, per_try_s))  # nor would Envoy's per-try timeout have cut one

    # Control: the same prompts' first tokens against the budget the old way (2.5 bytes a token).
    old = FirstTokenBudget(base_s=BASE_S, per_1k_tokens_s=per_1k_tokens_s, max_s=600.0, bytes_per_token=2.5)
    old_budgets = [old.budget_s(old.estimate_tokens(len(p.encode()))) for p in prompts]
    old_misses = sum(m > b for m, b in zip(measured, old_budgets))
    print(f"old budgets {[round(b, 3) for b in old_budgets]} s: {old_misses} of 4 missed")
    assert old_misses >= 1


async def test_a_try_past_its_budget_is_unavailable_over_grpc_before_any_header(hf_engine) -> None:
    """Over real gRPC: the primary ends a try past its budget with UNAVAILABLE and no response
    header (so Envoy's retry policy may still send it to the fallback), naming the budget, not the prompt."""
    budget = FirstTokenBudget(base_s=0.001, per_1k_tokens_s=0.001, max_s=1.0, bytes_per_token=1.0)
    service = InferenceService(hf_engine, PRIMARY, budget=budget, hold_budget=True)
    spec = build_spec(service, None)
    spec.stop = None  # the session fixture owns the engine
    runtime = Runtime(spec, PRIMARY.server, OtelSettings())
    port = await runtime.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            call = inference_pb2_grpc.InferenceStub(channel).Generate(pb.GenerateRequest(
                prompt=_digit_prompts(1, seed=3)[0], sampling=pb.SamplingParams(temperature=0, max_tokens=1)))
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await call
            assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
            assert "first-token budget" in refused.value.details() and "prompt tokens" in refused.value.details()
            assert not any(key == "x-ztgate-served-by" for key, _ in await call.initial_metadata())
    finally:
        await runtime.stop()
