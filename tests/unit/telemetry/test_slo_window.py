"""The SLO window: PromQL-like quantiles, cumulative-to-delta per source, and expiry."""

import pytest

from ztgate.telemetry.slo_window import LatencySignal, RollingHistogram, quantile

B = (0.8, 1.2, 2.0)


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


@pytest.mark.parametrize("counts, expected", [
    ([100, 0, 0, 0], 0.792),                # all under 0.8: interpolated inside (0, 0.8]
    ([99, 1, 0, 0], 0.8),                   # exactly 1 % above 0.8: P99 sits on the bound
    ([98, 2, 0, 0], pytest.approx(1.0)),    # 2 % in (0.8, 1.2]: interpolated
    ([0, 0, 0, 10], 2.0),                   # in +Inf: the highest finite bound
    ([0, 0, 0, 0], None),
])
def test_quantile_matches_histogram_quantile(counts, expected) -> None:
    assert quantile(0.99, B, counts) == (pytest.approx(expected) if isinstance(expected, float)
                                         else expected)


def test_a_threshold_on_a_bucket_bound_makes_the_trip_decision_exact() -> None:
    # 1 % of samples above 1.2 s: P99 is not above 1.2 s; 2 %: it is.
    assert quantile(0.99, B, [0, 99, 1, 0]) <= 1.2
    assert quantile(0.99, B, [0, 98, 2, 0]) > 1.2


def test_window_forgets_entries_older_than_its_length() -> None:
    clock = Clock()
    w = RollingHistogram(10.0, clock)
    w.add(B, [0, 0, 5, 0])
    clock.t += 11
    w.add(B, [5, 0, 0, 0])
    p99, samples = w.quantile(0.99)
    assert samples == 5 and p99 < 0.8


def _signal(clock, wall_ns=lambda: 10**18) -> LatencySignal:
    return LatencySignal("ttft", "ztgate_instance", "primary", 30.0, clock, wall_ns)


def test_cumulative_points_become_deltas_per_source_and_other_instances_are_ignored() -> None:
    clock = Clock()
    sig = _signal(clock)
    primary = (("job", "inf"), ("ztgate_instance", "primary"))
    start = 10**18 - 1
    sig.observe("ttft", primary, B, [10, 0, 0, 0], start, True)
    sig.observe("ttft", primary, B, [10, 0, 5, 0], start, True)   # +5 slow
    sig.observe("ttft", (("ztgate_instance", "fallback"),), B, [0, 0, 0, 99], start, True)
    _, samples = sig.p99()
    assert samples == 15
    # A restarted source (new start time) counts from zero again.
    sig.observe("ttft", primary, B, [3, 0, 0, 0], start + 5, True)
    assert sig.p99()[1] == 18


def test_first_point_of_an_old_source_is_a_baseline_not_window_data() -> None:
    clock = Clock()
    sig = _signal(clock, wall_ns=lambda: 3600 * 10**9)
    labels = (("ztgate_instance", "primary"),)
    sig.observe("ttft", labels, B, [0, 0, 0, 500], 1, True)      # an hour of history
    assert sig.p99() == (None, 0)
    sig.observe("ttft", labels, B, [4, 0, 0, 500], 1, True)
    assert sig.p99()[1] == 4


def test_delta_points_are_added_as_they_come() -> None:
    sig = _signal(Clock())
    labels = (("ztgate_instance", "primary"),)
    for _ in range(3):
        sig.observe("ttft", labels, B, [1, 1, 0, 0], 0, False)
    assert sig.p99()[1] == 6
