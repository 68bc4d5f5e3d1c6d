"""A part's RSS ceiling (server.max_rss_mib): admission by this process's real resident memory plus
what admitted calls reserved, and the runtime's refusal over real gRPC on loopback (the service is a
generic handler written here, a test double for "some service": what is tested is the runtime)."""

from __future__ import annotations

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from ztgate.common.memory import MIB, REFUSE_AT, MemoryCeiling, MemoryCeilingReached, rss_bytes
from ztgate.common.server import Runtime, ServiceSpec, memory_ceiling
from ztgate.common.settings import OtelSettings, ServerSettings

SERVICE = "test.v1.Echo"


def _mib_with_room(room_mib: int) -> int:
    """A ceiling whose refusal level sits `room_mib` above this process's RSS now."""
    return int((rss_bytes() / MIB + room_mib) / REFUSE_AT) + 1


def test_rss_is_read_from_the_process_and_is_plausible() -> None:
    assert 10 * MIB < rss_bytes() < 64 * 1024 * MIB


def test_a_ceiling_below_what_the_process_holds_refuses_naming_the_setting() -> None:
    ceiling = MemoryCeiling(max(1, rss_bytes() // MIB // 2), "redaction")
    with pytest.raises(MemoryCeilingReached) as refused:
        ceiling.reserve()
    message = str(refused.value)
    assert "server.max_rss_mib" in message and "redaction" in message
    assert refused.value.status == "RESOURCE_EXHAUSTED"
    assert ceiling.refused == 1


def test_reservations_of_admitted_calls_count_until_released() -> None:
    """Calls that arrive while RSS is still low cannot all pass: each reserves what it may take."""
    ceiling = MemoryCeiling(_mib_with_room(64), "redaction")
    first = ceiling.reserve(40 * MIB)
    with pytest.raises(MemoryCeilingReached):
        ceiling.reserve(40 * MIB)  # 80 MiB promised, 64 MiB of room
    ceiling.release(first)
    with ceiling.admit(40 * MIB):
        assert ceiling.reserved_bytes == 40 * MIB
    assert ceiling.reserved_bytes == 0


def test_no_ceiling_admits_everything() -> None:
    ceiling = MemoryCeiling(0, "inference-primary")
    assert not ceiling.enabled
    assert ceiling.reserve(1 << 40) == 0


@pytest.mark.parametrize("setting, default, expected", [(None, 1536, 1536), (0, 1536, 0), (800, 1536, 800)])
def test_the_setting_overrides_the_parts_default(setting: int | None, default: int, expected: int) -> None:
    settings = ServerSettings(listen="127.0.0.1:0", max_rss_mib=setting)
    assert memory_ceiling(settings, "redaction", default).max_bytes == expected * MIB


def _spec() -> ServiceSpec:
    async def echo(request: bytes, context: grpc.aio.ServicerContext) -> bytes:
        return request

    def register(server: grpc.aio.Server) -> None:
        handler = grpc.unary_unary_rpc_method_handler(echo)
        server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler(SERVICE, {"Echo": handler})])

    async def ready() -> None:
        return None

    return ServiceSpec(name="echo", service_names=[SERVICE], register=register, start=ready)


@pytest.mark.parametrize("max_rss_mib, refused", [(1, True), (0, False), (None, False)])
async def test_the_runtime_refuses_calls_past_the_ceiling_and_health_still_answers(
        max_rss_mib: int | None, refused: bool) -> None:
    runtime = Runtime(_spec(), ServerSettings(listen="127.0.0.1:0", max_rss_mib=max_rss_mib),
                      OtelSettings())
    await runtime.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{runtime.port}") as channel:
            call = channel.unary_unary(f"/{SERVICE}/Echo")
            if refused:
                with pytest.raises(grpc.aio.AioRpcError) as error:
                    await call(b"hello", timeout=5)
                assert error.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                assert "server.max_rss_mib" in error.value.details()
            else:
                assert await call(b"hello", timeout=5) == b"hello"
            health = await health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=SERVICE), timeout=5)
            assert health.status == health_pb2.HealthCheckResponse.SERVING
    finally:
        await runtime.stop()


async def test_a_streaming_handler_that_writes_with_context_write_passes_the_check() -> None:
    """grpc's health Watch is a coroutine that writes its answers (not an async generator); the
    runtime's interceptors must carry both kinds (a Watch through Envoy once failed UNKNOWN)."""
    async def watch(request: bytes, context: grpc.aio.ServicerContext) -> None:
        await context.write(b"one")
        await context.write(b"two")

    async def generator(request: bytes, context: grpc.aio.ServicerContext):
        yield b"three"

    def register(server: grpc.aio.Server) -> None:
        server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler(SERVICE, {
            "Watch": grpc.unary_stream_rpc_method_handler(watch),
            "Gen": grpc.unary_stream_rpc_method_handler(generator)})])

    async def ready() -> None:
        return None

    spec = ServiceSpec(name="echo", service_names=[SERVICE], register=register, start=ready)
    runtime = Runtime(spec, ServerSettings(listen="127.0.0.1:0", max_rss_mib=1 << 20), OtelSettings())
    await runtime.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{runtime.port}") as channel:
            assert [m async for m in channel.unary_stream(f"/{SERVICE}/Watch")(b"", timeout=5)] == [b"one", b"two"]
            assert [m async for m in channel.unary_stream(f"/{SERVICE}/Gen")(b"", timeout=5)] == [b"three"]
    finally:
        await runtime.stop()
