"""When a failed part may be restarted: exponential backoff, and a limit per time window.

Pure decisions on a clock the caller passes in, so that they are tested without waiting.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from ztgate.config import SupervisorSettings


@dataclass
class RestartBudget:
    """One part's restarts within the last `restart_window_s` seconds.

    The n-th restart in the window waits backoff.initial_s * 2**(n-1) (at most backoff.max_s):
    a part that fails again at once is not restarted in a tight loop, and one that has run well for
    a whole window starts again from the shortest wait. A restart past max_restarts in the window
    is refused: a part that keeps failing is given up on, and someone is told why.
    """

    settings: SupervisorSettings
    _times: deque[float] = field(default_factory=deque)

    def _forget_old(self, now: float) -> None:
        while self._times and now - self._times[0] >= self.settings.restart_window_s:
            self._times.popleft()

    def recent(self, now: float) -> int:
        """Restarts within the window that ends at `now`."""
        self._forget_old(now)
        return len(self._times)

    def next_delay(self, now: float) -> float | None:
        """Seconds to wait before restarting (and the restart is counted), or None: give up."""
        count = self.recent(now)
        if count >= self.settings.max_restarts:
            return None
        self._times.append(now)
        return min(self.settings.backoff.initial_s * 2 ** count, self.settings.backoff.max_s)


@dataclass
class FailureStreak:
    """Failed health checks in a row; a passing check clears it."""

    threshold: int
    count: int = 0

    def observe(self, healthy: bool) -> bool:
        """Records one check; True when the part has now failed `threshold` in a row."""
        self.count = 0 if healthy else self.count + 1
        return self.count >= self.threshold
