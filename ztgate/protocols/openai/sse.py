"""OpenAI's server-sent events: reading them from body chunks split anywhere, and writing them.

OpenAI frames a stream as `data: <JSON>` events, each ended by a blank line, and ends it with
`data: [DONE]`. The reader keeps at most one event (`max_event_bytes`) in memory.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ztgate.protocols.openai.errors import AnswerUnreadable

# SSE's end of stream, as OpenAI sends it.
DONE = b"data: [DONE]\n\n"
# Largest event the reader holds by default.
MAX_EVENT_BYTES = 16 * 1024 * 1024


class SseReader:
    """Server-sent events from body chunks split anywhere (within a line, a CRLF, a UTF-8
    character): `feed` returns the events completed so far, each as its lines (no line ending)."""

    def __init__(self, max_event_bytes: int = MAX_EVENT_BYTES) -> None:
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
                    raise AnswerUnreadable(f"an event of the answer stream is over {self._max} bytes")
                self._lines.append(line)
            elif self._lines:
                events.append(self._lines)
                self._lines, self._size = [], 0
        del buffer[:start]
        if len(buffer) > self._max:
            raise AnswerUnreadable(f"a line of the answer stream is over {self._max} bytes")
        return events

    def finish(self) -> list[list[str]]:
        """At the end of the body: the last event even without its blank line."""
        events = self.feed(b"\n", end=True) if self._buffer else []
        if self._lines:
            events.append(self._lines)
            self._lines, self._size = [], 0
        return events


def split_data(lines: list[str]) -> tuple[list[str], str | None]:
    """An event's other lines (kept as they are), and its data (None without a data field)."""
    others, data = [], []
    for line in lines:
        if line.startswith("data:"):
            value = line[5:]
            data.append(value[1:] if value.startswith(" ") else value)
        elif not line.startswith(":"):  # comments are dropped
            others.append(line)
    return others, "\n".join(data) if data else None


def event(others: list[str], data: str) -> bytes:
    """One event: its other lines as they were, and `data`."""
    return ("".join(f"{line}\n" for line in others) + f"data: {data}\n\n").encode()


def sse(payload: Mapping[str, Any]) -> bytes:
    """One server-sent event carrying `payload` as JSON (OpenAI's framing: `data: ...` + blank line)."""
    return b"data: " + json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode() + b"\n\n"
