"""JSON logs to stdout, with trace and span ids, and never payload text.

Only the formatted message and a fixed set of fields are written. Callers log types, counts,
ids and timings with %-style arguments; prompt text, answers, finding values and secrets are
never passed to a logger (docs/style.md, convention 10).
"""

from __future__ import annotations

import json
import logging
import sys
import time

from opentelemetry import trace

# `extra=` keys that are copied into the JSON record; anything else is dropped.
ALLOWED_EXTRA = frozenset({
    "service", "method", "code", "duration_ms", "tenant", "request_id", "session_id",
    "entity_types", "count", "policy", "address", "event", "state", "p99_ms", "served_by",
    "caller",
})


class JsonFormatter(logging.Formatter):
    """One JSON object per line, with the current OpenTelemetry trace context."""

    def __init__(self, service: str) -> None:
        super().__init__()
        self._service = service

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, object] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "service": self._service,
            "msg": record.getMessage(),
        }
        span = trace.get_current_span().get_span_context()
        if span.is_valid:
            out["trace_id"] = f"{span.trace_id:032x}"
            out["span_id"] = f"{span.span_id:016x}"
        for key in ALLOWED_EXTRA.intersection(record.__dict__):
            out[key] = record.__dict__[key]
        if record.exc_info:
            # The exception type only: messages of third-party exceptions may quote input.
            out["exc_type"] = record.exc_info[0].__name__ if record.exc_info[0] else None
        return json.dumps(out, default=str)


def setup_logging(service: str, level: str = "info") -> None:
    """Routes the root logger to stdout as JSON; idempotent."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, "_ztgate", False):
            root.removeHandler(handler)
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(JsonFormatter(service))
    handler._ztgate = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level.upper())
