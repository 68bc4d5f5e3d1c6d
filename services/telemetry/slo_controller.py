"""The SLO controller: the primary's rolling P99 TTFT decides where inference traffic goes.

When P99 TTFT of the primary (`ztgate.instance` = slo.instance) rises above the trip threshold
over at least `min_samples` samples in the window, the controller sets Envoy's runtime key to
`fallback_percent`; when it falls below the (lower) recover threshold it sets `primary_percent`
again. Time per output token can be a second signal. The window is cleared at each transition,
so the next decision rests on data gathered after it, and a state is held `min_hold_s` at least.
While traffic is on the fallback, recovery needs primary samples: with fallback_percent 0 they
come from probes or direct callers; a small fallback_percent keeps a canary share instead.
A failed Envoy call is retried at every evaluation until it succeeds.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from services.telemetry.config import SloSettings
from services.telemetry.naming import label_name
from services.common.semconv import INSTANCE, TIME_PER_OUTPUT_TOKEN, TIME_TO_FIRST_TOKEN
from services.telemetry.slo_window import LatencySignal

log = logging.getLogger(__name__)

PRIMARY = "primary"
FALLBACK = "fallback"


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

    @property
    def fallback_active(self) -> bool:
        return self.state == FALLBACK


class SloController:
    def __init__(self, settings: SloSettings, actuate: Callable[[int], Awaitable[None]],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self._actuate = actuate
        self.clock = clock
        instance_label = label_name(INSTANCE)
        self.ttft = LatencySignal(TIME_TO_FIRST_TOKEN, instance_label, settings.instance,
                                  settings.window_s, clock)
        self.tpot = (LatencySignal(TIME_PER_OUTPUT_TOKEN, instance_label, settings.instance,
                                   settings.window_s, clock)
                     if settings.tpot_trip_ms is not None else None)
        self.status = SloStatus()
        self._since = clock() - settings.min_hold_s
        self._failing = False

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

    async def step(self) -> None:
        """One evaluation: decide, then bring Envoy to the desired percent if it is not there."""
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
