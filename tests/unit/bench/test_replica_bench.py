"""`ztgate bench gateway --replicas`: its refusals, its client loop (against the bench's real echo
upstream, in process, on loopback: no Envoy, no redaction), and its side-by-side report."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest

from ztgate_bench.gateway_bench import EchoInference
from ztgate_bench.replica_bench import ReplicaRun, parse_counts, render, throughput
from ztgate.cli import main
from ztgate.config import ZtgateConfig
from ztgate.gen.inference.v1 import inference_pb2_grpc


@pytest.mark.parametrize("text, message", [
    ("0", "each count must be from 1 to 4 (supervisor.max_replicas)"),
    ("1,5", "each count must be from 1 to 4"),
    ("one", "give replica counts"),
    ("2,2", "given twice"),
    (",", "each count must be from 1 to 4"),
])
def test_bad_replica_counts_are_refused_naming_the_bound(text: str, message: str) -> None:
    with pytest.raises(ValueError) as refused:
        parse_counts(text, 4)
    assert message in str(refused.value)


def test_replica_counts_parse_in_order() -> None:
    assert parse_counts("1,2", 4) == (1, 2) and parse_counts("3, 1", 4) == (3, 1)


def test_the_cli_refuses_a_bad_count_before_starting_anything(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "gateway", "--replicas", "0"]) == 2
    assert "supervisor.max_replicas" in capsys.readouterr().err


class _Failing(EchoInference):
    """TEST DOUBLE: the echo upstream failing every third call, to check that failures are counted."""

    def __init__(self) -> None:
        super().__init__()
        self.seen = 0

    async def Generate(self, request, context):  # noqa: N802 - gRPC's name
        self.seen += 1
        if self.seen % 3 == 0:
            await context.abort(grpc.StatusCode.UNAVAILABLE, "injected")
        return await super().Generate(request, context)


async def test_throughput_counts_every_measured_call_once_and_leaves_out_the_warmup() -> None:
    server = grpc.aio.server()
    servicer = _Failing()
    inference_pb2_grpc.add_InferenceServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        durations, errors, wall = await throughput(f"127.0.0.1:{port}", clients=4, calls=30, warmup=6)
    finally:
        await server.stop(0)
    assert servicer.seen == 36
    assert len(durations) + errors == 30 and errors == 10  # calls 9, 12, ..., 36
    assert wall > 0 and all(d > 0 for d in durations)


def test_the_report_puts_the_runs_side_by_side(tmp_path: Path) -> None:
    runs = [ReplicaRun(1, 8, [10.0] * 100, 0, 10.0), ReplicaRun(2, 8, [8.0] * 150, 0, 10.0)]
    text = render(runs, ZtgateConfig(), "ztgate bench gateway --replicas 1,2")
    assert "| 1 | 100 | 0 | 10.00 | 1.00x |" in text
    assert "| 2 | 150 | 0 | 15.00 | 1.50x |" in text
