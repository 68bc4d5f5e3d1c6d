"""A no-op stand-in for the redaction service, for `ztgate bench gateway --processor noop`.

It answers every ext_proc message at once with the body unchanged, and `Redact` with the text
unchanged: what is left in the bench is the cost of the mechanism itself (Envoy's ext_proc filter
and a Python grpc.aio processor, three messages per unary call), the floor under what the real
redaction service can add. Served like the real one (its certificate under mTLS).
"""

from __future__ import annotations

import argparse
import asyncio
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
from envoy.service.ext_proc.v3 import external_processor_pb2 as ep
from envoy.service.ext_proc.v3 import external_processor_pb2_grpc as ep_grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from ztgate.common import pki
from ztgate.common.tls import access_interceptors, add_port
from ztgate.gen.redaction.v1 import redaction_pb2, redaction_pb2_grpc
from ztgate.parts import REDACTION_SERVICE

SERVICES = ("", REDACTION_SERVICE, ep.DESCRIPTOR.services_by_name["ExternalProcessor"].full_name)


def _unchanged(body: bytes) -> ep.BodyResponse:
    return ep.BodyResponse(response=ep.CommonResponse(body_mutation=ep.BodyMutation(body=body)))


class NoopProcessor(ep_grpc.ExternalProcessorServicer, redaction_pb2_grpc.RedactionServicer):
    async def Process(self, requests: AsyncIterator[ep.ProcessingRequest],
                      context: grpc.aio.ServicerContext) -> AsyncIterator[ep.ProcessingResponse]:
        async for message in requests:
            kind = message.WhichOneof("request")
            if kind == "request_headers":
                yield ep.ProcessingResponse(request_headers=ep.HeadersResponse())
            elif kind == "request_body":
                yield ep.ProcessingResponse(request_body=_unchanged(message.request_body.body))
            elif kind == "response_body":
                yield ep.ProcessingResponse(response_body=_unchanged(message.response_body.body))

    async def Redact(self, request: redaction_pb2.RedactRequest,
                     context: grpc.aio.ServicerContext) -> redaction_pb2.RedactResponse:
        return redaction_pb2.RedactResponse(text=request.text)


async def serve(listen: str, pki_dir: Path | None = None) -> None:
    """Runs until SIGTERM; with `pki_dir`, mTLS as the redaction service under `ztgate up`."""
    tls = pki.server_tls(pki_dir, pki.REDACTION, (pki.ENVOY, pki.OPERATOR)) if pki_dir else None
    server = grpc.aio.server(interceptors=access_interceptors(tls))
    processor = NoopProcessor()
    ep_grpc.add_ExternalProcessorServicer_to_server(processor, server)
    redaction_pb2_grpc.add_RedactionServicer_to_server(processor, server)
    checker = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(checker, server)
    add_port(server, listen, tls)
    await server.start()
    for name in SERVICES:
        await checker.set(name, health_pb2.HealthCheckResponse.SERVING)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    await server.stop(0)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--listen", required=True, metavar="HOST:PORT")
    parser.add_argument("--pki-dir", type=Path, help="serve mTLS with the suite's certificates there")
    parsed = parser.parse_args()
    asyncio.run(serve(parsed.listen, parsed.pki_dir))
