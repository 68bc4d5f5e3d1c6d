"""The SLO controller: the primary's rolling P99 time to first token decides where inference
traffic goes.

It judges each first token's excess over its prompt's allowance, so a long prompt is not a slow
service, plus the tries Envoy abandoned and its own probes while traffic is off the primary. Above
`ttft_trip_ms` it publishes `fallback_percent` through RTDS, below `ttft_recover_ms` `primary_percent`
again, with a hold time and a window cleared at each move; no one tenant moves every tenant. The
samples, the decisions and the restart: docs/architecture.md ("Module notes"),
docs/operations/failover.md.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from ztgate.telemetry.config import SloSettings
from ztgate.telemetry.naming import label_name
from ztgate.common.semconv import (FIRST_TOKEN_EXCESS, INSTANCE, LATENCY_BUCKETS_S, PROBE_TENANT,
                                     TENANT, TIME_PER_OUTPUT_TOKEN)
from ztgate.telemetry.slo_window import LatencySignal

log = logging.getLogger(__name__)

PRIMARY = "primary"
FALLBACK = "fallback"
# Envoy's count so far of tries abandoned at their per-try timeout (None: not known now).
Misses = Callable[[], Awaitable[int | None]]
# A probe of the primary with a deadline in seconds: its time to first token, None on a miss.
Probe = Callable[[float], Awaitable[float | None]]
# Publishes the percent of new inference calls that start on the primary, and the state it means.
Publish = Callable[[int, str], None]


@dataclass
class SloStatus:
    state: str = PRIMARY
    ttft_p99_s: float | None = None
    ttft_samples: int = 0
    tpot_p99_s: float | None = None
    tpot_samples: int = 0
    # Transitions made, by target state.
    transitions: dict[str, int] = field(default_factory=lambda: {PRIMARY: 0, FALLBACK: 0})
    # Percent last published to Envoy (None until the first publication).
    applied_percent: int | None = None
    # States taken up from what Envoy still held after a restart of the collector.
    restored: int = 0
    # Retries of primary-first calls that Envoy counted and the primary never reported as its own
    # miss (a try it could not end, a refused connection), counted into the window of no tenant.
    budget_misses: int = 0
    # Probes of the primary, by result (ok, miss).
    probes: dict[str, int] = field(default_factory=lambda: {"ok": 0, "miss": 0})

    @property
    def fallback_active(self) -> bool:
        return self.state == FALLBACK


class SloController:
    def __init__(self, settings: SloSettings, publish: Publish,
                 clock: Callable[[], float] = time.monotonic, *, misses: Misses | None = None,
                 probe: Probe | None = None) -> None:
        self.settings = settings
        self._publish = publish
        self._misses = misses
        self._probe = probe
        self.clock = clock
        instance_label = label_name(INSTANCE)
        # No one tenant decides a P99 (slo_window.py) unless slo.tenant_guard is off.
        tenant_label = label_name(TENANT) if settings.tenant_guard else None
        self.ttft = LatencySignal(FIRST_TOKEN_EXCESS, instance_label, settings.instance,
                                  settings.window_s, clock, bounds=LATENCY_BUCKETS_S,
                                  skip=(label_name(TENANT), PROBE_TENANT), tenant_label=tenant_label,
                                  attribution_label=label_name(TENANT))
        self.tpot = (LatencySignal(TIME_PER_OUTPUT_TOKEN, instance_label, settings.instance,
                                   settings.window_s, clock, tenant_label=tenant_label)
                     if settings.tpot_trip_ms is not None else None)
        self.status = SloStatus()
        self._since = clock() - settings.min_hold_s
        # When the current state was entered (the start counts as entering the primary).
        self._entered = clock()
        self._misses_seen: int | None = None
        # [when seen, count]: Envoy's retries not yet matched to a miss the primary reported, and
        # the primary's reported misses not yet matched to a retry (see `settle`).
        self._unexplained: deque[list[float]] = deque()
        self._reported: deque[list[float]] = deque()
        self._reported_seen = 0.0
        self._last_probe = -math.inf

    @property
    def observers(self) -> list[LatencySignal]:
        return [s for s in (self.ttft, self.tpot) if s is not None]

    def measure(self) -> None:
        st = self.status
        st.ttft_p99_s, st.ttft_samples = self.ttft.p99()
        if self.tpot is not None:
            st.tpot_p99_s, st.tpot_samples = self.tpot.p99()

    def decide(self) -> str | None:
        """The state to move to now, or None to stay."""
        s, st = self.settings, self.status
        self.measure()
        if self.clock() - self._since < s.min_hold_s:
            return None
        # P99s in ms, or None where there are too few samples to decide on.
        ttft = (st.ttft_p99_s * 1000 if st.ttft_p99_s is not None
                and st.ttft_samples >= s.min_samples else None)
        tpot = (st.tpot_p99_s * 1000 if self.tpot is not None and st.tpot_p99_s is not None
                and st.tpot_samples >= s.min_samples else None)
        if st.state == PRIMARY:
            ttft_bad = ttft is not None and ttft > s.ttft_trip_ms
            tpot_bad = tpot is not None and s.tpot_trip_ms is not None and tpot > s.tpot_trip_ms
            return FALLBACK if ttft_bad or tpot_bad else None
        if ttft is None or ttft >= s.ttft_recover_ms:
            return None
        if tpot is not None and s.tpot_recover_ms is not None and tpot >= s.tpot_recover_ms:
            return None
        return PRIMARY

    def _transition(self, target: str) -> None:
        st = self.status
        p99_ms = round((st.ttft_p99_s or 0.0) * 1000, 1)
        st.state = target
        st.transitions[target] += 1
        self._since = self._entered = self.clock()
        self._forget_unsettled()
        if target == FALLBACK:
            log.warning("primary TTFT p99 %.1f ms over %d samples exceeds %.0f ms: moving "
                        "inference traffic to the fallback", p99_ms, st.ttft_samples,
                        self.settings.ttft_trip_ms,
                        extra={"event": "slo_transition", "state": target, "p99_ms": p99_ms,
                               "count": st.ttft_samples})
        else:
            log.warning("primary TTFT p99 %.1f ms over %d samples is below %.0f ms: moving "
                        "inference traffic back to the primary", p99_ms, st.ttft_samples,
                        self.settings.ttft_recover_ms,
                        extra={"event": "slo_transition", "state": target, "p99_ms": p99_ms,
                               "count": st.ttft_samples})

    def _forget_unsettled(self) -> None:
        """A new state judges only what happens in it: the window and the retries not yet settled."""
        for signal in self.observers:
            signal.window.clear()
        self._unexplained.clear()
        self._reported.clear()

    @property
    def state_age_s(self) -> float:
        """Seconds in the current state: how long traffic has been where it is."""
        return self.clock() - self._entered

    def desired_percent(self) -> int:
        s = self.settings
        return s.fallback_percent if self.status.fallback_active else s.primary_percent

    async def count_misses(self) -> None:
        """Notes the retries of primary-first calls Envoy counted since the last look, for `settle`.
        The first look only sets the baseline: what happened before is not in the window."""
        if self._misses is None:
            return
        try:
            total = await self._misses()
        except Exception as exc:  # noqa: BLE001 - Envoy's admin down: nothing new to count now
            log.debug("cannot read Envoy's per-try timeouts (%s)", type(exc).__name__,
                      extra={"event": "slo_misses_unread"})
            total = None
        if total is None:
            return
        seen, self._misses_seen = self._misses_seen, total
        if seen is None:
            return
        new = total - seen if total >= seen else total  # a lower count: Envoy restarted
        if new > 0:
            self._unexplained.append([self.clock(), new])

    def settle(self) -> None:
        """Counts, above every bound and of no tenant, each retry Envoy counted that the primary has
        not reported as its own miss within attribution_wait_s. A try the primary ended at its
        budget or refused at its admission limit is in the window already, with its tenant (which
        the guard may leave out): counted again here, of no tenant, one tenant's misses would move
        every tenant (issue #28). What the primary reported and Envoy never retried (a direct call,
        a first token past every bound) expires after the same wait."""
        now, wait = self.clock(), self.settings.attribution_wait_s
        reported = self.ttft.attributed_misses
        if reported > self._reported_seen:
            self._reported.append([now, reported - self._reported_seen])
        self._reported_seen = reported
        while self._unexplained and self._reported:
            take = min(self._unexplained[0][1], self._reported[0][1])
            for queue in (self._unexplained, self._reported):
                queue[0][1] -= take
                if queue[0][1] <= 0:
                    queue.popleft()
        while self._unexplained and now - self._unexplained[0][0] >= wait:
            count = int(self._unexplained.popleft()[1])
            self.ttft.add(math.inf, count)
            self.status.budget_misses += count
        while self._reported and now - self._reported[0][0] >= wait:
            self._reported.popleft()

    async def probe(self) -> None:
        """While traffic is off the primary, or always where Envoy's counter is not read, one
        probe every probe_interval_s into the window."""
        s = self.settings
        wanted = self.status.state == FALLBACK or self._misses is None
        if (self._probe is None or s.probe_interval_s <= 0 or not wanted
                or self.clock() - self._last_probe < s.probe_interval_s):
            return
        self._last_probe = self.clock()
        deadline_s = s.ttft_trip_ms / 1000
        try:
            took = await self._probe(deadline_s)
        except Exception:  # noqa: BLE001 - a probe that fails is a miss
            took = None
        if took is None or took > deadline_s:
            self.status.probes["miss"] += 1
            self.ttft.add(math.inf)
        else:
            self.status.probes["ok"] += 1
            self.ttft.add(took)

    def restore(self, state: str) -> None:
        """Takes up the state an Envoy still holds from before a restart of the collector, when
        this controller has decided nothing yet: the fallback is kept (and held min_hold_s, with
        the probes to judge the primary afresh); anything else changes nothing."""
        st = self.status
        if state != FALLBACK or st.state == FALLBACK or any(st.transitions.values()):
            return
        st.state, st.restored = FALLBACK, st.restored + 1
        self._since = self._entered = self.clock()
        self._forget_unsettled()
        log.warning("envoy still routes to the fallback by an earlier decision: keeping it",
                    extra={"event": "slo_restored", "state": FALLBACK})
        self._apply()

    def _apply(self) -> None:
        """Publishes the desired percent unless it is what was published last."""
        percent = self.desired_percent()
        if self.status.applied_percent == percent:
            return
        self._publish(percent, self.status.state)
        self.status.applied_percent = percent
        log.info("envoy runtime %s=%d published", self.settings.runtime_key, percent,
                 extra={"event": "slo_published", "state": self.status.state})

    async def step(self) -> None:
        """One evaluation: gather (Envoy's misses, a probe), decide, then publish the desired
        percent if it changed."""
        await self.count_misses()
        self.settle()
        await self.probe()
        target = self.decide()
        if target is not None:
            self._transition(target)
        self._apply()

    async def run(self) -> None:
        """Evaluates every evaluate_interval_s until cancelled."""
        while True:
            await self.step()
            await asyncio.sleep(self.settings.evaluate_interval_s)
