"""Aggregation state behind the exposition: counters, gauges and histograms by label set.

Cumulative points replace a series' value, delta points add to it. Each metric keeps at most
`max_series` label sets; points of further label sets fold into one overflow series whose label
values are all `other` (cumulative sources are turned into deltas first, so folding never double
counts), and every folded point is counted. Series that receive nothing for `ttl_s` are dropped.
Thread-safe: the consumer folds under `lock`, the exposition thread takes snapshots under it.
"""

from __future__ import annotations

import enum
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

Labels = tuple[tuple[str, str], ...]
OTHER = "other"
# Name prefixes of the collector's own metrics; exported metrics may not take them.
RESERVED_PREFIXES = ("ztgate_telemetry_", "ztgate_slo_")


class Kind(enum.Enum):
    COUNTER = "counter"
    GAUGE = "gauge"
    HISTOGRAM = "histogram"


def rebucket(src_bounds: Sequence[float], src_counts: Sequence[float],
             dst_bounds: Sequence[float]) -> list[float]:
    """Moves each source bucket into the first target bucket whose upper bound covers it.

    Conservative: a count is never reported below its true value's bucket.
    """
    out = [0.0] * (len(dst_bounds) + 1)
    j = 0
    for i, count in enumerate(src_counts):
        if i >= len(src_bounds):
            out[-1] += count
            continue
        upper = src_bounds[i]
        while j < len(dst_bounds) and dst_bounds[j] < upper:
            j += 1
        out[j] += count
    return out


@dataclass
class Series:
    labels: Labels
    last_seen: float
    value: float = 0.0
    bounds: tuple[float, ...] = ()
    counts: list[float] = field(default_factory=list)
    sum: float = 0.0
    count: float = 0.0

    def add_hist(self, bounds: tuple[float, ...], counts: Sequence[float], total: float,
                 n: float) -> None:
        if not self.counts:
            self.bounds, self.counts = bounds, [0.0] * (len(bounds) + 1)
        if bounds != self.bounds:
            counts = rebucket(bounds, counts, self.bounds)
        for i, c in enumerate(counts):
            self.counts[i] += c
        self.sum += total
        self.count += n


@dataclass
class _Source:
    """Last cumulative values of a label set that was folded into the overflow series."""

    start_ns: int
    value: float
    counts: tuple[float, ...]
    sum: float
    count: float
    last_seen: float


@dataclass
class Family:
    name: str
    kind: Kind
    help: str
    series: dict[Labels, Series] = field(default_factory=dict)
    overflow: Series | None = None
    sources: dict[Hashable, _Source] = field(default_factory=dict)
    overflow_points: int = 0


@dataclass(frozen=True)
class FamilySnapshot:
    name: str
    kind: Kind
    help: str
    series: tuple[Series, ...]


class Aggregator:
    def __init__(self, max_series: int, max_metrics: int, ttl_s: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.max_series = max_series
        self.max_metrics = max_metrics
        self.ttl_s = ttl_s
        self.clock = clock
        self.lock = threading.Lock()
        self.families: dict[str, Family] = {}
        # Data points dropped, by reason: metric_limit, type_conflict, cardinality, unsupported.
        self.dropped: dict[str, int] = {}
        self.now = clock()

    def drop(self, reason: str, points: int = 1) -> None:
        self.dropped[reason] = self.dropped.get(reason, 0) + points

    def family(self, name: str, kind: Kind, help_text: str) -> Family | None:
        """The family to fold into, or None (points dropped by the caller) past a limit."""
        fam = self.families.get(name)
        if fam is None:
            if len(self.families) >= self.max_metrics or name.startswith(RESERVED_PREFIXES):
                return None
            fam = self.families[name] = Family(name, kind, help_text or name)
        elif fam.kind is not kind:
            return None
        elif help_text and fam.help == name:
            fam.help = help_text
        return fam

    def reject_reason(self, name: str, kind: Kind) -> str:
        if name.startswith(RESERVED_PREFIXES):
            return "reserved_name"
        fam = self.families.get(name)
        return "type_conflict" if fam is not None and fam.kind is not kind else "metric_limit"

    def _slot(self, fam: Family, labels: Labels) -> Series | None:
        series = fam.series.get(labels)
        if series is not None:
            series.last_seen = self.now
            return series
        if len(fam.series) < self.max_series:
            series = fam.series[labels] = Series(labels, self.now)
            return series
        return None

    def _overflow(self, fam: Family, labels: Labels) -> Series:
        fam.overflow_points += 1
        if fam.overflow is None:
            fam.overflow = Series(tuple((k, OTHER) for k, _ in labels), self.now)
        fam.overflow.last_seen = self.now
        return fam.overflow

    def _source(self, fam: Family, labels: Labels, start_ns: int) -> tuple[_Source | None, bool]:
        """The overflowed cumulative source, and whether it is new or was reset."""
        src = fam.sources.get(labels)
        if src is not None and src.start_ns == start_ns:
            src.last_seen = self.now
            return src, False
        if src is None and len(fam.sources) >= self.max_series:
            return None, True
        src = fam.sources[labels] = _Source(start_ns, 0.0, (), 0.0, 0.0, self.now)
        return src, True

    def number(self, fam: Family, labels: Labels, value: float, delta: bool,
               start_ns: int = 0) -> None:
        """Folds one counter or gauge point; delta sums add, cumulative sums and gauges replace."""
        series = self._slot(fam, labels)
        if series is not None:
            if delta:
                series.value += value
            else:
                series.value = value
            return
        if not delta and fam.kind is Kind.GAUGE:
            self._overflow(fam, labels).value = value
            return
        if not delta:
            src, fresh = self._source(fam, labels, start_ns)
            if src is None:
                self.drop("cardinality")
                return
            increase = value if fresh or value < src.value else value - src.value
            src.value = value
            value = increase
        self._overflow(fam, labels).value += value

    def histogram(self, fam: Family, labels: Labels, bounds: tuple[float, ...],
                  counts: Sequence[float], total: float, n: float, cumulative: bool,
                  start_ns: int = 0) -> None:
        """Folds one explicit-bucket histogram point (counts per bucket, not cumulative)."""
        series = self._slot(fam, labels)
        if series is not None:
            if cumulative:
                series.bounds, series.counts = bounds, list(counts)
                series.sum, series.count = total, n
            else:
                series.add_hist(bounds, counts, total, n)
            return
        if cumulative:
            src, fresh = self._source(fam, labels, start_ns)
            if src is None:
                self.drop("cardinality")
                return
            current = tuple(counts)
            if fresh or n < src.count or len(current) != len(src.counts):
                delta, dsum, dn = current, total, n
            else:
                delta = tuple(c - p for c, p in zip(current, src.counts))
                dsum, dn = total - src.sum, n - src.count
            src.counts, src.sum, src.count = current, total, n
            counts, total, n = delta, dsum, dn
        self._overflow(fam, labels).add_hist(bounds, counts, total, n)

    def expire(self) -> int:
        """Drops series and overflow sources idle for longer than ttl_s; returns how many."""
        cutoff = self.clock() - self.ttl_s
        removed = 0
        with self.lock:
            for fam in self.families.values():
                for key in [k for k, s in fam.series.items() if s.last_seen < cutoff]:
                    del fam.series[key]
                    removed += 1
                for key in [k for k, s in fam.sources.items() if s.last_seen < cutoff]:
                    del fam.sources[key]
                if fam.overflow is not None and fam.overflow.last_seen < cutoff:
                    fam.overflow = None
                    removed += 1
        return removed

    def snapshot(self) -> list[FamilySnapshot]:
        """A consistent copy of every family, for rendering outside the lock."""
        with self.lock:
            out = []
            for fam in self.families.values():
                series = [Series(s.labels, s.last_seen, s.value, s.bounds, list(s.counts), s.sum,
                                 s.count) for s in fam.series.values()]
                if fam.overflow is not None:
                    o = fam.overflow
                    series.append(Series(o.labels, o.last_seen, o.value, o.bounds, list(o.counts),
                                         o.sum, o.count))
                out.append(FamilySnapshot(fam.name, fam.kind, fam.help, tuple(series)))
            return out

    def overflow_counts(self) -> dict[str, int]:
        with self.lock:
            return {f.name: f.overflow_points for f in self.families.values() if f.overflow_points}

    def series_count(self) -> int:
        with self.lock:
            return sum(len(f.series) + (f.overflow is not None) for f in self.families.values())
