"""The shared server runtime over real gRPC on loopback: health truth, reflection, draining.

The service under test is a generic handler written here (a test double for "some service"):
what is tested is the runtime around it.
"""

import asyncio

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from ztgate.common.server import ListenError, Runtime, ServiceSpec, is_loopback
from ztgate.common.settings import OtelSettings, ServerSettings

SERVICE = "test.v1.Slow"
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


def _spec(ready: asyncio.Event, calls_started: asyncio.Event, stopped: list[str]) -> ServiceSpec:
    async def wait(request: bytes, context: grpc.aio.ServicerContext) -> bytes:
        calls_started.set()
        await asyncio.sleep(0.5)
        return b"done:" + request

    def register(server: grpc.aio.Server) -> None:
        handler = grpc.unary_unary_rpc_method_handler(wait)
        server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler(SERVICE, {"Wait": handler})])

    async def stop() -> None:
        stopped.append("stopped")

    return ServiceSpec(name="slow", service_names=[SERVICE], register=register,
                       start=ready.wait, stop=stop)


async def _health(channel: grpc.aio.Channel, service: str) -> int:
    stub = health_pb2_grpc.HealthStub(channel)
    return (await stub.Check(health_pb2.HealthCheckRequest(service=service))).status


async def test_health_is_not_serving_until_start_returns_then_serving() -> None:
    ready, started, stopped = asyncio.Event(), asyncio.Event(), []
    runtime = Runtime(_spec(ready, started, stopped),
                      ServerSettings(listen="127.0.0.1:0", shutdown_grace_s=2), OtelSettings())
    starting = asyncio.create_task(runtime.start())
    while runtime.server is None or not runtime.port:
        await asyncio.sleep(0.01)
        if starting.done():
            break
    # start() is blocked on `ready`; the port is bound and health answers NOT_SERVING.
    await asyncio.sleep(0.05)
    port = runtime.port
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        assert await _health(channel, "") == NOT_SERVING
        assert await _health(channel, SERVICE) == NOT_SERVING
        ready.set()
        await starting
        assert await _health(channel, "") == SERVING
        assert await _health(channel, SERVICE) == SERVING
        refl = reflection_pb2_grpc.ServerReflectionStub(channel)
        responses = refl.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")]))
        names = [s.name async for r in responses for s in r.list_services_response.service]
        assert SERVICE in names and "grpc.health.v1.Health" in names
    await runtime.stop()
    assert stopped == ["stopped"]


async def test_graceful_shutdown_drains_in_flight_calls_and_refuses_new_ones() -> None:
    ready, started, stopped = asyncio.Event(), asyncio.Event(), []
    ready.set()
    runtime = Runtime(_spec(ready, started, stopped),
                      ServerSettings(listen="127.0.0.1:0", shutdown_grace_s=5), OtelSettings())
    port = await runtime.start()
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        call = channel.unary_unary(f"/{SERVICE}/Wait")(b"x")
        await started.wait()
        stopping = asyncio.create_task(runtime.stop())
        assert await call == b"done:x"  # the in-flight call finished during the drain
        await stopping
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await channel.unary_unary(f"/{SERVICE}/Wait")(b"y", timeout=1)
        assert info.value.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
    assert stopped == ["stopped"]


async def test_non_loopback_address_without_tls_is_refused() -> None:
    ready, started, stopped = asyncio.Event(), asyncio.Event(), []
    ready.set()
    runtime = Runtime(_spec(ready, started, stopped), ServerSettings(listen="0.0.0.0:0"),
                      OtelSettings())
    with pytest.raises(ListenError, match="without TLS"):
        await runtime.start()


async def test_a_second_server_cannot_share_a_port_in_use() -> None:
    # gRPC binds with SO_REUSEPORT by default: a second server (a second `ztgate up`) would bind
    # beside the first and take a share of its calls. The runtime turns it off.
    ready, started, stopped = asyncio.Event(), asyncio.Event(), []
    ready.set()
    first = Runtime(_spec(ready, started, stopped), ServerSettings(listen="127.0.0.1:0"), OtelSettings())
    port = await first.start()
    try:
        second = Runtime(_spec(ready, started, stopped), ServerSettings(listen=f"127.0.0.1:{port}"),
                         OtelSettings())
        with pytest.raises(ListenError, match=f"cannot listen on 127.0.0.1:{port}"):
            await second.start()
    finally:
        await first.stop()


@pytest.mark.parametrize("host, expected", [
    ("127.0.0.1", True), ("127.9.9.9", True), ("::1", True), ("localhost", True),
    ("0.0.0.0", False), ("10.0.0.1", False), ("::", False),
])
def test_loopback_detection(host: str, expected: bool) -> None:
    assert is_loopback(host) is expected
