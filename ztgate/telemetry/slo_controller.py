"""The SLO controller: the primary's rolling P99 time to first token decides where inference
traffic goes.

The time judged is comparable work: each first token's excess over its prompt's prefill allowance
(`ztgate.inference.first_token_excess`, ztgate/common/first_token.py), so a long prompt is not
a slow service. The window holds three kinds of samples of the primary (`ztgate.instance` =
slo.instance):

- the excess of every first token the primary reports over OTLP;
- every try Envoy abandoned at its per-try timeout, i.e. the call's first-token budget (the
  `misses` source: Envoy's per-try-timeout counter of the primary-first route), counted above
  every bound: its first token never came, so the primary never reported it, and without these the
  P99 could never pass a threshold at or above the short-prompt budget;
- while traffic is moved off the primary, the controller's own probes (`probe`: one short greedy
  call straight to the primary, timed to its first token, a miss past `ttft_trip_ms`), so that it
  can recover with no traffic there; the primary's OTLP points of these calls are skipped.

When the P99 rises above `ttft_trip_ms` over at least `min_samples` samples, the controller sets
Envoy's runtime key to `fallback_percent`; when it falls below the (lower) `ttft_recover_ms` it sets
`primary_percent` again. Time per output token can be a second signal. The window is cleared at
each transition, so the next decision rests on data gathered after it, and a state is held
`min_hold_s` at least. A failed Envoy call is retried at every evaluation until it succeeds.

No one tenant moves every tenant: while two or more tenants have samples in the window, the P99
judged is the window's without the tenant that raises it most (slo_window.py; `tenant_guard`).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
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


@dataclass
class SloStatus:
    state: str = PRIMARY
    ttft_p99_s: float | None = None
    ttft_samples: int = 0
    tpot_p99_s: float | None = None
    tpot_samples: int = 0
    # Transitions made, by target state.
    transitions: dict[str, int] = field(default_factory=lambda: {PRIMARY: 0, FALLBACK: 0})
    # Envoy admin calls that failed.
    actuation_failures: int = 0
    # Percent last set in Envoy (None until the first successful call).
    applied_percent: int | None = None
    # Tries Envoy abandoned at their first-token budget, counted into the window.
    budget_misses: int = 0
    # Probes of the primary, by result (ok, miss).
    probes: dict[str, int] = field(default_factory=lambda: {"ok": 0, "miss": 0})

    @property
    def fallback_active(self) -> bool:
        return self.state == FALLBACK


class SloController:
    def __init__(self, settings: SloSettings, actuate: Callable[[int], Awaitable[None]],
                 clock: Callable[[], float] = time.monotonic, *, misses: Misses | None = None,
                 probe: Probe | None = None) -> None:
        self.settings = settings
        self._actuate = actuate
        self._misses = misses
        self._probe = probe
        self.clock = clock
        instance_label = label_name(INSTANCE)
        # No one tenant decides a P99 (slo_window.py) unless slo.tenant_guard is off.
        tenant_label = label_name(TENANT) if settings.tenant_guard else None
        self.ttft = LatencySignal(FIRST_TOKEN_EXCESS, instance_label, settings.instance,
                                  settings.window_s, clock, bounds=LATENCY_BUCKETS_S,
                                  skip=(label_name(TENANT), PROBE_TENANT), tenant_label=tenant_label)
        self.tpot = (LatencySignal(TIME_PER_OUTPUT_TOKEN, instance_label, settings.instance,
                                   settings.window_s, clock, tenant_label=tenant_label)
                     if settings.tpot_trip_ms is not None else None)
        self.status = SloStatus()
        self._since = clock() - settings.min_hold_s
        self._failing = False
        self._misses_seen: int | None = None
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
        self._since = self.clock()
        for signal in self.observers:
            signal.window.clear()
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

    def desired_percent(self) -> int:
        s = self.settings
        return s.fallback_percent if self.status.fallback_active else s.primary_percent

    async def count_misses(self) -> None:
        """Adds the tries Envoy abandoned since the last look to the window (above every bound).
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
        self.ttft.add(math.inf, new)
        self.status.budget_misses += new

    async def probe(self) -> None:
        """While traffic is off the primary, one probe every probe_interval_s into the window."""
        s = self.settings
        if (self._probe is None or s.probe_interval_s <= 0 or self.status.state != FALLBACK
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

    async def step(self) -> None:
        """One evaluation: gather (Envoy's misses, a probe), decide, then bring Envoy to the
        desired percent if it is not there."""
        await self.count_misses()
        await self.probe()
        target = self.decide()
        if target is not None:
            self._transition(target)
        percent = self.desired_percent()
        if self.status.applied_percent == percent:
            return
        try:
            await self._actuate(percent)
        except Exception as exc:  # noqa: BLE001 - any failure is retried at the next step
            self.status.actuation_failures += 1
            if not self._failing:
                log.warning("cannot set %s=%d in Envoy (%s); retrying every %.1f s",
                            self.settings.runtime_key, percent, type(exc).__name__,
                            self.settings.evaluate_interval_s,
                            extra={"event": "slo_actuation_failed", "address":
                                   self.settings.envoy_admin})
            self._failing = True
            return
        self._failing = False
        self.status.applied_percent = percent
        log.info("envoy runtime %s=%d", self.settings.runtime_key, percent,
                 extra={"event": "slo_actuated", "state": self.status.state})

    async def run(self) -> None:
        """Evaluates every evaluate_interval_s until cancelled."""
        while True:
            await self.step()
            await asyncio.sleep(self.settings.evaluate_interval_s)
