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


@pytest.mark.parametrize("prompt_bytes, tokens, budget_ms", [
    (0, 0, 1200),                # base only
    (25, 10, 1320),              # a short prompt: the base, nearly
    (2_500, 1_000, 13_200),      # 1,000 tokens: 12 s more (the default suite's CPU prefill)
    (4_750, 1_900, 24_000),      # issue #11's 1,600-word prompt (~1,900 tokens)
    (15_000, 6_000, 73_200),     # 6,000 tokens
    (100_000, 40_000, 150_000),  # capped
])
def test_default_budget_grows_with_the_prompt_and_is_capped(prompt_bytes: int, tokens: int,
                                                            budget_ms: int) -> None:
    assert DEFAULTS.estimate_tokens(prompt_bytes) == tokens
    assert DEFAULTS.budget_ms_for_bytes(prompt_bytes) == budget_ms


def test_token_estimate_rounds_up() -> None:
    assert DEFAULTS.estimate_tokens(1) == 1 and DEFAULTS.estimate_tokens(3) == 2


@given(st.integers(0, 10**9), st.integers(0, 10**6))
def test_budget_is_monotone_and_bounded(prompt_bytes: int, more: int) -> None:
    small, large = DEFAULTS.budget_ms_for_bytes(prompt_bytes), DEFAULTS.budget_ms_for_bytes(prompt_bytes + more)
    assert 1200 <= small <= large <= 150_000


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
