"""Child processes on loopback: free ports, the gRPC health probe, spawn, wait and stop.

The one implementation the benches (bench/ztgate_bench), the supervisor's health checks and the tests
(tests/procs.py, thin wrappers) share, so a fix to how a part is started, probed or stopped lands
everywhere at once.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from ztgate.common.lifetime import parent_death_preexec
from ztgate.common.settings import ClientTlsSettings
from ztgate.common.tls import client_credentials, open_channel

SERVING = health_pb2.HealthCheckResponse.SERVING


# Ports this process has handed out: the kernel may give a port just closed again at once, and
# a caller asking for several (one per listener of a suite) must get distinct ones.
_ISSUED: set[int] = set()


def free_port() -> int:
    """A loopback port free right now and not handed out before by this process (the caller starts
    something on it next)."""
    while True:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        if port not in _ISSUED:
            _ISSUED.add(port)
            return port


def free_address() -> str:
    """127.0.0.1:PORT with a port free right now."""
    return f"127.0.0.1:{free_port()}"


def health_status(address: str, service: str = "", tls: ClientTlsSettings | None = None,
                  timeout: float = 1.0) -> int | None:
    """The gRPC health status of `service` at `address` (over mTLS with `tls`); None when nothing
    answers."""
    channel = (grpc.secure_channel(address, client_credentials(tls)) if tls
               else grpc.insecure_channel(address))
    with channel:
        try:
            return health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=service), timeout=timeout).status
        except grpc.RpcError:
            return None


def is_serving(address: str, service: str = "", tls: ClientTlsSettings | None = None,
               timeout: float = 1.0) -> bool:
    """Whether the gRPC health service at `address` reports `service` SERVING (False if unreachable)."""
    return health_status(address, service, tls, timeout) == SERVING


async def ais_serving(address: str, service: str = "", tls: ClientTlsSettings | None = None,
                      timeout: float = 1.0) -> bool:
    """`is_serving` for an event loop (the supervisor's checks): one aio health call."""
    async with open_channel(address, tls) as channel:
        try:
            reply = await health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=service), timeout=timeout)
        except grpc.aio.AioRpcError:
            return False
        return reply.status == SERVING


def spawn(argv: Sequence[str], log: Path, env: Mapping[str, str] | None = None,
          cwd: Path | None = None) -> subprocess.Popen:
    """A child in its own session (a signal to our group does not reach it twice), its stdout and
    stderr in `log`; `env` is added to ours. It dies with us (SIGKILL, PR_SET_PDEATHSIG), so a bench or a
    test that is killed leaves no server or suite behind (a killed `ztgate bench` once left a whole
    `ztgate up` running); call it from the main thread (ztgate/common/lifetime.py)."""
    with log.open("w") as handle:
        return subprocess.Popen(list(argv), stdout=handle, stderr=subprocess.STDOUT, cwd=cwd,
                                env={**os.environ, **env} if env else None, start_new_session=True,
                                preexec_fn=parent_death_preexec(signal.SIGKILL))


def wait_until(check: Callable[[], bool], what: str, processes: Sequence[subprocess.Popen], logs: Path | str,
               timeout_s: float, interval_s: float = 0.25) -> None:
    """Polls `check` until it holds; fails at once if a started child exits, naming where its logs are."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for process in processes:
            if process.poll() is not None:
                raise RuntimeError(f"a child process exited ({process.returncode}) while waiting for "
                                   f"{what}; logs in {logs}")
        if check():
            return
        time.sleep(interval_s)
    raise RuntimeError(f"{what} not within {timeout_s:.0f} s; logs in {logs}")


def stop(process: subprocess.Popen, timeout_s: float = 30.0, sig: int | None = None) -> int:
    """SIGTERM (or `sig`), then SIGKILL after `timeout_s`; its return code."""
    if process.poll() is None:
        if sig is None:
            process.terminate()
        else:
            process.send_signal(sig)
    try:
        process.wait(timeout_s)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    return process.returncode


def stop_all(processes: Sequence[subprocess.Popen], timeout_s: float = 30.0) -> None:
    """Stops the children in reverse start order (the first started, e.g. a collector, last)."""
    for process in reversed(processes):
        stop(process, timeout_s)
