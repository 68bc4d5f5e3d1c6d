"""Rolling latency histograms for the SLO controller, fed with OTLP histogram points.

Cumulative points are turned into deltas per source (a restarted source, seen by its new start
time or a count going down, starts again from zero). The window keeps (arrival time, bucket
deltas) and answers quantiles the way PromQL's histogram_quantile does: linear interpolation
inside the bucket that holds the rank, the highest finite bound when the rank lies in +Inf.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence

from ztgate.telemetry.aggregate import Labels, rebucket

# Cumulative sources remembered; the least recently seen is forgotten past this.
MAX_SOURCES = 4096
# Window entries kept at most (one per export per source); the oldest go first past this.
MAX_ENTRIES = 20_000


def quantile(q: float, bounds: Sequence[float], counts: Sequence[float]) -> float | None:
    """histogram_quantile over per-bucket counts (len(bounds) + 1); None without samples."""
    total = sum(counts)
    if total <= 0:
        return None
    rank = q * total
    cumulative = 0.0
    for i, count in enumerate(counts):
        previous = cumulative
        cumulative += count
        if cumulative >= rank and count > 0:
            if i >= len(bounds):
                return bounds[-1] if bounds else None
            upper = bounds[i]
            lower = bounds[i - 1] if i > 0 else min(0.0, upper)
            return lower + (upper - lower) * (rank - previous) / count
    return bounds[-1] if bounds else None


class RollingHistogram:
    """Fed by the pipeline thread, read by the controller on the event loop (hence the lock)."""

    def __init__(self, window_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.window_s = window_s
        self.clock = clock
        self._lock = threading.Lock()
        self._entries: deque[tuple[float, tuple[float, ...], tuple[float, ...]]] = deque()

    def add(self, bounds: tuple[float, ...], counts: Sequence[float]) -> None:
        with self._lock:
            self._entries.append((self.clock(), bounds, tuple(counts)))
            if len(self._entries) > MAX_ENTRIES:
                self._entries.popleft()

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def _prune(self) -> None:
        cutoff = self.clock() - self.window_s
        while self._entries and self._entries[0][0] < cutoff:
            self._entries.popleft()

    def merged(self) -> tuple[tuple[float, ...], list[float]]:
        """Bounds of the newest entry and the window's counts in them."""
        with self._lock:
            self._prune()
            entries = list(self._entries)
        if not entries:
            return (), []
        bounds = entries[-1][1]
        total = [0.0] * (len(bounds) + 1)
        for _, b, counts in entries:
            if b != bounds:
                counts = tuple(rebucket(b, counts, bounds))
            for i, c in enumerate(counts):
                total[i] += c
        return bounds, total

    def quantile(self, q: float) -> tuple[float | None, int]:
        """The q-quantile over the window and the number of samples it rests on."""
        bounds, counts = self.merged()
        return quantile(q, bounds, counts), int(sum(counts))


class LatencySignal:
    """One metric of one instance (e.g. TTFT of the primary), as a rolling histogram.

    Besides OTLP points, the window takes samples the controller measured itself (`add`): a
    probe's time, or a try Envoy abandoned (above every bound). Points labelled `skip` (a
    (label, value) pair: the probes' own tenant) are left out, since the probes are counted
    directly."""

    def __init__(self, metric: str, instance_label: str, instance: str, window_s: float,
                 clock: Callable[[], float] = time.monotonic,
                 wall_ns: Callable[[], int] = time.time_ns,
                 bounds: tuple[float, ...] = (), skip: tuple[str, str] | None = None) -> None:
        self.metric = metric
        self.instance_label = instance_label
        self.instance = instance
        self.window = RollingHistogram(window_s, clock)
        self.wall_ns = wall_ns
        # Buckets of the samples added directly (the metric's own bounds).
        self.bounds = bounds
        self.skip = skip
        self._last: OrderedDict[Labels, tuple[int, tuple[float, ...]]] = OrderedDict()

    def add(self, value_s: float, count: int = 1) -> None:
        """`count` samples of `value_s` seconds (math.inf: above every bound)."""
        if count <= 0:
            return
        counts = [0.0] * (len(self.bounds) + 1)
        counts[next((i for i, b in enumerate(self.bounds) if value_s <= b), len(self.bounds))] = count
        self.window.add(self.bounds, counts)

    def wants(self, name: str) -> bool:
        return name == self.metric

    def observe(self, name: str, labels: Labels, bounds: Sequence[float], counts: Sequence[float],
                start_ns: int, cumulative: bool) -> None:
        attributes = dict(labels)
        if attributes.get(self.instance_label) != self.instance:
            return
        if self.skip is not None and attributes.get(self.skip[0]) == self.skip[1]:
            return
        current = tuple(counts)
        delta: Sequence[float] = current
        if cumulative:
            previous = self._last.get(labels)
            self._last[labels] = (start_ns, current)
            self._last.move_to_end(labels)
            if len(self._last) > MAX_SOURCES:
                self._last.popitem(last=False)
            if previous is None:
                # A source seen for the first time: count its history only if it is recent.
                age_s = (self.wall_ns() - start_ns) / 1e9
                if start_ns and age_s > self.window.window_s:
                    return
            elif previous[0] == start_ns and len(previous[1]) == len(current) \
                    and all(c >= p for c, p in zip(current, previous[1])):
                delta = tuple(c - p for c, p in zip(current, previous[1]))
        if sum(delta) > 0:
            self.window.add(tuple(bounds), delta)

    def p99(self) -> tuple[float | None, int]:
        return self.window.quantile(0.99)
