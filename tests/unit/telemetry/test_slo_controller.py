"""The SLO controller: trips above 1200 ms P99, recovers below 800 ms, never on too few samples."""

import pytest

from services.telemetry.config import SloSettings
from services.common.semconv import LATENCY_BUCKETS_S
from services.telemetry.slo_controller import FALLBACK, PRIMARY, SloController

PRIMARY_LABELS = (("ztgate_instance", "primary"),)
TTFT = "gen_ai.server.time_to_first_token"
TPOT = "gen_ai.server.time_per_output_token"


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


class FakeEnvoy:
    def __init__(self) -> None:
        self.calls: list[int] = []
        self.fail = False

    async def __call__(self, percent: int) -> None:
        if self.fail:
            raise ConnectionRefusedError("envoy down")
        self.calls.append(percent)


def _counts(values: list[float], bounds=LATENCY_BUCKETS_S) -> list[int]:
    counts = [0] * (len(bounds) + 1)
    for v in values:
        counts[next((i for i, b in enumerate(bounds) if v <= b), len(bounds))] += 1
    return counts


def _feed(ctrl: SloController, values: list[float], metric: str = TTFT) -> None:
    for signal in ctrl.observers:
        if signal.wants(metric):
            signal.observe(metric, PRIMARY_LABELS, LATENCY_BUCKETS_S, _counts(values), 0, False)


def _controller(**overrides) -> tuple[SloController, FakeEnvoy, Clock]:
    settings = SloSettings(min_samples=20, window_s=30, min_hold_s=5, **overrides)
    envoy, clock = FakeEnvoy(), Clock()
    return SloController(settings, envoy, clock), envoy, clock


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


async def test_failed_envoy_call_is_counted_and_retried_until_it_succeeds() -> None:
    ctrl, envoy, _ = _controller()
    envoy.fail = True
    _feed(ctrl, [5.0] * 30)
    await ctrl.step()
    await ctrl.step()
    assert ctrl.status.state == FALLBACK and ctrl.status.actuation_failures == 2
    assert ctrl.status.applied_percent is None
    envoy.fail = False
    await ctrl.step()
    assert envoy.calls == [0] and ctrl.status.applied_percent == 0


@pytest.mark.parametrize("tpot, state", [(0.2, FALLBACK), (0.02, PRIMARY)])
async def test_time_per_output_token_is_an_optional_second_signal(tpot, state) -> None:
    ctrl, envoy, _ = _controller(tpot_trip_ms=100, tpot_recover_ms=50)
    _feed(ctrl, [0.3] * 30)
    _feed(ctrl, [tpot] * 30, TPOT)
    await ctrl.step()
    assert ctrl.status.state == state
