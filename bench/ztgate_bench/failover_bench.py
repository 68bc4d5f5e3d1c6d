"""`ztgate bench failover`: what each way a part can fail costs the calls of a running suite.

The bench runs `ztgate up` itself (the whole suite as users run it: vLLM primary, fallback,
redaction, collector, Envoy with the rendered bootstrap, supervised), on free loopback ports with
certificates and redaction keys of its own, and the rest of the configuration as given. Steady,
light Generate load goes through Envoy all along (bench/ztgate_bench/failover_load.py: `--clients`
clients, each one call at a time). After a healthy baseline of `--duration-s` seconds, it injects
each fault in turn (FAULTS), each once the suite has recovered from the one before:

- primary_killed: SIGKILL of the primary's server process; `up` restarts it.
- primary_frozen: SIGSTOP of the primary's server process. Nobody sends SIGCONT: `up`'s health
  checks find it frozen and replace it (its whole process group killed), as in production.
- primary_slowed: the primary alive and healthy, but slow to its first token. A test double's
  injected delay (tests/e2e/test_gateway_slo.py) cannot reach a real engine, so the bench slows
  the engine itself, the fault injection being: its engine processes (vLLM's EngineCore and
  worker, its process group but not its server) frozen by SIGSTOP for `slow_stop_s` (1.8 s with
  the default 1.2 s budget), then SIGCONT for SLOW_RUN_S, over and over, for 3 x `--duration-s`. The server keeps answering health checks, so neither
  Envoy nor `up` takes it out: only the first-token budget and the SLO controller can.
- fallback_killed, collector_killed: SIGKILL of that part; `up` restarts it.

Per fault: calls lost (failed / made) while it lasts and after; added latency p50/p99 (every
call's wait, answered or not, minus the same run's baseline) during the fault (from injection
until recovered) and in the `--duration-s` seconds after; and times to recover: until `up` had the
part running again, and until calls succeed at baseline again (RECOVERED_RUN calls in a row, each
answered within the baseline p99 x 1.5, by the primary after a primary fault; after the slowed
primary, counted from when it was healed). "During" ends when both have happened. Every wait is
bounded (RECOVERY_LIMIT_S per fault); only loopback addresses are used.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import platform
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ztgate_bench.attack_bench import _finite, _ms
from ztgate_bench.attack_load import Call
from ztgate_bench.failover_load import CALL_TIMEOUT_S, MAX_TOKENS, PROMPT, steady_load
from ztgate_bench.prefill_probe import PrefillPoint, all_answered, probe
from ztgate_bench.prefill_probe import render as render_prefill
from ztgate.common.first_token import FirstTokenBudget
from ztgate.common.process import free_address, spawn
from ztgate_bench.redaction_metrics import percentile
from ztgate.common.lifetime import descendants, group_members
from ztgate.config import ZtgateConfig
from ztgate.supervisor.launcher import listen_variables

DEFAULT_DURATION_S = 20.0
DEFAULT_CLIENTS = 2
# Each client starts at most one call this often (steady, light load).
INTERVAL_S = 0.5
# Calls made and not counted before the baseline (connections, caches, the engines' first calls).
WARMUP_CALLS = 4
# The longest wait for a fault's recovery (a vLLM restart takes minutes on a busy 2-core machine).
RECOVERY_LIMIT_S = 600.0
# Calls in a row, each answered within the baseline p99 x RECOVERED_FACTOR, that count as recovered.
RECOVERED_RUN = 5
RECOVERED_FACTOR = 1.5
# The slowed primary: its engine frozen SLOW_STOP_S of every SLOW_STOP_S + SLOW_RUN_S seconds
# (longer where the load prompt's budget is longer: `slow_stop_s`).
SLOW_STOP_S, SLOW_RUN_S = 1.8, 0.2
# `ztgate up`'s start (vLLM's first start compiles and warms up) and stop.
START_TIMEOUT_S = 1200.0
STOP_TIMEOUT_S = 60.0
# supervisor.start_timeout_s of the bench's suite: each part's start or restart.
PART_START_TIMEOUT_S = 900.0
# The target: at most one call in 60 lost to any one fault.
MAX_LOST_FRACTION = 1 / 60


@dataclass(frozen=True, slots=True)
class Fault:
    part: str         # the part of `ztgate up` it hits
    how: str          # what is done, for the report
    restarts: bool    # whether `up` restarts the part after it


FAULTS: dict[str, Fault] = {
    "collector_killed": Fault("telemetry", "SIGKILL of the telemetry collector", True),
    "fallback_killed": Fault("inference-fallback", "SIGKILL of the fallback", True),
    "primary_slowed": Fault("inference-primary", "the primary's engine frozen for 1.5x the load prompt's "
                            f"first-token budget (at least {SLOW_STOP_S:g} s), then run {SLOW_RUN_S:g} s, over and over "
                            "(SIGSTOP/SIGCONT); its server alive and healthy", False),
    "primary_frozen": Fault("inference-primary", "SIGSTOP of the primary (no SIGCONT: up replaces it)", True),
    "primary_killed": Fault("inference-primary", "SIGKILL of the primary", True),
}


def check_faults(names: Sequence[str]) -> tuple[str, ...]:
    """The faults asked for, in FAULTS order; ValueError naming any unknown one."""
    unknown = sorted(set(names) - set(FAULTS))
    if unknown:
        raise ValueError(f"unknown fault {', '.join(unknown)}; known: {', '.join(FAULTS)}")
    return tuple(f for f in FAULTS if f in set(names))


@dataclass(frozen=True, slots=True)
class Window:
    calls: int
    lost: int
    p50_ms: float
    p99_ms: float
    served_by: dict[str, int]
    errors: dict[str, int]


def window(calls: Sequence[Call]) -> Window:
    """The calls that began in one window: latency over every call (answered or not)."""
    durations = [c.duration_ms for c in calls]
    errors = Counter(c.code for c in calls if c.code != "OK")
    return Window(len(calls), sum(errors.values()), percentile(durations, 50), percentile(durations, 99),
                  dict(Counter(c.served_by for c in calls if c.code == "OK")), dict(errors))


def recovered_at(calls: Sequence[Call], since: float, limit_ms: float, served_by: str | None = None,
                 run: int = RECOVERED_RUN) -> float | None:
    """When (monotonic) the first of `run` calls in a row that began at or after `since` began,
    each answered within `limit_ms` (by `served_by` if given); None if no such run yet."""
    streak: list[Call] = []
    for call in sorted((c for c in calls if c.started_s >= since), key=lambda c: c.started_s):
        good = call.code == "OK" and call.duration_ms <= limit_ms and served_by in (None, call.served_by)
        streak = [*streak, call] if good else []
        if len(streak) >= run:
            return streak[0].started_s
    return None


@dataclass(slots=True)
class FaultResult:
    name: str
    how: str
    during: Window
    after: Window
    # Seconds from injection: until `up` had the part running again (None: not restarted, or not
    # expected to be), until calls succeeded at baseline again (None: not within the limit).
    restarted_s: float | None
    recovered_s: float | None
    # The slowed primary: seconds from injection until the SLO controller moved traffic off it,
    # and how long the fault was held.
    moved_off_s: float | None = None
    held_s: float | None = None
    detail: str = ""

    @property
    def lost(self) -> int:
        return self.during.lost + self.after.lost

    @property
    def calls(self) -> int:
        return self.during.calls + self.after.calls


@dataclass(slots=True)
class FailoverBench:
    clients: int
    duration_s: float
    baseline: Window
    faults: list[FaultResult]
    recovery_limit_s: float = RECOVERY_LIMIT_S
    # Long prompts on the healthy suite before the load (bench/ztgate_bench/prefill_probe.py).
    prefill: list[PrefillPoint] = field(default_factory=list)
    when: str = field(default_factory=lambda: time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))

    def targets(self) -> dict[str, bool]:
        out = {"every baseline call succeeds": self.baseline.calls > 0 and self.baseline.lost == 0}
        if self.prefill:
            out["every long prompt answered"] = all_answered(self.prefill)
        for f in self.faults:
            out[f"{f.name}: at most 1 call in 60 lost"] = f.calls > 0 and f.lost <= f.calls * MAX_LOST_FRACTION
            out[f"{f.name}: calls back at baseline within {self.recovery_limit_s:g} s"] = f.recovered_s is not None
        return out

    @property
    def targets_met(self) -> bool:
        return all(self.targets().values())

    def to_json(self) -> dict:
        raw = asdict(self)
        raw["targets"] = self.targets()
        return _finite(raw)


def _added(value: float, base: float) -> str:
    return "n/a" if math.isnan(value) or math.isnan(base) else f"{value - base:+,.0f}"


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def render_report(result: FailoverBench, command: str = "ztgate bench failover",
                  budget: FirstTokenBudget | None = None) -> str:
    """The Markdown report of one run."""
    b = result.baseline
    lines = [
        f"`{command}` on {platform.node()} ({platform.machine()}, {len(os.sched_getaffinity(0))} CPUs), "
        f"{result.when}: `ztgate up` as configured (its own loopback ports and certificates); "
        f"{result.clients} clients through Envoy, each one greedy Generate ({MAX_TOKENS} tokens) at a "
        f"time, at most one every {INTERVAL_S:g} s; each client gives a call {CALL_TIMEOUT_S:g} s.",
        "",
        f"Healthy baseline ({result.duration_s:g} s): {b.calls} calls, {b.lost} failed, p50 {_ms(b.p50_ms)} ms, "
        f"p99 {_ms(b.p99_ms)} ms.",
        "",
        "| fault | lost during | lost after | added p50 / p99 during (ms) | added p50 / p99 after (ms) | "
        "part back (s) | calls at baseline (s) | served during |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for f in result.faults:
        served = ", ".join(f"{k or '?'} {n}" for k, n in sorted(f.during.served_by.items())) or "none"
        lines.append(
            f"| {f.name} | {f.during.lost} / {f.during.calls} | {f.after.lost} / {f.after.calls} | "
            f"{_added(f.during.p50_ms, b.p50_ms)} / {_added(f.during.p99_ms, b.p99_ms)} | "
            f"{_added(f.after.p50_ms, b.p50_ms)} / {_added(f.after.p99_ms, b.p99_ms)} | "
            f"{_seconds(f.restarted_s)} | {_seconds(f.recovered_s)} | {served} |")
    lines += ["", "What each fault is, and what happened:"]
    for f in result.faults:
        note = f"- {f.name}: {f.how}."
        if f.held_s is not None:
            moved = (f"the SLO controller moved traffic off the primary {f.moved_off_s:.1f} s in"
                     if f.moved_off_s is not None else "the SLO controller did not move traffic off it")
            note += f" Held {f.held_s:.0f} s; {moved}."
        errors = {**f.during.errors, **{k: f.during.errors.get(k, 0) + n for k, n in f.after.errors.items()}}
        if errors:
            note += " Failed calls: " + ", ".join(f"{k} {n}" for k, n in sorted(errors.items())) + "."
        if f.detail:
            note += f" {f.detail}"
        lines.append(note)
    if result.prefill and budget is not None:
        lines += ["", *render_prefill(result.prefill, budget)]
    lines += ["", "Targets:", *(f"- {name}: {'met' if met else 'NOT met'}" for name, met in result.targets().items())]
    return "\n".join(lines) + "\n"


# --- the suite ------------------------------------------------------------------------------------


class UpSuite:
    """`ztgate up` in a process of its own, on free loopback ports; its parts' pids from its output."""

    def __init__(self, config_path: Path | None, workdir: Path) -> None:
        self.workdir = workdir
        self.addresses = {key: free_address() for key in listen_variables()}  # every address up listens on
        env = dict(self.addresses)
        env["ZTGATE_MESH__PKI_DIR"] = str(workdir / "pki")  # empty: `up` issues the certificates
        env["ZTGATE_REDACTION__KEYS_FILE"] = str(workdir / "keys" / "redaction.json")
        # vLLM's (re)start on a busy 2-core machine can pass supervisor.start_timeout_s's 300 s;
        # a restart that gave up would measure the machine, not the failover.
        env["ZTGATE_SUPERVISOR__START_TIMEOUT_S"] = str(PART_START_TIMEOUT_S)
        self.env = env
        self.log_path = workdir / "up.log"
        argv = [sys.executable, "-m", "ztgate.cli", "up", "--verbose",  # every part's output in up.log
                *(["--config", str(config_path)] if config_path else [])]
        self.process = spawn(argv, self.log_path, env)

    @property
    def gateway(self) -> str:
        return self.addresses["ZTGATE_GATEWAY__LISTEN"]

    @property
    def admin(self) -> str:
        return self.addresses["ZTGATE_GATEWAY__ADMIN"]

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_up(self, timeout_s: float = START_TIMEOUT_S) -> None:
        deadline = time.monotonic() + timeout_s
        while "ztgate is up" not in self.log():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"ztgate up did not come up (log {self.log_path}):\n{self.log()[-3000:]}")
            time.sleep(0.5)

    def pids(self, part: str) -> list[int]:
        """Every pid `up` has reported for `part`, in order (its first start, then each restart)."""
        return [int(p) for p in re.findall(rf"^  {re.escape(part)} ready(?: again)? \(pid (\d+)\)$",
                                           self.log(), re.MULTILINE)]

    def pid(self, part: str) -> int:
        return self.pids(part)[-1]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()  # its parts die with it (PR_SET_PDEATHSIG)
                self.process.wait()


def _token(config: ZtgateConfig) -> str:
    """A token for tenant `bench` when the gateway checks them (the signing key beside the JWKS)."""
    auth = config.gateway.auth
    if auth.jwks_path is None:
        return ""
    from ztgate.gateway.auth import mint, signing_key_for

    return mint(signing_key_for(auth.jwks_path.expanduser()), tenant="bench", issuer=auth.issuer,
                audience=auth.audience, tenant_claim=auth.tenant_claim, scope_claim=auth.scope_claim,
                ttl_s=min(3600, auth.max_token_lifetime_s), max_ttl_s=auth.max_token_lifetime_s)


def slow_stop_s(config: ZtgateConfig) -> float:
    """How long the slowed primary's engine is frozen at a time: SLOW_STOP_S (a first token near
    2 s against the load prompt's default budget, 1.45 s), or 1.5 x a longer budget, so the fault
    stays past it."""
    budget_s = config.gateway.first_token_budget.budget_ms_for_bytes(len(PROMPT.encode("utf-8"))) / 1000
    return max(SLOW_STOP_S, 1.5 * budget_s)


# --- the run --------------------------------------------------------------------------------------


def _signal_all(pids: Sequence[int], sig: int) -> None:
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


class _Run:
    """One run's state: the suite, the load's calls, the clock, progress lines."""

    def __init__(self, up: UpSuite, calls: list[Call], in_flight: dict[int, float], duration_s: float,
                 recovery_limit_s: float, say: Callable[[str], None]) -> None:
        self.up, self.calls, self.in_flight = up, calls, in_flight
        self.duration_s, self.recovery_limit_s = duration_s, recovery_limit_s
        self.started = time.monotonic()
        self._say = say
        self.runtime_key = "ztgate.inference.primary_percent"  # telemetry.slo.runtime_key
        self.slow_stop_s = SLOW_STOP_S

    def say(self, line: str) -> None:
        self._say(f"[{time.monotonic() - self.started:6.1f} s] {line}")

    def between(self, start: float, end: float) -> list[Call]:
        return [c for c in self.calls if start <= c.started_s < end]

    async def settle(self, seconds: float) -> None:
        """Waits `seconds`, and until the calls begun by then have ended (so a window is complete)."""
        end = time.monotonic() + seconds
        await asyncio.sleep(seconds)
        deadline = end + CALL_TIMEOUT_S + 5
        while any(s < end for s in list(self.in_flight.values())) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)

    async def fault(self, name: str, baseline: Window) -> FaultResult:
        spec, up = FAULTS[name], self.up
        pid, restarts_before = up.pid(spec.part), len(up.pids(spec.part))
        limit_ms = baseline.p99_ms * RECOVERED_FACTOR
        primary = spec.part == "inference-primary"
        t0 = time.monotonic()
        held_s = moved_off_s = restarted_s = None
        detail = ""
        if name == "primary_slowed":
            engine = [p for p in sorted({*group_members(pid), *descendants(pid)}) if p != pid]
            if not engine:
                raise RuntimeError("the primary has no engine process to slow (primary_slowed needs vLLM)")
            self.say(f"{name}: freezing the primary's engine ({', '.join(map(str, engine))}) "
                     f"{self.slow_stop_s:g} s of every {self.slow_stop_s + SLOW_RUN_S:g} s")
            moved_off_s = await self._slow(engine, 3 * self.duration_s, t0, self.slow_stop_s)
            held_s = time.monotonic() - t0
            self.say(f"{name}: healed after {held_s:.0f} s" + (
                f"; traffic had moved off the primary at +{moved_off_s:.1f} s" if moved_off_s is not None else
                "; traffic never moved off the primary"))
            since = time.monotonic()
        else:
            sig = signal.SIGSTOP if name == "primary_frozen" else signal.SIGKILL
            family = sorted({pid, *group_members(pid), *descendants(pid)})
            os.kill(pid, sig)
            self.say(f"{name}: {signal.Signals(sig).name} to {spec.part} (pid {pid})")
            restarted_s = await self._restarted(spec.part, restarts_before, t0)
            if restarted_s is None:
                detail = f"{spec.part} was not running again within {self.recovery_limit_s:g} s."
            else:
                left = [f"{p} {_cmdline(p)}" for p in family if _alive(p)]
                self.say(f"{name}: {spec.part} running again after {restarted_s:.1f} s (pid {up.pid(spec.part)})"
                         + (f"; LEFT ALIVE of the old one: {left}" if left else "; nothing of the old one left"))
                if left:
                    detail = f"Processes of the old {spec.part} left alive: {left}."
            if name == "primary_frozen":
                _signal_all(family, signal.SIGCONT)  # only if something of it is still there
            since = t0
        # After a primary fault, back at baseline means served by the primary again.
        recovered = await self._back_at_baseline(since, limit_ms, "primary" if primary else None, t0)
        recovered_s = None if recovered is None else recovered - t0
        self.say(f"{name}: calls at baseline again after " + (
            f"{recovered_s:.1f} s" if recovered_s is not None else f"more than {self.recovery_limit_s:g} s"))
        # The fault lasts until calls are back at baseline and the part is running again.
        end_during = max(recovered if recovered is not None else time.monotonic(), t0 + (restarted_s or 0.0))
        await self.settle(self.duration_s)
        during = window(self.between(t0, end_during))
        after = window(self.between(end_during, end_during + self.duration_s))
        self.say(f"{name}: lost {during.lost}/{during.calls} during, {after.lost}/{after.calls} after")
        return FaultResult(name, spec.how, during, after, restarted_s, recovered_s, moved_off_s, held_s, detail)

    async def _slow(self, engine: list[int], hold_s: float, t0: float, stop_s: float) -> float | None:
        """Freezes `engine` in cycles for `hold_s`; when the controller moved traffic off (s from t0)."""
        from ztgate.telemetry.envoy_admin import EnvoyAdmin

        key = self.runtime_key
        runtime = EnvoyAdmin(self.up.admin, 2.0)
        moved: float | None = None
        try:
            while time.monotonic() - t0 < hold_s:
                _signal_all(engine, signal.SIGSTOP)
                await asyncio.sleep(stop_s)
                _signal_all(engine, signal.SIGCONT)
                if moved is None:
                    try:
                        value = await runtime.get(key)
                    except OSError:
                        value = None
                    if value is not None and value != "100":
                        moved = time.monotonic() - t0
                        self.say(f"primary_slowed: the SLO controller set {key} to {value}")
                await asyncio.sleep(SLOW_RUN_S)
        finally:
            _signal_all(engine, signal.SIGCONT)
        return moved

    async def _restarted(self, part: str, before: int, t0: float) -> float | None:
        while time.monotonic() - t0 < self.recovery_limit_s:
            if self.up.process.poll() is not None:
                raise RuntimeError(f"ztgate up exited ({self.up.process.returncode}):\n{self.up.log()[-3000:]}")
            if len(self.up.pids(part)) > before:
                return time.monotonic() - t0
            await asyncio.sleep(0.25)
        return None

    async def _back_at_baseline(self, since: float, limit_ms: float, served_by: str | None,
                                t0: float) -> float | None:
        while time.monotonic() - t0 < self.recovery_limit_s:
            found = recovered_at(self.calls, since, limit_ms, served_by)
            if found is not None:
                return found
            await asyncio.sleep(0.25)
        return None


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")[:60]
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return False
    return stat[stat.rfind(b")") + 2:].split()[0] != b"Z"


async def _phases(up: UpSuite, token: str, runtime_key: str, slow_stop_s: float, *, clients: int,
                  duration_s: float, faults: tuple[str, ...], recovery_limit_s: float,
                  say: Callable[[str], None], budget: FirstTokenBudget | None = None,
                  ) -> tuple[Window, list[FaultResult], list[PrefillPoint]]:
    await steady_load(up.gateway, token, max_calls=WARMUP_CALLS)
    prefill: list[PrefillPoint] = []
    if budget is not None:
        say("long prompts: one call per size, before any load ...")
        prefill = await probe(up.gateway, token, budget)
        say("long prompts: " + ", ".join(f"{p.size} {p.code if p.code != 'OK' else f'{p.ttft_ms:.0f} ms'}"
                                         for p in prefill))
    calls: list[Call] = []
    in_flight: dict[int, float] = {}
    done = False
    load = asyncio.ensure_future(steady_load(up.gateway, token, clients=clients, stop=lambda: done,
                                             interval_s=INTERVAL_S, calls=calls, in_flight=in_flight))
    run = _Run(up, calls, in_flight, duration_s, recovery_limit_s, say)
    run.runtime_key = runtime_key
    run.slow_stop_s = slow_stop_s
    try:
        run.say(f"healthy baseline: {duration_s:g} s of load from {clients} clients")
        begin = time.monotonic()
        await run.settle(duration_s)
        baseline = window(run.between(begin, begin + duration_s))
        run.say(f"baseline: {baseline.calls} calls, {baseline.lost} failed, p50 {_ms(baseline.p50_ms)} ms, "
                f"p99 {_ms(baseline.p99_ms)} ms")
        if not baseline.calls or baseline.lost:
            details = sorted({f"{c.code}: {c.detail}" for c in calls if c.code != "OK"})[:3]
            raise RuntimeError(f"the healthy suite failed {baseline.lost} of {baseline.calls} calls ({'; '.join(details)}); "
                               "on a machine too busy for the first-token budget, raise "
                               "gateway.inference.per_try_timeout_s (and telemetry.slo.ttft_trip_ms with it)")
        results = []
        for name in faults:
            if load.done():
                load.result()  # raises what ended it
            results.append(await run.fault(name, baseline))
        return baseline, results, prefill
    finally:
        done = True
        await asyncio.wait_for(load, CALL_TIMEOUT_S + 10)


def run(config: ZtgateConfig, config_path: Path | None, *, clients: int = DEFAULT_CLIENTS,
        duration_s: float = DEFAULT_DURATION_S, faults: Sequence[str] = tuple(FAULTS),
        recovery_limit_s: float = RECOVERY_LIMIT_S, say: Callable[[str], None] = print) -> FailoverBench:
    """Starts `ztgate up`, runs the baseline and the faults, stops the suite."""
    if clients < 1 or duration_s <= 0:
        raise ValueError("clients must be >= 1 and duration_s > 0")
    faults = check_faults(faults)
    workdir = Path(tempfile.mkdtemp(prefix="ztgate-bench-failover-"))
    say(f"starting ztgate up (log {workdir / 'up.log'}); vLLM takes minutes to start here ...")
    up = UpSuite(config_path, workdir)
    try:
        up.wait_up()
        baseline, results, prefill = asyncio.run(_phases(
            up, _token(config), config.telemetry.slo.runtime_key, slow_stop_s(config), clients=clients,
            duration_s=duration_s, faults=faults, recovery_limit_s=recovery_limit_s, say=say,
            budget=config.gateway.first_token_budget))
    finally:
        up.stop()
    return FailoverBench(clients, duration_s, baseline, results, recovery_limit_s, prefill=prefill)


def main(args: argparse.Namespace) -> int:
    """`ztgate bench failover [--config FILE] [--clients N] [--duration-s S] [--faults F,F]
    [--out FILE.json]`; exit 1 if a target is missed."""
    from ztgate.config import load_config

    clients = getattr(args, "clients", None) or DEFAULT_CLIENTS
    duration_s = getattr(args, "duration_s", None) or DEFAULT_DURATION_S
    chosen = getattr(args, "faults", None)
    faults = check_faults([f.strip() for f in chosen.split(",") if f.strip()]) if chosen else tuple(FAULTS)
    config_path = getattr(args, "config", None)
    config = load_config(config_path)
    result = run(config, config_path, clients=clients, duration_s=duration_s, faults=faults,
                 say=lambda line: print(line, file=sys.stderr, flush=True))
    command = (f"ztgate bench failover --clients {clients} --duration-s {duration_s:g}"
               f"{' --faults ' + ','.join(faults) if chosen else ''}")
    print(render_report(result, command, config.gateway.first_token_budget))
    out = getattr(args, "out", None)
    if out:
        Path(out).write_text(json.dumps(result.to_json(), indent=2, default=str) + "\n")
    return 0 if result.targets_met else 1
