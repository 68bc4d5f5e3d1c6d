"""Shared real engines for the inference integration tests, one of each per session.

The plain vLLM engine and the transformers engine run only long enough to record their greedy
answers; the speculative vLLM engine (the primary's configuration) stays up for the behaviour
tests. They start one after the other: two vLLM engines at once crowd a 2-core machine. vLLM's
CPU KV cache is 1 GiB (EngineConfig.kv_cache_gib, set as VLLM_CPU_KVCACHE_SPACE).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

# No skip when vLLM is missing: `make test` installs the inference extra, and a missing engine
# must fail the run, not pass it quietly.
from ztgate.inference import models  # noqa: E402
from ztgate.inference.config import InferenceSettings  # noqa: E402
from ztgate.inference.engines.base import collect  # noqa: E402
from ztgate.inference.engines.engine_config import EngineConfig  # noqa: E402
from ztgate.inference.engines.transformers_engine import TransformersEngine  # noqa: E402
from ztgate.inference.engines.vllm_engine import VllmEngine  # noqa: E402
from ztgate.inference.spec_decode.section import speculative_settings  # noqa: E402
from ztgate.inference.spec_decode.settings import DEFAULT_DRAFT_TOKEN_COST, SpeculativeSettings  # noqa: E402
from ztgate.speculators.distill import self_prompts  # noqa: E402
from ztgate.speculators.prompts import user_turn_prefix  # noqa: E402

from inference_prompts import NGRAM, SAMPLE_SEEDS, run_all, sample_distribution, sample_request  # noqa: E402


@pytest.fixture(scope="session")
def model_dir():
    target = models.model_dir()
    if not models.is_prepared(target):
        models.prepare()
    return target


@pytest.fixture(scope="session")
async def plain_vllm(model_dir):
    """Greedy answers of a plain (no speculation) strict-parity vLLM engine, its seeded samples
    (SAMPLE_SEEDS, in order), the sampled answers the speculative engine's are compared with, and
    two runs of the speculator trainer's target-written prompts from one seed."""
    engine = VllmEngine(EngineConfig(model_dir=model_dir, parity="strict",
                                     speculative=SpeculativeSettings(method="none")))
    await engine.start()
    try:
        outputs = await run_all(engine)
        samples = [await collect(engine.generate(sample_request(seed)), f"sample-{i}")
                   for i, seed in enumerate(SAMPLE_SEEDS)]
        distribution = await sample_distribution(engine)
        prefix = user_turn_prefix(lambda m: engine.tokenizer.apply_chat_template(m, tokenize=False))
        written = [await self_prompts(engine, prefix, 3, seed=5) for _ in range(2)]
        return outputs, samples, distribution, written
    finally:
        await engine.close()


@pytest.fixture(scope="session")
def plain_vllm_outputs(plain_vllm):
    return plain_vllm[0]


@pytest.fixture(scope="session")
def plain_vllm_samples(plain_vllm):
    return plain_vllm[1]


@pytest.fixture(scope="session")
def plain_vllm_distribution(plain_vllm):
    return plain_vllm[2]


@pytest.fixture(scope="session")
def plain_vllm_self_prompts(plain_vllm):
    return plain_vllm[3]


@pytest.fixture(scope="module", params=["primary", "ngram"])
async def vllm_engine(request, model_dir, plain_vllm_outputs):
    """A speculative engine in strict parity: the primary's default configuration (suffix decoding),
    then n-gram speculation with adaptive drafting at the default cost (so the greedy, sampling and
    distribution tests also run through the acceptance-following scheduler). Each starts after the
    one before closed, and the last closes with its test module so no engine process outlives the
    inference tests."""
    spec = (speculative_settings(InferenceSettings().primary.speculative) if request.param == "primary"
            else replace(NGRAM, draft_token_cost=DEFAULT_DRAFT_TOKEN_COST))
    engine = VllmEngine(EngineConfig(model_dir=model_dir, parity="strict", speculative=spec))
    await engine.start()
    yield engine
    await engine.close()


@pytest.fixture(scope="session")
async def hf_engine(model_dir):
    """The fallback's configuration: transformers, float32, no speculation."""
    engine = TransformersEngine(EngineConfig(model_dir=model_dir, parity="strict",
                                             speculative=SpeculativeSettings(method="none")))
    await engine.start()
    yield engine
    await engine.close()


@pytest.fixture(scope="session")
async def hf_outputs(hf_engine):
    return await run_all(hf_engine)
