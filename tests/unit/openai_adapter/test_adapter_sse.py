"""The adapter's HTTP side, read by the official `openai` package: unary answers and SSE streams in
OpenAI's exact shape (role first, content deltas, finish_reason, usage chunk, `data: [DONE]`),
ztgate's figures in `x-ztgate-*` headers and the `ztgate` field, errors in OpenAI's shape.

The Inference service here is `ScriptedInference`, a TEST DOUBLE (no model, no gateway) that
records each GenerateRequest and answers scripted chunks or a scripted gRPC error; the adapter's
HTTP server, framing and mapping are the real ones.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import grpc
import openai
import pytest
from aiohttp.test_utils import TestServer
from hypothesis import given, settings
from hypothesis import strategies as st

from ztgate.gen.inference.v1 import inference_pb2 as pb
from ztgate.inference.limits import RequestLimits
from ztgate.openai_adapter import mapping
from ztgate.openai_adapter.server import Adapter

MODEL = "SmolLM2-135M-Instruct"
SPEC = pb.SpeculativeStats(method="ngram", num_speculative_tokens=4, draft_tokens=10,
                           accepted_tokens=6, acceptance_rate=0.6, mean_acceptance_length=2.5)


class RpcError(grpc.aio.AioRpcError):
    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(code, grpc.aio.Metadata(), grpc.aio.Metadata(), details)


class Call:
    """What GenerateStream returns: an async iterator that may fail, and cancel()."""

    def __init__(self, chunks: list[pb.GenerateChunk], error: RpcError | None, fail_after: int) -> None:
        self.chunks, self.error, self.fail_after, self.cancelled = chunks, error, fail_after, False

    async def _gen(self) -> AsyncIterator[pb.GenerateChunk]:
        for i, chunk in enumerate(self.chunks):
            if self.error is not None and i == self.fail_after:
                raise self.error
            yield chunk
        if self.error is not None and self.fail_after >= len(self.chunks):
            raise self.error

    def __aiter__(self) -> AsyncIterator[pb.GenerateChunk]:
        return self._gen()

    async def initial_metadata(self) -> tuple:
        return (("x-ztgate-served-by", "fallback"),)

    def cancel(self) -> bool:
        self.cancelled = True
        return True


class ScriptedInference:
    """TEST DOUBLE of the Inference stub: records requests and metadata, answers the script."""

    def __init__(self, text: str = "Hello there", pieces: int = 3) -> None:
        self.requests: list[pb.GenerateRequest] = []
        self.metadata: list[tuple] = []
        self.text, self.pieces = text, pieces
        self.error: RpcError | None = None
        self.fail_after = 0

    def _final(self) -> dict:
        return dict(finish_reason="length", usage=pb.Usage(prompt_tokens=5, completion_tokens=3),
                    speculative=SPEC, model=MODEL, served_by="fallback", request_id="r-42")

    async def Generate(self, request, timeout=None, metadata=()):  # noqa: N802 - gRPC's name
        self.requests.append(request)
        self.metadata.append(metadata)
        if self.error is not None:
            raise self.error
        return pb.GenerateResponse(text=self.text, **self._final())

    def GenerateStream(self, request, timeout=None, metadata=()):  # noqa: N802
        self.requests.append(request)
        self.metadata.append(metadata)
        step = max(1, -(-len(self.text) // self.pieces))
        parts = [self.text[i:i + step] for i in range(0, len(self.text), step)]
        chunks = [pb.GenerateChunk(text=p, model=MODEL, request_id="r-42")
                  for p in parts]
        chunks.append(pb.GenerateChunk(**self._final()))
        self.call = Call(chunks, self.error, self.fail_after)
        return self.call


@pytest.fixture
async def served() -> AsyncIterator[tuple[ScriptedInference, str]]:
    stub = ScriptedInference()
    server = TestServer(Adapter(stub, MODEL, RequestLimits(), 30.0).app(), host="127.0.0.1")
    await server.start_server()
    try:
        yield stub, f"http://127.0.0.1:{server.port}/v1"
    finally:
        await server.close()


def _client(base: str) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(base_url=base, api_key="tok", max_retries=0, timeout=10)


async def test_a_unary_chat_answer_is_openais_with_ztgates_figures(served) -> None:
    stub, base = served
    raw = await _client(base).chat.completions.with_raw_response.create(
        model=MODEL, messages=[{"role": "user", "content": "hi"}], max_tokens=3, temperature=0, seed=7)
    answer = raw.parse()
    assert answer.object == "chat.completion" and answer.id == "chatcmpl-r-42"
    assert answer.model == MODEL and answer.created > 0
    assert answer.choices[0].message.content == "Hello there"
    assert answer.choices[0].finish_reason == "length"
    assert (answer.usage.prompt_tokens, answer.usage.completion_tokens, answer.usage.total_tokens) == (5, 3, 8)
    assert raw.headers["x-ztgate-served-by"] == "fallback"
    assert raw.headers["x-ztgate-speculative-method"] == "ngram"
    assert raw.headers["x-ztgate-speculative-acceptance-rate"] == "0.6000"
    assert answer.model_extra["ztgate"]["speculative"]["accepted_tokens"] == 6
    sent = stub.requests[0].sampling
    assert (sent.max_tokens, sent.temperature, sent.seed) == (3, 0.0, 7)
    # The caller's token goes on to the gateway's gRPC route (its tenant and scopes decide there).
    assert ("authorization", "Bearer tok") in stub.metadata[0]


async def test_a_streamed_chat_is_openais_chunks_ending_in_done(served) -> None:
    _, base = served
    stream = await _client(base).chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "hi"}], stream=True,
        stream_options={"include_usage": True})
    chunks = [c async for c in stream]
    assert chunks[0].choices[0].delta.role == "assistant"
    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == "Hello there"
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "length"
    assert chunks[-1].choices == [] and chunks[-1].usage.total_tokens == 8
    assert {c.id for c in chunks} == {"chatcmpl-r-42"}
    assert all(c.object == "chat.completion.chunk" for c in chunks)


async def test_a_streamed_completion_and_its_raw_framing(served) -> None:
    _, base = served
    import aiohttp

    async with aiohttp.ClientSession() as session:
        async with session.post(f"{base}/completions", json={
                "model": MODEL, "prompt": "hi", "stream": True}) as response:
            assert response.status == 200
            assert response.headers["content-type"].startswith("text/event-stream")
            assert response.headers["x-ztgate-served-by"] == "fallback"
            body = await response.read()
    events = body.split(b"\n\n")
    assert events[-1] == b"" and events[-2] == b"data: [DONE]"
    payloads = [json.loads(e[len(b"data: "):]) for e in events[:-2]]
    assert all(e.startswith(b"data: ") for e in events[:-1])
    assert "".join(p["choices"][0]["text"] for p in payloads) == "Hello there"
    assert payloads[-1]["choices"][0]["finish_reason"] == "length"
    assert payloads[-1]["ztgate"]["served_by"] == "fallback"
    assert {p["object"] for p in payloads} == {"text_completion"}


@pytest.mark.parametrize(("code", "status", "kind"), [
    (grpc.StatusCode.INVALID_ARGUMENT, 400, openai.BadRequestError),
    (grpc.StatusCode.UNAUTHENTICATED, 401, openai.AuthenticationError),
    (grpc.StatusCode.PERMISSION_DENIED, 403, openai.PermissionDeniedError),
    (grpc.StatusCode.RESOURCE_EXHAUSTED, 429, openai.RateLimitError),
    (grpc.StatusCode.UNAVAILABLE, 503, openai.InternalServerError),
])
async def test_a_refused_call_is_an_openai_error_before_and_during_a_stream(served, code, status, kind) -> None:
    stub, base = served
    stub.error = RpcError(code, "max_tokens is 9; the limit is 8 (limits.max_output_tokens)")
    client = _client(base)
    with pytest.raises(kind) as caught:
        await client.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": "hi"}])
    assert caught.value.status_code == status and "limits.max_output_tokens" in caught.value.message
    if status == 429:
        assert caught.value.response.headers["retry-after"] == "1"
    with pytest.raises(kind):  # before the first chunk: still a status, not a 200
        await client.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": "hi"}],
                                             stream=True)
    stub.fail_after = 2  # after it: an error event, no [DONE]
    stream = await client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "hi"}], stream=True)
    with pytest.raises(openai.APIError, match="limits.max_output_tokens"):
        async for _ in stream:
            pass
    assert stub.call.cancelled


async def test_bad_requests_are_openai_400s_naming_the_field_and_never_reach_the_service(served) -> None:
    stub, base = served
    client = _client(base)
    with pytest.raises(openai.BadRequestError) as caught:
        await client.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": "hi"}], n=2)
    assert caught.value.body["param"] == "n"
    with pytest.raises(openai.NotFoundError):
        await client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "hi"}])
    import aiohttp

    async with aiohttp.ClientSession() as session:
        async with session.post(f"{base}/chat/completions", data=b"{not json") as response:
            assert response.status == 400
            assert (await response.json())["error"]["code"] == "invalid_json"
        big = b"x" * (RequestLimits().max_request_bytes + 1)
        async with session.post(f"{base}/chat/completions", data=big) as response:
            assert response.status == 413
            assert "limits.max_request_bytes" in (await response.json())["error"]["message"]
    assert stub.requests == []


@settings(max_examples=100, deadline=None)
@given(texts=st.lists(st.text(max_size=12), max_size=6), usage=st.booleans(),
       kind=st.sampled_from([mapping.CHAT, mapping.COMPLETION]))
def test_sse_framing_carries_any_text_exactly(texts: list[str], usage: bool, kind: str) -> None:
    """Whatever the text (newlines, `data:`, blank lines, non-ASCII), each event is one `data:` line
    and the deltas join to the text."""
    shaper = mapping.ChunkShaper(kind, MODEL, "id", 1, usage)
    chunks = [pb.GenerateChunk(text=t) for t in texts] + [pb.GenerateChunk(finish_reason="stop")]
    framed = b"".join(e for c in chunks for e in shaper.events(c)) + mapping.DONE
    events = framed.split(b"\n\n")
    assert events[-1] == b"" and events[-2] == b"data: [DONE]"
    payloads = [json.loads(e.removeprefix(b"data: ")) for e in events[:-2]]
    assert all(e.startswith(b"data: ") and b"\n" not in e for e in events[:-1])
    joined = "".join((p["choices"][0]["delta"].get("content", "") if kind == mapping.CHAT
                      else p["choices"][0]["text"]) for p in payloads if p["choices"])
    assert joined == "".join(texts)
    assert [p["choices"][0]["finish_reason"] for p in payloads if p["choices"]][-1] == "stop"
    assert (payloads[-1]["choices"] == []) == usage
