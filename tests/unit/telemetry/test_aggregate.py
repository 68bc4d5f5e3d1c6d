"""Aggregation: cumulative replaces, delta adds, rebucketing, and bounded label cardinality."""

import pytest

from ztgate.telemetry.aggregate import OTHER, Aggregator, Kind, rebucket


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def _agg(max_series: int = 10, max_metrics: int = 10, clock=None) -> Aggregator:
    return Aggregator(max_series, max_metrics, ttl_s=60.0, clock=clock or Clock())


def _values(agg: Aggregator, name: str) -> dict:
    fam = next(f for f in agg.snapshot() if f.name == name)
    return {s.labels: (s.value if fam.kind is not Kind.HISTOGRAM else (s.counts, s.sum, s.count))
            for s in fam.series}


def test_cumulative_counter_points_replace_and_delta_points_add() -> None:
    agg = _agg()
    cum = agg.family("c", Kind.COUNTER, "")
    delta = agg.family("d", Kind.COUNTER, "")
    labels = (("k", "v"),)
    for v in (5.0, 7.0):
        agg.number(cum, labels, v, delta=False)
        agg.number(delta, labels, v, delta=True)
    assert _values(agg, "c") == {labels: 7.0}
    assert _values(agg, "d") == {labels: 12.0}


def test_delta_histograms_add_and_are_rebucketed_into_the_series_bounds() -> None:
    agg = _agg()
    fam = agg.family("h", Kind.HISTOGRAM, "")
    labels = (("k", "v"),)
    agg.histogram(fam, labels, (1.0, 2.0), [1, 1, 1], 3.5, 3, cumulative=False)
    agg.histogram(fam, labels, (0.5, 1.5), [2, 0, 1], 1.9, 3, cumulative=False)
    counts, total, n = _values(agg, "h")[labels]
    # The second export's buckets: le 0.5 -> le 1.0, le 1.5 -> le 2.0, +Inf -> +Inf.
    assert counts == [3, 1, 2] and n == 6 and total == pytest.approx(5.4)


@pytest.mark.parametrize("src_bounds, src_counts, dst_bounds, expected", [
    ((1.0, 2.0), [1, 2, 3], (1.0, 2.0), [1, 2, 3]),
    ((0.5, 1.0, 2.0), [1, 1, 1, 1], (1.0,), [2, 2]),
    ((3.0,), [4, 1], (1.0, 5.0), [0, 4, 1]),
    ((), [7], (1.0,), [0, 7]),
])
def test_rebucket_never_places_a_count_below_its_bucket(src_bounds, src_counts, dst_bounds,
                                                        expected):
    assert rebucket(src_bounds, src_counts, dst_bounds) == expected


def test_label_sets_past_the_cap_fold_into_one_other_series_and_are_counted() -> None:
    agg = _agg(max_series=2)
    fam = agg.family("req", Kind.COUNTER, "")
    for tenant in ("a", "b", "c", "d", "e"):
        agg.number(fam, (("tenant", tenant),), 1.0, delta=True)
    values = _values(agg, "req")
    assert len(values) == 3
    assert values[(("tenant", OTHER),)] == 3.0
    assert agg.overflow_counts() == {"req": 3}


def test_cumulative_sources_in_the_overflow_contribute_increases_not_totals() -> None:
    agg = _agg(max_series=2)
    fam = agg.family("req", Kind.COUNTER, "")
    agg.number(fam, (("t", "kept1"),), 100.0, delta=False)
    agg.number(fam, (("t", "kept2"),), 100.0, delta=False)
    for value in (10.0, 15.0, 18.0):
        agg.number(fam, (("t", "x"),), value, delta=False, start_ns=1)
    agg.number(fam, (("t", "y"),), 4.0, delta=False, start_ns=1)
    agg.number(fam, (("t", "x"),), 2.0, delta=False, start_ns=2)  # restarted source
    assert _values(agg, "req")[(("t", OTHER),)] == 18.0 + 4.0 + 2.0
    # Overflowed sources are tracked up to the same cap; a further one is dropped and counted.
    agg.number(fam, (("t", "z"),), 9.0, delta=False, start_ns=1)
    assert agg.dropped == {"cardinality": 1}


def test_cumulative_histograms_in_the_overflow_add_bucket_increases() -> None:
    agg = _agg(max_series=1)
    fam = agg.family("h", Kind.HISTOGRAM, "")
    agg.histogram(fam, (("t", "kept"),), (1.0,), [1, 0], 0.5, 1, cumulative=True)
    agg.histogram(fam, (("t", "x"),), (1.0,), [1, 1], 2.0, 2, cumulative=True, start_ns=1)
    agg.histogram(fam, (("t", "x"),), (1.0,), [3, 1], 3.0, 4, cumulative=True, start_ns=1)
    counts, total, n = _values(agg, "h")[(("t", OTHER),)]
    assert counts == [3, 1] and n == 4 and total == 3.0


def test_metric_limit_and_type_conflicts_refuse_the_family() -> None:
    agg = _agg(max_metrics=1)
    assert agg.family("a", Kind.COUNTER, "") is not None
    assert agg.family("a", Kind.GAUGE, "") is None
    assert agg.reject_reason("a", Kind.GAUGE) == "type_conflict"
    assert agg.family("b", Kind.COUNTER, "") is None
    assert agg.reject_reason("b", Kind.COUNTER) == "metric_limit"


def test_the_collectors_own_metric_names_cannot_be_taken_by_exports() -> None:
    agg = _agg()
    assert agg.family("ztgate_telemetry_queue_depth", Kind.GAUGE, "") is None
    assert agg.reject_reason("ztgate_slo_fallback_active", Kind.GAUGE) == "reserved_name"


def test_idle_series_expire_and_free_room_under_the_cap() -> None:
    clock = Clock()
    agg = _agg(max_series=1, clock=clock)
    fam = agg.family("g", Kind.GAUGE, "")
    agg.now = clock()
    agg.number(fam, (("t", "old"),), 1.0, delta=False)
    clock.t += 120
    assert agg.expire() == 1
    agg.now = clock()
    agg.number(fam, (("t", "new"),), 2.0, delta=False)
    assert _values(agg, "g") == {(("t", "new"),): 2.0}
