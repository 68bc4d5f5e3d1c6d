"""`ztgate bench attack`: what the worst inputs known, sent by one tenant, do to another tenant's calls.

The parts run as `ztgate bench gateway` starts them (`running_suite`: the real redaction service,
an echo inference upstream, Envoy with the bootstrap `ztgate envoy-config` renders, mTLS behind it
as under `ztgate up`), with tokens on: two tenants, `normal` and `attacker`, each with a verified
token of its own. The echo upstream counts what reaches it (bench/ztgate_bench/canaries.py).

1. Baseline: the normal tenant's calls alone: `Generate` with a prompt full of PII, and `Redact` of
   it, two clients side by side, each one call at a time (so that a stuck Redact cannot hide what
   happens to Generate, nor the reverse).
2. Attack: for `--duration-s`, every attack kind at once from the attacker (bench/ztgate_bench/
   attack_load.py `KINDS`, in a process of its own with its own event loop, at the lowest CPU priority
   unless `--attacker-priority` says otherwise: on a deployment the attacker's client runs on its own
   machine, so its CPU is no part of the gateway's capacity), while the normal tenant makes the same
   calls, paced over the phase.
3. After: how long until a normal Generate succeeds again, and whether the normal tenant's Redact
   sessions still restore (a flood of fresh sessions past the attacker's vault quota must not evict
   another tenant's: past its quota a tenant makes way from its own sessions only).

Figures: the normal tenant's p50/p99 (the time each call took, answered or not) and errors per
status in both phases; per attack kind, the statuses it met; canaries (fake card, email and AWS key
in every attack, and the normal tenant's own values) that reached the upstream, must be 0. Every
loop is bounded in count and time; only loopback addresses are used.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import platform
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ztgate_bench.attack_load import (
    BENCH_KINDS,
    DEFAULT_KINDS,
    KINDS,
    NORMAL_VALUES,
    LOWEST_PRIORITY,
    AttackerProcess,
    AttackPlan,
    Call,
    KindFigures,
    NormalLoad,
    check_kinds,
    normal_load,
    restorable,
    time_to_recover,
)
from ztgate_bench.canaries import Canaries
from ztgate_bench.gateway_bench import running_suite
from ztgate_bench.redaction_metrics import percentile
from ztgate.common.lifetime import alive
from ztgate.common.memory import MIB, rss_bytes
from ztgate.common.server import memory_ceiling
from ztgate.config import ZtgateConfig
from ztgate.gateway.envoy_config import rate_limit_in_force
from ztgate.redaction.server import DEFAULT_MAX_RSS_MIB

NORMAL, ATTACKER = "normal", "attacker"
METHODS = ("Generate", "Redact")
DEFAULT_CALLS = 40
DEFAULT_DURATION_S = 30.0
# Deadlines: of one normal call, of one attack call.
NORMAL_TIMEOUT_S = 10.0
ATTACK_TIMEOUT_S = 10.0
# Normal calls made and not counted before the baseline (connections, first-call caches).
WARMUP_CALLS = 4
# Seconds the attack runs before the normal tenant's calls under attack begin.
RAMP_S = 1.0
# Longest wait for a normal Generate to succeed after the attack.
RECOVERY_LIMIT_S = 30.0
# Seconds each part gets to exit at the end (a redaction service stuck in a scan is then killed).
STOP_TIMEOUT_S = 10.0
# The target: a normal call's p99 under attack within this multiple of its p99 alone.
P99_FACTOR = 2.0
# Seconds between readings of each part's resident memory.
RSS_INTERVAL_S = 0.1
# The replica `replica_kill` takes away (the second of two), and when: this share into the phase.
KILLED_REPLICA = "redaction-2"
KILL_AT = 1 / 3


def cpu_seconds(pid: int, *, tree: bool = True) -> float:
    """CPU time (user and system) of a process, with `tree` that of its live descendants too and of
    the children it has reaped (Linux /proc); 0.0 for a process gone."""
    total, stack = 0, [pid]
    while stack:
        current = stack.pop()
        try:
            with open(f"/proc/{current}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
        if not tree:
            break
        if current == pid:
            total += int(fields[13]) + int(fields[14])  # cutime, cstime: its reaped children
        try:
            tasks = os.listdir(f"/proc/{current}/task")
        except OSError:
            tasks = []
        for task in tasks:
            try:
                with open(f"/proc/{current}/task/{task}/children") as children:
                    stack += [int(child) for child in children.read().split()]
            except OSError:
                pass
    return total / os.sysconf("SC_CLK_TCK")


class CpuMeter:
    """Cores each process (tree) used over a span: `start()`, then `stop()` gives name -> cores."""

    def __init__(self, pids: dict[str, int], own: dict[str, int] | None = None) -> None:
        self.pids, self.own = pids, own or {}  # `own`: counted without their descendants

    def _read(self) -> dict[str, float]:
        return {**{name: cpu_seconds(pid) for name, pid in self.pids.items()},
                **{name: cpu_seconds(pid, tree=False) for name, pid in self.own.items()}}

    def start(self) -> None:
        self._started, self._at = self._read(), time.monotonic()

    def stop(self) -> dict[str, float]:
        wall = max(time.monotonic() - self._at, 1e-9)
        return {name: round(max(0.0, used - self._started.get(name, 0.0)) / wall, 3)
                for name, used in self._read().items()}


async def sample_rss(pids: dict[str, int], peaks: dict[str, int], stop: asyncio.Event) -> None:
    """Each part's highest RSS in MiB into `peaks` until `stop` (a part gone is skipped)."""
    while True:
        for name, pid in pids.items():
            try:
                peaks[name] = max(peaks.get(name, 0), rss_bytes(pid) // MIB)
            except OSError:
                pass
        try:
            await asyncio.wait_for(stop.wait(), RSS_INTERVAL_S)
            return
        except TimeoutError:
            continue


@dataclass(frozen=True, slots=True)
class PhaseStats:
    calls: int
    ok: int
    p50_ms: float
    p99_ms: float
    errors: dict[str, int]


def phase_stats(calls: Sequence[Call], method: str) -> PhaseStats:
    """One method's calls in one phase: latency over every call (the client's wait, answered or not)."""
    mine = [c for c in calls if c.method == method]
    durations = [c.duration_ms for c in mine]
    errors = Counter(c.code for c in mine if c.code != "OK")
    return PhaseStats(len(mine), len(mine) - sum(errors.values()), percentile(durations, 50),
                      percentile(durations, 99), dict(sorted(errors.items())))


@dataclass(slots=True)
class AttackBench:
    calls: int
    duration_s: float
    kinds: tuple[str, ...]
    seed: int
    baseline: list[Call]
    under_attack: list[Call]
    attacks: dict[str, KindFigures]
    # The upstream's counts: {"requests_by_tenant": {...}, "hits": {label: requests}}; None if unread.
    upstream: dict | None
    # The normal tenant's sessions after the attack: restored, lost, unchecked or a status name.
    sessions: dict[str, int]
    # Seconds until a normal Generate succeeded after the attack (None: not within recovery_limit_s).
    recovery_s: float | None
    recovery_limit_s: float = RECOVERY_LIMIT_S
    mtls: bool = True
    rate_limit: str = "off"
    # The vault's session bounds (redaction.vault): per tenant, and all tenants together.
    vault_sessions_per_tenant: int = 0
    vault_sessions: int = 0
    # Each part's peak RSS in MiB: with the normal tenant alone ("before") and under attack ("during").
    rss_mib: dict[str, dict[str, int]] = field(default_factory=dict)
    # The redaction service's RSS ceiling (redaction.server.max_rss_mib or its default; 0: none).
    rss_ceiling_mib: int = 0
    # Parts that were not running at the end (a replica the bench killed on purpose aside).
    exited: list[str] = field(default_factory=list)
    # The part the bench killed on purpose (replica_kill), and when (seconds into the phase).
    killed: str = ""
    killed_at_s: float = 0.0
    # The attacker process's CPU niceness (19: the lowest priority; 0: the bench's own).
    attacker_nice: int = 0
    # Cores each part used, with its children (the analysis workers), and the two clients: with the
    # normal tenant alone ("before") and under attack ("during").
    cpu_cores: dict[str, dict[str, float]] = field(default_factory=dict)
    when: str = field(default_factory=lambda: time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))

    def stats(self, phase: str, method: str) -> PhaseStats:
        return phase_stats(self.baseline if phase == "baseline" else self.under_attack, method)

    def p99_ratio(self, method: str) -> float:
        base = self.stats("baseline", method).p99_ms
        return self.stats("attack", method).p99_ms / base if base else math.nan

    @property
    def canaries_at_upstream(self) -> int | None:
        return None if self.upstream is None else sum(self.upstream["hits"].values())

    @property
    def canaries_in_answers(self) -> int:
        return sum(f.canaries_in_answers for f in self.attacks.values())

    @property
    def victim_values_returned(self) -> int:
        return sum(f.victim_values_returned for f in self.attacks.values())

    @property
    def flood_sessions(self) -> int:
        """Sessions the attacker's flood left in the vault (its Redact calls answered)."""
        flood = self.attacks.get("session_flood")
        return flood.statuses.get("Redact OK", 0) if flood else 0

    @property
    def normal_failures(self) -> int:
        return sum(1 for c in self.under_attack if c.code != "OK")

    @property
    def redaction_peak_mib(self) -> int:
        """The highest RSS of any redaction replica under attack (0: not measured)."""
        return max((p.get("during", 0) for name, p in self.rss_mib.items() if name.startswith("redaction")),
                   default=0)

    def targets(self) -> dict[str, bool]:
        """The issue's targets, each met or not."""
        within = all(self.p99_ratio(m) <= P99_FACTOR for m in METHODS if self.stats("attack", m).calls)
        capacity = {
            "no part exited or restarted (a replica killed on purpose aside)": bool(self.rss_mib) and not self.exited,
            f"the redaction service's peak RSS under its ceiling ({self.rss_ceiling_mib} MiB)":
                0 < self.redaction_peak_mib < self.rss_ceiling_mib,
        }
        return {
            "every normal call succeeds under attack": bool(self.under_attack) and self.normal_failures == 0,
            f"normal p99 under attack within {P99_FACTOR:g}x its baseline": bool(self.under_attack) and within,
            "no canary reaches the upstream": self.canaries_at_upstream == 0,
            "no canary in a scrubbed answer": self.canaries_in_answers == 0,
            "no other tenant's value from Restore": self.victim_values_returned == 0,
            "the normal tenant's sessions all restore after the attack":
                set(self.sessions) <= {"restored"} and sum(self.sessions.values()) > 0,
            **capacity,
        }

    @property
    def targets_met(self) -> bool:
        return all(self.targets().values())

    def to_json(self) -> dict:
        """The raw figures and the summary the report shows."""
        raw = asdict(self)
        raw["summary"] = {
            "normal": {phase: {m: asdict(self.stats(phase, m)) for m in METHODS} for phase in ("baseline", "attack")},
            "p99_ratio": {m: self.p99_ratio(m) for m in METHODS},
            "canaries_at_upstream": self.canaries_at_upstream,
            "canaries_in_answers": self.canaries_in_answers,
            "victim_values_returned": self.victim_values_returned,
            "targets": self.targets(),
        }
        return _finite(raw)


def _finite(value: object) -> object:
    """JSON has no NaN: an empty series' quantile becomes null."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def _ms(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value:,.1f}"


def _statuses(counts: dict[str, int]) -> str:
    return ", ".join(f"{key} {n}" for key, n in sorted(counts.items(), key=lambda kv: -kv[1])) or "none"


def _failure_details(result: AttackBench) -> list[str]:
    """One line per distinct (who, API, status): the status message of its first failed call."""
    seen: dict[str, str] = {}
    for phase, calls in (("normal alone", result.baseline), ("normal under attack", result.under_attack)):
        for call in calls:
            if call.code != "OK":
                seen.setdefault(f"{phase}: {call.method} {call.code}", call.detail)
    for kind in result.kinds:
        for key, detail in result.attacks.get(kind, KindFigures()).details.items():
            seen.setdefault(f"{kind}: {key}", detail)
    return [f"- {key}: {detail or '(no message)'}" for key, detail in seen.items()]


def _priority(nice: int) -> str:
    if nice >= LOWEST_PRIORITY:
        return "the lowest priority: on a deployment the attacker's client has a machine of its own"
    return "the normal priority: the attacker's client takes the gateway's cores as an equal"


def render_report(result: AttackBench, command: str = "ztgate bench attack") -> str:
    """The Markdown report of one run."""
    lines = [
        f"`{command}` on {platform.node()} ({platform.machine()}, {len(os.sched_getaffinity(0))} CPUs), "
        f"{result.when}: tenants `{NORMAL}` and `{ATTACKER}` with verified tokens; "
        f"{'mTLS' if result.mtls else 'plaintext'} behind Envoy; per-tenant rate limit {result.rate_limit}; "
        f"attack phase {result.duration_s:g} s, {len(result.kinds)} kinds at once; "
        f"{result.calls} normal calls per phase (Generate and Redact side by side; unloaded one at a time, under attack on a fixed schedule, open loop). "
        f"The attacker's traffic comes from a process of its own with its own event loop, at CPU niceness "
        f"{result.attacker_nice} ({_priority(result.attacker_nice)}).",
        "",
        "| normal tenant | phase | calls | ok | p50 (ms) | p99 (ms) | errors |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for method in METHODS:
        for phase, label in (("baseline", "alone"), ("attack", "under attack")):
            s = result.stats(phase, method)
            lines.append(f"| {method} | {label} | {s.calls} | {s.ok} | {_ms(s.p50_ms)} | {_ms(s.p99_ms)} | "
                         f"{_statuses(s.errors)} |")
    ratios = ", ".join(f"{m} {result.p99_ratio(m):.1f}x" for m in METHODS)
    recovery = (f"{result.recovery_s:.1f} s" if result.recovery_s is not None
                else f"not within {result.recovery_limit_s:g} s")
    lines += [
        "",
        f"p99 under attack / alone: {ratios}. After the attack, a normal Generate succeeded again: {recovery}.",
        "",
        "| attack kind | what it sends | calls | statuses met | p50 (ms) | max (ms) |",
        "|---|---|---:|---|---:|---:|",
    ]
    for kind in result.kinds:
        f = result.attacks.get(kind, KindFigures())
        longest = max(f.durations_ms) if f.durations_ms else math.nan
        lines.append(f"| {kind} | {KINDS[kind].description} | {f.calls} | {_statuses(f.statuses)} | "
                     f"{_ms(percentile(f.durations_ms, 50))} | {_ms(longest)} |")
    upstream = result.upstream
    hits = (", ".join(f"{label} {n}" for label, n in upstream["hits"].items()) if upstream
            else "unknown (the upstream's counts were not written)")
    received = (", ".join(f"{tenant or '(none)'} {n}" for tenant, n in sorted(upstream["requests_by_tenant"].items()))
                if upstream else "unknown")
    lines += [
        "",
        f"Canaries that reached the upstream: {result.canaries_at_upstream if upstream else 'unknown'} "
        f"({hits}). Requests the upstream received, by tenant: {received}.",
        f"Canaries in scrubbed answers (Redact, RedactStream): {result.canaries_in_answers}. "
        f"The normal tenant's values handed to the attacker by Restore: {result.victim_values_returned}. "
        f"The normal tenant's sessions after the attack: {_statuses(result.sessions)}.",
        *([f"The attacker's flood left {result.flood_sessions} sessions; the vault keeps "
           f"{result.vault_sessions_per_tenant} per tenant (redaction.vault.max_sessions_per_tenant), "
           f"{result.vault_sessions} in all (max_sessions)."] if "session_flood" in result.kinds else []),
        "",
        "",
        "| part | peak RSS, normal tenant alone (MiB) | peak RSS under attack (MiB) |",
        "|---|---:|---:|",
        *(f"| {name} | {peaks.get('before', 0)} | {peaks.get('during', 0)} |"
          for name, peaks in result.rss_mib.items()),
        "",
        *(["", "| process | cores used, normal tenant alone | cores used under attack |", "|---|---:|---:|",
            *(f"| {name} | {cores.get('before', 0):.2f} | {cores.get('during', 0):.2f} |"
              for name, cores in result.cpu_cores.items()), ""] if result.cpu_cores else []),
        f"The redaction service's RSS ceiling: {result.rss_ceiling_mib} MiB (redaction.server.max_rss_mib). "
        f"Parts not running at the end: {', '.join(result.exited) or 'none'}"
        + (f"; {result.killed} was SIGKILLed by the bench {result.killed_at_s:.1f} s into the attack."
           if result.killed else "."),
        "",
        "Targets:",
        *(f"- {name}: {'met' if met else 'NOT met'}" for name, met in result.targets().items()),
    ]
    failures = _failure_details(result)
    if failures:
        lines += ["", "What failed calls were told (the first message per status):", *failures]
    return "\n".join(lines) + "\n"


async def _normal_phase(gateway: str, token: str, calls: int, *, span_s: float = 0.0,
                        until: float | None = None) -> NormalLoad:
    """`calls` normal calls, half of each method, the two methods side by side, each paced over `span_s`."""
    loads = await asyncio.gather(*(
        normal_load(gateway, token, calls=n, methods=(method,), interval_s=span_s / n, until=until,
                    timeout_s=NORMAL_TIMEOUT_S)
        for method, n in zip(METHODS, (calls - calls // 2, calls // 2)) if n))
    return NormalLoad(calls=[c for load in loads for c in load.calls],
                      sessions=[s for load in loads for s in load.sessions])


async def _phases(parts, attacker: AttackerProcess, *, calls: int, duration_s: float, kinds: tuple[str, ...],
                  seed: int, call_timeout_s: float, recovery_limit_s: float) -> tuple:
    gateway, token = parts.gateway, parts.tokens[NORMAL]
    await _normal_phase(gateway, token, WARMUP_CALLS)
    cpu = CpuMeter(parts.pids, own={"normal tenant's client (the bench)": os.getpid(),
                                    "attacker's client": attacker.pid or 0})
    cpu.start()
    baseline, before = await _baseline_rss(parts, gateway, token, calls)
    cpu_before = cpu.stop()
    plan = AttackPlan(gateway=gateway, token=parts.tokens[ATTACKER],
                      kinds=tuple(k for k in kinds if k not in BENCH_KINDS), duration_s=duration_s,
                      call_timeout_s=call_timeout_s, seed=seed, victim_tenant=NORMAL,
                      victim_sessions=tuple(baseline.sessions))
    during: dict[str, int] = {}
    stop = asyncio.Event()
    sampler = asyncio.ensure_future(sample_rss(parts.pids, during, stop))
    started = time.monotonic()
    cpu.start()
    attack = asyncio.ensure_future(attacker.run(plan))
    kill = asyncio.ensure_future(_kill_replica(parts.pids, RAMP_S + (duration_s - RAMP_S) * KILL_AT)
                                 if "replica_kill" in kinds else asyncio.sleep(0, None))
    await asyncio.sleep(RAMP_S)
    under = await _normal_phase(gateway, token, calls, span_s=duration_s - RAMP_S, until=started + duration_s)
    cpu_during = cpu.stop()
    figures = await attack
    killed_at = await kill
    stop.set()
    await sampler
    for kind in kinds:
        if kind in BENCH_KINDS:
            figures[kind] = KindFigures()
            if killed_at is not None:  # the bench's one act, counted as its one call
                figures[kind].calls = 1
                figures[kind].add(KILLED_REPLICA, "SIGKILL", killed_at * 1000)
    recovery = await time_to_recover(gateway, token, limit_s=recovery_limit_s)
    sessions = await restorable(gateway, token, baseline.sessions + under.sessions)
    rss = {name: {"before": before.get(name, 0), "during": during.get(name, 0)} for name in parts.pids}
    exited = [name for name, pid in parts.pids.items()
              if not alive(pid) and not (name == KILLED_REPLICA and killed_at is not None)]
    cores = {name: {"before": cpu_before.get(name, 0.0), "during": cpu_during.get(name, 0.0)} for name in cpu_before}
    return baseline.calls, under.calls, figures, dict(sessions), recovery, rss, exited, killed_at, cores


async def _kill_replica(pids: dict[str, int], after_s: float) -> float | None:
    """SIGKILLs the second redaction replica `after_s` into the phase; when it did (None: no such replica)."""
    started = time.monotonic()
    await asyncio.sleep(after_s)
    pid = pids.get(KILLED_REPLICA)
    if pid is None:
        return None
    os.kill(pid, signal.SIGKILL)
    return time.monotonic() - started


async def _baseline_rss(parts, gateway: str, token: str, calls: int) -> tuple[NormalLoad, dict[str, int]]:
    """The normal tenant's calls alone, with each part's peak RSS meanwhile."""
    before: dict[str, int] = {}
    stop = asyncio.Event()
    sampler = asyncio.ensure_future(sample_rss(parts.pids, before, stop))
    load = await _normal_phase(gateway, token, calls)
    stop.set()
    await sampler
    return load, before


def run(config: ZtgateConfig, *, calls: int = DEFAULT_CALLS, duration_s: float = DEFAULT_DURATION_S,
        kinds: Sequence[str] = DEFAULT_KINDS, seed: int = 7, logs: Path | None = None,
        call_timeout_s: float = ATTACK_TIMEOUT_S, recovery_limit_s: float = RECOVERY_LIMIT_S,
        attacker_nice: int = LOWEST_PRIORITY) -> AttackBench:
    """Starts the parts, runs the phases, stops the parts, reads the upstream's counts. The attacker's
    process runs with its niceness raised by `attacker_nice` (LOWEST_PRIORITY by default, 0: as the bench)."""
    if calls < 1 or duration_s <= RAMP_S:
        raise ValueError(f"calls must be >= 1 and duration_s > {RAMP_S:g}")
    kinds = check_kinds(kinds)
    logs = logs or Path(tempfile.mkdtemp(prefix="ztgate-bench-attack-"))
    logs.mkdir(parents=True, exist_ok=True)
    values, record = logs / "canaries.json", logs / "upstream-counts.json"
    values.write_text(json.dumps({**Canaries.from_seed(seed).labelled(), **NORMAL_VALUES}))
    record.unlink(missing_ok=True)
    with running_suite(config, logs, auth=True, tenants=(NORMAL, ATTACKER), unlimited_rate=False,
                       upstream_args=("--canaries", str(values), "--record", str(record)),
                       stop_timeout_s=STOP_TIMEOUT_S,
                       redaction_replicas=2 if "replica_kill" in kinds else 1) as parts, \
            AttackerProcess(attacker_nice) as attacker:
        baseline, under, figures, sessions, recovery, rss, exited, killed_at, cores = asyncio.run(_phases(
            parts, attacker, calls=calls, duration_s=duration_s, kinds=kinds, seed=seed,
            call_timeout_s=call_timeout_s, recovery_limit_s=recovery_limit_s))
    upstream = json.loads(record.read_text()) if record.is_file() else None
    # The suite runs with tokens on, so the limit in force is the one tokens bring.
    with_tokens = config.gateway.model_copy(update={"auth": config.gateway.auth.model_copy(
        update={"jwks_path": logs / "keys" / "jwks.json"})})
    limit = rate_limit_in_force(with_tokens)
    vault = config.redaction.vault
    return AttackBench(calls=calls, duration_s=duration_s, kinds=kinds, seed=seed, baseline=baseline,
                       under_attack=under, attacks=figures, upstream=upstream, sessions=sessions,
                       recovery_s=recovery, recovery_limit_s=recovery_limit_s, mtls=config.mesh.mtls,
                       rate_limit=f"{limit[0]}/s (burst {limit[1]})" if limit else "off",
                       vault_sessions_per_tenant=vault.max_sessions_per_tenant, vault_sessions=vault.max_sessions,
                       rss_mib=rss, exited=exited,
                       rss_ceiling_mib=memory_ceiling(config.redaction.server, "redaction",
                                                      DEFAULT_MAX_RSS_MIB).max_bytes // MIB,
                       killed=KILLED_REPLICA if killed_at is not None else "", killed_at_s=killed_at or 0.0,
                       attacker_nice=attacker.nice or 0, cpu_cores=cores)


# `--attacker-priority`: the niceness each name gives the attacker's process.
PRIORITIES = {"normal": 0, "low": LOWEST_PRIORITY}


def render_summary(results: Sequence[AttackBench]) -> str:
    """One line per run of a command that made several (`--each`, `--attacker-priority both`): the
    normal tenant's p99 alone and under attack, and whether the 2x target was met."""
    lines = [
        "| attack kinds | attacker niceness | Generate p99 alone / under attack (ms) | ratio "
        "| Redact p99 alone / under attack (ms) | ratio | normal calls failed | p99 within 2x |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in results:
        kinds = ", ".join(r.kinds) if len(r.kinds) < 4 else f"all {len(r.kinds)}"
        cells = []
        for m in METHODS:
            cells += [f"{_ms(r.stats('baseline', m).p99_ms)} / {_ms(r.stats('attack', m).p99_ms)}",
                      f"{r.p99_ratio(m):.1f}x"]
        within = all(r.p99_ratio(m) <= P99_FACTOR for m in METHODS)
        lines.append(f"| {kinds} | {r.attacker_nice} | {' | '.join(cells)} | {r.normal_failures} | "
                     f"{'met' if within else 'NOT met'} |")
    return "\n".join(lines) + "\n"


def main(args: argparse.Namespace) -> int:
    """`ztgate bench attack [--config FILE] [--calls N] [--duration-s S] [--attacks K,K] [--each]
    [--attacker-priority low|normal|both] [--seed N] [--out FILE.json]`; exit 1 if a target is missed.

    `--each` runs every kind chosen alone, one suite each, to tell which one does the damage;
    `--attacker-priority both` runs each at normal priority and then at the lowest, side by side."""
    from ztgate.config import load_config

    calls = getattr(args, "calls", None) or DEFAULT_CALLS
    duration_s = getattr(args, "duration_s", None) or DEFAULT_DURATION_S
    chosen = getattr(args, "attacks", None)
    kinds = check_kinds([k.strip() for k in chosen.split(",") if k.strip()]) if chosen else DEFAULT_KINDS
    seed = getattr(args, "seed", None)
    seed = 7 if seed is None else seed
    priority = getattr(args, "attacker_priority", None) or "low"
    nices = list(PRIORITIES.items()) if priority == "both" else [(priority, PRIORITIES[priority])]
    groups = [(kind,) for kind in kinds] if getattr(args, "each", False) else [kinds]
    config = load_config(getattr(args, "config", None))
    results = []
    for group in groups:
        for name, nice in nices:
            print(f"starting redaction, a recording echo upstream and Envoy (tokens on); {calls} normal calls "
                  f"per phase, {len(group)} attack kinds for {duration_s:g} s, the attacker at {name} CPU "
                  f"priority (niceness +{nice}) ...", file=sys.stderr, flush=True)
            result = run(config, calls=calls, duration_s=duration_s, kinds=group, seed=seed, attacker_nice=nice)
            some = chosen or len(groups) > 1
            command = (f"ztgate bench attack --calls {calls} --duration-s {duration_s:g}"
                       f"{' --attacks ' + ','.join(group) if some else ''} --attacker-priority {name}")
            print(render_report(result, command), flush=True)
            results.append(result)
    if len(results) > 1:
        print(render_summary(results))
    out = getattr(args, "out", None)
    if out:
        data = results[0].to_json() if len(results) == 1 else {"runs": [r.to_json() for r in results]}
        Path(out).write_text(json.dumps(data, indent=2, default=str) + "\n")
    return 0 if all(r.targets_met for r in results) else 1
