"""The first-token budget: how long a healthy instance may take to its first token on a prompt.

Prefill grows with the prompt, so one fixed wait either abandons every long prompt or waits far too
long on a slow instance with a short one. The budget is `base_s + per_1k_tokens_s` for each 1,000
prompt tokens, capped at `max_s`, counted in the served model's own tokens: the inference service
holds each try to it, and the gateway, which has no tokenizer, sets an outer bound from the bytes.
How both use it: docs/architecture.md ("Module notes"); why real tokens:
docs/adr/0008-first-token-budget-from-real-tokens.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# GetScore answers once the score exists or after the caller's wait_s, which the inference service
# clamps to this (seconds); its response headers come then, so its per-try timeout allows for it.
SCORE_WAIT_MAX_S = 60.0


@dataclass(frozen=True, slots=True)
class FirstTokenBudget:
    # Seconds to the first token on a short prompt (queueing, scheduling, a few tokens of prefill).
    base_s: float
    # Seconds more per 1,000 prompt tokens (prefill).
    per_1k_tokens_s: float
    # The budget never exceeds this, whatever the prompt.
    max_s: float
    # The fewest UTF-8 bytes a token takes, for the gateway's outer bound when only the text is known.
    bytes_per_token: float

    def estimate_tokens(self, prompt_bytes: int) -> int:
        """The most prompt tokens a prompt of `prompt_bytes` UTF-8 bytes can be (rounded up)."""
        return math.ceil(max(prompt_bytes, 0) / self.bytes_per_token)

    def allowance_s(self, prompt_tokens: int) -> float:
        """Prefill allowance of a prompt of `prompt_tokens` tokens, beyond the base."""
        return self.per_1k_tokens_s * max(prompt_tokens, 0) / 1000

    def budget_s(self, prompt_tokens: int) -> float:
        """Seconds a healthy instance may take to the first token of this prompt."""
        return min(self.base_s + self.allowance_s(prompt_tokens), self.max_s)

    def budget_ms_for_bytes(self, prompt_bytes: int) -> int:
        """The gateway's per-try timeout (whole milliseconds, rounded up) of a prompt of
        `prompt_bytes`: past the budget of its real tokens, which the instance holds its try to,
        by one base at least (the chat template's tokens, the hop), so that Envoy abandons only a
        try its instance could not end."""
        return math.ceil((self.budget_s(self.estimate_tokens(prompt_bytes)) + self.base_s) * 1000)

    def score_wait_ms(self, wait_s: float) -> int:
        """The per-try timeout of a GetScore call that waits up to `wait_s` for its score."""
        wait = 0.0 if math.isnan(wait_s) else min(max(wait_s, 0.0), SCORE_WAIT_MAX_S)
        return math.ceil((self.base_s + wait) * 1000)

    def excess_s(self, ttft_s: float, prompt_tokens: int) -> float:
        """Time to first token beyond the prompt's prefill allowance (never below zero): what the
        SLO judges, comparable between a 10-token and a 6,000-token prompt."""
        return max(ttft_s - self.allowance_s(prompt_tokens), 0.0)
