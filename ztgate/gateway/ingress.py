"""Limits on what any caller, with a token or without, can hold at Envoy's ingress (the
`gateway.ingress:` section): streams, connections, heap, and the tokenless health route."""

from __future__ import annotations

from pydantic import Field, model_validator

from ztgate.common.settings import Strict

# Heap pressure (share of `max_heap_bytes`) at which Envoy returns freed memory to the system,
# and at which it answers every new request 503 at once until the pressure falls again.
SHRINK_HEAP_AT = 0.90
STOP_REQUESTS_AT = 0.95


class GatewayIngressSettings(Strict):
    # Seconds a stream may go without a byte either way before Envoy resets it (the connection
    # manager's stream_idle_timeout). Routes with an idle timeout of their own keep it (inference
    # and the HTTP door: gateway.inference.stream_idle_timeout_s, since prefill sends nothing).
    stream_idle_timeout_s: float = Field(default=60.0, gt=0)
    # Seconds a client has to send a request's headers, whole, after the stream opens; past it
    # Envoy answers 408 and frees the stream (request_headers_timeout).
    request_headers_timeout_s: float = Field(default=10.0, gt=0)
    # HTTP/2 streams one client connection may have open at once (max_concurrent_streams; a
    # gRPC client queues its further calls until one ends).
    max_concurrent_streams: int = Field(default=100, ge=1, le=2**31 - 1)
    # HTTP/2 flow-control windows Envoy gives a client (initial_stream_window_size and
    # initial_connection_window_size, sized as Envoy's edge guide has them; its own defaults,
    # 16 MiB a stream and 24 MiB a connection, are for a mesh): bytes a client may push on one
    # stream, and on one connection, before Envoy has read them. A stream refused at its headers
    # or its size takes at most this much more.
    http2_stream_window_bytes: int = Field(default=64 << 10, ge=65535, le=2**31 - 1)
    http2_connection_window_bytes: int = Field(default=1 << 20, ge=65535, le=2**31 - 1)
    # Client connections Envoy holds at once, over all its listeners (the overload manager's
    # global_downstream_max_connections); a further connection is closed at once.
    max_connections: int = Field(default=4096, ge=1)
    # Envoy's heap ceiling in bytes (the overload manager's fixed_heap monitor): at 90% of it
    # Envoy shrinks its heap, at 95% it answers every new request 503 (UNAVAILABLE) at once, so
    # no burst of large bodies gets the gateway killed for memory.
    max_heap_bytes: int = Field(default=1 << 30, ge=64 << 20)
    # gRPC health through the gateway (the only route that needs no token) has an Envoy cluster
    # of its own, apart from the one the ext_proc filter uses: at most this many health calls
    # in flight (more are refused at once, UNAVAILABLE), so held tokenless streams never take
    # what every tenant's scrub needs.
    health_max_requests: int = Field(default=16, ge=1)
    # Seconds a health call through the gateway may last, from its first byte (a Watch is ended
    # then; a Check answers in milliseconds).
    health_max_stream_s: float = Field(default=5.0, gt=0)

    @model_validator(mode="after")
    def _coherent(self) -> "GatewayIngressSettings":
        if self.request_headers_timeout_s > self.stream_idle_timeout_s:
            raise ValueError("gateway.ingress.request_headers_timeout_s must not exceed "
                             "stream_idle_timeout_s (the idle timeout would end the stream first)")
        if self.http2_connection_window_bytes < self.http2_stream_window_bytes:
            raise ValueError("gateway.ingress.http2_connection_window_bytes must not be less than "
                             "http2_stream_window_bytes (one stream could not use its window)")
        return self
