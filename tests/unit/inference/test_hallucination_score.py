"""Hallucination score math, the teacher-forced log-probabilities and the background scorer."""

from __future__ import annotations

import asyncio
import math

import pytest
import torch

from ztgate.inference.hallucination import (
    LOW_PROBABILITY,
    HallucinationScorer,
    score_from_logprobs,
    teacher_forced_logprobs,
)


@pytest.mark.parametrize("probs, score", [
    ([1.0, 1.0, 1.0], 0.0),  # certain of every token
    ([0.5, 0.5], 0.5),  # 1 - geometric mean
    ([0.25, 1.0], 0.5),  # geometric mean of 0.25 and 1 is 0.5
    ([0.1] * 4, 0.9),
    ([1e-30], 1.0 - 1e-30),
])
def test_score_is_one_minus_the_geometric_mean_probability(probs, score):
    s = score_from_logprobs([math.log(p) for p in probs])
    assert s.score == pytest.approx(score, abs=1e-12)
    assert s.num_tokens == len(probs)
    assert 0.0 <= s.score <= 1.0


def test_mean_surprise_and_low_probability_share():
    s = score_from_logprobs([math.log(0.9), math.log(0.05), math.log(0.5), math.log(LOW_PROBABILITY / 2)])
    assert s.mean_surprise == pytest.approx(-(math.log(0.9) + math.log(0.05) + math.log(0.5) + math.log(0.05)) / 4)
    assert s.low_probability_share == 0.5


def test_less_likely_tokens_score_higher():
    sure = score_from_logprobs([math.log(0.95)] * 10).score
    guessing = score_from_logprobs([math.log(0.95)] * 8 + [math.log(0.01)] * 2).score
    assert guessing > sure


@pytest.mark.parametrize("logprobs", [[], [math.nan], [0.5]])
def test_nothing_is_scored_from_no_or_invalid_logprobs(logprobs):
    with pytest.raises(ValueError):
        score_from_logprobs(logprobs)


@pytest.fixture(scope="module")
def tiny_model():
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    cfg = LlamaConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64)
    return LlamaForCausalLM(cfg).eval()


def _reference(model, prompt, completion):
    ids = torch.tensor([prompt + completion])
    with torch.inference_mode():
        lp = torch.log_softmax(model(ids).logits[0].float(), dim=-1)
    return [lp[len(prompt) - 1 + i, t].item() for i, t in enumerate(completion)]


def test_teacher_forced_logprobs_match_a_plain_forward_pass_in_a_padded_batch(tiny_model):
    items = [([1, 2, 3], [4, 5]), ([7, 8, 9, 10, 11, 12], [13, 14, 15, 16]), ([20], [21])]
    got = teacher_forced_logprobs(tiny_model, items, max_len=64)
    for (prompt, completion), lps in zip(items, got):
        assert lps == pytest.approx(_reference(tiny_model, prompt, completion), abs=1e-5)


def test_a_long_prompt_is_cut_from_the_left(tiny_model):
    prompt, completion = list(range(1, 41)), [41, 42, 43]
    (got,) = teacher_forced_logprobs(tiny_model, [(prompt, completion)], max_len=10)
    assert got == pytest.approx(_reference(tiny_model, prompt[-7:], completion), abs=1e-5)


async def test_background_scorer_scores_finished_answers_by_request_id(tiny_model):
    scorer = HallucinationScorer(tiny_model, max_len=64, batch_size=4)
    scorer.start()
    try:
        for i in range(5):
            assert scorer.submit(f"r{i}", [1, 2, 3 + i], [4, 5, 6])
        got = await asyncio.wait_for(scorer.wait("r4", timeout=30), 35)
        assert got is not None and 0.0 <= got.score <= 1.0 and got.num_tokens == 3
        expected = score_from_logprobs(_reference(tiny_model, [1, 2, 7], [4, 5, 6]))
        assert got.score == pytest.approx(expected.score, abs=1e-6)
        for i in range(5):
            assert (await scorer.wait(f"r{i}", timeout=30)) is not None
        assert scorer.scored == 5 and scorer.dropped == 0
    finally:
        scorer.close()


async def test_scorer_never_reports_a_score_it_did_not_compute(tiny_model):
    scorer = HallucinationScorer(tiny_model, max_queue=1)  # not started: the queue fills up
    assert scorer.submit("a", [1], [2])
    assert not scorer.submit("b", [1], [2])  # full: dropped at once, counted
    assert not scorer.submit("c", [1], [])  # nothing generated: nothing to score
    assert scorer.dropped == 1
    assert scorer.result("a") is None and scorer.result("b") is None
    assert await scorer.wait("b", timeout=0.01) is None
    assert await scorer.wait("unknown", timeout=0.01) is None
