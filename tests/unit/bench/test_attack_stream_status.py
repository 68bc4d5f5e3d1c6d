"""The attack bench records the status the server sent on a RedactStream it refused mid-upload.

A real gRPC server on loopback (grpc.aio) stands in for the gateway: its RedactStream refuses at the
first chunk with RESOURCE_EXHAUSTED, as Envoy's rate limit or the redaction service's budgets do,
while the attacker still has chunks of 64 KiB to send. The bench's client (`_Attacker.redact_stream`,
gRPC's synchronous client) must record that status, not a client-side INTERNAL; the asyncio client
that it replaced is run beside it as the control and the test records what it says.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import grpc

from ztgate_bench.attack_load import CHANNEL_OPTIONS, AttackPlan, KindFigures, _Attacker
from ztgate.gen.redaction.v1 import redaction_pb2, redaction_pb2_grpc

REFUSAL = "local_rate_limited"


class RefusingRedaction(redaction_pb2_grpc.RedactionServicer):
    """Refuses every RedactStream at its first chunk (what a rate limit does to a stream)."""

    async def RedactStream(self, request_iterator: AsyncIterator[redaction_pb2.RedactChunk],
                           context: grpc.aio.ServicerContext) -> AsyncIterator[redaction_pb2.RedactChunk]:
        async for _ in request_iterator:
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, REFUSAL)
        yield redaction_pb2.RedactChunk()  # never reached


async def _run(sync: bool) -> KindFigures:
    server = grpc.aio.server()
    redaction_pb2_grpc.add_RedactionServicer_to_server(RefusingRedaction(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    address = f"127.0.0.1:{port}"
    plan = AttackPlan(gateway=address, token="t", kinds=("stream_1mib",), duration_s=1.0, call_timeout_s=10.0,
                      seed=1, victim_tenant="normal")
    channel = grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS)
    sync_channel = grpc.insecure_channel(address, options=CHANNEL_OPTIONS) if sync else None
    figures = KindFigures()
    try:
        attacker = _Attacker(plan, channel, sync_channel)
        for _ in range(5):
            await attacker.redact_stream(figures, ["x" * 65536] * 16)
    finally:
        await channel.close()
        if sync_channel is not None:
            sync_channel.close()
        await server.stop(None)
    return figures


async def test_a_stream_refused_mid_upload_is_recorded_with_the_servers_status() -> None:
    figures = await _run(sync=True)
    assert figures.statuses == {"RedactStream RESOURCE_EXHAUSTED": 5}, figures.statuses
    assert figures.details["RedactStream RESOURCE_EXHAUSTED"] == REFUSAL
    # The control, the asyncio client the bench used before: a write after the refusal fails inside
    # it, and it reports its own INTERNAL in place of the server's status (4 of 5 when measured).
    control = await _run(sync=False)
    assert set(control.statuses) <= {"RedactStream INTERNAL", "RedactStream RESOURCE_EXHAUSTED"}
    assert control.details.get("RedactStream INTERNAL", "Internal error from Core") == "Internal error from Core"
