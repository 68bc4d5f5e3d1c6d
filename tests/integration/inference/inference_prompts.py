"""Prompts and helpers shared by the inference integration tests (a plain module, not conftest, so
that it imports unambiguously beside other test folders' conftest files)."""

from __future__ import annotations

from ztgate.inference.engines.base import collect
from ztgate.inference.spec_decode.settings import SpeculativeSettings
from ztgate.inference.engines.request import ChatMessage, GenerationRequest, SamplingParams

MAX_TOKENS = 32
NGRAM = SpeculativeSettings(method="ngram", num_speculative_tokens=4, prompt_lookup_min=2, prompt_lookup_max=4)

# Chat prompts, half of them copy-heavy (the answer repeats spans of the prompt), and one raw prompt.
PARITY_PROMPTS: dict[str, tuple[str, str]] = {
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


SAMPLE_SEEDS = (1234, 1234, 1, 2)


def sample_request(seed: int) -> GenerationRequest:
    return GenerationRequest(messages=[ChatMessage("user", "Invent a name for a new fruit.")],
                             sampling=SamplingParams(temperature=1.0, top_p=0.95, max_tokens=12, seed=seed))


# The distribution check of speculative sampling: a copy-heavy prompt (so n-gram drafts are proposed,
# accepted and rejected), temperature, top-k and top-p all set (vLLM spreads each over the draft
# positions: the step vLLM CPU 0.32 got wrong), one request per seed.
DISTRIBUTION_SEEDS = tuple(range(200))
DISTRIBUTION_TOKENS = 8


def distribution_request(seed: int) -> GenerationRequest:
    text = ("Repeat this exactly: the quick brown fox jumps over the lazy dog. "
            "The quick brown fox jumps over the lazy dog.")
    return GenerationRequest(messages=[ChatMessage("user", text)], sampling=SamplingParams(
        temperature=0.8, top_p=0.95, top_k=50, max_tokens=DISTRIBUTION_TOKENS, seed=seed))


async def sample_distribution(engine, concurrency: int = 8) -> list:
    """One sampled answer per DISTRIBUTION_SEEDS seed, `concurrency` in flight."""
    import asyncio

    gate = asyncio.Semaphore(concurrency)

    async def one(seed: int):
        async with gate:
            req = distribution_request(seed)
            return await collect(engine.generate(req), req.request_id)
    return list(await asyncio.gather(*(one(s) for s in DISTRIBUTION_SEEDS)))
