"""What `ztgate top` reads, as plain numbers: the collector's Prometheus exposition and Envoy's
admin counters and runtime, parsed into one `Snapshot` per refresh. No terminal here."""

from __future__ import annotations

import json
import math
import time
import urllib.parse
import urllib.request
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from prometheus_client.parser import text_string_to_metric_families

Labels = frozenset[tuple[str, str]]
# Envoy counters `top` shows: requests by upstream cluster (a door's), and the ingress statuses.
ENVOY_STATS = (r"^(cluster\.[a-z_]+\.upstream_rq_total"
               r"|http\.ingress\.downstream_rq_[1-5]xx)$")


@dataclass
class Snapshot:
    """One refresh: when, the exposition's samples, Envoy's counters and runtime, parts' health."""
    at: float
    samples: dict[str, dict[Labels, float]] = field(default_factory=dict)
    envoy: dict[str, float] = field(default_factory=dict)
    runtime: dict[str, str] = field(default_factory=dict)
    health: list[tuple[str, bool]] = field(default_factory=list)
    # What could not be read this time (a part down, Envoy's console away), for the status line.
    errors: list[str] = field(default_factory=list)

    def series(self, name: str, **match: str) -> list[tuple[dict[str, str], float]]:
        """The samples of `name` whose labels include `match` (a value `!x` excludes x)."""
        out = []
        for labels, value in self.samples.get(name, {}).items():
            have = dict(labels)
            if all((have.get(k) != v[1:]) if v.startswith("!") else (have.get(k) == v)
                   for k, v in match.items()):
                out.append((have, value))
        return out

    def total(self, name: str, by: str | None = None, **match: str) -> dict[str, float]:
        """Sum of `name`'s samples, per value of label `by` (or under "" without it)."""
        out: dict[str, float] = {}
        for labels, value in self.series(name, **match):
            key = labels.get(by, "") if by else ""
            out[key] = out.get(key, 0.0) + value
        return out


def parse_exposition(text: str) -> dict[str, dict[Labels, float]]:
    """Prometheus text exposition -> sample name -> labels -> value."""
    out: dict[str, dict[Labels, float]] = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out.setdefault(s.name, {})[frozenset(s.labels.items())] = s.value
    return out


def quantile(q: float, buckets: Mapping[float, float]) -> float | None:
    """The q-quantile of a cumulative histogram {upper bound: count} (Prometheus's linear
    interpolation inside the bucket); None without observations, the last finite bound when it
    falls in the +Inf bucket."""
    bounds = sorted(buckets)
    if not bounds or buckets[bounds[-1]] <= 0:
        return None
    rank = q * buckets[bounds[-1]]
    lower, below = 0.0, 0.0
    for bound in bounds:
        count = buckets[bound]
        if count >= rank:
            if math.isinf(bound):
                return lower
            if count == below:
                return bound
            return lower + (bound - lower) * (rank - below) / (count - below)
        lower, below = bound, count
    return lower


def histogram_delta(now: Snapshot, then: Snapshot | None, name: str, by: str,
                    **match: str) -> dict[str, dict[float, float]]:
    """Per value of label `by`: the cumulative buckets of `name` observed between `then` and
    `now` (all since the start without `then`), summed over the other labels."""

    def buckets(snap: Snapshot) -> dict[str, dict[float, float]]:
        out: dict[str, dict[float, float]] = {}
        for labels, value in snap.series(name + "_bucket", **match):
            key, le = labels.get(by, ""), float(labels["le"])
            per = out.setdefault(key, {})
            per[le] = per.get(le, 0.0) + value
        return out

    current, before = buckets(now), buckets(then) if then is not None else {}
    return {key: {le: count - before.get(key, {}).get(le, 0.0) for le, count in per.items()}
            for key, per in current.items()}


def rate(now: Mapping[str, float], then: Mapping[str, float] | None, seconds: float
         ) -> dict[str, float]:
    """Per key, the increase per second between two readings of counters (a reset counts from 0)."""
    if then is None or seconds <= 0:
        return {}
    out = {}
    for key, value in now.items():
        before = then.get(key, 0.0)
        out[key] = (value - before if value >= before else value) / seconds
    return out


def _get(url: str, timeout_s: float) -> bytes:
    with urllib.request.urlopen(url, timeout=timeout_s) as resp:
        return resp.read()


def read_collector(metrics_url: str, timeout_s: float) -> dict[str, dict[Labels, float]]:
    return parse_exposition(_get(metrics_url, timeout_s).decode())


def read_envoy(admin: str, keys: Iterable[str], timeout_s: float
               ) -> tuple[dict[str, float], dict[str, str]]:
    """Envoy's counters that `top` shows, and the runtime keys asked for (final values)."""
    query = urllib.parse.urlencode({"format": "json", "filter": ENVOY_STATS})
    stats = json.loads(_get(f"http://{admin}/stats?{query}", timeout_s))
    counters = {s["name"]: float(s["value"]) for s in stats.get("stats", [])
                if isinstance(s.get("value"), (int, float))}
    entries = json.loads(_get(f"http://{admin}/runtime?format=json", timeout_s)).get("entries", {})
    runtime = {k: entries[k].get("final_value", "") for k in keys if k in entries}
    return counters, runtime


def now() -> float:
    return time.monotonic()
