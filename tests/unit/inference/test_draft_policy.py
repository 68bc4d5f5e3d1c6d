"""Adaptive drafting's policy (ztgate/inference/spec_decode/draft_policy.py): which draft tokens are
worth verifying, from a request's acceptance and the measured cost of a verified token. Properties
over generated acceptance rates, costs and batch sizes, under the model the policy assumes (a step
of n tokens costs 1 + cost * n; draft j is accepted with probability p**j)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ztgate.inference.spec_decode.draft_policy import (
    HALF_LIFE_STEPS,
    AcceptanceEstimate,
    break_even,
    draft_limit,
)

rates = st.floats(0.0, 1.0, allow_nan=False)
costs = st.floats(0.0, 2.0, allow_nan=False)
batches = st.integers(1, 64)
max_tokens = st.integers(0, 12)


def expected_throughput(p: float, cost: float, batch: int, drafts: int) -> float:
    """Tokens per unit time for a step of `batch` requests, each verifying `drafts` drafts."""
    per_request = sum(p ** j for j in range(drafts + 1))  # 1 + p + ... + p**drafts
    return batch * per_request / (1.0 + cost * batch * (1 + drafts))


@settings(max_examples=300, deadline=None)
@given(p=rates, cost=costs, batch=batches, k=max_tokens)
def test_the_limit_keeps_exactly_the_drafts_that_pay(p: float, cost: float, batch: int, k: int) -> None:
    limit = draft_limit(p, cost, batch, k)
    threshold = break_even(cost, batch)
    assert 0 <= limit <= k
    if limit:
        assert p ** limit >= threshold - 1e-9
    if limit < k:
        assert p ** (limit + 1) < threshold + 1e-9


@settings(max_examples=300, deadline=None)
@given(p=rates, cost=costs, batch=batches, k=max_tokens)
def test_drafting_by_the_policy_is_never_slower_than_plain_decoding(p: float, cost: float, batch: int, k: int) -> None:
    """The bench's target, under the cost model: whatever the acceptance, load and cost, verifying
    what the policy keeps returns at least plain decoding's tokens per unit time."""
    limit = draft_limit(p, cost, batch, k)
    assert expected_throughput(p, cost, batch, limit) >= expected_throughput(p, cost, batch, 0) * (1 - 1e-9)


@settings(max_examples=300, deadline=None)
@given(p=rates, q=rates, cost=costs, batch=batches, more=st.integers(0, 16), k=max_tokens)
def test_more_acceptance_never_drafts_less_and_more_load_never_drafts_more(
        p: float, q: float, cost: float, batch: int, more: int, k: int) -> None:
    lo, hi = sorted((p, q))
    assert draft_limit(lo, cost, batch, k) <= draft_limit(hi, cost, batch, k)
    assert draft_limit(p, cost, batch + more, k) <= draft_limit(p, cost, batch, k)
    assert draft_limit(p, cost + more / 8, batch, k) <= draft_limit(p, cost, batch, k)


@given(batch=batches, k=max_tokens, p=rates)
def test_a_free_verification_verifies_every_draft(batch: int, k: int, p: float) -> None:
    """Cost 0 (a GPU, or adaptation off): every draft proposed is verified."""
    assert break_even(0.0, batch) == 0.0
    assert draft_limit(p, 0.0, batch, k) == k


def test_the_measured_cost_keeps_one_weak_draft_alone_and_none_in_a_batch() -> None:
    """At this CPU's 0.05: n-gram-like acceptance on mixed chat (~0.1) still pays one draft for a
    request alone, not with 4 in flight, where a verified token costs a sixth of a token."""
    assert draft_limit(0.1, 0.05, 1, 8) == 1
    assert draft_limit(0.1, 0.05, 4, 8) == 0
    assert draft_limit(0.8, 0.05, 4, 8) == 8
    assert break_even(0.05, 4) == pytest.approx(0.2 / 1.2)


# A statistical property: for a rare seed the fading estimate strays past the band (one seed in a CI
# run did, 0.30 for p 0.5), so the examples are fixed (derandomize) rather than searched for it.
@settings(max_examples=100, deadline=None, derandomize=True, database=None)
@given(p=st.floats(0.05, 0.95), seed=st.integers(0, 2**32 - 1))
def test_the_estimate_follows_a_requests_acceptance(p: float, seed: int) -> None:
    """Verifications drawn from a geometric acceptance with rate p move the estimate to within a
    band of p, from the prior of 0.5."""
    rng = random.Random(seed)
    estimate = AcceptanceEstimate()
    for _ in range(400):
        estimate.fade()
        accepted = 0
        while accepted < 8 and rng.random() < p:
            accepted += 1
        estimate.record(8, accepted)
    assert abs(estimate.rate - p) < 0.2


def test_a_request_whose_drafts_fail_stops_drafting_and_is_probed_again_as_its_record_fades() -> None:
    estimate = AcceptanceEstimate()
    verified = []
    for step in range(200):
        estimate.fade()
        keep = draft_limit(estimate.rate, 0.05, 4, 8)
        verified.append(keep)
        estimate.record(keep, 0)  # every draft rejected
    assert verified[0] >= 1  # a new request drafts
    assert sum(1 for k in verified[100:] if k) >= 3  # probed now and then...
    assert sum(verified[100:]) <= 100 // 4  # ...but mostly not drafting
    faded = AcceptanceEstimate(accepted=0.0, rejected=10.0)
    for _ in range(HALF_LIFE_STEPS):
        faded.fade()
    assert faded.rejected == pytest.approx(5.0)


def test_a_verification_without_drafts_is_no_evidence() -> None:
    estimate = AcceptanceEstimate()
    estimate.record(0, 0)
    estimate.record(-1, 3)
    assert estimate.rate == 0.5
    estimate.record(3, 7)  # more accepted than drafted: counted as all accepted, no rejection
    assert estimate.accepted == 3 and estimate.rejected == 0
