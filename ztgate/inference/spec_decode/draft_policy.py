"""How many of a request's draft tokens are worth verifying, from how its drafts have done so far.

Speculation pays when the tokens a step accepts outweigh what verifying the drafts costs. Both sides
are measured, not guessed: the cost of one more token in a step (`speculative.draft_token_cost`) and
each request's acceptance probability, with a fading memory. The j-th draft is verified when p**j is at
least the step's cost per token it returns. Output never changes: verification still decides every
token. The model and the figures: docs/architecture.md ("Module notes"), docs/benchmarks.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# The estimate's memory: evidence halves every this many engine steps.
HALF_LIFE_STEPS = 16
STEP_DECAY = 0.5 ** (1 / HALF_LIFE_STEPS)
# A new request starts at p = 0.5 (one accepted, one rejected pseudo-count): it drafts at once, and a
# few verifications outweigh the prior.
PRIOR_ACCEPTED = 1.0
PRIOR_REJECTED = 1.0


@dataclass(slots=True)
class AcceptanceEstimate:
    """A request's per-draft-token acceptance probability, from decayed counts."""

    accepted: float = 0.0  # draft tokens accepted
    rejected: float = 0.0  # verifications that ended at a rejected draft token

    def record(self, drafted: int, accepted: int) -> None:
        """One verification of `drafted` tokens of which the first `accepted` were taken."""
        if drafted <= 0:
            return
        accepted = max(0, min(accepted, drafted))
        self.accepted += accepted
        if accepted < drafted:
            self.rejected += 1.0

    def fade(self, factor: float = STEP_DECAY) -> None:
        """One engine step passed: older evidence counts for less."""
        self.accepted *= factor
        self.rejected *= factor

    @property
    def rate(self) -> float:
        return (self.accepted + PRIOR_ACCEPTED) / (self.accepted + self.rejected + PRIOR_ACCEPTED + PRIOR_REJECTED)


def break_even(cost: float, batch: int) -> float:
    """The acceptance probability below which one more draft token in a step of `batch` requests
    costs more time than the tokens it is expected to return."""
    if cost <= 0:
        return 0.0
    load = cost * max(1, batch)
    return load / (1.0 + load)


def draft_limit(rate: float, cost: float, batch: int, max_tokens: int) -> int:
    """How many leading draft tokens to verify: the longest prefix whose last token's acceptance
    probability (rate**j) is still at least the break-even."""
    if max_tokens <= 0:
        return 0
    threshold = break_even(cost, batch)
    if threshold <= 0.0:
        return max_tokens
    if rate <= 0.0 or rate < threshold:
        return 0
    if rate >= 1.0:
        return max_tokens
    # rate**j >= threshold  <=>  j <= log(threshold) / log(rate)
    return min(max_tokens, int(math.floor(math.log(threshold) / math.log(rate) + 1e-9)))
