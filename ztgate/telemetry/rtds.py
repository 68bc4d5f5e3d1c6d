"""Envoy's Runtime Discovery Service (RTDS), served by the collector: the SLO controller's routing
decision as one `Runtime` resource that every Envoy of the suite subscribes to.

It replaces writes through Envoy's admin console, which stays on Envoy's own loopback and so is out
of the collector's reach in compose and Kubernetes; RTDS is a gRPC stream that Envoy opens to the
collector, over the mesh's mTLS, in every deployment.

Envoy keeps the last runtime it accepted while the collector is away, and on reconnecting tells the
new collector the version it holds (`version_info` of its first request). Each version names the
state it carries (`fallback.<epoch>.<n>`), so a collector that restarted learns from Envoy which
decision was in force and the controller takes it up again (`SloController.restore`) before it
publishes anything: a restart never moves traffic back by itself.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator, Callable

import grpc
from envoy.service.discovery.v3 import discovery_pb2
from envoy.service.runtime.v3 import rtds_pb2, rtds_pb2_grpc
from google.protobuf import any_pb2, struct_pb2

log = logging.getLogger(__name__)

RUNTIME_TYPE_URL = "type.googleapis.com/envoy.service.runtime.v3.Runtime"
SERVICE_NAME = "envoy.service.runtime.v3.RuntimeDiscoveryService"
# Told the state that a version Envoy reports carries (the collector restarted meanwhile).
Restore = Callable[[str], None]


def version_state(version: str) -> str | None:
    """The state named by a version this module made (any process's), None for anything else."""
    state, dot, rest = version.partition(".")
    return state if dot and rest and state.isalpha() else None


class RuntimePublisher:
    """The current runtime layer (None until the controller first publishes) and its version.

    Streams wait on `changed()`; a publication wakes them all. Versions start with the state and
    carry a random epoch per process, so two collectors never hand out the same version."""

    def __init__(self, layer: str) -> None:
        self.layer = layer
        self.fields: dict[str, int] | None = None
        self.version = ""
        self._epoch = secrets.token_hex(4)
        self._count = 0
        self._changed = asyncio.Event()
        # Envoy streams open now, and responses Envoy refused (NACK) so far.
        self.subscribers = 0
        self.rejected = 0
        self.closed = False

    def publish(self, fields: dict[str, int], state: str) -> None:
        """Makes `fields` the layer's content; every open stream sends it."""
        self._count += 1
        self.fields = dict(fields)
        self.version = f"{state}.{self._epoch}.{self._count}"
        self._changed.set()
        self._changed = asyncio.Event()

    def close(self) -> None:
        """Ends every stream (shutdown): Envoy keeps what it has and reconnects elsewhere or later."""
        self.closed = True
        self._changed.set()

    async def changed(self, seen: str) -> None:
        """Returns once the version differs from `seen`, or the publisher is closed."""
        while self.version == seen and not self.closed:
            await self._changed.wait()

    def response(self, nonce: str) -> discovery_pb2.DiscoveryResponse:
        layer = struct_pb2.Struct()
        layer.update(self.fields or {})
        resource = any_pb2.Any()
        resource.Pack(rtds_pb2.Runtime(name=self.layer, layer=layer))
        return discovery_pb2.DiscoveryResponse(version_info=self.version, resources=[resource],
                                               type_url=RUNTIME_TYPE_URL, nonce=nonce)


class RuntimeDiscovery(rtds_pb2_grpc.RuntimeDiscoveryServiceServicer):
    """StreamRuntime: the layer now and at every change; Envoy's first request may restore the
    controller's state (module docstring)."""

    def __init__(self, publisher: RuntimePublisher, restore: Restore | None = None) -> None:
        self._publisher = publisher
        self._restore = restore

    async def StreamRuntime(self, request_iterator: AsyncIterator[discovery_pb2.DiscoveryRequest],
                            context: grpc.aio.ServicerContext
                            ) -> AsyncIterator[discovery_pb2.DiscoveryResponse]:
        pub = self._publisher
        try:
            first = await anext(request_iterator)
        except StopAsyncIteration:
            return
        if first.type_url and first.type_url != RUNTIME_TYPE_URL:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                                f"this server serves {RUNTIME_TYPE_URL} only, not {first.type_url}")
        if first.resource_names and pub.layer not in first.resource_names:
            await context.abort(grpc.StatusCode.NOT_FOUND,
                                f"no runtime layer {', '.join(first.resource_names)}: this "
                                f"collector serves {pub.layer} (telemetry.slo.rtds_layer)")
        state = version_state(first.version_info)
        if state is not None and self._restore is not None:
            self._restore(state)
        pub.subscribers += 1
        acks = asyncio.create_task(self._acks(request_iterator), name="rtds-acks")
        sent = ""
        waiting: asyncio.Task[None] | None = None
        try:
            while not pub.closed:
                if pub.fields is not None and pub.version != sent:
                    sent = pub.version
                    yield pub.response(nonce=sent)
                waiting = asyncio.create_task(pub.changed(sent))
                await asyncio.wait({waiting, acks}, return_when=asyncio.FIRST_COMPLETED)
                if acks.done():  # Envoy closed its side: the stream is over
                    return
        finally:
            pub.subscribers -= 1
            for task in (waiting, acks):
                if task is not None:
                    task.cancel()

    async def _acks(self, requests: AsyncIterator[discovery_pb2.DiscoveryRequest]) -> None:
        """Reads Envoy's acknowledgements until it closes; counts and logs refusals."""
        async for request in requests:
            if request.HasField("error_detail"):
                self._publisher.rejected += 1
                log.warning("envoy refused runtime version %s: %s", request.response_nonce,
                            request.error_detail.message[:200],
                            extra={"event": "rtds_rejected"})


def registrar(publisher: RuntimePublisher, restore: Restore | None
              ) -> Callable[[grpc.aio.Server], None]:
    def register(server: grpc.aio.Server) -> None:
        rtds_pb2_grpc.add_RuntimeDiscoveryServiceServicer_to_server(
            RuntimeDiscovery(publisher, restore), server)

    return register
