"""`ztgate up`'s supervisor: starts the parts in order, then keeps each one running on its own.

A part that exits or fails its health checks is killed with its process group and restarted after a
backoff (policy.py), while the others keep serving; past `max_restarts` in `restart_window_s` it is
given up on, and losing an essential part (every replica of it) ends `supervise` with 1. The
supervisor knows parts only through `Part`, so its decisions are tested with fake parts. Details:
docs/operations/supervision.md, docs/architecture.md ("Module notes").
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Sequence
from typing import Protocol

from ztgate.supervisor.child import StartError, describe_exit
from ztgate.config import SupervisorSettings
from ztgate.supervisor.policy import FailureStreak, RestartBudget

log = logging.getLogger(__name__)

# Seconds between health checks while a part starts.
START_POLL_S = 0.25


class Part(Protocol):
    """What the supervisor needs of a part (ztgate/supervisor/child.py: a real process)."""

    name: str
    essential: bool
    # The part it is a replica of (its own name when it runs once).
    group: str

    @property
    def pid(self) -> int | None: ...

    @property
    def running(self) -> bool: ...

    async def start(self) -> None: ...

    async def wait(self) -> int: ...

    async def healthy(self, timeout_s: float) -> bool: ...

    async def kill(self) -> None: ...

    async def stop(self, grace_s: float) -> None: ...


def _say(line: str) -> None:
    print(line, flush=True)


def _warn(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _with_log(part: Part, message: str) -> str:
    """A failed start's message with the end of the part's log file, when it writes one."""
    path = getattr(part, "log_path", None)
    tail = part.log_tail() if path is not None and hasattr(part, "log_tail") else ""
    if path is None:
        return message
    return f"{message}; the end of its log {path}:\n{tail}" if tail else f"{message}; its log: {path} (empty)"


class Supervisor:
    """Starts `parts` in order, supervises them, stops them in reverse order."""

    def __init__(self, parts: Sequence[Part], settings: SupervisorSettings) -> None:
        self.parts = list(parts)
        self.settings = settings
        # Per part: restarts that brought it back, and why it was given up on.
        self.restarts: dict[str, int] = {part.name: 0 for part in self.parts}
        self.given_up: dict[str, str] = {}
        self._fatal: asyncio.Event | None = None

    async def _start(self, part: Part) -> None:
        """Starts `part` and waits until it is healthy; StartError if it exits or runs out of time
        (with the end of its log, when it writes one)."""
        await part.start()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.settings.start_timeout_s
        while loop.time() < deadline:
            if not part.running:
                raise StartError(_with_log(part, f"{part.name} {describe_exit(await part.wait())} during start"))
            if await self._check(part):
                return
            await asyncio.sleep(START_POLL_S)
        raise StartError(_with_log(part, f"{part.name} was not healthy within "
                                         f"{self.settings.start_timeout_s:g} s (supervisor.start_timeout_s)"))

    async def _check(self, part: Part) -> bool:
        timeout = self.settings.check_timeout_s
        try:
            # The check bounds itself; this bounds a check that does not. (Not wait_for: on 3.11
            # it can swallow a cancellation that lands as the check completes, and then the
            # supervisor would not stop.)
            async with asyncio.timeout(timeout + 1.0):
                return await part.healthy(timeout)
        except TimeoutError:
            return False

    async def start_all(self, stop: asyncio.Event) -> bool:
        """Starts each part once the one before it is healthy; False if `stop` was set first.
        Raises StartError: a suite that cannot start is not started halfway."""
        for part in self.parts:
            starting = asyncio.ensure_future(self._start(part))
            stopping = asyncio.ensure_future(stop.wait())
            await asyncio.wait({starting, stopping}, return_when=asyncio.FIRST_COMPLETED)
            stopping.cancel()
            if stop.is_set():
                starting.cancel()
                await asyncio.gather(starting, return_exceptions=True)
                return False
            starting.result()
            _say(f"  {part.name} ready (pid {part.pid})")
        return True

    async def supervise(self, stop: asyncio.Event) -> int:
        """Keeps every part running until `stop` is set (0), or until an essential part is given
        up on (1)."""
        self._fatal = asyncio.Event()
        watchers = [asyncio.create_task(self._watch(part), name=f"supervise {part.name}")
                    for part in self.parts]
        waits = {asyncio.ensure_future(stop.wait()), asyncio.ensure_future(self._fatal.wait())}
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (*watchers, *waits):
                task.cancel()
            await asyncio.gather(*watchers, *waits, return_exceptions=True)
        return 1 if self._fatal.is_set() else 0

    async def stop_all(self) -> None:
        """Stops the parts in reverse start order, each after the next one is gone: Envoy first, the
        telemetry collector last, so every service's final export still has somewhere to land."""
        for part in reversed(self.parts):
            await part.stop(self.settings.stop_grace_s)

    async def _until_failure(self, part: Part) -> str:
        """Waits until `part` exits or fails its health checks; says how."""
        streak = FailureStreak(self.settings.failure_threshold)
        exited = asyncio.ensure_future(part.wait())
        try:
            while True:
                done, _ = await asyncio.wait({exited}, timeout=self.settings.check_interval_s)
                if not done:
                    healthy = await self._check(part)
                    if not exited.done() and streak.observe(healthy):
                        return (f"failed {streak.count} health checks in a row (not SERVING, no "
                                f"answer within {self.settings.check_timeout_s:g} s, or not its own "
                                "process answering)")
                if exited.done():
                    return describe_exit(exited.result())
        finally:
            exited.cancel()

    async def _watch(self, part: Part) -> None:
        try:
            await self._keep_running(part)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - a supervisor that stops watching must say so
            log.exception("supervising %s failed", part.name)
            _warn(f"supervising {part.name} failed ({type(exc).__name__}: {exc}); stopping the suite")
            assert self._fatal is not None
            self._fatal.set()

    async def _keep_running(self, part: Part) -> None:
        budget = RestartBudget(self.settings)
        loop = asyncio.get_running_loop()
        while True:
            reason = await self._until_failure(part)
            await part.kill()
            while True:
                delay = budget.next_delay(loop.time())
                if delay is None:
                    self._give_up(part, reason)
                    return
                _warn(f"{part.name} {reason}; restarting it in {delay:g} s (restart "
                      f"{budget.recent(loop.time())} of at most {self.settings.max_restarts} in "
                      f"{self.settings.restart_window_s:g} s)")
                await asyncio.sleep(delay)
                try:
                    await self._start(part)
                except StartError as exc:
                    reason = f"could not be restarted ({exc})"
                    await part.kill()
                    continue
                self.restarts[part.name] += 1
                _say(f"  {part.name} ready again (pid {part.pid})")
                break

    def _give_up(self, part: Part, reason: str) -> None:
        self.given_up[part.name] = reason
        s = self.settings
        line = (f"GIVING UP on {part.name}: it {reason}, after {s.max_restarts} restarts within "
                f"{s.restart_window_s:g} s (supervisor.max_restarts, supervisor.restart_window_s). ")
        left = [p.name for p in self.parts if p.group == part.group and p.name not in self.given_up]
        if left:
            line += (f"{len(left)} other replica(s) of {part.group} keep serving ({', '.join(left)}); "
                     "restart `ztgate up` to bring it back.")
        elif part.essential:
            line += "Nothing can be served without it: stopping the suite."
            assert self._fatal is not None
            self._fatal.set()
        else:
            line += "The rest of the suite keeps serving without it; restart `ztgate up` to bring it back."
        log.error("%s", line)
        _warn(line)
