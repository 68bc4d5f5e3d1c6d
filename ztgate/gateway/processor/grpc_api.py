"""One inference call through the gateway: its prompt scrubbed on the way in, its answer on the way out.

The protocol-free part (no grpc import; ext_proc.py is the servicer): gRPC framing over body chunks
split anywhere (`FrameReader`), the request checked against the limits and scrubbed in a fresh session
(`InferenceExchange.request_body`), the answer scrubbed and restored with a held tail
(`response_body`), in a worker thread so the event loop keeps serving. Fields the gateway does not know
and `token_ids` are dropped: they could carry unscrubbed text. Details: docs/architecture.md
("Module notes").
"""

from __future__ import annotations

import logging
import math
import struct
import zlib
from dataclasses import dataclass

from google.protobuf.message import DecodeError

from ztgate.common.errors import InvalidArgument, ZtgateError
from ztgate.common.first_token import SCORE_WAIT_MAX_S
from ztgate.gateway.processor.session import (INLINE_BODY_BYTES, MAX_MESSAGE_BYTES, CallSession,
                                              OutputFilter, finding_counts)
from ztgate.gen.inference.v1 import inference_pb2
from ztgate.inference.limits import RequestLimits
from ztgate.parts import INFERENCE_SERVICE
from ztgate.redaction.service import RedactionService

log = logging.getLogger(__name__)

_HEADER = struct.Struct(">BI")
# Method path -> whether its answer is a stream of GenerateChunk (else one GenerateResponse).
METHODS: dict[str, bool] = {
    f"/{INFERENCE_SERVICE}/Generate": False,
    f"/{INFERENCE_SERVICE}/GenerateStream": True,
}
# The hallucination score of a finished call, by request id: no text either way.
SCORE_METHOD = f"/{INFERENCE_SERVICE}/GetScore"


class BadFrame(InvalidArgument):
    """A body that is not well-formed gRPC messages of the expected type."""


class UnknownMethod(ZtgateError):
    """A path the gateway does not know how to scrub; nothing is forwarded."""

    status = "UNIMPLEMENTED"


def encode_frame(message: bytes) -> bytes:
    """A gRPC length-prefixed message (uncompressed)."""
    return _HEADER.pack(0, len(message)) + message


def _inflate(data: bytes, limit: int) -> bytes:
    """A gzip or deflate (zlib) message, inflated to at most `limit` bytes."""
    inflater = zlib.decompressobj(wbits=47)  # 32 + 15: a gzip or a zlib header, detected
    try:
        out = inflater.decompress(data, limit + 1)
    except zlib.error:
        raise BadFrame("a compressed gRPC message that is neither gzip nor deflate; the gateway "
                       "accepts identity, gzip and deflate") from None
    if len(out) > limit or inflater.unconsumed_tail:
        raise BadFrame(f"a compressed gRPC message inflates past the gateway's limit of {limit} bytes")
    if not inflater.eof:
        raise BadFrame("a compressed gRPC message is truncated")
    return out


class FrameReader:
    """Reassembles gRPC messages from body chunks that may split them (or their prefix) anywhere."""

    def __init__(self, max_message_bytes: int = MAX_MESSAGE_BYTES) -> None:
        self._buffer = bytearray()
        self._max = max_message_bytes

    @property
    def pending(self) -> int:
        """Bytes of an incomplete message held back."""
        return len(self._buffer)

    def feed(self, data: bytes) -> list[bytes]:
        """The messages completed by `data`, in order."""
        self._buffer += data
        messages: list[bytes] = []
        start = 0
        buffer = self._buffer
        while len(buffer) - start >= _HEADER.size:
            compressed, length = _HEADER.unpack_from(buffer, start)
            if length > self._max:
                raise BadFrame(f"a gRPC message of {length} bytes exceeds the gateway's limit of "
                               f"{self._max} bytes")
            end = start + _HEADER.size + length
            if end > len(buffer):
                break
            message = bytes(buffer[start + _HEADER.size:end])
            messages.append(_inflate(message, self._max) if compressed else message)
            start = end
        del buffer[:start]
        return messages

    def close(self) -> None:
        """At the end of a body: an incomplete message left over is an error."""
        if self._buffer:
            raise BadFrame(f"the body ends inside a gRPC message ({len(self._buffer)} bytes left over)")


def _one_message(body: bytes) -> bytes:
    """The one gRPC message of a request body (inflated)."""
    reader = FrameReader()
    messages = reader.feed(body)
    reader.close()
    if len(messages) != 1:
        raise BadFrame(f"expected one request message, got {len(messages)}")
    return messages[0]


def _generate_request(message: bytes) -> inference_pb2.GenerateRequest:
    """A GenerateRequest without fields this gateway does not know (they could carry unscrubbed text)."""
    request = inference_pb2.GenerateRequest()
    try:
        request.ParseFromString(message)
    except DecodeError:
        raise BadFrame("the request body is not a GenerateRequest") from None
    request.DiscardUnknownFields()
    return request


@dataclass(frozen=True, slots=True)
class RequestOutcome:
    body: bytes
    # Pseudonymised or otherwise replaced values, per entity type (counts only, never values).
    findings: dict[str, int]
    # UTF-8 bytes of the scrubbed prompt (prompt and every message's content): the work before
    # the first token.
    prompt_bytes: int = 0
    # A GetScore call: seconds it may wait for the score (clamped as the inference service does).
    score_wait_s: float | None = None


class InferenceExchange:
    """The gateway's state for one call: method, verified tenant, the call's own redaction session."""

    def __init__(self, service: RedactionService, path: str, tenant: str,
                 limits: RequestLimits | None = None) -> None:
        streaming = METHODS.get(path)
        self.scoring = path == SCORE_METHOD
        if streaming is None and not self.scoring:
            raise UnknownMethod(f"{path or '(no path)'} is not a method the gateway can scrub; "
                                f"known: {', '.join(sorted([*METHODS, SCORE_METHOD]))}")
        self.path = path
        self.streaming = bool(streaming)
        self.session = CallSession(service, tenant)
        self._limits = limits or RequestLimits()
        self._responses = FrameReader()
        self._requested = False
        self._output: OutputFilter | None = None
        self._response_type = inference_pb2.GenerateChunk if streaming else inference_pb2.GenerateResponse

    @property
    def tenant(self) -> str:
        return self.session.tenant

    async def request_body(self, body: bytes, timeout_s: float | None = None) -> RequestOutcome:
        """The whole request body (one GenerateRequest) checked, scrubbed and re-framed, within
        `timeout_s` (None: the redaction service's own analysis timeout)."""
        if self._requested:
            raise BadFrame("a second request body for one call")
        self._requested = True
        limits = self._limits
        if len(body) >= _HEADER.size:  # the size the frame declares, before anything is read
            limits.check(prompt="", contents=(), stops=(), max_tokens=None,
                         request_bytes=_HEADER.unpack_from(body)[1])
        inline = len(body) <= INLINE_BODY_BYTES and body[:1] != b"\x01"  # uncompressed and small
        raw = _one_message(body) if inline else await self.session.off_loop(_one_message, body)
        if self.scoring:
            return self._score_request(raw)
        request = _generate_request(raw) if inline else await self.session.off_loop(_generate_request, raw)
        # Stop sequences too: they reach the inference service, and scrubbed in the prompt's session
        # they become the same pseudonyms the model sees, so a stop on a name still stops.
        contents = [m.content for m in request.messages]
        stops = list(request.sampling.stop)
        limits.check(prompt=request.prompt, contents=contents, stops=stops,
                     max_tokens=request.sampling.max_tokens if request.sampling.HasField("max_tokens")
                     else None, request_bytes=len(raw))
        results = await self.session.redact([request.prompt, *contents, *stops], timeout_s)
        request.prompt = results[0].text
        for message, result in zip(request.messages, results[1:1 + len(contents)]):
            message.content = result.text
        if stops:
            request.sampling.stop[:] = [result.text for result in results[1 + len(contents):]]
        # The body's tenant and session are the client's word; the gateway's replace them.
        request.tenant = self.tenant
        request.session_id = self.session.session_id
        findings = finding_counts(results)
        prompt_bytes = sum(len(text.encode("utf-8")) for text in (request.prompt, *(
            m.content for m in request.messages)))
        encoded = request.SerializeToString() if inline else await self.session.off_loop(
            request.SerializeToString)
        return RequestOutcome(encode_frame(encoded), findings, prompt_bytes)

    def _score_request(self, message: bytes) -> RequestOutcome:
        request = inference_pb2.ScoreRequest()
        try:
            request.ParseFromString(message)
        except DecodeError:
            raise BadFrame("the request body is not a ScoreRequest") from None
        # Scores are kept per tenant: the verified one replaces whatever the body says.
        request.tenant = self.tenant
        wait = 0.0 if math.isnan(request.wait_s) else request.wait_s
        request.wait_s = min(max(wait, 0.0), SCORE_WAIT_MAX_S)
        return RequestOutcome(encode_frame(request.SerializeToString()), {},
                              score_wait_s=request.wait_s)

    async def response_body(self, chunk: bytes, end_of_stream: bool) -> bytes:
        """What to send on in place of `chunk`: the complete messages in it, rewritten (in a worker
        thread; the caller awaits each chunk before the next, which keeps the stream's order)."""
        if not self._requested:
            raise BadFrame("an answer to a call whose request was never scrubbed")
        if self.scoring:  # a score and a request id: nothing to scrub or restore
            return chunk
        return await self.session.off_loop(self._rewrite_answer, chunk, end_of_stream)

    def _rewrite_answer(self, chunk: bytes, end_of_stream: bool) -> bytes:
        out: list[bytes] = []
        for raw in self._responses.feed(chunk):
            message = self._response_type()
            try:
                message.ParseFromString(raw)
            except DecodeError:
                raise BadFrame(f"the answer is not a {self._response_type.__name__}") from None
            if self.streaming:
                if self._output is None:
                    self._output = self.session.output_filter()
                text = self._output.feed(message.text)
                if message.finish_reason:  # the last chunk: flush everything held back
                    text += self._output.finish()
                    self._output = None
            else:
                text = self.session.output_filter().whole(message.text)
            message.text = text
            del message.token_ids[:]
            out.append(encode_frame(message.SerializeToString()))
        if end_of_stream:
            self._responses.close()
            if self._output is not None:  # a stream that ended without its last chunk
                tail = self._output.finish()
                self._output = None
                if tail:
                    out.append(encode_frame(inference_pb2.GenerateChunk(text=tail).SerializeToString()))
        return b"".join(out)

    def close(self) -> None:
        """The call is over: the session's originals leave memory now rather than at expiry."""
        self.session.close()
