"""When a failed part may be restarted: backoff, the limit per window, and failed checks in a row."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ztgate.config import SupervisorSettings
from ztgate.supervisor.policy import FailureStreak, RestartBudget

SETTINGS = SupervisorSettings(backoff={"initial_s": 1.0, "max_s": 8.0}, max_restarts=5,
                              restart_window_s=600.0)


def test_backoff_doubles_up_to_its_cap_then_the_part_is_given_up() -> None:
    budget = RestartBudget(SETTINGS)
    assert [budget.next_delay(float(t)) for t in range(6)] == [1.0, 2.0, 4.0, 8.0, 8.0, None]
    # Given up stays given up within the window.
    assert budget.next_delay(599.0) is None


def test_restarts_older_than_the_window_are_forgotten_and_the_backoff_starts_over() -> None:
    budget = RestartBudget(SETTINGS)
    for t in range(5):
        assert budget.next_delay(float(t)) is not None
    assert budget.next_delay(10.0) is None
    # 600 s after the first restart it no longer counts: one more is allowed, at a longer wait
    # (four restarts are still recent).
    assert budget.recent(600.0) == 4
    assert budget.next_delay(600.0) == 8.0
    # A part that ran well for a whole window starts again from the shortest wait.
    assert budget.next_delay(1300.0) == 1.0


def test_no_restarts_allowed_gives_up_at_the_first_failure() -> None:
    budget = RestartBudget(SETTINGS.model_copy(update={"max_restarts": 0}))
    assert budget.next_delay(0.0) is None


def test_backoff_max_below_initial_is_refused_naming_the_settings() -> None:
    with pytest.raises(ValueError, match="supervisor.backoff.max_s"):
        SupervisorSettings(backoff={"initial_s": 10.0, "max_s": 1.0})


@given(st.lists(st.floats(min_value=0.0, max_value=50.0), min_size=1, max_size=60),
       st.integers(min_value=0, max_value=8), st.floats(min_value=1.0, max_value=300.0))
def test_no_window_ever_holds_more_restarts_than_the_limit(gaps: list[float], limit: int,
                                                          window: float) -> None:
    settings = SupervisorSettings(max_restarts=limit, restart_window_s=window,
                                  backoff={"initial_s": 0.5, "max_s": 30.0})
    budget = RestartBudget(settings)
    now, granted = 0.0, []
    for gap in gaps:
        now += gap
        delay = budget.next_delay(now)
        if delay is not None:
            assert settings.backoff.initial_s <= delay <= settings.backoff.max_s
            granted.append(now)
    for start in granted:
        assert sum(1 for t in granted if start <= t < start + window) <= limit


@pytest.mark.parametrize("checks, restart_after", [
    ([False, False, False], 3),
    ([False, False, True, False, False, False], 6),  # a passing check starts the count again
    ([True, True, True], None),
    ([False, True, False, True, False, True], None),  # flapping is not failing in a row
])
def test_a_part_is_restarted_only_after_failing_threshold_checks_in_a_row(
        checks: list[bool], restart_after: int | None) -> None:
    streak = FailureStreak(threshold=3)
    decisions = [streak.observe(ok) for ok in checks]
    first = decisions.index(True) + 1 if True in decisions else None
    assert first == restart_after
