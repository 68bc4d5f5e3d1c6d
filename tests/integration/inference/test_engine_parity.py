"""vLLM and transformers give the same greedy tokens in strict (float32) parity; the transformers
engine's own limits and cancellation."""

from __future__ import annotations

import asyncio

import pytest
from inference_prompts import PARITY_PROMPTS, greedy_request

from ztgate.inference.engines.base import collect
from ztgate.inference.engines.request import ChatMessage, GenerationRequest, SamplingParams

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("name", list(PARITY_PROMPTS))
def test_vllm_and_transformers_give_identical_greedy_tokens(name, plain_vllm_outputs, hf_outputs):
    v, h = plain_vllm_outputs[name], hf_outputs[name]
    assert v.token_ids == h.token_ids
    assert v.text == h.text and v.finish_reason == h.finish_reason
    assert v.final.prompt_token_ids == h.final.prompt_token_ids


def test_transformers_reports_the_method_but_no_counts_it_does_not_have(hf_outputs):
    s = hf_outputs["repeat"].final.speculative
    assert s.method == "none" and not s.counted


async def test_transformers_stop_sequence_and_max_tokens(hf_engine, plain_vllm_outputs):
    req = greedy_request("tips", max_tokens=5)
    r = await collect(hf_engine.generate(req), req.request_id)
    assert len(r.token_ids) == 5 and r.finish_reason == "length"
    full = plain_vllm_outputs["repeat"].text
    stop = full.split()[3]
    req = greedy_request("repeat", stop=(stop,))
    r = await collect(hf_engine.generate(req), req.request_id)
    assert r.finish_reason == "stop" and r.text == full[: full.index(stop)]


async def test_transformers_cancelled_consumer_stops_generation(hf_engine):
    long = GenerationRequest(messages=[ChatMessage("user", "Write a very long story about a lighthouse.")],
                             sampling=SamplingParams(temperature=0, max_tokens=2000))
    got = 0
    stream = hf_engine.generate(long)
    async for d in stream:
        got += len(d.token_ids)
        if got >= 3:
            break
    await stream.aclose()
    assert hf_engine.inflight == 0
    # The worker is free again: a short request completes promptly.
    short = greedy_request("capital", max_tokens=2)
    r = await asyncio.wait_for(collect(hf_engine.generate(short), short.request_id), 30)
    assert len(r.token_ids) == 2


async def test_transformers_abort_during_prefill_stops_inside_the_forward_pass(hf_engine):
    """A hedged try that Envoy abandons is aborted while its long prompt is still in prefill (one
    forward pass): the engine stops at the next decoder layer, not after the pass (issue #11). The
    test's own hooks record which layers ran and ask for the abort from inside layer 2 of the prefill;
    the rest is the real engine and model."""
    loop = asyncio.get_running_loop()
    layers = hf_engine.model.model.layers
    entered: list[int] = []
    request = GenerationRequest(messages=[ChatMessage("user", "Summarize: " + "the old lighthouse keeper " * 200)],
                                sampling=SamplingParams(temperature=0, max_tokens=50), request_id="prefill-abort")

    def record(index: int):
        def hook(module, args):
            if args[0].shape[1] > 1:  # the prefill pass: every prompt position at once
                entered.append(index)
                if index == 2:
                    assert asyncio.run_coroutine_threadsafe(hf_engine.abort("prefill-abort"), loop).result(10)
        return hook

    handles = [layer.register_forward_pre_hook(record(i)) for i, layer in enumerate(layers)]
    try:
        deltas = [d async for d in hf_engine.generate(request)]
    finally:
        for handle in handles:
            handle.remove()
    assert entered == [0, 1, 2] and len(layers) > 3
    assert [d.finish_reason for d in deltas] == ["abort"] and not any(d.token_ids for d in deltas)
    assert hf_engine.inflight == 0
    short = greedy_request("capital", max_tokens=2)
    r = await asyncio.wait_for(collect(hf_engine.generate(short), short.request_id), 30)
    assert len(r.token_ids) == 2 and r.finish_reason == "length"
