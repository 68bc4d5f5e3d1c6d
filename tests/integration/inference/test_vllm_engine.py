"""The vLLM engine with speculation (the primary's suffix decoding, then ngram), on the real model:
parity, limits, sampling, abort, stats."""

from __future__ import annotations

import asyncio

import pytest
import torch
from inference_prompts import (
    COPY_HEAVY,
    DISTRIBUTION_TOKENS,
    PARITY_PROMPTS,
    greedy_request,
    run_all,
    sample_distribution,
    sample_request,
)

from ztgate.inference.engines.base import collect
from ztgate.inference.engines.engine_config import EngineConfig
from ztgate.inference.spec_decode.settings import SpeculativeSettings
from ztgate.inference.engines.errors import EngineConfigError, InvalidRequest, SamplingUnsupported
from ztgate.inference.engines.request import ChatMessage, GenerationRequest, SamplingParams
from ztgate.inference.engines.vllm_engine import VllmEngine
from ztgate.inference.hallucination import HallucinationScorer

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
async def spec_outputs(vllm_engine):
    return await run_all(vllm_engine)


@pytest.mark.parametrize("name", list(PARITY_PROMPTS))
def test_strict_greedy_tokens_are_identical_with_and_without_speculation(name, spec_outputs, plain_vllm_outputs):
    spec, plain = spec_outputs[name], plain_vllm_outputs[name]
    assert spec.token_ids == plain.token_ids
    assert spec.text == plain.text and spec.finish_reason == plain.finish_reason


def test_speculation_really_ran_and_was_accepted_on_copy_heavy_prompts(vllm_engine, spec_outputs,
                                                                      plain_vllm_outputs):
    accepted = sum(spec_outputs[n].final.speculative.accepted_tokens for n in COPY_HEAVY)
    assert accepted > 0
    k = vllm_engine.config.speculative.num_speculative_tokens
    for name, r in spec_outputs.items():
        s = r.final.speculative
        assert s.method == vllm_engine.config.speculative.method and s.num_speculative_tokens == k and s.counted
        assert 0 <= s.accepted_tokens <= s.draft_tokens <= k * s.num_drafts
        assert 0.0 <= s.acceptance_rate <= 1.0
        assert s.num_drafts == 0 or 1.0 <= s.mean_acceptance_length <= k + 1
        assert plain_vllm_outputs[name].final.speculative.method == "none"


def test_instance_totals_come_from_the_vllm_stat_logger(vllm_engine, spec_outputs):
    totals = vllm_engine.speculative_totals()
    per_request = sum(r.final.speculative.draft_tokens for r in spec_outputs.values())
    assert totals.num_draft_tokens >= per_request > 0
    assert totals.num_accepted_tokens <= totals.num_draft_tokens
    assert sum(totals.num_accepted_tokens_per_pos) == totals.num_accepted_tokens


def test_usage_and_timings_are_reported(spec_outputs):
    r = spec_outputs["capital"]
    assert r.final.usage.completion_tokens == len(r.token_ids) > 0
    assert r.final.usage.prompt_tokens == len(r.final.prompt_token_ids) > 10
    t = r.final.timings
    assert 0 < t.ttft_ms <= t.total_ms and t.tpot_ms >= 0
    assert r.final.model == "SmolLM2-135M-Instruct"
    assert r.final.hallucination_score is None  # not asked for, so not computed


async def test_max_tokens_ends_the_answer_with_finish_reason_length(vllm_engine):
    req = greedy_request("tips", max_tokens=5)
    r = await collect(vllm_engine.generate(req), req.request_id)
    assert len(r.token_ids) == 5 and r.finish_reason == "length"


async def test_a_stop_sequence_ends_the_answer_before_it(vllm_engine):
    free = GenerationRequest(messages=[ChatMessage("user", "Count from 1 to 10, one number per line.")],
                             sampling=SamplingParams(temperature=0, max_tokens=32))
    full = await collect(vllm_engine.generate(free), free.request_id)
    assert "4" in full.text
    stopped = GenerationRequest(messages=free.messages,
                                sampling=SamplingParams(temperature=0, max_tokens=32, stop=("4",)))
    r = await collect(vllm_engine.generate(stopped), stopped.request_id)
    assert r.finish_reason == "stop"
    assert r.text == full.text[: full.text.index("4")]
    assert len(r.token_ids) < len(full.token_ids)


async def test_seeded_sampling_is_repeatable(plain_vllm_samples):
    a, b, *others = plain_vllm_samples  # seeds 1234, 1234, 1, 2 on the plain engine
    assert a.token_ids == b.token_ids
    assert any(o.token_ids != a.token_ids for o in others)


def _chi_square_p(a: list[int], b: list[int], min_count: int = 10) -> float:
    """p-value of a two-sample chi-square test that token lists `a` and `b` come from one
    distribution (tokens seen fewer than `min_count` times in both together share one cell)."""
    from collections import Counter

    ca, cb = Counter(a), Counter(b)
    pooled = ca + cb
    cells = [t for t, n in pooled.items() if n >= min_count]
    rows = [[ca[t] for t in cells], [cb[t] for t in cells]]
    rest = [len(a) - sum(rows[0]), len(b) - sum(rows[1])]
    if sum(rest):
        rows[0].append(rest[0])
        rows[1].append(rest[1])
    if len(rows[0]) < 2:
        return 1.0  # one outcome: nothing to tell apart
    total = len(a) + len(b)
    stat = 0.0
    for j in range(len(rows[0])):
        col = rows[0][j] + rows[1][j]
        for i, n in enumerate((len(a), len(b))):
            expected = n * col / total
            stat += (rows[i][j] - expected) ** 2 / expected
    df = len(rows[0]) - 1
    return float(torch.special.gammaincc(torch.tensor(df / 2, dtype=torch.float64),
                                         torch.tensor(stat / 2, dtype=torch.float64)))


async def test_speculative_sampling_has_plain_samplings_distribution(vllm_engine, plain_vllm_distribution):
    """Sampled requests on the speculative engine, against the plain engine with the same seeds: at
    every answer position the token's distribution must be the same (rejection sampling is exact).
    Without our fix to vLLM CPU's expand kernel (ztgate/inference/vllm_compat/cpu_fixes.py) every draft
    position samples from garbage temperatures and this fails with p < 1e-30."""
    spec = await sample_distribution(vllm_engine)
    stats = [r.final.speculative for r in spec]
    assert sum(s.num_drafts for s in stats) > 100 and sum(s.accepted_tokens for s in stats) > 100  # it speculated
    worst = 1.0
    for pos in range(DISTRIBUTION_TOKENS):
        a = [r.token_ids[pos] for r in plain_vllm_distribution if len(r.token_ids) > pos]
        b = [r.token_ids[pos] for r in spec if len(r.token_ids) > pos]
        worst = min(worst, _chi_square_p(a, b))
    # Bonferroni over the positions: a correct sampler fails this about once in a thousand runs.
    assert worst > 1e-3 / DISTRIBUTION_TOKENS, worst


def test_the_engine_serves_sampling_with_the_fix_and_refuses_it_without(vllm_engine, model_dir):
    """With the fix loaded (this project installed) nothing is refused; without it the speculative CPU
    engine says UNAVAILABLE, which Envoy retries on the fallback, and how to get an answer here."""
    assert vllm_engine._sampling_broken is False
    unfixed = VllmEngine(EngineConfig(model_dir=model_dir, parity="strict", speculative=vllm_engine.config.speculative))
    unfixed._sampling_broken = True  # what start() sets when vLLM would not load the plugin
    with pytest.raises(SamplingUnsupported, match="temperature 0") as refused:
        unfixed._refuse(sample_request(7))
    assert refused.value.status == "UNAVAILABLE" and "ztgate_cpu_fixes" in str(refused.value)
    unfixed._refuse(GenerationRequest(messages=[ChatMessage("user", "Say hi.")],
                                      sampling=SamplingParams(temperature=0, max_tokens=4)))  # greedy passes


async def _wait_idle(engine, timeout=10.0):
    deadline = asyncio.get_running_loop().time() + timeout
    while engine.engine_unfinished_requests() and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.05)
    return engine.engine_unfinished_requests()


async def test_a_cancelled_consumer_aborts_the_request_inside_the_engine(vllm_engine):
    long = GenerationRequest(messages=[ChatMessage("user", "Write a very long story about a lighthouse.")],
                             sampling=SamplingParams(temperature=0, max_tokens=2000))
    started = asyncio.Event()
    received = 0

    async def consume():
        nonlocal received
        async for d in vllm_engine.generate(long):
            received += len(d.token_ids)
            if received >= 3:
                started.set()

    task = asyncio.create_task(consume())
    await asyncio.wait_for(started.wait(), 60)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await _wait_idle(vllm_engine) == 0
    assert vllm_engine.inflight == 0
    # The next request's last scheduler step shows nothing else running in the engine core.
    short = greedy_request("capital", max_tokens=2)
    await collect(vllm_engine.generate(short), short.request_id)
    assert vllm_engine.speculative_totals().num_running_reqs == 0
    assert received < 2000


async def test_abort_by_request_id_ends_the_stream_with_abort(vllm_engine):
    long = GenerationRequest(messages=[ChatMessage("user", "Write a very long story about a forest.")],
                             sampling=SamplingParams(temperature=0, max_tokens=2000), request_id="to-abort")
    reasons, n = [], 0
    async for d in vllm_engine.generate(long):
        n += len(d.token_ids)
        if n >= 3 and not reasons:
            reasons.append("asked")
            assert await vllm_engine.abort("to-abort")
        if d.finish_reason:
            reasons.append(d.finish_reason)
    assert reasons == ["asked", "abort"] and n < 2000
    assert await _wait_idle(vllm_engine) == 0
    assert not await vllm_engine.abort("to-abort")  # no longer in flight


async def test_a_prompt_longer_than_the_context_is_rejected_before_generation(vllm_engine):
    req = GenerationRequest(prompt="word " * (vllm_engine.max_model_len + 10))
    with pytest.raises(InvalidRequest, match="shorten the prompt"):
        await collect(vllm_engine.generate(req), req.request_id)
    assert vllm_engine.inflight == 0


async def test_a_duplicate_request_id_in_flight_is_rejected(vllm_engine):
    req = greedy_request("capital", max_tokens=4)
    stream = vllm_engine.generate(GenerationRequest(messages=req.messages, sampling=req.sampling, request_id="dup"))
    first = await stream.__anext__()
    try:
        with pytest.raises(InvalidRequest, match="already in flight"):
            await collect(vllm_engine.generate(
                GenerationRequest(prompt="hi", sampling=req.sampling, request_id="dup")), "dup")
    finally:
        await stream.aclose()
    assert first.token_ids


async def test_inline_score_agrees_with_the_background_teacher_forced_score(vllm_engine, hf_engine):
    req = greedy_request("capital", score_inline=True)
    r = await collect(vllm_engine.generate(req), req.request_id)
    inline = r.final.hallucination_score
    assert inline is not None and 0.0 <= inline <= 1.0
    assert len(r.final.token_logprobs) == len(r.token_ids)
    scorer = HallucinationScorer(hf_engine.model, max_len=hf_engine.max_model_len)
    scorer.start()
    try:
        assert scorer.submit(req.request_id, r.final.prompt_token_ids, r.token_ids)
        background = await scorer.wait(req.request_id, timeout=60)
    finally:
        scorer.close()
    assert background is not None
    assert background.score == pytest.approx(inline, abs=1e-3)


async def test_a_speculative_config_vllm_refuses_fails_at_start_naming_the_setting(model_dir, tmp_path):
    empty = tmp_path / "not-a-model"
    empty.mkdir()
    engine = VllmEngine(EngineConfig(model_dir=model_dir, speculative=SpeculativeSettings(
        method="draft_model", num_speculative_tokens=3, draft_model=str(empty))))
    with pytest.raises(EngineConfigError) as e:
        await engine.start()
    message = str(e.value)
    assert "speculative method 'draft_model'" in message and str(empty) in message
    assert not engine.ready
