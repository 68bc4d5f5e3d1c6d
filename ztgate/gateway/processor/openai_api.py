"""One OpenAI-compatible call through the gateway (`/v1/chat/completions`, `/v1/completions`).

The protocol-free part of the HTTP door (no grpc import; ext_proc.py drives it), the JSON twin of
`grpc_api.InferenceExchange`: the request is checked against its route's schema and the limits before
any redaction work, every text the schema found is scrubbed in one session, and the `model` is
reported for Envoy to route on; the answer goes through openai_answers.py. Bounded cost: one parse and
one walk of at most `limits.max_request_bytes`. Details: docs/architecture.md ("Module notes").
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from ztgate.gateway.processor.openai_answers import AnswerStats, SseAnswer, WholeAnswer
from ztgate.gateway.processor.session import INLINE_BODY_BYTES, CallSession, finding_counts
from ztgate.inference.limits import RequestLimits, RequestTooLarge, utf8_length
from ztgate.protocols.openai.errors import AnswerUnreadable, OpenAIRequestError, UnknownRoute
from ztgate.protocols.openai.fields import CHAT_PATH, COMPLETIONS_PATH, OPERATIONS, check_request
from ztgate.protocols.openai.schema import DoorOptions, Walk, parse_body
from ztgate.redaction.service import RedactionService


@dataclass(frozen=True, slots=True)
class OpenAIOutcome:
    body: bytes
    findings: dict[str, int]
    prompt_bytes: int
    model: str
    # `stream: true`: the answer's headers come before its first token, so the call gets the
    # first-token budget as its per-try timeout (a unary answer's come with its last token).
    stream: bool = False
    # Mirrors RequestOutcome, so the servicer sets the per-try timeout the same way.
    score_wait_s: None = None


@dataclass(frozen=True, slots=True)
class _Parsed:
    payload: dict
    walk: Walk


def _stops(payload: dict) -> list[str]:
    stop = payload.get("stop")
    return [stop] if isinstance(stop, str) else list(stop or ())


def _max_tokens(payload: dict) -> int | None:
    values = [payload[k] for k in ("max_tokens", "max_completion_tokens") if payload.get(k) is not None]
    return max(values) if values else None


class OpenAIExchange:
    """The gateway's state for one OpenAI-compatible call (the twin of `InferenceExchange`)."""

    def __init__(self, service: RedactionService, path: str, tenant: str,
                 limits: RequestLimits | None = None, *, options: DoorOptions | None = None) -> None:
        path = path.split("?", 1)[0]
        if path not in OPERATIONS:
            raise UnknownRoute(f"{path or '(no path)'} is not served by the gateway; it serves "
                               f"POST {CHAT_PATH}, POST {COMPLETIONS_PATH} and GET /v1/models")
        self.path = path
        self.operation = OPERATIONS[path]
        self.session = CallSession(service, tenant)
        self.streaming = False  # the answer is SSE (decided by its content-type)
        self._limits = limits or RequestLimits()
        self._options = options or DoorOptions()
        self._requested = False
        self._answer: WholeAnswer | SseAnswer | None = None
        self.model = ""
        self.sent_at: float | None = None  # time.perf_counter() when the scrubbed body went on

    @property
    def tenant(self) -> str:
        return self.session.tenant

    # ---- request -------------------------------------------------------------------------

    def _parse(self, body: bytes) -> _Parsed:
        self._limits.check_json(body)  # depth and value count bounded before any object is built
        payload = parse_body(body)
        for key, what in (("messages", "messages"), ("prompt", "prompts")):
            items = payload.get(key)
            if isinstance(items, list) and len(items) > self._limits.max_messages:
                raise RequestTooLarge(f"the request has {len(items)} {what}; the limit is "
                                      f"{self._limits.max_messages} (limits.max_messages): send fewer")
        walk = check_request(payload, self.path, self._options)
        size = utf8_length(walk.texts.values)
        if size > self._limits.max_prompt_bytes:
            raise RequestTooLarge(f"the request's texts (messages or prompt, and every other text "
                                  f"field) are {size} bytes (UTF-8); the limit is "
                                  f"{self._limits.max_prompt_bytes} bytes (limits.max_prompt_bytes): "
                                  "shorten them")
        self._limits.check(prompt="", contents=(), stops=_stops(payload),
                           max_tokens=_max_tokens(payload), request_bytes=len(body))
        return _Parsed(payload, walk)

    async def request_body(self, body: bytes, timeout_s: float | None = None) -> OpenAIOutcome:
        """The whole JSON body checked, scrubbed and re-encoded within `timeout_s`."""
        if self._requested:
            raise OpenAIRequestError("a second request body for one call")
        self._requested = True
        self._limits.check(prompt="", contents=(), stops=(), max_tokens=None, request_bytes=len(body))
        inline = len(body) <= INLINE_BODY_BYTES
        parsed = self._parse(body) if inline else await self.session.off_loop(self._parse, body)
        texts = parsed.walk.texts
        # Each distinct text once (a tool schema repeats `type`, `string`, `description` hundreds
        # of times), in order of first appearance, so pseudonyms are numbered as in the request.
        unique = list(dict.fromkeys(texts.values))
        results = await self.session.redact(unique, timeout_s)
        by_text = {text: result.text for text, result in zip(unique, results)}
        scrubbed = [by_text[text] for text in texts.values]
        texts.put_back(scrubbed)
        findings = finding_counts(results)

        def encode() -> bytes:
            return json.dumps(parsed.payload, ensure_ascii=False, separators=(",", ":")).encode()
        data = encode() if inline else await self.session.off_loop(encode)
        self.model = parsed.payload["model"]
        self.sent_at = time.perf_counter()
        return OpenAIOutcome(data, findings, utf8_length(scrubbed), self.model,
                             stream=parsed.payload.get("stream") is True)

    # ---- answer --------------------------------------------------------------------------

    def response_headers(self, content_type: str, content_encoding: str = "") -> None:
        """The answer's content-type decides how its body is read: SSE events, or one JSON text.
        A compressed answer cannot be read, so it fails the call (the gateway asks for none)."""
        if not self._requested:
            raise OpenAIRequestError("an answer to a call whose request was never scrubbed")
        if content_encoding.strip().lower() not in ("", "identity"):
            raise AnswerUnreadable(f"the upstream answered with content-encoding "
                                   f"{content_encoding[:32]!r}, which the gateway cannot scrub; "
                                   "nothing of it was passed on")
        self.streaming = content_type.split(";", 1)[0].strip().lower() == "text/event-stream"
        filters = self.session.output_filter
        self._answer = SseAnswer(filters) if self.streaming else WholeAnswer(filters)

    async def response_body(self, chunk: bytes, end_of_stream: bool) -> bytes:
        """What to send on in place of `chunk` (in a worker thread, one chunk after the other)."""
        if self._answer is None:
            raise OpenAIRequestError("an answer body before its headers")
        return await self.session.off_loop(self._answer.feed, chunk, end_of_stream)

    @property
    def stats(self) -> AnswerStats | None:
        """The answer's stats, once its headers came (None before)."""
        return self._answer.stats if self._answer is not None else None

    def close(self) -> None:
        """The call is over: the session's originals leave memory now rather than at expiry."""
        self.session.close()
