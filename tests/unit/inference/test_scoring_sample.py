"""The scorer's sample: all, none, or a stable share close to the percent asked."""

import pytest

from ztgate.inference.hallucination import sampled


@pytest.mark.parametrize("percent, expected", [(100, 1.0), (0, 0.0)])
def test_all_or_none(percent: int, expected: float) -> None:
    ids = [f"tenant/{i}" for i in range(200)]
    assert sum(sampled(i, percent) for i in ids) / len(ids) == expected


@pytest.mark.parametrize("percent", [10, 25, 50])
def test_a_share_close_to_the_percent_and_stable_per_id(percent: int) -> None:
    ids = [f"acme/req-{i}" for i in range(4000)]
    share = sum(sampled(i, percent) for i in ids) / len(ids)
    assert abs(share - percent / 100) < 0.03, share
    assert [sampled(i, percent) for i in ids[:100]] == [sampled(i, percent) for i in ids[:100]]
