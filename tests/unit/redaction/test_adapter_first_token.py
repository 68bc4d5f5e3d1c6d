"""The door's hop to ztgate's own adapter has no per-try timeout: the gateway's gRPC route behind
the adapter sets the first-token budget per try itself, and one on the outer hop too would end a
call while that route is still failing over to the other instance. Other models keep theirs."""

from __future__ import annotations

from envoy.service.ext_proc.v3 import external_processor_pb2 as ep

from ztgate.redaction.ext_proc import PER_TRY_TIMEOUT_HEADER
from ztgate.redaction.openai_exchange import CHAT_PATH, MODEL_HEADER
from ztgate.redaction.detection.patterns.scanner import PatternScanner
from tests.unit.redaction.test_ext_proc import EMAIL, make_service, scanner  # noqa: F401 (fixture)
from tests.unit.redaction.test_openai_exchange import _drive, _headers, _json

OURS, THEIRS = "SmolLM2-135M-Instruct", "qwen2.5-0.5b"


async def _set_headers(scanner: PatternScanner, model: str) -> dict[str, bytes]:  # noqa: F811
    body = _json({"model": model, "stream": True,
                  "messages": [{"role": "user", "content": f"I am {EMAIL}"}]})
    responses = await _drive(make_service(scanner), [
        _headers(CHAT_PATH), ep.ProcessingRequest(request_body=ep.HttpBody(body=body, end_of_stream=True))],
        own_models=frozenset([OURS]))
    common = responses[1].request_body.response
    assert EMAIL.encode() not in common.body_mutation.body
    return {h.header.key: h.header.raw_value for h in common.header_mutation.set_headers}


async def test_only_the_adapters_model_goes_without_a_per_try_timeout(scanner: PatternScanner) -> None:  # noqa: F811
    ours = await _set_headers(scanner, OURS)
    assert ours[MODEL_HEADER] == OURS.encode() and PER_TRY_TIMEOUT_HEADER not in ours
    theirs = await _set_headers(scanner, THEIRS)
    assert PER_TRY_TIMEOUT_HEADER in theirs
