"""rpc.server.duration is recorded for unary and streaming calls, with their final status."""

import grpc
import pytest
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader

from ztgate.common.rpc_metrics import RpcMetricsInterceptor


@pytest.fixture
async def served():
    reader = InMemoryMetricReader()
    interceptor = RpcMetricsInterceptor(MeterProvider(metric_readers=[reader]).get_meter("t"))

    async def echo(request: bytes, context) -> bytes:
        if request == b"bad":
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "bad")
        return request

    async def chunks(request: bytes, context):
        for part in (b"a", b"b"):
            yield part

    server = grpc.aio.server(interceptors=[interceptor])
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler("t.v1.S", {
        "Echo": grpc.unary_unary_rpc_method_handler(echo),
        "Chunks": grpc.unary_stream_rpc_method_handler(chunks)})])
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}")
    yield channel, reader
    await channel.close()
    await server.stop(0)


def _points(reader: InMemoryMetricReader) -> dict[tuple[str, int], int]:
    found = {}
    for rm in reader.get_metrics_data().resource_metrics:
        for sm in rm.scope_metrics:
            for metric in sm.metrics:
                assert metric.name == "rpc.server.duration" and metric.unit == "ms"
                for point in metric.data.data_points:
                    found[(point.attributes["rpc.method"], point.attributes["rpc.grpc.status_code"])] = point.count
    return found


async def test_durations_are_recorded_by_method_and_status(served) -> None:
    channel, reader = served
    assert await channel.unary_unary("/t.v1.S/Echo")(b"hi") == b"hi"
    with pytest.raises(grpc.aio.AioRpcError):
        await channel.unary_unary("/t.v1.S/Echo")(b"bad")
    assert [m async for m in channel.unary_stream("/t.v1.S/Chunks")(b"")] == [b"a", b"b"]
    assert _points(reader) == {("Echo", 0): 1, ("Echo", 3): 1, ("Chunks", 0): 1}
