"""ztgate.common.process: the one free-port helper, health probe and spawn/wait/stop, on real
processes and a real gRPC health server on loopback."""

from __future__ import annotations

import asyncio
import signal
import socket
import sys
from concurrent import futures
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from ztgate.common import process


def test_a_free_port_can_be_bound_on_loopback() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", process.free_port()))
    assert process.free_address().startswith("127.0.0.1:")


def test_free_ports_are_never_handed_out_twice_even_when_the_kernel_repeats_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """CI's suite met `ztgate up` refusing two listeners set to one port: the kernel gave a port
    just closed again. A socket whose bind(0) repeats ports (a fake: the fault is injected) must
    still yield distinct ones."""
    given = iter([50743, 50743, 50743, 50744, 50743, 50745])

    class RepeatingSocket(socket.socket):
        def getsockname(self) -> tuple[str, int]:
            return ("127.0.0.1", next(given))

    monkeypatch.setattr(process, "_ISSUED", set())
    monkeypatch.setattr(process.socket, "socket", RepeatingSocket)
    assert [process.free_port() for _ in range(3)] == [50743, 50744, 50745]


def test_many_free_ports_are_distinct() -> None:
    ports = [process.free_port() for _ in range(500)]
    assert len(set(ports)) == len(ports)


def test_the_probe_reads_serving_and_not_serving_and_nothing_there() -> None:
    address = process.free_address()
    assert process.health_status(address) is None and not process.is_serving(address)
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(servicer, server)
    server.add_insecure_port(address)
    server.start()
    try:
        servicer.set("ztgate.Part", health_pb2.HealthCheckResponse.NOT_SERVING)
        assert not process.is_serving(address, "ztgate.Part")
        assert not asyncio.run(process.ais_serving(address, "ztgate.Part"))
        servicer.set("ztgate.Part", health_pb2.HealthCheckResponse.SERVING)
        assert process.is_serving(address, "ztgate.Part")
        assert asyncio.run(process.ais_serving(address, "ztgate.Part"))
    finally:
        server.stop(None)


def test_spawn_logs_output_and_stop_ends_a_child_that_ignores_sigterm(tmp_path: Path) -> None:
    log = tmp_path / "child.log"
    code = ("import signal, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
            "print('up', flush=True); time.sleep(60)")
    child = process.spawn([sys.executable, "-c", code], log, {"ZTGATE_PROBE": "1"})
    process.wait_until(lambda: "up" in log.read_text(), "the child's first line", [child], log, 30.0, 0.05)
    assert process.stop(child, timeout_s=0.5) == -signal.SIGKILL  # SIGTERM ignored, then killed


def test_waiting_fails_at_once_naming_the_logs_when_a_child_exits(tmp_path: Path) -> None:
    child = process.spawn([sys.executable, "-c", "raise SystemExit(3)"], tmp_path / "c.log")
    with pytest.raises(RuntimeError, match=r"exited \(3\).*logs in " + str(tmp_path)):
        process.wait_until(lambda: False, "never", [child], tmp_path, 30.0, 0.05)


def test_stop_all_stops_in_reverse_start_order(tmp_path: Path) -> None:
    children = [process.spawn([sys.executable, "-c", "import time; time.sleep(60)"], tmp_path / f"{i}.log")
                for i in range(2)]
    process.stop_all(children, timeout_s=10)
    assert [c.returncode for c in children] == [-signal.SIGTERM, -signal.SIGTERM]
