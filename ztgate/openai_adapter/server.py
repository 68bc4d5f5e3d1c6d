"""`ztgate serve openai-adapter`: ztgate's own model as an OpenAI-compatible upstream.

Envoy routes the door's calls for `inference.model_name` here after the door's whole chain
(token, scope, rate limit, size limit, ext_proc redaction of the JSON body and of the answer).
The adapter turns each into a `GenerateRequest` and calls the gateway's own gRPC Inference route
on loopback with the caller's token, so the call keeps everything that route does (the SLO
controller's primary/fallback split, per-try timeouts, retries on the other instance, breakers)
and runs as the caller's tenant. Why not the instances directly: that would be a second,
weaker copy of the routing. The cost: the gRPC route scrubs the already scrubbed text again,
and the call counts twice against the tenant's rate limit (docs/architecture.md).

Never logs a prompt or an answer: its debug log says the endpoint, sizes and statuses only.
"""

from __future__ import annotations

import asyncio
import json
import logging
import signal
import time
import uuid
from dataclasses import dataclass
from typing import Any

import grpc
from aiohttp import web

from ztgate.common.config import ConfigError
from ztgate.common.errors import ZtgateError
from ztgate.common.settings import ClientTlsSettings
from ztgate.common.tls import client_credentials
from ztgate.gen.inference.v1 import inference_pb2_grpc
from ztgate.inference.limits import RequestLimits, RequestTooLarge
from ztgate.openai_adapter import mapping
from ztgate.openai_adapter.config import OpenAIAdapterSettings, exposure_problem
from ztgate.protocols.openai.errors import RETRY_AFTER_S, SHAPES, error_shape


@dataclass(frozen=True)
class AdapterInputs:
    """What `ztgate serve openai-adapter` runs with: its own section, and what it needs from the
    others (built from the whole configuration by ztgate/serve.py)."""

    adapter: OpenAIAdapterSettings
    # The gateway it calls (gateway.listen), and the credentials it dials it with (None: plaintext).
    gateway_listen: str
    gateway_tls: ClientTlsSettings | None
    # The model it serves (inference.model_name).
    model_name: str
    limits: RequestLimits
    # gateway.inference.timeout_s: a whole call's limit; gateway.openai_extra_fields.
    timeout_s: float
    extra_fields: frozenset[str]


log = logging.getLogger(__name__)

# Request headers passed on to the gateway's gRPC route: the caller's token (its tenant and
# scopes decide there too) and the trace context.
FORWARDED = ("authorization", "traceparent", "tracestate")
# The inference service's first-token header naming the instance (ztgate/inference/server.py).
SERVED_BY = "x-ztgate-served-by"
# A gRPC status of the Inference route -> OpenAI's code, where SHAPES' is the redaction door's.
CODES = {"UNAVAILABLE": "unavailable"}


def error_response(status: int, kind: str, code: str, message: str,
                   param: str | None = None) -> web.Response:
    headers = {"retry-after": str(RETRY_AFTER_S)} if status == 429 else None
    body = {"error": {"message": message, "type": kind, "param": param, "code": code}}
    return web.json_response(body, status=status, headers=headers)


def refusal(exc: ZtgateError) -> web.Response:
    status, body = error_shape(exc)
    error = body["error"]
    return error_response(status, error["type"], error["code"], error["message"], error["param"])


def rpc_refusal(exc: grpc.aio.AioRpcError) -> tuple[int, dict]:
    """The HTTP status and OpenAI error body for a failed Inference call (its message is the
    service's, which names the field or limit and never quotes the prompt)."""
    name = exc.code().name
    status, kind, code = SHAPES.get(name, SHAPES["INTERNAL"])
    return status, {"error": {"message": exc.details() or name, "type": kind, "param": None,
                              "code": CODES.get(name, code)}}


def gateway_target(listen: str) -> str:
    """The gateway's listener (gateway.listen) as the adapter dials it: a wildcard host on loopback."""
    host, port = listen.rsplit(":", 1)
    return f"127.0.0.1:{port}" if host.strip("[]") in ("0.0.0.0", "::", "") else listen


class Adapter:
    """The two endpoints over one channel to the gateway."""

    def __init__(self, stub: Any, model: str, limits: RequestLimits, timeout_s: float,
                 extra_fields: frozenset[str] = frozenset()) -> None:
        self.stub, self.model, self.limits, self.timeout_s = stub, model, limits, timeout_s
        self.extra_fields = extra_fields  # gateway.openai_extra_fields: known, not served

    def app(self) -> web.Application:
        app = web.Application(client_max_size=self.limits.max_request_bytes)
        app.router.add_post("/v1/chat/completions", self.chat)
        app.router.add_post("/v1/completions", self.completions)
        app.router.add_get("/ready", self.ready)
        return app

    async def ready(self, _: web.Request) -> web.Response:
        return web.Response(text="ok")

    async def chat(self, request: web.Request) -> web.StreamResponse:
        return await self.handle(request, mapping.CHAT)

    async def completions(self, request: web.Request) -> web.StreamResponse:
        return await self.handle(request, mapping.COMPLETION)

    async def handle(self, request: web.Request, kind: str) -> web.StreamResponse:
        try:
            raw = await request.read()
        except web.HTTPRequestEntityTooLarge:
            return refusal(RequestTooLarge(
                f"the request body is over {self.limits.max_request_bytes} bytes "
                "(limits.max_request_bytes)"))
        try:
            body = json.loads(raw)
        except (UnicodeDecodeError, ValueError):
            return error_response(400, "invalid_request_error", "invalid_json",
                                  "the request body is not valid JSON")
        try:
            parsed = mapping.parse(body, kind, self.model, self.limits, self.extra_fields)
        except ZtgateError as exc:
            log.debug("refused %s request of %d bytes: %s", kind, len(raw), exc.status)
            return refusal(exc)
        metadata = tuple((k, request.headers[k]) for k in FORWARDED if k in request.headers)
        created = int(time.time())
        fallback_id = uuid.uuid4().hex
        log.debug("%s request of %d bytes, stream=%s", kind, len(raw), parsed.stream)
        if not parsed.stream:
            try:
                reply = await self.stub.Generate(parsed.request, timeout=self.timeout_s,
                                                 metadata=metadata)
            except grpc.aio.AioRpcError as exc:
                log.debug("%s call failed: %s", kind, exc.code().name)
                status, err = rpc_refusal(exc)
                e = err["error"]
                return error_response(status, e["type"], e["code"], e["message"])
            ident = mapping.completion_id(kind, reply.request_id, fallback_id)
            return web.json_response(
                mapping.answer(reply, kind, self.model, ident, created),
                headers=mapping.headers(reply, final=True))
        return await self.stream(request, kind, parsed, metadata, created, fallback_id)

    async def stream(self, request: web.Request, kind: str, parsed: mapping.Parsed,
                     metadata: tuple, created: int, fallback_id: str) -> web.StreamResponse:
        """SSE: headers at the first chunk (a call refused before it gets a JSON error and its
        status); an error after it is one `data: {"error": ...}` event without `[DONE]`."""
        call = self.stub.GenerateStream(parsed.request, timeout=self.timeout_s, metadata=metadata)
        response: web.StreamResponse | None = None
        try:
            shaper = None
            async for chunk in call:
                if response is None:
                    ident = mapping.completion_id(kind, chunk.request_id, fallback_id)
                    shaper = mapping.ChunkShaper(kind, self.model, ident, created,
                                                 parsed.include_usage)
                    # The service names itself in its first-token headers (chunks before the
                    # last may not carry served_by).
                    served = dict(await call.initial_metadata() or ()).get(SERVED_BY, "")
                    response = web.StreamResponse(headers={
                        "content-type": "text/event-stream", "cache-control": "no-cache",
                        **mapping.headers(chunk, final=False), **({SERVED_BY: served} if served else {})})
                    await response.prepare(request)
                for event in shaper.events(chunk):
                    await response.write(event)
            if response is None:  # a stream with no chunk at all
                return error_response(502, "api_error", "upstream_error",
                                      "the Inference service answered no chunk")
            await response.write(mapping.DONE)
            await response.write_eof()
            return response
        except grpc.aio.AioRpcError as exc:
            log.debug("%s stream failed: %s", kind, exc.code().name)
            status, err = rpc_refusal(exc)
            if response is None:
                e = err["error"]
                return error_response(status, e["type"], e["code"], e["message"])
            await response.write(mapping.sse(err))
            await response.write_eof()
            return response
        finally:
            call.cancel()  # a no-op once done; stops the model when the client went away


async def run(inputs: AdapterInputs) -> None:
    """Serves until cancelled (SIGTERM/SIGINT stop the process)."""
    settings = inputs.adapter
    problem = exposure_problem(settings.listen)  # again: a disabled adapter's listen is not checked
    if problem:
        raise ConfigError(problem)
    options = [("grpc.max_send_message_length", inputs.limits.max_request_bytes + 1024)]
    tls, target = inputs.gateway_tls, gateway_target(inputs.gateway_listen)
    channel = (grpc.aio.insecure_channel(target, options=options) if tls is None
               else grpc.aio.secure_channel(target, client_credentials(tls), options=options))
    adapter = Adapter(inference_pb2_grpc.InferenceStub(channel), inputs.model_name,
                      inputs.limits, inputs.timeout_s, inputs.extra_fields)
    runner = web.AppRunner(adapter.app(), access_log=None)
    await runner.setup()
    host, port = settings.listen.rsplit(":", 1)
    site = web.TCPSite(runner, host.strip("[]"), int(port), reuse_address=True)
    await site.start()
    log.info("openai adapter on http://%s/v1 for model %s, calling the gateway at %s",
             settings.listen, inputs.model_name, target)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()
        await channel.close()

