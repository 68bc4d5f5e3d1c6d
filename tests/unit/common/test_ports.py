"""Whose port is it: free-port checks as the servers bind, and listeners told apart by process.

Real sockets on loopback; the "other program" is a real child process that listens.
"""

from __future__ import annotations

import errno
import os
import socket
import subprocess
import sys
from collections.abc import Iterator

import grpc
import pytest

from ztgate.common.ports import bind_error, listener_owned_by
from tests.procs import free_port

LISTENER = """
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], int(sys.argv[2]))); s.listen()
print("listening", flush=True)
time.sleep(60)
"""


@pytest.fixture
def other_program() -> Iterator:
    started: list[subprocess.Popen] = []

    def listen(host: str, port: int) -> subprocess.Popen:
        proc = subprocess.Popen([sys.executable, "-c", LISTENER, host, str(port)], stdout=subprocess.PIPE,
                                text=True)
        assert proc.stdout.readline().strip() == "listening"
        started.append(proc)
        return proc

    yield listen
    for proc in started:
        proc.kill()
        proc.wait()


def test_a_port_someone_listens_on_is_in_use_and_free_once_closed() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        address = f"127.0.0.1:{sock.getsockname()[1]}"
        error = bind_error(address)
        assert error is not None and error.errno == errno.EADDRINUSE
    assert bind_error(address) is None


def test_a_previous_runs_connections_in_time_wait_do_not_count_as_use() -> None:
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gRPC and Envoy listen
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]
    client = socket.create_connection(("127.0.0.1", port))
    accepted, _ = server.accept()
    accepted.close()  # the server's side closes first: its end of the connection waits in TIME_WAIT
    client.close()
    server.close()
    with socket.socket() as plain:  # a bind without SO_REUSEADDR would call the port taken
        with pytest.raises(OSError) as info:
            plain.bind(("127.0.0.1", port))
        assert info.value.errno == errno.EADDRINUSE
    assert bind_error(f"127.0.0.1:{port}") is None


def test_an_address_that_is_not_this_machines_is_refused_with_the_reason() -> None:
    error = bind_error("192.0.2.1:8080")  # TEST-NET-1: never a local address
    assert error is not None and error.errno == errno.EADDRNOTAVAIL
    assert "HOST:PORT" in str(bind_error("no-port"))


def test_port_zero_is_always_available() -> None:
    assert bind_error("127.0.0.1:0") is None


async def test_a_grpc_servers_listener_is_its_own_processes() -> None:
    # gRPC listens on an IPv6 socket with an IPv4-mapped address: it must still be recognised.
    server = grpc.aio.server(options=[("grpc.so_reuseport", 0)])
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        assert listener_owned_by(os.getpid(), f"127.0.0.1:{port}") is True
        assert listener_owned_by(os.getpid(), f"localhost:{port}") is True
    finally:
        await server.stop(0)
    assert listener_owned_by(os.getpid(), f"127.0.0.1:{port}") is False  # nothing listens


def test_another_programs_listener_is_not_ours(other_program) -> None:
    port = free_port()
    other = other_program("127.0.0.1", port)
    assert listener_owned_by(os.getpid(), f"127.0.0.1:{port}") is False
    assert listener_owned_by(other.pid, f"127.0.0.1:{port}") is True


def test_a_wildcard_listener_elsewhere_catches_calls_to_our_address(other_program) -> None:
    port = free_port()
    other = other_program("0.0.0.0", port)
    assert listener_owned_by(os.getpid(), f"127.0.0.1:{port}") is False
    assert listener_owned_by(other.pid, f"127.0.0.1:{port}") is True


def test_a_listener_on_another_loopback_address_does_not_count(other_program) -> None:
    port = free_port()
    other_program("127.0.0.2", port)
    with socket.socket() as ours:
        ours.bind(("127.0.0.1", port))
        ours.listen()
        assert listener_owned_by(os.getpid(), f"127.0.0.1:{port}") is True
