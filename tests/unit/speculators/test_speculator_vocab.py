"""The draft vocabulary: d2t and t2d agree with each other and keep the most frequent target tokens."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from ztgate.speculators.vocab import build_draft_vocab


@st.composite
def count_tables(draw):
    vocab = draw(st.integers(min_value=1, max_value=300))
    counts = draw(st.lists(st.integers(min_value=0, max_value=50), min_size=vocab, max_size=vocab))
    k = draw(st.integers(min_value=1, max_value=vocab))
    return torch.tensor(counts), k


@settings(max_examples=200, deadline=None)
@given(count_tables())
def test_d2t_and_t2d_describe_the_same_k_tokens(table):
    counts, k = table
    v = build_draft_vocab(counts, k)
    targets = torch.arange(k) + v.d2t  # what vLLM's compute_logits scatters each draft logit to
    assert v.size == k and v.d2t.dtype == torch.long and v.t2d.dtype == torch.bool
    assert torch.equal(targets, v.draft_to_target)
    assert bool((targets[1:] > targets[:-1]).all())  # ascending, so no two draft ids share a target
    assert int(v.t2d.sum()) == k and bool(v.t2d[targets].all())
    assert v.t2d.numel() == counts.numel()


@settings(max_examples=200, deadline=None)
@given(count_tables())
def test_every_kept_token_is_at_least_as_frequent_as_every_dropped_one(table):
    counts, k = table
    v = build_draft_vocab(counts, k)
    if k < counts.numel():
        assert int(counts[v.t2d].min()) >= int(counts[~v.t2d].max())


@settings(max_examples=100, deadline=None)
@given(count_tables(), st.data())
def test_target_to_draft_round_trips_inside_and_ignores_outside(table, data):
    counts, k = table
    v = build_draft_vocab(counts, k)
    ids = torch.tensor(data.draw(st.lists(st.integers(0, counts.numel() - 1), min_size=1, max_size=40)))
    mapped = v.target_to_draft(ids)
    inside = v.t2d[ids]
    assert torch.equal(v.draft_to_target[mapped[inside]], ids[inside])
    assert bool((mapped[~inside] == -100).all())


@pytest.mark.parametrize("k", [0, 11])
def test_a_draft_vocabulary_outside_1_to_the_target_size_is_refused(k):
    with pytest.raises(ValueError, match="between 1 and the target's 10"):
        build_draft_vocab(torch.ones(10), k)


def test_ties_go_to_the_lower_token_id():
    v = build_draft_vocab(torch.tensor([5, 1, 5, 5, 0]), 2)
    assert v.draft_to_target.tolist() == [0, 2] and v.d2t.tolist() == [0, 1]
