"""Rolling latency histograms for the SLO controller, fed with OTLP histogram points.

Cumulative points become deltas per source; quantiles are answered as PromQL's histogram_quantile
does. No one tenant can set the quantile: while two tenants or more have samples, the window is judged
without the tenant that raises it most, so a handful of one tenant's slow first tokens cannot move
every tenant to the fallback. Details: docs/architecture.md ("Module notes").
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
        self._entries: deque[tuple[float, tuple[float, ...], tuple[float, ...], str]] = deque()

    def add(self, bounds: tuple[float, ...], counts: Sequence[float], tenant: str = "") -> None:
        """One entry of bucket counts; `tenant` is whom they were measured for ("" for none)."""
        with self._lock:
            self._entries.append((self.clock(), bounds, tuple(counts), tenant))
            if len(self._entries) > MAX_ENTRIES:
                self._entries.popleft()

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def _prune(self) -> None:
        cutoff = self.clock() - self.window_s
        while self._entries and self._entries[0][0] < cutoff:
            self._entries.popleft()

    def merged_by_tenant(self) -> tuple[tuple[float, ...], list[float], dict[str, list[float]]]:
        """Bounds of the newest entry, the window's counts in them, and each tenant's share of
        those counts (tenants named in the entries; "" not listed)."""
        with self._lock:
            self._prune()
            entries = list(self._entries)
        if not entries:
            return (), [], {}
        bounds = entries[-1][1]
        total = [0.0] * (len(bounds) + 1)
        tenants: dict[str, list[float]] = {}
        for _, b, counts, tenant in entries:
            if b != bounds:
                counts = tuple(rebucket(b, counts, bounds))
            own = tenants.setdefault(tenant, [0.0] * len(total)) if tenant else None
            for i, c in enumerate(counts):
                total[i] += c
                if own is not None:
                    own[i] += c
        return bounds, total, tenants

    def merged(self) -> tuple[tuple[float, ...], list[float]]:
        """Bounds of the newest entry and the window's counts in them."""
        bounds, total, _ = self.merged_by_tenant()
        return bounds, total

    def quantile(self, q: float) -> tuple[float | None, int]:
        """The q-quantile over the window and the number of samples it rests on."""
        bounds, counts = self.merged()
        return quantile(q, bounds, counts), int(sum(counts))

    def quantile_no_tenant_decides(self, q: float) -> tuple[float | None, int]:
        """The q-quantile no one tenant sets: with two tenants or more in the window, the lowest of
        the whole window's and those with one tenant's samples left out (and the samples it rests
        on); else the whole window's. Leaving a tenant out only ever lowers it."""
        bounds, total, tenants = self.merged_by_tenant()
        best = (quantile(q, bounds, total), int(sum(total)))
        if len(tenants) < 2 or best[0] is None:
            return best
        for own in tenants.values():
            rest = [t - o for t, o in zip(total, own)]
            value = quantile(q, bounds, rest)
            if value is not None and value < best[0]:
                best = (value, int(round(sum(rest))))
        return best


class LatencySignal:
    """One metric of one instance (e.g. TTFT of the primary), as a rolling histogram.

    Besides OTLP points, the window takes samples the controller measured itself (`add`): a
    probe's time, or a try Envoy abandoned (above every bound). Points labelled `skip` (a
    (label, value) pair: the probes' own tenant) are left out, since the probes are counted
    directly."""

    def __init__(self, metric: str, instance_label: str, instance: str, window_s: float,
                 clock: Callable[[], float] = time.monotonic,
                 wall_ns: Callable[[], int] = time.time_ns,
                 bounds: tuple[float, ...] = (), skip: tuple[str, str] | None = None,
                 tenant_label: str | None = None, attribution_label: str = "") -> None:
        self.metric = metric
        self.instance_label = instance_label
        self.instance = instance
        self.window = RollingHistogram(window_s, clock)
        self.wall_ns = wall_ns
        # Buckets of the samples added directly (the metric's own bounds).
        self.bounds = bounds
        self.skip = skip
        # The label naming each point's tenant; set, no one tenant decides the P99 (module doc).
        self.tenant_label = tenant_label
        # The label that says a point was measured for a caller (the tenant's, guard on or off).
        self.attribution_label = attribution_label or tenant_label or ""
        self._last: OrderedDict[Labels, tuple[int, tuple[float, ...]]] = OrderedDict()
        # Samples above every bound reported with a tenant so far (the primary's own misses: a try
        # it ended at its budget or refused); the controller matches Envoy's retries against them.
        # Written by the pipeline thread, read by the controller (one float: no lock needed).
        self.attributed_misses = 0.0

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
            if attributes.get(self.attribution_label, "") and len(delta) > len(bounds):
                self.attributed_misses += delta[len(bounds)]
            tenant = attributes.get(self.tenant_label, "") if self.tenant_label else ""
            self.window.add(tuple(bounds), delta, str(tenant))

    def p99(self) -> tuple[float | None, int]:
        if self.tenant_label:
            return self.window.quantile_no_tenant_decides(0.99)
        return self.window.quantile(0.99)
