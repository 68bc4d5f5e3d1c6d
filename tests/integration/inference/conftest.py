"""Shared real engines for the inference integration tests, one of each per session.

The plain vLLM engine and the transformers engine run only long enough to record their greedy
answers; the speculative vLLM engine (the primary's configuration) stays up for the behaviour
tests. They start one after the other: two vLLM engines at once crowd a 2-core machine.
"""

from __future__ import annotations

import os

import pytest

pytest.importorskip("vllm", reason="the inference extra (vLLM) is not installed")

from services.inference import models  # noqa: E402
from services.inference.engines.base import (  # noqa: E402
    ChatMessage,
    EngineConfig,
    GenerationRequest,
    SamplingParams,
    SpeculativeSettings,
    collect,
)
from services.inference.engines.transformers_engine import TransformersEngine  # noqa: E402
from services.inference.engines.vllm_engine import VllmEngine  # noqa: E402

os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")

MAX_TOKENS = 32
NGRAM = SpeculativeSettings(method="ngram", num_speculative_tokens=4, prompt_lookup_min=2, prompt_lookup_max=4)

# Chat prompts, half of them copy-heavy (the answer repeats spans of the prompt), and one raw prompt.
PARITY_PROMPTS: dict[str, GenerationRequest | tuple] = {
    "capital": ("chat", "What is the capital of France? Answer in one sentence."),
    "tips": ("chat", "Give me three tips for staying focused while studying."),
    "repeat": ("chat", "Repeat the following text exactly: 'The committee will meet on Tuesday at 10am in "
                       "room 4B to review the budget proposal.'"),
    "extract": ("chat", "Extract the email address from this text: Please contact Jane Doe at "
                        "jane.doe@example.com or call 555-0100 for details."),
    "rewrite": ("chat", "Rewrite this sentence in the past tense: The cat sits on the mat and watches the "
                        "birds in the garden."),
    "code": ("chat", "Fix the typo in this code and return the full code:\ndef add(a, b):\n    retrn a + b\n"),
    "raw": ("raw", "Fruits: apple, banana, cherry. Fruits: apple, banana, cherry. Fruits:"),
}
COPY_HEAVY = ("repeat", "extract", "rewrite", "code", "raw")


def greedy_request(name: str, max_tokens: int = MAX_TOKENS, **sampling) -> GenerationRequest:
    kind, text = PARITY_PROMPTS[name]
    params = SamplingParams(temperature=0, max_tokens=max_tokens, **sampling)
    if kind == "raw":
        return GenerationRequest(prompt=text, sampling=params)
    return GenerationRequest(messages=[ChatMessage("user", text)], sampling=params)


async def run_all(engine) -> dict:
    out = {}
    for name in PARITY_PROMPTS:
        req = greedy_request(name)
        out[name] = await collect(engine.generate(req), req.request_id)
    return out


@pytest.fixture(scope="session")
def model_dir():
    target = models.model_dir()
    if not models.is_prepared(target):
        models.prepare()
    return target


@pytest.fixture(scope="session")
async def plain_vllm_outputs(model_dir):
    """Greedy answers of a plain (no speculation) strict-parity vLLM engine."""
    engine = VllmEngine(EngineConfig(model_dir=model_dir, parity="strict",
                                     speculative=SpeculativeSettings(method="none")))
    await engine.start()
    try:
        return await run_all(engine)
    finally:
        await engine.close()


@pytest.fixture(scope="session")
async def vllm_engine(model_dir, plain_vllm_outputs):
    """The primary's configuration: strict parity, ngram speculation. Starts after the plain one closed."""
    engine = VllmEngine(EngineConfig(model_dir=model_dir, parity="strict", speculative=NGRAM))
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
