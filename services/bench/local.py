"""Loopback plumbing the bench harnesses share: free ports and health probes of the parts they start."""

from __future__ import annotations

import socket

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc


def free_address() -> str:
    """A loopback address with a port free right now (the bench starts a part on it next)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{sock.getsockname()[1]}"


def is_serving(address: str, service: str) -> bool:
    """Whether the gRPC health service at `address` reports `service` SERVING (False if unreachable)."""
    with grpc.insecure_channel(address) as channel:
        try:
            reply = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=service), timeout=1)
        except grpc.RpcError:
            return False
    return reply.status == health_pb2.HealthCheckResponse.SERVING
