"""An OpenAI-compatible upstream's answer on its way back to the client: every text it reads is
scrubbed of secrets and has the call's pseudonyms put back, whatever field it is in.

JSON answers are read whole, every string filtered; SSE streams are reassembled across chunks, and
texts that arrive in pieces get a filter of their own across events, so split values are caught and
split placeholders restored. `logprobs` are dropped: their tokens carry pieces of pseudonyms. Cost is
bounded (`MAX_MESSAGE_BYTES`, linear filters). Details: docs/architecture.md ("Module notes").
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ztgate.protocols.openai.errors import AnswerUnreadable
from ztgate.protocols.openai.sse import SseReader, event, split_data
from ztgate.gateway.processor.session import MAX_MESSAGE_BYTES, OutputFilter

# Values of structural fields that carry no text of the model's (left as they are).
PLAIN = {"object": {"chat.completion", "chat.completion.chunk", "text_completion", "list", "error"},
         "finish_reason": {"stop", "length", "tool_calls", "content_filter", "function_call"},
         "role": {"assistant", "user", "system", "developer", "tool", "function"},
         "type": {"function", "custom", "text"}}
# Fields of a choice's delta whose text comes in pieces across events.
STREAMED = ("content", "refusal", "reasoning_content")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass
class AnswerStats:
    """What the door's GenAI metrics need of an answer (counts and times; never its text)."""

    first_text_at: float | None = None  # time.perf_counter() of its first text
    usage: dict | None = None  # the upstream's `usage`, if it sent one


def _note_usage(stats: AnswerStats, payload: object) -> None:
    usage = payload.get("usage") if isinstance(payload, dict) else None
    if isinstance(usage, dict):
        stats.usage = {k: v for k, v in usage.items() if k in ("prompt_tokens", "completion_tokens")
                       and _is_int(v)}


def _strings(root: list, done: set[tuple[int, Any]]) -> Iterator[tuple[dict | list, Any]]:
    """Every string value under `root[0]` (not keys), but those in `done` and plain values."""
    stack: list[tuple[dict | list, Any]] = [(root, 0)]
    while stack:
        container, key = stack.pop()
        value = container[key]
        if isinstance(value, str):
            if (id(container), key) in done or value in PLAIN.get(key, ()):
                continue
            yield container, key
        elif isinstance(value, dict):
            stack.extend((value, k) for k in value)
        elif isinstance(value, list):
            stack.extend((value, i) for i in range(len(value)))


def _drop_logprobs(payload: object) -> None:
    if not isinstance(payload, dict) or not isinstance(payload.get("choices"), list):
        return
    for choice in payload["choices"]:
        if isinstance(choice, dict) and choice.get("logprobs") is not None:
            choice["logprobs"] = None


def rewrite_whole(payload: object, make: Callable[[], OutputFilter],
                  done: set[tuple[int, Any]] | None = None) -> object:
    """`payload` with every string (but those in `done`) scrubbed and restored, logprobs dropped."""
    _drop_logprobs(payload)
    root = [payload]
    for container, key in list(_strings(root, done or set())):
        container[key] = make().whole(container[key])
    return root[0]


def _dumps(payload: object) -> str:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


class WholeAnswer:
    """A JSON answer (or any answer not SSE), held until its end and rewritten at once."""

    def __init__(self, make: Callable[[], OutputFilter]) -> None:
        self._make = make
        self._body = bytearray()
        self.stats = AnswerStats()

    def feed(self, chunk: bytes, end_of_stream: bool) -> bytes:
        self._body += chunk
        if len(self._body) > MAX_MESSAGE_BYTES:
            raise AnswerUnreadable(f"the answer is over {MAX_MESSAGE_BYTES} bytes; nothing more is sent")
        if not end_of_stream:
            return b""
        raw = bytes(self._body)
        self._body.clear()
        try:
            payload = json.loads(raw)
        except (UnicodeDecodeError, ValueError, RecursionError):
            # Not JSON (a proxy's error page): scrubbed as one text.
            return self._make().whole(raw.decode("utf-8", "replace")).encode()
        payload = rewrite_whole(payload, self._make)
        self.stats.first_text_at = time.perf_counter()
        _note_usage(self.stats, payload)
        return _dumps(payload).encode()


class SseAnswer:
    """A streamed answer: every choice's texts through their own filters, across events."""

    def __init__(self, make: Callable[[], OutputFilter]) -> None:
        self._make = make
        self._reader = SseReader(MAX_MESSAGE_BYTES)
        # (choice index, field) -> its filter; field is "content", "text", "refusal",
        # "reasoning_content", "function_call" or ("tool", a tool call's index).
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
        others, data = split_data(lines)
        if data is None:  # an event without data: its other lines (event, id, retry) scrubbed
            kept = [self._make().whole(line) for line in others]
            return "".join(f"{line}\n" for line in kept).encode() + b"\n" if kept else b""
        if data.strip() == "[DONE]":
            return self._flush_all() + event(others, "[DONE]")
        try:
            payload = json.loads(data)
        except (ValueError, RecursionError):
            raise AnswerUnreadable("an event of the answer stream is not JSON; the stream is cut "
                                   "rather than passed on unscrubbed") from None
        done: set[tuple[int, Any]] = set()
        if isinstance(payload, dict):
            self._rewrite_chunk(payload, done)
        payload = rewrite_whole(payload, self._make, done)
        if isinstance(payload, dict):  # for an event of its own at the end (scrubbed by now)
            self._last.update({k: payload[k] for k in ("id", "model", "object", "created")
                               if k in payload})
        return event([self._make().whole(line) for line in others], _dumps(payload))

    def _rewrite_chunk(self, payload: dict, done: set[tuple[int, Any]]) -> None:
        _note_usage(self.stats, payload)
        choices = payload.get("choices")
        for position, choice in enumerate(choices if isinstance(choices, list) else ()):
            if not isinstance(choice, dict):
                continue
            index = choice.get("index", position)
            index = index if _is_int(index) else position

            def through(container: dict, field: str, key: tuple[int, object]) -> None:
                if isinstance(container.get(field), str):
                    container[field] = self._through(key, container[field])
                    done.add((id(container), field))
            through(choice, "text", (index, "text"))
            delta = choice.get("delta")
            if isinstance(delta, dict):
                for field in STREAMED:
                    through(delta, field, (index, field))
                calls = delta.get("tool_calls")
                for position2, call in enumerate(calls if isinstance(calls, list) else ()):
                    function = call.get("function") if isinstance(call, dict) else None
                    if isinstance(function, dict):
                        slot = call.get("index", position2)
                        through(function, "arguments", (index, ("tool", slot)))
                legacy = delta.get("function_call")
                if isinstance(legacy, dict):
                    through(legacy, "arguments", (index, "function_call"))
            if choice.get("finish_reason"):
                self._flush_choice(index, choice, done)

    def _flush_choice(self, index: int, choice: dict, done: set[tuple[int, Any]]) -> None:
        """A choice finished: what its filters hold goes out in this event."""
        for key in [k for k in self._filters if k[0] == index]:
            tail = self._filters.pop(key).finish()
            if not tail:
                continue
            field = key[1]
            if field == "text":
                choice["text"] = (choice.get("text") or "") + tail
                done.add((id(choice), "text"))
                continue
            delta = choice.setdefault("delta", {})
            if not isinstance(delta, dict):
                delta = choice["delta"] = {}
            if isinstance(field, tuple):
                held = {"arguments": tail}
                delta.setdefault("tool_calls", []).append({"index": field[1], "function": held})
                done.add((id(held), "arguments"))
            elif field == "function_call":
                legacy = delta.setdefault("function_call", {})
                legacy["arguments"] = (legacy.get("arguments") or "") + tail
                done.add((id(legacy), "arguments"))
            else:
                delta[field] = (delta.get(field) or "") + tail
                done.add((id(delta), field))

    def _flush_all(self) -> bytes:
        """Choices that never finished: their held text, scrubbed, in one event of its own."""
        if not self._filters:
            return b""
        choices: dict[int, dict] = {}
        for index in sorted({k[0] for k in self._filters}):
            choice: dict[str, object] = {"index": index}
            self._flush_choice(index, choice, set())
            if "text" in choice or "delta" in choice:
                choices[index] = choice
        if not choices:
            return b""
        return event([], _dumps({**self._last, "choices": list(choices.values())}))
