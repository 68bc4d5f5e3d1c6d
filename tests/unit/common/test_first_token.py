"""The first-token budget: what the gateway allows a call before its first token, and the excess
the SLO judges."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ztgate.common.first_token import SCORE_WAIT_MAX_S, FirstTokenBudget
from ztgate.gateway.config import GatewaySettings

DEFAULTS = GatewaySettings().first_token_budget


@pytest.mark.parametrize("tokens, budget_s", [
    (0, 1.2),          # base only
    (10, 1.32),        # a short prompt: the base, nearly
    (1_000, 13.2),     # 1,000 tokens: 12 s more (the default suite's CPU prefill)
    (1_900, 24.0),     # issue #11's 1,600-word prompt (~1,900 tokens)
    (6_000, 73.2),     # 6,000 tokens
    (40_000, 150.0),   # capped
])
def test_the_budget_comes_from_the_prompts_token_count_and_is_capped(tokens: int, budget_s: float) -> None:
    assert DEFAULTS.budget_s(tokens) == pytest.approx(budget_s)


def test_a_digit_dense_prompts_budget_counts_its_real_tokens() -> None:
    """8 KiB of digits is 8,192 tokens of the default model (1.0 byte each): its budget is that
    count's. The old estimate (2.5 bytes a token) gave it 3,277 tokens' worth, 40% of its allowance,
    so a healthy instance missed it."""
    digits_bytes = digits_tokens = 8_192
    old = FirstTokenBudget(base_s=1.2, per_1k_tokens_s=12.0, max_s=1e9, bytes_per_token=2.5)
    assert old.budget_s(old.estimate_tokens(digits_bytes)) == pytest.approx(1.2 + 12.0 * 3.277)
    real = FirstTokenBudget(base_s=1.2, per_1k_tokens_s=12.0, max_s=1e9, bytes_per_token=1.0)
    assert real.budget_s(digits_tokens) == pytest.approx(1.2 + 12.0 * 8.192)
    assert old.allowance_s(old.estimate_tokens(digits_bytes)) == pytest.approx(0.4 * real.allowance_s(digits_tokens),
                                                                               rel=1e-3)


@pytest.mark.parametrize("prompt_bytes, budget_ms", [
    (0, 2400),                  # base, and one base of slack
    (25, 2700),                 # 25 bytes: at most 25 tokens
    (1_000, 14_400),            # at most 1,000 tokens: 12 s more
    (15_000, 182_400),          # past the cap: the cap plus the slack
])
def test_the_gateways_per_try_timeout_is_an_outer_bound_from_bytes(prompt_bytes: int, budget_ms: int) -> None:
    assert DEFAULTS.bytes_per_token == 1.0
    assert DEFAULTS.estimate_tokens(prompt_bytes) == prompt_bytes
    assert DEFAULTS.budget_ms_for_bytes(prompt_bytes) == min(budget_ms, 151_200)


@given(st.integers(0, 10**7), st.integers(0, 10**7))
def test_envoy_never_cuts_a_try_before_its_real_budget(prompt_bytes: int, tokens: int) -> None:
    """Whatever the text, a byte-level tokenizer makes at most one token per byte (plus the chat
    template's few): the per-try timeout from bytes lies past the budget of the real count by a base."""
    tokens = min(tokens, prompt_bytes)
    assert DEFAULTS.budget_ms_for_bytes(prompt_bytes) >= (DEFAULTS.budget_s(tokens) + DEFAULTS.base_s) * 1000 - 1e-6


def test_token_estimate_rounds_up() -> None:
    half = FirstTokenBudget(base_s=1.2, per_1k_tokens_s=12.0, max_s=150.0, bytes_per_token=2.5)
    assert half.estimate_tokens(1) == 1 and half.estimate_tokens(3) == 2


@given(st.integers(0, 10**9), st.integers(0, 10**6))
def test_budget_is_monotone_and_bounded(prompt_bytes: int, more: int) -> None:
    small, large = DEFAULTS.budget_ms_for_bytes(prompt_bytes), DEFAULTS.budget_ms_for_bytes(prompt_bytes + more)
    assert 2400 <= small <= large <= 151_200


@pytest.mark.parametrize("wait_s, ms", [(0.0, 1200), (1.5, 2700), (-1.0, 1200), (1e9, 61_200),
                                        (math.inf, 61_200), (math.nan, 1200)])
def test_get_score_budget_is_the_base_plus_its_clamped_wait(wait_s: float, ms: int) -> None:
    assert SCORE_WAIT_MAX_S == 60.0
    assert DEFAULTS.score_wait_ms(wait_s) == ms


@pytest.mark.parametrize("ttft_s, tokens, excess_s", [
    (0.3, 10, 0.18), (2.0, 10, 1.88),        # short prompts: excess is nearly the TTFT
    (25.0, 2_000, 1.0), (3.0, 2_000, 0.0),   # long ones: their prefill allowance comes off
    (73.0, 6_000, 1.0)])
def test_excess_takes_the_prompts_allowance_off_the_ttft(ttft_s: float, tokens: int,
                                                         excess_s: float) -> None:
    assert DEFAULTS.excess_s(ttft_s, tokens) == pytest.approx(excess_s)


@given(st.floats(0, 1e4), st.integers(0, 10**6))
def test_a_call_misses_its_budget_exactly_when_its_excess_passes_the_base(ttft_s: float, tokens: int) -> None:
    budget = FirstTokenBudget(base_s=1.2, per_1k_tokens_s=2.0, max_s=1e9, bytes_per_token=2.5)
    assert (ttft_s > budget.budget_s(tokens)) == (budget.excess_s(ttft_s, tokens) > 1.2 + 1e-9) or \
        math.isclose(ttft_s, budget.budget_s(tokens), rel_tol=1e-9)
