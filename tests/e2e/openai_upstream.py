"""RECORDING OpenAI-compatible upstreams for the HTTP door's e2e tests (test doubles, aiohttp).

`RecordingOpenAI` records every request it receives (headers and raw body: what crossed the
gateway) and either answers itself, as a model that echoes every placeholder and stand-in it was sent plus a
secret of its own, in SSE events of `chunk_chars` characters so that placeholders and secrets are
split across events, or, with `forward_to`, is a recording PROXY in front of a real
OpenAI-compatible server (vLLM's), passing its answer back byte for byte. A fault a test may
inject: `fail_status` (answer that HTTP status, as an overloaded server would). A test may also
set `canned` (content type, body): every answer is then that body, verbatim.

It serves on an event loop of its own, in a thread: tests call the gateway with blocking clients
(the `openai` package's sync client) as well as async ones.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from dataclasses import dataclass, field

import aiohttp
from aiohttp import web

from tests.stand_ins import pseudonyms_in
from tests.e2e.gateway_suite import MODEL_SECRETS


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> dict:
        return json.loads(self.body)


@dataclass
class RecordingOpenAI:
    name: str
    forward_to: str | None = None  # base URL of a real server (http://HOST:PORT)
    chunk_chars: int = 3
    fail_status: int | None = None
    canned: tuple[str, bytes] | None = None
    received: list[Received] = field(default_factory=list)
    # With `forward_to`: each answer's body as the real server sent it (before the gateway's restore).
    answered: list[bytes] = field(default_factory=list)
    port: int = 0
    _runner: web.AppRunner | None = None
    _loop: asyncio.AbstractEventLoop | None = None
    _thread: threading.Thread | None = None

    async def _serve(self, started: threading.Event) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_post("/v1/{op:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # noqa: SLF001 - the bound port
        started.set()

    def start(self) -> None:
        """Serves in a thread of its own until `stop`."""
        self._loop = asyncio.new_event_loop()
        started = threading.Event()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._serve(started), self._loop).result(30)
        assert started.is_set()

    def stop(self) -> None:
        if self._loop is None:
            return
        if self._runner is not None:
            asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(30)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def wire(self) -> str:
        """Everything the upstream received, as text (to look for canaries in)."""
        return "\n".join(f"{r.headers}\n{r.body.decode('utf-8', 'replace')}" for r in self.received)

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        body = await request.read()
        self.received.append(Received(request.path, {k.lower(): v for k, v in request.headers.items()}, body))
        if self.fail_status is not None:
            return web.json_response({"error": {"message": f"{self.name} fails (injected)",
                                                "type": "server_error", "code": None}},
                                     status=self.fail_status)
        if self.canned is not None:
            return web.Response(body=self.canned[1], headers={"content-type": self.canned[0]})
        if self.forward_to is not None:
            return await self._forward(request, body)
        payload = json.loads(body)
        chat = request.path.endswith("/chat/completions")
        text = self.answer(payload)
        if payload.get("stream"):
            return await self._stream(request, payload, text, chat)
        choice = ({"index": 0, "finish_reason": "stop",
                   "message": {"role": "assistant", "content": text}} if chat
                  else {"index": 0, "finish_reason": "stop", "text": text})
        return web.json_response({
            "id": "cmpl-1", "object": "chat.completion" if chat else "text_completion",
            "created": int(time.time()), "model": payload["model"], "choices": [choice],
            "usage": {"prompt_tokens": 5, "completion_tokens": 7, "total_tokens": 12}},
            headers={"x-served-by": self.name})

    def answer(self, payload: dict) -> str:
        seen = json.dumps(payload.get("messages") or payload.get("prompt"))
        return f"Hello {' '.join(pseudonyms_in(seen))}, your key is {MODEL_SECRETS[0]} ok."

    async def _stream(self, request: web.Request, payload: dict, text: str,
                      chat: bool) -> web.StreamResponse:
        response = web.StreamResponse(headers={"content-type": "text/event-stream",
                                               "x-served-by": self.name})
        await response.prepare(request)
        base = {"id": "cmpl-1", "object": "chat.completion.chunk" if chat else "text_completion",
                "created": int(time.time()), "model": payload["model"]}
        for start in range(0, len(text), self.chunk_chars):
            piece = text[start:start + self.chunk_chars]
            choice = ({"index": 0, "delta": {"content": piece}, "finish_reason": None} if chat
                      else {"index": 0, "text": piece, "finish_reason": None})
            await response.write(f"data: {json.dumps({**base, 'choices': [choice]})}\n\n".encode())
            await asyncio.sleep(0.001)
        last = ({"index": 0, "delta": {}, "finish_reason": "stop"} if chat
                else {"index": 0, "text": "", "finish_reason": "stop"})
        await response.write(f"data: {json.dumps({**base, 'choices': [last]})}\n\ndata: [DONE]\n\n".encode())
        await response.write_eof()
        return response

    async def _forward(self, request: web.Request, body: bytes) -> web.StreamResponse:
        timeout = aiohttp.ClientTimeout(total=300)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            # The caller's token goes on (ztgate's adapter calls the gateway back with it).
            headers = {"content-type": "application/json",
                       **{k: v for k, v in request.headers.items() if k.lower() == "authorization"}}
            async with session.post(f"{self.forward_to}{request.path}", data=body,
                                    headers=headers) as upstream:
                response = web.StreamResponse(status=upstream.status, headers={
                    "content-type": upstream.headers.get("content-type", "application/json")})
                await response.prepare(request)
                answer = bytearray()
                async for data in upstream.content.iter_any():
                    answer += data
                    await response.write(data)
                self.answered.append(bytes(answer))
                await response.write_eof()
                return response
