"""A speculator trained by `ztgate models train-speculator` really serves: vLLM loads it with method
eagle3, greedy output stays token-identical to plain decoding, and the head drafts what the target says.

The head is tiny (4 prompts, 20 steps), so on prompts it never saw it is rarely right; on its own
training prompts it must be (a head whose hidden states, token alignment or weight names disagreed
with vLLM's would be wrong there too).
"""

from __future__ import annotations

import pytest
from inference_prompts import PARITY_PROMPTS, run_all

from services.inference.engines.base import collect
from services.inference.engines.engine_config import EngineConfig, SpeculativeSettings
from services.inference.engines.request import ChatMessage, GenerationRequest, SamplingParams
from services.inference.engines.vllm_engine import VllmEngine
from services.speculators.prompts import training_prompts
from services.speculators.train import TrainSettings, train_speculator

pytestmark = pytest.mark.slow

TINY = TrainSettings(samples=4, steps=20, seed=0, max_new_tokens=24, batch_size=4)
NUM_SPECULATIVE_TOKENS = 3


@pytest.fixture(scope="session")
def tiny_speculator(model_dir, tmp_path_factory):
    return train_speculator(TINY, out=tmp_path_factory.mktemp("eagle3"), model_dir=model_dir)


@pytest.fixture(scope="module")
async def eagle3_engine(model_dir, plain_vllm_outputs, tiny_speculator):
    """Strict parity, eagle3 with the tiny head; starts after the shared plain engine closed."""
    engine = VllmEngine(EngineConfig(model_dir=model_dir, parity="strict", speculative=SpeculativeSettings(
        method="eagle3", num_speculative_tokens=NUM_SPECULATIVE_TOKENS, draft_model=str(tiny_speculator))))
    await engine.start()
    yield engine
    await engine.close()


@pytest.fixture(scope="module")
async def eagle3_outputs(eagle3_engine):
    return await run_all(eagle3_engine)


@pytest.fixture(scope="module")
async def eagle3_on_training_prompts(eagle3_engine):
    out = []
    for text in training_prompts(TINY.samples, TINY.seed):
        req = GenerationRequest(messages=[ChatMessage("user", text)],
                                sampling=SamplingParams(temperature=0, max_tokens=16))
        out.append(await collect(eagle3_engine.generate(req), req.request_id))
    return out


@pytest.mark.parametrize("name", list(PARITY_PROMPTS))
def test_strict_greedy_tokens_are_identical_with_the_eagle3_speculator(name, eagle3_outputs, plain_vllm_outputs):
    spec, plain = eagle3_outputs[name], plain_vllm_outputs[name]
    assert spec.token_ids == plain.token_ids
    assert spec.text == plain.text and spec.finish_reason == plain.finish_reason


def test_the_speculator_proposed_drafts_on_every_prompt(eagle3_outputs):
    for r in eagle3_outputs.values():
        s = r.final.speculative
        assert s.method == "eagle3" and s.num_speculative_tokens == NUM_SPECULATIVE_TOKENS and s.counted
        assert s.num_drafts > 0 and s.draft_tokens == NUM_SPECULATIVE_TOKENS * s.num_drafts
        assert 0 <= s.accepted_tokens <= s.draft_tokens


def test_the_trained_head_drafts_the_targets_tokens_on_what_it_learned(eagle3_on_training_prompts, eagle3_engine):
    drafted = sum(r.final.speculative.draft_tokens for r in eagle3_on_training_prompts)
    accepted = sum(r.final.speculative.accepted_tokens for r in eagle3_on_training_prompts)
    drafts = sum(r.final.speculative.num_drafts for r in eagle3_on_training_prompts)
    # Measured: 35 tokens accepted over 30 drafts of 3 (on the parity prompts, unseen: 11 over 156).
    assert accepted * 3 >= drafts > 0, (accepted, drafted, drafts)
    totals = eagle3_engine.speculative_totals()
    assert totals.num_accepted_tokens >= accepted
    assert sum(totals.num_accepted_tokens_per_pos) == totals.num_accepted_tokens
