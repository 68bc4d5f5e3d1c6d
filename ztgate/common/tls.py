"""TLS for the suite's gRPC calls, both ends: server credentials, client credentials, and the check
that a caller's certificate names a part this service accepts calls from."""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import grpc

from ztgate.common.settings import ClientTlsSettings, TlsSettings

log = logging.getLogger(__name__)
_KINDS = ("unary_unary", "unary_stream", "stream_unary", "stream_stream")


async def stream_items(result: Any) -> Any:
    """What a streaming handler answers, whichever way it is written: an async generator's items,
    or nothing from a coroutine that writes with `context.write` (grpc's health Watch does)."""
    if inspect.isawaitable(result):
        await result
        return
    async for item in result:
        yield item


def server_credentials(tls: TlsSettings) -> grpc.ServerCredentials:
    """The listener's credentials; with `client_ca`, a client without a certificate from it is
    refused during the handshake, before any call."""
    ca = tls.client_ca.read_bytes() if tls.client_ca else None
    return grpc.ssl_server_credentials([(tls.key.read_bytes(), tls.cert.read_bytes())],
                                       root_certificates=ca, require_client_auth=ca is not None)


def access_interceptors(tls: TlsSettings | None) -> list[grpc.aio.ServerInterceptor]:
    """The caller check a listener with `tls` needs (none without client certificates or names)."""
    if tls is None or tls.client_ca is None or not tls.allowed_clients:
        return []
    return [AllowedClientsInterceptor(tls.allowed_clients)]


def add_port(server: grpc.aio.Server, listen: str, tls: TlsSettings | None) -> int:
    """Binds `listen` with `tls` (plaintext without); returns the port."""
    if tls is None:
        return server.add_insecure_port(listen)
    return server.add_secure_port(listen, server_credentials(tls))


def client_credentials(tls: ClientTlsSettings) -> grpc.ChannelCredentials:
    """Credentials that verify the server against `ca` and present `cert` when one is set."""
    if (tls.cert is None) != (tls.key is None):
        raise ValueError("client TLS needs both cert and key, or neither")
    return grpc.ssl_channel_credentials(
        root_certificates=tls.ca.read_bytes(),
        private_key=tls.key.read_bytes() if tls.key else None,
        certificate_chain=tls.cert.read_bytes() if tls.cert else None)


def open_channel(address: str, tls: ClientTlsSettings | None = None) -> grpc.aio.Channel:
    """A channel to `address`: TLS (mTLS with a certificate) when `tls` is set, else plaintext."""
    if tls is None:
        return grpc.aio.insecure_channel(address)
    return grpc.aio.secure_channel(address, client_credentials(tls))


def peer_name(context: grpc.aio.ServicerContext) -> str | None:
    """The common name of the caller's verified certificate, None on a plaintext call."""
    names = (context.auth_context() or {}).get("x509_common_name") or []
    return names[0].decode("utf-8", "replace") if names else None


class AllowedClientsInterceptor(grpc.aio.ServerInterceptor):
    """PERMISSION_DENIED unless the caller's certificate is one of `allowed` (by common name).

    The CA check happens in the handshake; this narrows "any part of the suite" to the parts that
    have business here (only Envoy calls the redaction and inference services)."""

    def __init__(self, allowed: tuple[str, ...]) -> None:
        self._allowed = frozenset(allowed)

    def _refusal(self, context: grpc.aio.ServicerContext, method: str) -> str | None:
        name = peer_name(context)
        if name in self._allowed:
            return None
        # A part of the suite calling where it has no business: worth an operator's attention.
        log.warning("refused a call from %s to %s", name or "(no certificate)", method,
                    extra={"caller": name or "", "method": method, "event": "caller_refused"})
        return (f"caller {name or '(no client certificate)'} may not call this service; accepted: "
                f"{', '.join(sorted(self._allowed))} (server.tls.allowed_clients)")

    async def intercept_service(self, continuation: Callable[[Any], Awaitable[Any]],
                                details: grpc.HandlerCallDetails) -> Any:
        handler = await continuation(details)
        if handler is None:
            return None
        kind = next(k for k in _KINDS if getattr(handler, k) is not None)
        inner = getattr(handler, kind)
        method = details.method

        def refusal(context: grpc.aio.ServicerContext) -> str | None:
            return self._refusal(context, method)

        if kind.endswith("unary"):
            async def checked(request: Any, context: grpc.aio.ServicerContext) -> Any:
                if (why := refusal(context)) is not None:
                    await context.abort(grpc.StatusCode.PERMISSION_DENIED, why)
                return await inner(request, context)
        else:
            async def checked(request: Any, context: grpc.aio.ServicerContext) -> Any:  # type: ignore[misc]
                if (why := refusal(context)) is not None:
                    await context.abort(grpc.StatusCode.PERMISSION_DENIED, why)
                async for item in stream_items(inner(request, context)):
                    yield item

        return getattr(grpc, f"{kind}_rpc_method_handler")(
            checked, request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer)
