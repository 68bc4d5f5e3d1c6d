"""JSON logs carry trace ids and only allow-listed fields, so payloads cannot slip in."""

import io
import json
import logging

from opentelemetry.sdk.trace import TracerProvider

from ztgate.common.logging import JsonFormatter


def _emit(logger: logging.Logger, *args, **kwargs) -> dict:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter("test"))
    logger.addHandler(handler)
    try:
        logger.warning(*args, **kwargs)
    finally:
        logger.removeHandler(handler)
    return json.loads(stream.getvalue())


def test_log_line_is_json_with_trace_and_span_ids() -> None:
    tracer = TracerProvider().get_tracer("t")
    with tracer.start_as_current_span("s") as span:
        record = _emit(logging.getLogger("t1"), "%d findings", 3, extra={"count": 3})
    assert record["msg"] == "3 findings"
    assert record["count"] == 3
    assert record["trace_id"] == f"{span.get_span_context().trace_id:032x}"
    assert record["service"] == "test"


def test_fields_outside_the_allow_list_are_dropped() -> None:
    record = _emit(logging.getLogger("t2"), "call", extra={"text": "alice@example.com",
                                                           "tenant": "acme"})
    assert "text" not in record
    assert record["tenant"] == "acme"
    assert "alice@example.com" not in json.dumps(record)


def test_exception_message_is_not_logged_only_its_type() -> None:
    try:
        raise ValueError("secret sk-live-value")
    except ValueError:
        stream = io.StringIO()
        handler = logging.StreamHandler(stream)
        handler.setFormatter(JsonFormatter("test"))
        logger = logging.getLogger("t3")
        logger.addHandler(handler)
        logger.error("failed", exc_info=True)
        logger.removeHandler(handler)
    line = stream.getvalue()
    assert "sk-live-value" not in line
    assert json.loads(line)["exc_type"] == "ValueError"
