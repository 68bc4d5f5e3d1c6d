"""Loopback plumbing the bench harnesses share: free ports and health probes of the parts they start."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from services.common.settings import ClientTlsSettings
from services.common.tls import client_credentials


def free_address() -> str:
    """A loopback address with a port free right now (the bench starts a part on it next)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{sock.getsockname()[1]}"


def is_serving(address: str, service: str, tls: ClientTlsSettings | None = None) -> bool:
    """Whether the gRPC health service at `address` reports `service` SERVING (False if unreachable);
    over mTLS with `tls`."""
    channel = (grpc.secure_channel(address, client_credentials(tls)) if tls
               else grpc.insecure_channel(address))
    with channel:
        try:
            reply = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=service), timeout=1)
        except grpc.RpcError:
            return False
    return reply.status == health_pb2.HealthCheckResponse.SERVING


def spawn(argv: list[str], log: Path, env: Mapping[str, str] | None = None) -> subprocess.Popen:
    """A part of the bench in its own session, its output in `log`."""
    with log.open("w") as handle:
        return subprocess.Popen(argv, stdout=handle, stderr=subprocess.STDOUT,
                                env={**os.environ, **env} if env else None, start_new_session=True)


def wait_until(check: Callable[[], bool], what: str, processes: Sequence[subprocess.Popen], logs: Path,
               timeout_s: float) -> None:
    """Polls `check` until it holds; fails at once if a started part exits, naming where its logs are."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for process in processes:
            if process.poll() is not None:
                raise RuntimeError(f"a bench process exited ({process.returncode}) while waiting for "
                                   f"{what}; logs in {logs}")
        if check():
            return
        time.sleep(0.25)
    raise RuntimeError(f"{what} not within {timeout_s:.0f} s; logs in {logs}")


def stop_all(processes: Sequence[subprocess.Popen], timeout_s: float = 30.0) -> None:
    """Stops the parts in reverse start order (the first started, e.g. a collector, last), each
    with SIGTERM, then SIGKILL after `timeout_s`."""
    for process in reversed(processes):
        if process.poll() is None:
            process.terminate()
        try:
            process.wait(timeout_s)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
