"""Tokenless gRPC health streams held open through Envoy (issue 28's first attack): each sends its
headers and never ends its request, so no route timeout starts. Bounded in count and time; the
caller ends them all on leaving. Loopback only."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import grpc
from grpc_health.v1 import health_pb2

from tests.procs import admin_get

WATCH = "/grpc.health.v1.Health/Watch"


@dataclass
class HeldStreams:
    """The streams' outcomes: the gRPC code each ended with, and when (seconds from the start)."""
    started: float = field(default_factory=time.monotonic)
    ended: list[tuple[grpc.StatusCode | None, float]] = field(default_factory=list)
    tasks: list[asyncio.Task] = field(default_factory=list)
    channels: list[grpc.aio.Channel] = field(default_factory=list)
    release: asyncio.Event = field(default_factory=asyncio.Event)

    def refused_at_once(self, within_s: float = 1.0) -> int:
        return sum(1 for code, at in self.ended if code is not None and at < within_s)

    async def close(self) -> None:
        self.release.set()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for channel in self.channels:
            await channel.close(grace=None)


async def _hold(held: HeldStreams, channel: grpc.aio.Channel) -> None:
    async def never_ending() -> AsyncIterator[health_pb2.HealthCheckRequest]:
        await held.release.wait()
        return
        yield  # an async generator that sends nothing

    call = channel.stream_stream(WATCH, request_serializer=health_pb2.HealthCheckRequest.SerializeToString,
                                 response_deserializer=health_pb2.HealthCheckResponse.FromString)(never_ending())
    try:
        async for _ in call:
            pass
        held.ended.append((grpc.StatusCode.OK, time.monotonic() - held.started))
    except grpc.aio.AioRpcError as exc:
        held.ended.append((exc.code(), time.monotonic() - held.started))


async def hold_streams(address: str, connections: int, per_connection: int) -> HeldStreams:
    """Opens `connections` HTTP/2 connections (a channel each, unshared) with `per_connection`
    held Watch streams on each, without a token."""
    held = HeldStreams()
    for _ in range(connections):
        channel = grpc.aio.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])
        held.channels.append(channel)
        held.tasks.extend(asyncio.create_task(_hold(held, channel)) for _ in range(per_connection))
    return held


def stat(admin: str, name: str) -> int:
    """One of Envoy's counters or gauges, by its full name (0 when Envoy has not made it yet)."""
    match = re.search(rf"^{re.escape(name)}: (\d+)$", admin_get(admin, f"/stats?filter=^{re.escape(name)}$"),
                      re.MULTILINE)
    return int(match.group(1)) if match else 0


async def wait_stat(admin: str, name: str, at_least: int, timeout_s: float = 10.0) -> int:
    """Waits until the stat reaches `at_least`; returns its value then (or at the timeout)."""
    deadline = time.monotonic() + timeout_s
    value = await asyncio.to_thread(stat, admin, name)
    while value < at_least and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
        value = await asyncio.to_thread(stat, admin, name)
    return value
