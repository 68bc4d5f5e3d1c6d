"""The supervisor's decisions: which part it restarts, when, how often, and when it gives up.

Every part here is a FakePart, a TEST DOUBLE of a child process written below (no process runs):
the test crashes it, freezes it (its health check fails) or makes its next starts fail, and reads
back what the supervisor did to it. The real processes are tested in tests/e2e/test_up_supervision.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from ztgate.supervisor.child import StartError
from ztgate.config import SupervisorSettings
from ztgate.supervisor.supervisor import Supervisor

FAST = SupervisorSettings(check_interval_s=0.01, check_timeout_s=0.05, failure_threshold=3,
                          start_timeout_s=0.5, backoff={"initial_s": 0.01, "max_s": 0.04},
                          max_restarts=3, restart_window_s=60.0, stop_grace_s=0.1)


class FakePart:
    """TEST DOUBLE of ztgate.supervisor.child.Child: an 'process' that runs until `crash()` or
    kill; `healthy` answers `self.serving`; `fail_starts` makes that many next starts exit at once."""

    def __init__(self, name: str, events: list[str], *, essential: bool = False,
                 group: str = "") -> None:
        self.name = name
        self.group = group or name
        self.essential = essential
        self.events = events
        self.serving = True
        self.fail_starts = 0
        self.starts = 0
        self.kills = 0
        self._exit: asyncio.Future[int] | None = None

    @property
    def pid(self) -> int | None:
        return None if self._exit is None else 1000 + self.starts

    @property
    def running(self) -> bool:
        return self._exit is not None and not self._exit.done()

    async def start(self) -> None:
        self.starts += 1
        self.events.append(f"start {self.name}")
        self._exit = asyncio.get_running_loop().create_future()
        if self.fail_starts:
            self.fail_starts -= 1
            self._exit.set_result(1)

    async def wait(self) -> int:
        assert self._exit is not None
        return await asyncio.shield(self._exit)

    async def healthy(self, timeout_s: float) -> bool:
        return self.running and self.serving

    async def kill(self) -> None:
        self.kills += 1
        self.crash(-9)

    async def stop(self, grace_s: float) -> None:
        self.events.append(f"stop {self.name}")
        self.crash(0)

    def crash(self, code: int = -9) -> None:
        if self._exit is not None and not self._exit.done():
            self._exit.set_result(code)


def _suite(*names: str, essential: tuple[str, ...] = ()) -> tuple[dict[str, FakePart], list[str]]:
    events: list[str] = []
    return {n: FakePart(n, events, essential=n in essential) for n in names}, events


async def _until(condition: Callable[[], bool], what: str, timeout_s: float = 5.0) -> None:
    for _ in range(int(timeout_s / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"timed out waiting until {what}")


async def _supervising(supervisor: Supervisor) -> tuple[asyncio.Event, asyncio.Task[int]]:
    stop = asyncio.Event()
    assert await supervisor.start_all(stop)
    return stop, asyncio.create_task(supervisor.supervise(stop))


async def test_starts_in_order_and_stops_in_reverse(capsys: pytest.CaptureFixture[str]) -> None:
    parts, events = _suite("telemetry", "redaction", "envoy")
    supervisor = Supervisor(list(parts.values()), FAST)
    stop, running = await _supervising(supervisor)
    stop.set()
    assert await running == 0
    await supervisor.stop_all()
    assert events == ["start telemetry", "start redaction", "start envoy",
                      "stop envoy", "stop redaction", "stop telemetry"]
    assert "  redaction ready (pid 1001)" in capsys.readouterr().out


async def test_only_the_part_that_died_is_restarted(capsys: pytest.CaptureFixture[str]) -> None:
    parts, _ = _suite("telemetry", "redaction", "primary", "fallback", "envoy")
    supervisor = Supervisor(list(parts.values()), FAST)
    stop, running = await _supervising(supervisor)
    parts["telemetry"].crash(-9)
    await _until(lambda: supervisor.restarts["telemetry"] == 1, "telemetry is back")
    assert parts["telemetry"].running and parts["telemetry"].starts == 2
    # Nothing on the request path was touched.
    assert all(p.starts == 1 and p.kills == 0 for n, p in parts.items() if n != "telemetry")
    assert not running.done()
    err = capsys.readouterr().err
    assert "telemetry was killed by SIGKILL; restarting it in 0.01 s (restart 1 of at most 3" in err
    stop.set()
    assert await running == 0


async def test_a_frozen_part_is_killed_and_restarted_after_threshold_failed_checks(
        capsys: pytest.CaptureFixture[str]) -> None:
    parts, _ = _suite("primary", "fallback")
    supervisor = Supervisor(list(parts.values()), FAST)
    stop, running = await _supervising(supervisor)
    primary = parts["primary"]
    primary.serving = False  # alive, but it stops answering
    await _until(lambda: primary.kills == 1, "the frozen part is killed")
    primary.serving = True
    await _until(lambda: supervisor.restarts["primary"] == 1, "it is back")
    assert "primary failed 3 health checks in a row" in capsys.readouterr().err
    assert parts["fallback"].starts == 1
    stop.set()
    await running


async def test_backoff_doubles_and_a_part_that_keeps_failing_is_given_up_while_the_rest_serve(
        capsys: pytest.CaptureFixture[str]) -> None:
    parts, _ = _suite("telemetry", "redaction", "envoy", essential=("redaction", "envoy"))
    supervisor = Supervisor(list(parts.values()), FAST)
    stop, running = await _supervising(supervisor)
    telemetry = parts["telemetry"]
    telemetry.fail_starts = 100  # every restart exits at once
    telemetry.crash(1)
    await _until(lambda: "telemetry" in supervisor.given_up, "telemetry is given up on")
    err = capsys.readouterr().err
    waits = [line.split("restarting it in ")[1].split(" s")[0] for line in err.splitlines()
             if line.startswith("telemetry") and "restarting it in" in line]
    assert waits == ["0.01", "0.02", "0.04"]
    assert telemetry.starts == 1 + FAST.max_restarts  # the first start, then each restart once
    assert ("GIVING UP on telemetry: it could not be restarted (telemetry exited with code 1 during "
            "start), after 3 restarts within 60 s (supervisor.max_restarts, supervisor.restart_window_s)"
            in err)
    assert "The rest of the suite keeps serving without it" in err
    # A part given up on is not a reason to stop: the others keep being supervised.
    await asyncio.sleep(0.1)
    assert not running.done()
    parts["redaction"].crash(-9)
    await _until(lambda: supervisor.restarts["redaction"] == 1, "redaction is still restarted")
    stop.set()
    assert await running == 0


async def test_giving_up_on_an_essential_part_ends_supervision_with_1(
        capsys: pytest.CaptureFixture[str]) -> None:
    parts, _ = _suite("redaction", "primary", essential=("redaction",))
    supervisor = Supervisor(list(parts.values()), FAST.model_copy(update={"max_restarts": 1}))
    _, running = await _supervising(supervisor)
    parts["redaction"].fail_starts = 100
    parts["redaction"].crash(1)
    assert await asyncio.wait_for(running, 5) == 1
    assert "Nothing can be served without it: stopping the suite." in capsys.readouterr().err


async def test_a_part_that_ran_through_a_window_gets_a_fresh_budget() -> None:
    parts, _ = _suite("primary")
    settings = FAST.model_copy(update={"max_restarts": 1, "restart_window_s": 0.3})
    supervisor = Supervisor(list(parts.values()), settings)
    stop, running = await _supervising(supervisor)
    primary = parts["primary"]
    primary.crash(-9)
    await _until(lambda: supervisor.restarts["primary"] == 1, "the first restart")
    await asyncio.sleep(0.35)  # a whole window without failing
    primary.crash(-9)
    await _until(lambda: supervisor.restarts["primary"] == 2, "a second restart")
    assert supervisor.given_up == {}
    stop.set()
    await running


async def test_a_part_that_fails_to_start_stops_the_start_loudly() -> None:
    parts, events = _suite("telemetry", "redaction", "envoy")
    parts["redaction"].fail_starts = 1
    supervisor = Supervisor(list(parts.values()), FAST)
    with pytest.raises(StartError, match="redaction exited with code 1 during start"):
        await supervisor.start_all(asyncio.Event())
    assert "start envoy" not in events  # nothing after it was started


async def test_a_part_that_never_turns_healthy_times_out_naming_the_setting() -> None:
    parts, _ = _suite("primary")
    parts["primary"].serving = False
    supervisor = Supervisor(list(parts.values()), FAST.model_copy(update={"start_timeout_s": 0.1}))
    with pytest.raises(StartError, match=r"not healthy within 0.1 s \(supervisor.start_timeout_s\)"):
        await supervisor.start_all(asyncio.Event())


async def test_stop_while_starting_returns_false_without_starting_the_rest() -> None:
    parts, events = _suite("primary", "envoy")
    parts["primary"].serving = False  # would wait for start_timeout_s
    supervisor = Supervisor(list(parts.values()), FAST.model_copy(update={"start_timeout_s": 30}))
    stop = asyncio.Event()
    asyncio.get_running_loop().call_later(0.05, stop.set)
    assert await supervisor.start_all(stop) is False
    assert events == ["start primary"]


async def test_replicas_of_an_essential_part_are_restarted_and_given_up_on_each_on_its_own(
        capsys: pytest.CaptureFixture[str]) -> None:
    """`ztgate up --replicas redaction=2`: losing one replica for good leaves the suite serving on
    the other; only losing the last one stops it."""
    events: list[str] = []
    first, second = (FakePart(f"redaction#{i}", events, essential=True, group="redaction")
                     for i in (1, 2))
    supervisor = Supervisor([first, second], FAST.model_copy(update={"max_restarts": 1}))
    _, running = await _supervising(supervisor)
    second.crash(-9)  # restarted, alone
    await _until(lambda: supervisor.restarts["redaction#2"] == 1, "the second replica's restart")
    assert supervisor.restarts["redaction#1"] == 0 and first.starts == 1
    first.fail_starts = 100
    first.crash(1)
    await _until(lambda: "redaction#1" in supervisor.given_up, "giving up on the first replica")
    await asyncio.sleep(0.1)
    assert not running.done()  # the other replica still serves
    err = capsys.readouterr().err
    assert "1 other replica(s) of redaction keep serving (redaction#2)" in err
    assert "stopping the suite" not in err
    second.fail_starts = 100
    second.crash(1)
    assert await asyncio.wait_for(running, 5) == 1
    assert "Nothing can be served without it: stopping the suite." in capsys.readouterr().err
