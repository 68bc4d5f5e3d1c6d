"""One OpenAI-compatible call through the gateway (`/v1/chat/completions`, `/v1/completions`).

The protocol-free part of the HTTP door (no grpc import; ext_proc.py drives it), the JSON twin of
`exchange.InferenceExchange`:

- `OpenAIExchange.request_body` parses the whole JSON body (Envoy buffers it, up to
  `limits.max_request_bytes`), checks it against the request limits before any redaction work,
  and scrubs, in one fresh redaction session of the verified tenant, every text the model reads:
  `messages[].content` (a string, or the array-of-parts form whose `text` parts are scrubbed and
  whose other parts are refused, or passed on unread with `gateway.openai_non_text_parts: pass`),
  `messages[].tool_calls[].function.arguments` and `function_call.arguments`, tool results (a
  `tool` message's content), `prompt` (a string or a list of strings; token-id prompts cannot be
  scrubbed and are refused), `suffix`, `stop` and `user`. Fields it does not know pass unchanged.
  It also reports the request's `model`, which the gateway puts in `MODEL_HEADER` for Envoy to
  route on (with the route cache cleared), and the scrubbed prompt's size (the per-try timeout).
- `OpenAIExchange.response_headers` / `response_body` scrub the answer and put the session's
  pseudonyms back: a JSON answer (or error) is read whole (`choices[].message.content`,
  `choices[].text`, tool-call arguments, `refusal`, `error.message`); a server-sent-event stream
  (`text/event-stream`) is reassembled from body chunks split anywhere (`SseReader`) and every
  choice's `delta.content` / `text` / tool-call arguments goes through its own `OutputFilter`,
  the gRPC stream's scrubber, so a value split across events is caught and a placeholder split
  across events is restored. What a filter holds goes out with the choice's `finish_reason`, or
  in an event of its own before `[DONE]` or at the end of the body.

Bounded cost: one JSON parse of a request at most `limits.max_request_bytes`; an SSE event or a
JSON answer of at most `exchange.MAX_MESSAGE_BYTES` (else the call fails closed); the scrubbers
are linear in the text (ztgate/redaction/streaming.py).
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from ztgate.common.errors import InvalidArgument, NotFound, ZtgateError
from ztgate.inference.limits import RequestLimits, RequestTooLarge
from ztgate.redaction.exchange import (INLINE_BODY_BYTES, MAX_MESSAGE_BYTES, OutputFilter,
                                         PlaceholderRestorer)
from ztgate.redaction.service import RedactionService

T = TypeVar("T")
# Paths of the HTTP door, and the GenAI operation each one is (gen_ai.operation.name).
CHAT_PATH = "/v1/chat/completions"
COMPLETIONS_PATH = "/v1/completions"
OPERATIONS: dict[str, str] = {CHAT_PATH: "chat", COMPLETIONS_PATH: "text_completion"}
OPENAI_PREFIX = "/v1/"
# Set by the gateway from the body's `model` (clients' copies are dropped before any filter);
# Envoy routes on it once the body is scrubbed.
MODEL_HEADER = "x-ztgate-openai-model"
# Longest `model` accepted: it becomes a header value.
MAX_MODEL_CHARS = 256
# Content part types that carry text the model reads, and the key that holds it.
TEXT_PARTS = {"text": "text", "refusal": "refusal"}
NON_TEXT_PARTS_SETTING = "gateway.openai_non_text_parts"


class OpenAIRequestError(InvalidArgument):
    """A malformed body or field (HTTP 400); `param` names the field."""

    def __init__(self, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.param = param


class UnknownRoute(NotFound):
    """A path under /v1/ the gateway does not serve (HTTP 404)."""


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


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Texts:
    """The request's strings to scrub, each with where to put its scrubbed form back."""

    def __init__(self) -> None:
        self.values: list[str] = []
        self._setters: list[Callable[[str], None]] = []

    def add(self, container: dict | list, key: Any) -> None:
        self.values.append(container[key])

        def put(text: str) -> None:
            container[key] = text
        self._setters.append(put)

    def put_back(self, texts: list[str]) -> None:
        for setter, text in zip(self._setters, texts):
            setter(text)


def _string(value: object, param: str) -> str:
    if not isinstance(value, str):
        raise OpenAIRequestError(f"`{param}` must be a string, not {_kind(value)}", param)
    return value


def _kind(value: object) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
            type(None): "null"}.get(type(value), "a number")


@dataclass(frozen=True, slots=True)
class _Parsed:
    payload: dict
    texts: _Texts
    # Per chat message (or per prompt), its texts' characters joined: what the limits count.
    contents: list[str]
    prompt: str
    stops: list[str]
    max_tokens: int | None
    model: str


class OpenAIExchange:
    """The gateway's state for one OpenAI-compatible call (the twin of `InferenceExchange`)."""

    def __init__(self, service: RedactionService, path: str, tenant: str,
                 limits: RequestLimits | None = None, *, pass_non_text_parts: bool = False) -> None:
        path = path.split("?", 1)[0]
        if path not in OPERATIONS:
            raise UnknownRoute(f"{path or '(no path)'} is not served by the gateway; it serves "
                               f"POST {CHAT_PATH}, POST {COMPLETIONS_PATH} and GET /v1/models")
        self.path = path
        self.operation = OPERATIONS[path]
        self.tenant = tenant
        self.session_id = uuid.uuid4().hex
        self.streaming = False  # the answer is SSE (decided by its content-type)
        self._service = service
        self._limits = limits or RequestLimits()
        self._pass_non_text = pass_non_text_parts
        self._requested = False
        self._answer: _WholeAnswer | _SseAnswer | None = None
        self.model = ""
        self.sent_at: float | None = None  # time.perf_counter() when the scrubbed body went on

    # ---- request -------------------------------------------------------------------------

    def _parse(self, body: bytes) -> _Parsed:
        try:
            payload = self._limits.load_json(body)  # depth and value count bounded first
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise OpenAIRequestError(f"the request body is not valid JSON ({exc.__class__.__name__} "
                                     f"at byte {getattr(exc, 'pos', getattr(exc, 'start', 0))})") from None
        except RecursionError:
            raise OpenAIRequestError("the request body nests too deeply") from None
        if not isinstance(payload, dict):
            raise OpenAIRequestError(f"the request body must be a JSON object, not {_kind(payload)}")
        model = payload.get("model")
        if not isinstance(model, str) or not model:
            raise OpenAIRequestError("`model` is required: a non-empty string naming the model", "model")
        if len(model) > MAX_MODEL_CHARS or not model.isprintable() or not model.isascii():
            raise OpenAIRequestError(f"`model` must be at most {MAX_MODEL_CHARS} printable ASCII "
                                     "characters", "model")
        if "stream" in payload and not isinstance(payload["stream"], (bool, type(None))):
            raise OpenAIRequestError("`stream` must be a boolean", "stream")
        texts = _Texts()
        contents: list[str] = []
        prompt = ""
        if self.path == CHAT_PATH:
            contents = self._messages(payload, texts)
        else:
            prompt = self._prompt(payload, texts)
        stops = self._stops(payload, texts)
        for key in ("user", "suffix"):
            if payload.get(key) is not None:
                _string(payload[key], key)
                texts.add(payload, key)
        max_tokens = None
        for key in ("max_tokens", "max_completion_tokens"):
            value = payload.get(key)
            if value is None:
                continue
            if not _is_int(value) or value < 1:
                raise OpenAIRequestError(f"`{key}` must be a positive integer", key)
            max_tokens = max(max_tokens or 0, value)
        return _Parsed(payload, texts, contents, prompt, stops, max_tokens, model)

    def _messages(self, payload: dict, texts: _Texts) -> list[str]:
        messages = payload.get("messages")
        if not isinstance(messages, list) or not messages:
            raise OpenAIRequestError("`messages` is required: a non-empty array of messages", "messages")
        if len(messages) > self._limits.max_messages:
            raise RequestTooLarge(f"the request has {len(messages)} messages; the limit is "
                                  f"{self._limits.max_messages} (limits.max_messages): send fewer turns")
        contents = []
        for i, message in enumerate(messages):
            where = f"messages[{i}]"
            if not isinstance(message, dict):
                raise OpenAIRequestError(f"`{where}` must be an object, not {_kind(message)}", where)
            _string(message.get("role"), f"{where}.role")
            start = len(texts.values)
            content = message.get("content")
            if isinstance(content, str):
                texts.add(message, "content")
            elif isinstance(content, list):
                self._parts(content, f"{where}.content", texts)
            elif content is not None:
                raise OpenAIRequestError(f"`{where}.content` must be a string, an array of parts "
                                         f"or null, not {_kind(content)}", f"{where}.content")
            if message.get("refusal") is not None:
                _string(message["refusal"], f"{where}.refusal")
                texts.add(message, "refusal")
            self._calls(message, where, texts)
            contents.append("".join(texts.values[start:]))
        return contents

    def _parts(self, parts: list, where: str, texts: _Texts) -> None:
        for j, part in enumerate(parts):
            here = f"{where}[{j}]"
            if not isinstance(part, dict):
                raise OpenAIRequestError(f"`{here}` must be an object, not {_kind(part)}", here)
            kind = _string(part.get("type"), f"{here}.type")
            key = TEXT_PARTS.get(kind)
            if key is not None:
                _string(part.get(key), f"{here}.{key}")
                texts.add(part, key)
            elif not self._pass_non_text:
                raise OpenAIRequestError(
                    f"`{here}` is a `{kind}` part, which the gateway cannot scrub: send text parts "
                    f"only, or set {NON_TEXT_PARTS_SETTING}: pass to let such parts through unread",
                    f"{here}.type")

    def _calls(self, message: dict, where: str, texts: _Texts) -> None:
        calls = message.get("tool_calls")
        if calls is not None:
            if not isinstance(calls, list):
                raise OpenAIRequestError(f"`{where}.tool_calls` must be an array", f"{where}.tool_calls")
            for k, call in enumerate(calls):
                here = f"{where}.tool_calls[{k}]"
                function = call.get("function") if isinstance(call, dict) else None
                if not isinstance(function, dict):
                    raise OpenAIRequestError(f"`{here}.function` must be an object", f"{here}.function")
                if function.get("arguments") is not None:
                    _string(function["arguments"], f"{here}.function.arguments")
                    texts.add(function, "arguments")
        legacy = message.get("function_call")
        if isinstance(legacy, dict) and legacy.get("arguments") is not None:
            _string(legacy["arguments"], f"{where}.function_call.arguments")
            texts.add(legacy, "arguments")

    def _prompt(self, payload: dict, texts: _Texts) -> str:
        prompt = payload.get("prompt")
        if isinstance(prompt, str):
            texts.add(payload, "prompt")
            return prompt
        if isinstance(prompt, list) and prompt and all(isinstance(p, str) for p in prompt):
            if len(prompt) > self._limits.max_messages:
                raise RequestTooLarge(f"the request has {len(prompt)} prompts; the limit is "
                                      f"{self._limits.max_messages} (limits.max_messages)")
            for i in range(len(prompt)):
                texts.add(prompt, i)
            return "".join(prompt)
        raise OpenAIRequestError("`prompt` is required: a string or a non-empty array of strings "
                                 "(token-id prompts cannot be scrubbed, so the gateway refuses them)",
                                 "prompt")

    def _stops(self, payload: dict, texts: _Texts) -> list[str]:
        stop = payload.get("stop")
        if stop is None:
            return []
        if isinstance(stop, str):
            texts.add(payload, "stop")
            return [stop]
        if isinstance(stop, list) and all(isinstance(s, str) for s in stop):
            for i in range(len(stop)):
                texts.add(stop, i)
            return list(stop)
        raise OpenAIRequestError("`stop` must be a string or an array of strings", "stop")

    async def request_body(self, body: bytes, timeout_s: float | None = None) -> OpenAIOutcome:
        """The whole JSON body checked, scrubbed and re-encoded within `timeout_s`."""
        if self._requested:
            raise OpenAIRequestError("a second request body for one call")
        self._requested = True
        limits = self._limits
        limits.check(prompt="", contents=(), stops=(), max_tokens=None, request_bytes=len(body))
        inline = len(body) <= INLINE_BODY_BYTES
        parsed = self._parse(body) if inline else await self._off_loop(self._parse, body)
        limits.check(prompt=parsed.prompt, contents=parsed.contents, stops=parsed.stops,
                     max_tokens=parsed.max_tokens, request_bytes=len(body))
        results = await self._service.redact_many(parsed.texts.values, tenant=self.tenant,
                                                  session_id=self.session_id, timeout_s=timeout_s)
        scrubbed = [r.text for r in results]
        parsed.texts.put_back(scrubbed)
        findings: dict[str, int] = {}
        for result in results:
            for finding in result.findings:
                findings[finding.entity_type] = findings.get(finding.entity_type, 0) + 1
        prompt_bytes = sum(len(t.encode("utf-8")) for t in scrubbed)

        def encode() -> bytes:
            return json.dumps(parsed.payload, ensure_ascii=False, separators=(",", ":")).encode()
        data = encode() if inline else await self._off_loop(encode)
        self.model = parsed.model
        self.sent_at = time.perf_counter()
        return OpenAIOutcome(data, findings, prompt_bytes, parsed.model,
                             stream=parsed.payload.get("stream") is True)

    # ---- answer --------------------------------------------------------------------------

    async def _off_loop(self, fn: Callable[..., T], *args: object) -> T:
        """`fn(*args)` in a worker thread, within this call's tenant's share (service.off_loop)."""
        return await self._service.off_loop(self.tenant, fn, *args)

    def _filter(self) -> OutputFilter:
        return OutputFilter(
            self._service.open_output_stream(tenant=self.tenant, session_id=self.session_id),
            PlaceholderRestorer(self._service, self.tenant, self.session_id))

    def response_headers(self, content_type: str, content_encoding: str = "") -> None:
        """The answer's content-type decides how its body is read: SSE events, or one JSON text.
        A compressed answer cannot be read, so it fails the call (the gateway asks for none)."""
        if not self._requested:
            raise OpenAIRequestError("an answer to a call whose request was never scrubbed")
        if content_encoding.strip().lower() not in ("", "identity"):
            raise _BadAnswer(f"the upstream answered with content-encoding {content_encoding[:32]!r}, "
                             "which the gateway cannot scrub; nothing of it was passed on")
        self.streaming = content_type.split(";", 1)[0].strip().lower() == "text/event-stream"
        self._answer = _SseAnswer(self._filter) if self.streaming else _WholeAnswer(self._filter)

    async def response_body(self, chunk: bytes, end_of_stream: bool) -> bytes:
        """What to send on in place of `chunk` (in a worker thread, one chunk after the other)."""
        if self._answer is None:
            raise OpenAIRequestError("an answer body before its headers")
        return await self._off_loop(self._answer.feed, chunk, end_of_stream)

    @property
    def stats(self) -> AnswerStats | None:
        """The answer's stats, once its headers came (None before)."""
        return self._answer.stats if self._answer is not None else None

    def close(self) -> None:
        self._service.vault.forget(self.tenant, self.session_id)


class _BadAnswer(ZtgateError):
    """The upstream's answer cannot be read; the call fails rather than pass it on unscrubbed."""

    status = "INTERNAL"


def _rewrite_whole(payload: object, make: Callable[[], OutputFilter]) -> None:
    """A JSON answer's texts scrubbed and restored, in place."""
    if not isinstance(payload, dict):
        return

    def scrub(container: dict, key: str) -> None:
        if isinstance(container.get(key), str):
            container[key] = make().whole(container[key])
    error = payload.get("error")
    if isinstance(error, dict):
        scrub(error, "message")
    elif isinstance(error, str):
        scrub(payload, "error")
    for choice in payload.get("choices") or ():
        if not isinstance(choice, dict):
            continue
        scrub(choice, "text")
        message = choice.get("message")
        if isinstance(message, dict):
            scrub(message, "content")
            scrub(message, "refusal")
            scrub(message, "reasoning_content")
            for call in message.get("tool_calls") or ():
                if isinstance(call, dict) and isinstance(call.get("function"), dict):
                    scrub(call["function"], "arguments")


@dataclass
class AnswerStats:
    """What the door's GenAI metrics need of an answer (counts and times; never its text)."""

    first_text_at: float | None = None  # time.perf_counter() of its first text
    usage: dict | None = None  # the upstream's `usage`, if it sent one


def _note_usage(stats: AnswerStats, payload: dict) -> None:
    usage = payload.get("usage")
    if isinstance(usage, dict):
        stats.usage = {k: v for k, v in usage.items() if k in ("prompt_tokens", "completion_tokens")
                       and _is_int(v)}


class _WholeAnswer:
    """A JSON answer (or any answer not SSE), held until its end and rewritten at once."""

    def __init__(self, make: Callable[[], OutputFilter]) -> None:
        self._make = make
        self._body = bytearray()
        self.stats = AnswerStats()

    def feed(self, chunk: bytes, end_of_stream: bool) -> bytes:
        self._body += chunk
        if len(self._body) > MAX_MESSAGE_BYTES:
            raise _BadAnswer(f"the answer is over {MAX_MESSAGE_BYTES} bytes; nothing more is sent")
        if not end_of_stream:
            return b""
        raw = bytes(self._body)
        self._body.clear()
        try:
            payload = json.loads(raw)
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            # Not JSON (a proxy's error page): scrubbed as one text.
            return self._make().whole(raw.decode("utf-8", "replace")).encode()
        _rewrite_whole(payload, self._make)
        if isinstance(payload, dict):
            self.stats.first_text_at = time.perf_counter()
            _note_usage(self.stats, payload)
        return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()


class SseReader:
    """Server-sent events from body chunks split anywhere (within a line, a CRLF, a UTF-8
    character): `feed` returns the events completed so far, each as its lines (no line ending)."""

    def __init__(self, max_event_bytes: int = MAX_MESSAGE_BYTES) -> None:
        self._buffer = bytearray()
        self._lines: list[str] = []
        self._size = 0
        self._max = max_event_bytes

    def feed(self, data: bytes, end: bool = False) -> list[list[str]]:
        self._buffer += data
        events: list[list[str]] = []
        buffer = self._buffer
        start = 0
        while True:
            lf, cr = buffer.find(b"\n", start), buffer.find(b"\r", start)
            ends = [i for i in (lf, cr) if i != -1]
            if not ends:
                break
            stop = min(ends)
            width = 1
            if buffer[stop] == 0x0D:
                if stop + 1 == len(buffer) and not end:
                    break  # a CR at the end of a chunk may be the first half of CRLF
                if stop + 1 < len(buffer) and buffer[stop + 1] == 0x0A:
                    width = 2
            line = bytes(buffer[start:stop]).decode("utf-8", "replace")
            start = stop + width
            if line:
                self._size += len(line)
                if self._size > self._max:
                    raise _BadAnswer(f"an event of the answer stream is over {self._max} bytes")
                self._lines.append(line)
            elif self._lines:
                events.append(self._lines)
                self._lines, self._size = [], 0
        del buffer[:start]
        if len(buffer) > self._max:
            raise _BadAnswer(f"a line of the answer stream is over {self._max} bytes")
        return events

    def finish(self) -> list[list[str]]:
        """At the end of the body: the last event even without its blank line."""
        events = self.feed(b"\n", end=True) if self._buffer else []
        if self._lines:
            events.append(self._lines)
            self._lines, self._size = [], 0
        return events


def _data(lines: list[str]) -> tuple[list[str], str | None]:
    """An event's other lines (kept as they are), and its data (None without a data field)."""
    others, data = [], []
    for line in lines:
        if line.startswith("data:"):
            value = line[5:]
            data.append(value[1:] if value.startswith(" ") else value)
        elif not line.startswith(":"):  # comments are dropped
            others.append(line)
    return others, "\n".join(data) if data else None


def _event(others: list[str], data: str) -> bytes:
    return ("".join(f"{line}\n" for line in others) + f"data: {data}\n\n").encode()


class _SseAnswer:
    """A streamed answer: every choice's texts through their own filters, across events."""

    def __init__(self, make: Callable[[], OutputFilter]) -> None:
        self._make = make
        self._reader = SseReader()
        # (choice index, field) -> its filter; field is "content", "text", "refusal" or a tool
        # call's index.
        self._filters: dict[tuple[int, object], OutputFilter] = {}
        self._last: dict[str, object] = {}  # id, model, object, created of the last chunk
        self.stats = AnswerStats()

    def feed(self, chunk: bytes, end_of_stream: bool) -> bytes:
        events = self._reader.feed(chunk)
        if end_of_stream:
            events += self._reader.finish()
        out = [self._rewrite(lines) for lines in events]
        if end_of_stream:
            out.append(self._flush_all())
        return b"".join(out)

    def _through(self, key: tuple[int, object], text: str) -> str:
        if text and self.stats.first_text_at is None:
            self.stats.first_text_at = time.perf_counter()
        flt = self._filters.get(key)
        if flt is None:
            flt = self._filters[key] = self._make()
        return flt.feed(text)

    def _rewrite(self, lines: list[str]) -> bytes:
        others, data = _data(lines)
        if data is None:
            return "".join(f"{line}\n" for line in others).encode() + b"\n" if others else b""
        if data.strip() == "[DONE]":
            return self._flush_all() + _event(others, "[DONE]")
        try:
            payload = json.loads(data)
        except (json.JSONDecodeError, RecursionError):
            raise _BadAnswer("an event of the answer stream is not JSON; the stream is cut rather "
                             "than passed on unscrubbed") from None
        if isinstance(payload, dict):
            self._rewrite_chunk(payload)
        return _event(others, json.dumps(payload, ensure_ascii=False, separators=(",", ":")))

    def _rewrite_chunk(self, payload: dict) -> None:
        for key in ("id", "model", "object", "created"):
            if key in payload:
                self._last[key] = payload[key]
        _note_usage(self.stats, payload)
        error = payload.get("error")
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            error["message"] = self._make().whole(error["message"])
        for position, choice in enumerate(payload.get("choices") or ()):
            if not isinstance(choice, dict):
                continue
            index = choice.get("index", position)
            index = index if _is_int(index) else position
            if isinstance(choice.get("text"), str):
                choice["text"] = self._through((index, "text"), choice["text"])
            delta = choice.get("delta")
            if isinstance(delta, dict):
                for field in ("content", "refusal", "reasoning_content"):
                    if isinstance(delta.get(field), str):
                        delta[field] = self._through((index, field), delta[field])
                for position2, call in enumerate(delta.get("tool_calls") or ()):
                    function = call.get("function") if isinstance(call, dict) else None
                    if isinstance(function, dict) and isinstance(function.get("arguments"), str):
                        slot = call.get("index", position2)
                        function["arguments"] = self._through((index, ("tool", slot)),
                                                              function["arguments"])
            if choice.get("finish_reason"):
                self._flush_choice(index, choice)

    def _flush_choice(self, index: int, choice: dict) -> None:
        """A choice finished: what its filters hold goes out in this event."""
        for key in [k for k in self._filters if k[0] == index]:
            tail = self._filters.pop(key).finish()
            if not tail:
                continue
            field = key[1]
            if field == "text":
                choice["text"] = (choice.get("text") or "") + tail
                continue
            delta = choice.setdefault("delta", {})
            if not isinstance(delta, dict):
                delta = choice["delta"] = {}
            if isinstance(field, tuple):
                delta.setdefault("tool_calls", []).append(
                    {"index": field[1], "function": {"arguments": tail}})
            else:
                delta[field] = (delta.get(field) or "") + tail

    def _flush_all(self) -> bytes:
        """Choices that never finished: their held text, scrubbed, in one event of its own."""
        if not self._filters:
            return b""
        choices: dict[int, dict] = {}
        for index in sorted({k[0] for k in self._filters}):
            choice: dict[str, object] = {"index": index}
            self._flush_choice(index, choice)
            if "text" in choice or "delta" in choice:
                choices[index] = choice
        if not choices:
            return b""
        payload = {**self._last, "choices": list(choices.values())}
        return _event([], json.dumps(payload, ensure_ascii=False, separators=(",", ":")))
