"""vLLM and transformers give the same greedy tokens in strict (float32) parity; the transformers
engine's own limits and cancellation."""

from __future__ import annotations

import asyncio

import pytest
from inference_prompts import PARITY_PROMPTS, greedy_request

from services.inference.engines.base import collect
from services.inference.engines.request import ChatMessage, GenerationRequest, SamplingParams

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
