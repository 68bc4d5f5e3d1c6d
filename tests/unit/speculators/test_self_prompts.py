"""Training prompts the target writes itself (ztgate/speculators/prompts.py, distill.self_prompts).

The engine here is a fake that records the requests crossing into it and answers each seed with a
scripted draw: the test is about which draws are kept and in what order, not about the model (the
integration tests run the real engine: tests/integration/inference/test_trained_speculators.py).
"""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ztgate.inference.engines.outputs import Delta, FinalStats, SpeculativeStats, Usage
from ztgate.speculators import prompts
from ztgate.speculators.distill import self_prompts

PREFIX = "<|im_start|>system\nbe helpful<|im_end|>\n<|im_start|>user\n"


def _template(messages: list[dict[str, str]]) -> str:
    return PREFIX + messages[0]["content"] + "<|im_end|>\n"


def test_the_prefix_is_the_template_text_before_the_users_words():
    assert prompts.user_turn_prefix(_template) == PREFIX


def test_a_template_that_rewrites_the_users_words_is_refused_with_the_way_out():
    with pytest.raises(ValueError, match="--self-prompts 0"):
        prompts.user_turn_prefix(lambda messages: PREFIX + messages[0]["content"].upper())


@given(st.integers(0, 2**20), st.integers(0, 10_000))
def test_draw_seeds_are_distinct_within_a_run_and_valid(seed, draws):
    first = prompts.self_prompt_seed(seed, draws)
    assert 0 <= first < 2**31 - 1
    assert first != prompts.self_prompt_seed(seed, draws + 1)


@given(st.text(max_size=80), st.booleans(), st.sets(st.text(max_size=20), max_size=5))
def test_a_kept_prompt_is_finished_stripped_long_enough_and_new(text, finished, seen):
    kept = prompts.accept_self_prompt(text, finished, seen)
    if kept is None:
        assert not finished or len(text.strip()) < prompts.SELF_MIN_CHARS or text.strip() in seen
    else:
        assert finished and kept == text.strip() and kept not in seen
        assert len(kept) >= prompts.SELF_MIN_CHARS


class ScriptedEngine:
    """Fake engine (records requests): the draw with seed s answers script[s] as (text, finished)."""

    def __init__(self, script: dict[int, tuple[str, bool]]) -> None:
        self.script = script
        self.requests = []

    async def generate(self, request):
        self.requests.append(request)
        await asyncio.sleep(0.001 * (request.sampling.seed % 3))  # finish out of order
        text, finished = self.script[request.sampling.seed]
        final = FinalStats(Usage(1, 1), SpeculativeStats())
        yield Delta((1,), text, "stop" if finished else "length", final)


def _script(draws: list[tuple[str, bool]], seed: int = 7) -> dict[int, tuple[str, bool]]:
    return {prompts.self_prompt_seed(seed, i): draw for i, draw in enumerate(draws)}


def test_refused_draws_are_replaced_by_the_next_seeds_in_seed_order():
    draws = [("How do I bake bread at home?", True), ("hi", True), ("Explain tides to a child.", False),
             ("How do I bake bread at home?", True), ("What is a good first programming language?", True),
             ("Plan a weekend in the mountains for me.", True)]
    engine = ScriptedEngine(_script(draws))
    kept = asyncio.run(self_prompts(engine, PREFIX, 3, seed=7, concurrency=2))
    assert kept == ["How do I bake bread at home?", "What is a good first programming language?",
                    "Plan a weekend in the mountains for me."]
    assert all(r.prompt == PREFIX and r.sampling.temperature == prompts.SELF_TEMPERATURE
               and r.sampling.top_p == prompts.SELF_TOP_P and r.sampling.max_tokens == prompts.SELF_MAX_TOKENS
               for r in engine.requests)
    assert len(engine.requests) == len(draws)  # no more draws than needed


def test_too_few_usable_draws_is_a_clear_error_after_a_bounded_number_of_draws():
    draws = [("ok", True)] * (2 * prompts.SELF_ATTEMPTS_PER_PROMPT)
    engine = ScriptedEngine(_script(draws))
    with pytest.raises(ValueError, match="lower --self-prompts"):
        asyncio.run(self_prompts(engine, PREFIX, 2, seed=7))
    assert len(engine.requests) == 2 * prompts.SELF_ATTEMPTS_PER_PROMPT
