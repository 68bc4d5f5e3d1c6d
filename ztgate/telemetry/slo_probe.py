"""gRPC transport of the SLO controller's probes: one short greedy call to the primary, timed to
its first token.

The probe goes straight to the primary's own address (not through Envoy: no tenant token, no
redaction needed for a fixed prompt of ours), as the collector's identity under mTLS, with the
probes' own tenant (semconv.PROBE_TENANT) so that the controller can skip the primary's OTLP
points of it. It asks for one token: the first chunk of the stream is the first token.
"""

from __future__ import annotations

import time

import grpc

from ztgate.common.semconv import PROBE_TENANT
from ztgate.common.settings import ClientTlsSettings
from ztgate.common.tls import open_channel
from ztgate.gen.inference.v1 import inference_pb2, inference_pb2_grpc

# A fixed prompt of ours, a few tokens long: the probe measures a short prompt's first token.
PROBE_PROMPT = "Reply with one word: ready?"


class PrimaryProbe:
    def __init__(self, address: str, tls: ClientTlsSettings | None = None) -> None:
        self.address = address
        self._channel = open_channel(address, tls)
        self._stub = inference_pb2_grpc.InferenceStub(self._channel)

    async def __call__(self, deadline_s: float) -> float | None:
        """Seconds to the first token, or None when none came within `deadline_s` (or the call
        failed: refused, overloaded, unreachable)."""
        started = time.perf_counter()
        call = self._stub.GenerateStream(inference_pb2.GenerateRequest(
            prompt=PROBE_PROMPT, tenant=PROBE_TENANT,
            sampling=inference_pb2.SamplingParams(temperature=0, max_tokens=1)), timeout=deadline_s)
        try:
            first = await call.read()
        except grpc.aio.AioRpcError:
            return None
        finally:
            call.cancel()
        if first is grpc.aio.EOF:
            return None
        return time.perf_counter() - started

    async def close(self) -> None:
        await self._channel.close()
