"""The SLO controller: trips above 1200 ms P99, recovers below 800 ms, never on too few samples;
Envoy's abandoned tries and its own probes of the primary count in its window.

`FakeEnvoy` (what the controller publishes over RTDS), `Misses` (Envoy's counter) and `Probe` (the
primary) are test doubles of the controller's transports: they record what the controller asks
and answer what a test sets. After a collector restart, a fallback Envoy still holds is kept.
"""

import math

import pytest

from ztgate.telemetry.config import SloSettings
from ztgate.common.semconv import FIRST_TOKEN_EXCESS, LATENCY_BUCKETS_S
from ztgate.telemetry.slo_controller import FALLBACK, PRIMARY, SloController

PRIMARY_LABELS = (("ztgate_instance", "primary"),)
PROBE_LABELS = (("ztgate_instance", "primary"), ("ztgate_tenant", "ztgate-slo-probe"))
TTFT = FIRST_TOKEN_EXCESS
TPOT = "gen_ai.server.time_per_output_token"


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


class FakeEnvoy:
    """Records each publication (percent, state)."""

    def __init__(self) -> None:
        self.calls: list[int] = []
        self.states: list[str] = []

    def __call__(self, percent: int, state: str) -> None:
        self.calls.append(percent)
        self.states.append(state)


def _counts(values: list[float], bounds=LATENCY_BUCKETS_S) -> list[int]:
    counts = [0] * (len(bounds) + 1)
    for v in values:
        counts[next((i for i, b in enumerate(bounds) if v <= b), len(bounds))] += 1
    return counts


class Misses:
    """Envoy's per-try-timeout counter: `total` so far, or unreachable."""

    def __init__(self, total: int = 0) -> None:
        self.total: int | None = total
        self.down = False

    async def __call__(self) -> int | None:
        if self.down:
            raise ConnectionRefusedError("envoy admin down")
        return self.total


class Probe:
    """The primary as a probe sees it: first token after `ttft_s` (None: it never comes)."""

    def __init__(self, ttft_s: float | None) -> None:
        self.ttft_s = ttft_s
        self.deadlines: list[float] = []

    async def __call__(self, deadline_s: float) -> float | None:
        self.deadlines.append(deadline_s)
        return None if self.ttft_s is None or self.ttft_s > deadline_s else self.ttft_s


def _feed(ctrl: SloController, values: list[float], metric: str = TTFT,
          labels=PRIMARY_LABELS) -> None:
    for signal in ctrl.observers:
        if signal.wants(metric):
            signal.observe(metric, labels, LATENCY_BUCKETS_S, _counts(values), 0, False)


def _controller(misses: Misses | None = None, probe: Probe | None = None,
                **overrides) -> tuple[SloController, FakeEnvoy, Clock]:
    # attribution_wait_s 0: a retry Envoy counted is settled at once (the tests that feed the
    # primary's own reported misses beside it set a wait: test_slo_tenant_guard.py).
    settings = SloSettings(**{"min_samples": 20, "window_s": 30, "min_hold_s": 5, "attribution_wait_s": 0,
                              **overrides})
    envoy, clock = FakeEnvoy(), Clock()
    return SloController(settings, envoy, clock, misses=misses, probe=probe), envoy, clock


async def test_reconciles_envoy_to_the_primary_at_start() -> None:
    ctrl, envoy, _ = _controller()
    await ctrl.step()
    assert envoy.calls == [100] and ctrl.status.state == PRIMARY


async def test_slow_primary_trips_to_fallback_then_fast_primary_recovers() -> None:
    ctrl, envoy, clock = _controller()
    await ctrl.step()
    _feed(ctrl, [0.3] * 95 + [2.0] * 5)           # 5 % at 2 s: P99 well above 1.2 s
    await ctrl.step()
    assert ctrl.status.state == FALLBACK and envoy.calls == [100, 0]
    assert ctrl.status.transitions == {PRIMARY: 0, FALLBACK: 1}
    # The window was cleared at the transition: recovery rests on new data only.
    clock.t += 6
    await ctrl.step()
    assert ctrl.status.state == FALLBACK and ctrl.status.ttft_samples == 0
    _feed(ctrl, [0.3] * 100)
    await ctrl.step()
    assert ctrl.status.state == PRIMARY and envoy.calls == [100, 0, 100]


async def test_between_the_thresholds_the_state_holds_either_way() -> None:
    ctrl, envoy, clock = _controller()
    _feed(ctrl, [1.0] * 100)                     # P99 ~1 s: not above 1.2 s
    await ctrl.step()
    assert ctrl.status.state == PRIMARY
    _feed(ctrl, [2.0] * 10)
    await ctrl.step()
    assert ctrl.status.state == FALLBACK
    clock.t += 6
    _feed(ctrl, [1.0] * 100)                     # P99 ~1 s: not below 0.8 s either
    await ctrl.step()
    assert ctrl.status.state == FALLBACK


async def test_too_few_samples_never_trip() -> None:
    ctrl, envoy, _ = _controller()
    _feed(ctrl, [5.0] * 19)
    await ctrl.step()
    assert ctrl.status.state == PRIMARY and ctrl.status.ttft_samples == 19


async def test_min_hold_prevents_flapping() -> None:
    ctrl, envoy, clock = _controller()
    _feed(ctrl, [5.0] * 30)
    await ctrl.step()
    assert ctrl.status.state == FALLBACK
    _feed(ctrl, [0.1] * 30)
    clock.t += 1
    await ctrl.step()
    assert ctrl.status.state == FALLBACK
    clock.t += 5
    await ctrl.step()
    assert ctrl.status.state == PRIMARY


async def test_publishes_only_when_the_percent_changes_and_names_the_state() -> None:
    ctrl, envoy, _ = _controller()
    for _ in range(3):
        await ctrl.step()
    _feed(ctrl, [5.0] * 30)
    await ctrl.step()
    await ctrl.step()
    assert envoy.calls == [100, 0] and envoy.states == [PRIMARY, FALLBACK]
    assert ctrl.status.applied_percent == 0


async def test_a_fallback_envoy_still_holds_is_kept_after_a_collector_restart() -> None:
    """A new controller (the collector restarted) hears from Envoy that it routes to the
    fallback: it keeps that, held min_hold_s, and recovers only on fresh healthy data."""
    probe = Probe(ttft_s=2.0)                      # still slow
    ctrl, envoy, clock = _controller(probe=probe, min_samples=5, min_hold_s=3, probe_interval_s=1)
    await ctrl.step()                              # published before Envoy reconnected
    ctrl.restore(FALLBACK)
    assert ctrl.status.state == FALLBACK and ctrl.status.restored == 1
    assert envoy.calls == [100, 0]
    _feed(ctrl, [0.1] * 30)
    clock.t += 1
    await ctrl.step()
    assert ctrl.status.state == FALLBACK           # held min_hold_s
    for _ in range(4):
        clock.t += 1
        await ctrl.step()
    assert ctrl.status.state == FALLBACK and envoy.calls == [100, 0]  # probes: still slow


@pytest.mark.parametrize("history", ["primary_reported", "decided_itself"])
async def test_a_reported_state_never_overrides_a_decision_of_its_own(history: str) -> None:
    ctrl, envoy, clock = _controller(min_hold_s=0)
    if history == "primary_reported":
        ctrl.restore(PRIMARY)
        assert ctrl.status.state == PRIMARY and envoy.calls == []
        return
    _feed(ctrl, [5.0] * 30)
    await ctrl.step()
    clock.t += 1
    _feed(ctrl, [0.1] * 30)
    await ctrl.step()
    assert ctrl.status.state == PRIMARY and envoy.calls == [0, 100]
    ctrl.restore(FALLBACK)                         # a stale Envoy's report, after a recovery
    assert ctrl.status.state == PRIMARY and ctrl.status.restored == 0 and envoy.calls == [0, 100]


async def test_without_envoys_counter_probes_run_on_the_primary_too_and_trip_it() -> None:
    """Where Envoy's admin console is out of reach (compose, Kubernetes), a primary slower than
    the budget is seen by the probes: the calls Envoy abandoned never report."""
    probe = Probe(ttft_s=2.0)
    ctrl, envoy, clock = _controller(probe=probe, min_samples=5, probe_interval_s=1)
    for _ in range(5):
        await ctrl.step()
        clock.t += 1
    assert ctrl.status.probes == {"ok": 0, "miss": 5}
    await ctrl.step()
    assert ctrl.status.state == FALLBACK and envoy.calls == [100, 0]


async def test_with_envoys_counter_the_primary_is_not_probed_while_it_has_traffic() -> None:
    probe = Probe(ttft_s=0.1)
    ctrl, _, clock = _controller(Misses(), probe=probe, probe_interval_s=1)
    for _ in range(5):
        await ctrl.step()
        clock.t += 1
    assert probe.deadlines == []


@pytest.mark.parametrize("tpot, state", [(0.2, FALLBACK), (0.02, PRIMARY)])
async def test_time_per_output_token_is_an_optional_second_signal(tpot, state) -> None:
    ctrl, envoy, _ = _controller(tpot_trip_ms=100, tpot_recover_ms=50)
    _feed(ctrl, [0.3] * 30)
    _feed(ctrl, [tpot] * 30, TPOT)
    await ctrl.step()
    assert ctrl.status.state == state


async def test_tries_envoy_abandoned_count_above_every_bound_and_trip() -> None:
    """The primary's own points never pass 1.2 s when Envoy gives up on the try at 1.2 s: its
    abandoned tries are what shows the P99 above the threshold."""
    misses = Misses(total=7)
    ctrl, envoy, _ = _controller(misses)
    await ctrl.step()                              # the first look sets the baseline only
    _feed(ctrl, [0.3] * 40)
    await ctrl.step()
    assert ctrl.status.state == PRIMARY and ctrl.status.budget_misses == 0
    misses.total = 9                               # 2 of 42 tries abandoned: ~5 % over budget
    await ctrl.step()
    assert ctrl.status.budget_misses == 2
    assert ctrl.status.state == FALLBACK and envoy.calls == [100, 0]
    assert ctrl.status.ttft_p99_s == LATENCY_BUCKETS_S[-1]  # a miss is above every bound


async def test_a_restarted_envoys_counter_and_an_unreachable_admin_count_nothing_twice() -> None:
    misses = Misses(total=50)
    ctrl, _, _ = _controller(misses)
    await ctrl.step()
    misses.down = True
    await ctrl.step()
    misses.down, misses.total = False, 3           # Envoy restarted: 3 new ones since
    _feed(ctrl, [0.3] * 400)
    await ctrl.step()
    assert ctrl.status.budget_misses == 3 and ctrl.status.state == PRIMARY  # 3 of 403: P99 fine
    await ctrl.step()
    assert ctrl.status.budget_misses == 3


async def test_while_tripped_probes_feed_the_window_and_a_healed_primary_gets_traffic_back() -> None:
    probe = Probe(ttft_s=2.0)                      # alive, first token after 2 s
    ctrl, envoy, clock = _controller(Misses(), probe=probe, min_samples=5, min_hold_s=3,
                                     probe_interval_s=1, window_s=8)
    _feed(ctrl, [0.3] * 15 + [2.0] * 5)
    await ctrl.step()
    assert ctrl.status.state == FALLBACK and probe.deadlines == []  # no probe before the trip
    for _ in range(6):
        clock.t += 1
        await ctrl.step()
    assert ctrl.status.state == FALLBACK           # every probe a miss: it stays off
    assert ctrl.status.probes == {"ok": 0, "miss": 6} and set(probe.deadlines) == {1.2}
    probe.ttft_s = 0.05                            # healed
    steps = 0
    while ctrl.status.state == FALLBACK and steps < 20:
        clock.t += 1
        steps += 1
        await ctrl.step()
    # Back once the misses have left the 8 s window (hysteresis), not before.
    assert ctrl.status.state == PRIMARY and envoy.calls == [0, 100]
    assert 8 <= steps <= 10, steps
    probes = ctrl.status.probes["ok"] + ctrl.status.probes["miss"]
    clock.t += 5
    await ctrl.step()                              # on the primary again: no more probes
    assert ctrl.status.probes["ok"] + ctrl.status.probes["miss"] == probes


async def test_probes_come_no_faster_than_their_interval() -> None:
    probe = Probe(ttft_s=0.1)
    ctrl, _, clock = _controller(Misses(), probe=probe, probe_interval_s=2.0, min_hold_s=100)
    _feed(ctrl, [5.0] * 30)
    await ctrl.step()
    for _ in range(8):                             # 4 s of evaluations every 0.5 s
        clock.t += 0.5
        await ctrl.step()
    assert len(probe.deadlines) == 2


async def test_the_primarys_reports_of_the_probes_own_calls_are_not_counted_twice() -> None:
    probe = Probe(ttft_s=0.1)
    ctrl, _, clock = _controller(Misses(), probe=probe, min_hold_s=0)
    _feed(ctrl, [5.0] * 30)
    await ctrl.step()
    assert ctrl.status.state == FALLBACK
    clock.t += 1
    await ctrl.step()                              # one probe
    _feed(ctrl, [0.1], labels=PROBE_LABELS)        # the same call, reported by the primary
    ctrl.measure()
    assert ctrl.status.ttft_samples == 1


@pytest.mark.parametrize("values, trips, recovers", [
    ([1.5] * 30, True, False),                     # above the trip threshold
    ([1.0] * 30, False, False),                    # between the thresholds: holds either way
    ([0.5] * 30, False, True),                     # below the recover threshold
])
async def test_hysteresis_band_between_recover_and_trip(values, trips, recovers) -> None:
    healthy, _, _ = _controller(min_hold_s=0)
    _feed(healthy, values)
    await healthy.step()
    assert (healthy.status.state == FALLBACK) == trips
    tripped, _, clock = _controller(min_hold_s=0)
    _feed(tripped, [5.0] * 30)
    await tripped.step()
    clock.t += 1
    _feed(tripped, values)
    await tripped.step()
    assert (tripped.status.state == PRIMARY) == recovers


async def test_a_failing_probe_is_a_miss() -> None:
    async def broken(deadline_s: float) -> float | None:
        raise OSError("primary unreachable")

    ctrl, _, clock = _controller(Misses(), min_hold_s=0)
    ctrl._probe = broken
    _feed(ctrl, [5.0] * 30)
    await ctrl.step()
    clock.t += 1
    await ctrl.step()
    assert ctrl.status.probes == {"ok": 0, "miss": 1}
    assert math.isclose(ctrl.ttft.window.quantile(0.5)[0], LATENCY_BUCKETS_S[-1])


async def test_state_age_says_how_long_traffic_has_been_where_it_is() -> None:
    ctrl, _, clock = _controller(min_hold_s=0)
    clock.t += 30
    assert ctrl.state_age_s == 30
    _feed(ctrl, [5.0] * 30)
    await ctrl.step()
    clock.t += 7
    assert ctrl.status.state == FALLBACK and ctrl.state_age_s == 7
