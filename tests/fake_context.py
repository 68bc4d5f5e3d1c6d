"""A TEST DOUBLE of grpc.aio.ServicerContext with only what TenantAccess reads from a call (the
common name of the caller's verified certificate, as gRPC's auth context carries it, and the
call's metadata and deadline: none) and what a servicer sends back (initial metadata, recorded). Identity decisions are tested through it without a TLS handshake; the e2e tests
make the same decisions with real certificates and a real Envoy."""

from __future__ import annotations


class FakeContext:
    def __init__(self, caller: str | None = None, metadata: tuple[tuple[str, str], ...] = ()) -> None:
        self._caller = caller
        self._metadata = metadata

    def auth_context(self) -> dict[str, list[bytes]]:
        return {"x509_common_name": [self._caller.encode()]} if self._caller is not None else {}

    def time_remaining(self) -> float | None:
        """A call without a gRPC deadline (as Envoy's ext_proc streams are)."""
        return None

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        return self._metadata

    async def send_initial_metadata(self, metadata: tuple[tuple[str, str], ...]) -> None:
        self.initial_metadata = metadata
