"""The collector's RTDS: Envoy's subscription gets the controller's runtime now and at each change,
a stream that reports an earlier fallback keeps it, and refusals are counted.

The client here is a real gRPC client speaking Envoy's side of the protocol (first request, then
an ACK or NACK per response) to the real servicer on loopback; the e2e test runs Envoy itself.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import grpc
import pytest
from envoy.service.discovery.v3 import discovery_pb2
from envoy.service.runtime.v3 import rtds_pb2, rtds_pb2_grpc
from google.rpc import status_pb2

from ztgate.telemetry.collector import TelemetryCollector
from ztgate.telemetry.config import SloSettings, TelemetrySettings
from ztgate.telemetry.otlp_receivers import registrar
from ztgate.telemetry.rtds import RUNTIME_TYPE_URL, version_state
from ztgate.telemetry.slo_controller import FALLBACK, PRIMARY

KEY = "ztgate.inference.primary_percent"


class EnvoySide:
    """Envoy's half of one RTDS stream: sends requests as a test says, reads the responses."""

    def __init__(self, stub: rtds_pb2_grpc.RuntimeDiscoveryServiceStub) -> None:
        self.requests: asyncio.Queue[discovery_pb2.DiscoveryRequest | None] = asyncio.Queue()
        self.call = stub.StreamRuntime(self._send())

    async def _send(self) -> AsyncIterator[discovery_pb2.DiscoveryRequest]:
        while (request := await self.requests.get()) is not None:
            yield request

    def ask(self, version: str = "", names: tuple[str, ...] = ("ztgate_slo",), nonce: str = "",
            error: str | None = None) -> None:
        request = discovery_pb2.DiscoveryRequest(version_info=version, resource_names=names,
                                                 type_url=RUNTIME_TYPE_URL, response_nonce=nonce)
        if error is not None:
            request.error_detail.CopyFrom(status_pb2.Status(code=3, message=error))
        self.requests.put_nowait(request)

    async def next(self) -> tuple[str, dict[str, float]]:
        response = await asyncio.wait_for(self.call.read(), 10)
        runtime = rtds_pb2.Runtime()
        assert response.type_url == RUNTIME_TYPE_URL and response.resources[0].Unpack(runtime)
        assert runtime.name == "ztgate_slo"
        return response.version_info, dict(runtime.layer)


@pytest.fixture
async def served() -> AsyncIterator[tuple[TelemetryCollector, rtds_pb2_grpc.RuntimeDiscoveryServiceStub]]:
    collector = TelemetryCollector(TelemetrySettings(slo=SloSettings(min_hold_s=5)), "127.0.0.1", 0)
    server = grpc.aio.server()
    registrar(collector)(server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}")
    try:
        yield collector, rtds_pb2_grpc.RuntimeDiscoveryServiceStub(channel)
    finally:
        await channel.close()
        await server.stop(0)


async def test_envoy_gets_the_published_runtime_and_every_change(served) -> None:
    collector, stub = served
    await collector.slo.step()                     # reconciles: 100 % to the primary
    envoy = EnvoySide(stub)
    envoy.ask()
    version, layer = await envoy.next()
    assert layer == {KEY: 100} and version_state(version) == PRIMARY
    envoy.ask(version, nonce=version)              # ACK
    collector.slo._transition(FALLBACK)
    await collector.slo.step()
    version2, layer = await envoy.next()
    assert layer == {KEY: 0} and version_state(version2) == FALLBACK and version2 != version
    assert collector.runtime.subscribers == 1
    envoy.requests.put_nowait(None)
    await asyncio.sleep(0.2)
    assert collector.runtime.subscribers == 0


async def test_a_stream_waits_for_the_first_publication(served) -> None:
    collector, stub = served
    envoy = EnvoySide(stub)
    envoy.ask()
    reading = asyncio.ensure_future(envoy.next())
    await asyncio.sleep(0.3)
    assert not reading.done()                      # nothing decided yet: nothing sent
    await collector.slo.step()
    assert (await reading)[1] == {KEY: 100}


async def test_an_envoy_that_still_routes_to_the_fallback_keeps_it_after_a_collector_restart(
        served) -> None:
    """This collector is new and already published 100; an Envoy reconnects holding a fallback
    version from the collector before: it is never sent 100, and the controller holds it."""
    collector, stub = served
    await collector.slo.step()
    envoy = EnvoySide(stub)
    envoy.ask(version="fallback.0a1b2c3d.12")
    version, layer = await envoy.next()
    assert layer == {KEY: 0} and version_state(version) == FALLBACK
    assert collector.slo.status.state == FALLBACK and collector.slo.status.restored == 1
    await collector.slo.step()                     # held: min_hold_s, no fresh data
    assert collector.slo.status.state == FALLBACK


async def test_a_refused_version_is_counted(served) -> None:
    collector, stub = served
    await collector.slo.step()
    envoy = EnvoySide(stub)
    envoy.ask()
    version, _ = await envoy.next()
    envoy.ask("", nonce=version, error="bad layer")
    for _ in range(50):
        if collector.runtime.rejected:
            break
        await asyncio.sleep(0.05)
    assert collector.runtime.rejected == 1


@pytest.mark.parametrize("names, type_url, code", [
    (("other_layer",), RUNTIME_TYPE_URL, grpc.StatusCode.NOT_FOUND),
    (("ztgate_slo",), "type.googleapis.com/envoy.config.cluster.v3.Cluster",
     grpc.StatusCode.INVALID_ARGUMENT),
])
async def test_a_request_for_another_resource_is_refused_with_a_clear_status(
        served, names, type_url, code) -> None:
    _, stub = served
    envoy = EnvoySide(stub)
    envoy.requests.put_nowait(discovery_pb2.DiscoveryRequest(resource_names=names, type_url=type_url))
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await asyncio.wait_for(envoy.call.read(), 10)
    assert info.value.code() == code
    # Says what this collector serves instead.
    assert ("ztgate_slo" if code == grpc.StatusCode.NOT_FOUND else RUNTIME_TYPE_URL) in info.value.details()


@pytest.mark.parametrize("version, state", [
    ("fallback.0a1b.3", FALLBACK), ("primary.ff.1", PRIMARY), ("", None), ("7", None),
    ("fallback", None), ("v1.2", None),
])
def test_version_names_its_state(version: str, state: str | None) -> None:
    assert version_state(version) == state


async def test_shutdown_ends_every_stream_at_once(served) -> None:
    """Envoy's stream never ends by itself: at shutdown the collector ends it, instead of the
    server waiting out its whole grace for it."""
    collector, stub = served
    await collector.slo.step()
    envoy = EnvoySide(stub)
    envoy.ask()
    await envoy.next()
    collector.runtime.close()
    assert await asyncio.wait_for(envoy.call.read(), 5) is grpc.aio.EOF
    assert (await envoy.call.code()) == grpc.StatusCode.OK
