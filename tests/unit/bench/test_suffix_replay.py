"""The suffix-decoding replay (bench/ztgate_bench/suffix_replay.py) on arctic-inference's real tree."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ztgate_bench.suffix_replay import copy_like, replay, split_sequences

HEADER = [1, 2]


def test_sequences_split_after_the_last_answer_header():
    ids = [7, 1, 2, 8, 9, 1, 2, 5, 6] + [3, 1, 2, 4]
    assert split_sequences(ids, [0, 9, 13], HEADER) == [([7, 1, 2, 8, 9, 1, 2], [5, 6]), ([3, 1, 2], [4])]
    assert split_sequences([5, 6, 7], [0, 3], HEADER) == []  # no header: not a chat sample


def test_a_copied_answer_is_copy_like_and_replays_in_few_steps():
    prompt = [50, 51] + list(range(100, 140)) + HEADER
    copied = list(range(100, 140))
    own = list(range(300, 340))
    assert copy_like([(prompt, copied), (prompt, own)]) == [(prompt, copied)]
    fast = replay([(prompt, copied)], num_speculative_tokens=8, max_spec_factor=2.0, min_token_prob=0.1)
    slow = replay([(prompt, own)], num_speculative_tokens=8, max_spec_factor=2.0, min_token_prob=0.1)
    assert fast.mean_acceptance_length > 4 and slow.mean_acceptance_length == 1.0
    # A fresh match drafts further at a higher factor: fewer steps for the same copy.
    assert fast.mean_acceptance_length > replay([(prompt, copied)], 8, 1.0, 0.1).mean_acceptance_length


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(10, 14), min_size=1, max_size=30), st.lists(st.integers(10, 14), min_size=1, max_size=30),
       st.integers(1, 8), st.sampled_from([1.0, 2.0, 4.0]))
def test_a_replay_emits_every_answer_token_and_never_more_than_a_step_can(prompt, answer, k, factor):
    r = replay([(prompt + HEADER, answer)], k, factor, 0.1)
    if len(answer) == 1:
        assert r.mean_acceptance_length == 0.0  # the prefill's token only: no decode step
    else:
        assert 1.0 <= r.mean_acceptance_length <= k + 1
        assert 0.0 <= r.drafted_per_step <= k


@st.composite
def copy_tasks(draw):
    """A generated family of copy-heavy requests, not the bench's: a prompt of random tokens and an
    answer that copies spans of it (in any order) between tokens of its own."""
    prompt = draw(st.lists(st.integers(100, 5000), min_size=40, max_size=120, unique=True))
    answer: list[int] = []
    for _ in range(draw(st.integers(1, 4))):
        start = draw(st.integers(0, len(prompt) - 10))
        answer += prompt[start:start + draw(st.integers(5, 30))]
        answer += draw(st.lists(st.integers(6000, 6100), min_size=0, max_size=3))
    return prompt + HEADER, answer


@settings(max_examples=60, deadline=None)
@given(st.lists(copy_tasks(), min_size=3, max_size=6))
def test_a_factor_of_two_takes_copies_in_no_more_steps_than_vllms_default(tasks):
    """suffix_max_spec_factor 2 was chosen on the trainer's answers; on any family of copying answers
    it must not need more verification steps than vLLM's factor 1."""
    two = replay(tasks, 8, 2.0, 0.1)
    one = replay(tasks, 8, 1.0, 0.1)
    assert two.mean_acceptance_length >= one.mean_acceptance_length
