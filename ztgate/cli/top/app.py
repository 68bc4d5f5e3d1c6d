"""The terminal loop of `ztgate top`: read everything once a second, keep a minute of snapshots,
draw the screen (ANSI: home, clear, lines), until Ctrl-C."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from collections import deque
from typing import TextIO

from ztgate.config import ZtgateConfig
from ztgate.cli.top.samples import Snapshot, now, read_collector, read_envoy
from ztgate.cli.top.view import Layout, render

# Seconds of snapshots kept: the first-token quantiles and the served split are over this.
WINDOW_S = 60.0
# Seconds back for per-second rates (smooths the services' export interval).
RATE_S = 10.0
# Seconds any one read may take; a part that does not answer in time reads as unread or DOWN.
READ_TIMEOUT_S = 0.8
HOME_CLEAR = "\x1b[H\x1b[2J"


async def snapshot(config: ZtgateConfig) -> Snapshot:
    """One reading of the collector, Envoy and every part's health, concurrently."""
    from ztgate.supervisor.launcher import part_health

    snap = Snapshot(at=now())
    metrics_url = f"http://{config.telemetry.metrics.listen}/metrics"
    key = config.telemetry.slo.runtime_key
    collector = asyncio.to_thread(read_collector, metrics_url, READ_TIMEOUT_S)
    envoy = asyncio.to_thread(read_envoy, config.gateway.admin, (key,), READ_TIMEOUT_S)
    health = part_health(config, timeout_s=READ_TIMEOUT_S)
    got_collector, got_envoy, got_health = await asyncio.gather(
        collector, envoy, health, return_exceptions=True)
    if isinstance(got_collector, BaseException):
        snap.errors.append(f"collector {metrics_url}: {type(got_collector).__name__}")
    else:
        snap.samples = got_collector
    if isinstance(got_envoy, BaseException):
        snap.errors.append(f"envoy admin {config.gateway.admin}: {type(got_envoy).__name__}")
    else:
        snap.envoy, snap.runtime = got_envoy
    if isinstance(got_health, BaseException):
        snap.errors.append(f"health: {type(got_health).__name__}")
    else:
        snap.health = [(str(e["part"]), bool(e["healthy"])) for e in got_health]
    return snap


def _screen_size(out: TextIO) -> os.terminal_size:
    """The terminal's own size (a COLUMNS left in the environment by a parent is not it), else
    COLUMNS/LINES, else 100x30."""
    try:
        return os.get_terminal_size(out.fileno())
    except (AttributeError, OSError, ValueError):
        return shutil.get_terminal_size((100, 30))


def _back(history: deque[Snapshot], seconds: float) -> Snapshot | None:
    """The oldest kept snapshot no older than `seconds` before the newest (None with one only)."""
    newest = history[-1]
    for snap in history:
        if snap is not newest and newest.at - snap.at <= seconds:
            return snap
    return None


async def run(config: ZtgateConfig, interval_s: float, out: TextIO = sys.stdout) -> None:
    layout = Layout(collector=config.telemetry.metrics.listen, envoy_admin=config.gateway.admin,
                    runtime_key=config.telemetry.slo.runtime_key,
                    line_ms=config.telemetry.slo.ttft_trip_ms)
    history: deque[Snapshot] = deque()
    while True:
        started = now()
        history.append(await snapshot(config))
        while history[-1].at - history[0].at > WINDOW_S:
            history.popleft()
        size = _screen_size(out)
        lines = render(history[-1], _back(history, RATE_S), _back(history, WINDOW_S), layout,
                       width=size.columns)
        out.write(HOME_CLEAR + "\n".join(lines[:size.lines]) + "\n")
        out.flush()
        await asyncio.sleep(max(0.0, interval_s - (now() - started)))
