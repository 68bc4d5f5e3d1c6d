"""The OpenAI door refuses a body that nests too deep or holds too many values before parsing it:
413 naming the setting (limits.max_json_depth, limits.max_json_values), nothing scrubbed or sent.
The RedactionService is the real one on the pattern tier (`make_service`, test_ext_proc.py)."""

from __future__ import annotations

import json

import pytest

from ztgate.inference.limits import RequestLimits, RequestTooLarge
from ztgate.redaction.openai_errors import error_shape
from ztgate.protocols.openai.schema import DoorOptions
from ztgate.redaction.openai_exchange import CHAT_PATH, OpenAIExchange
from ztgate.redaction.detection.patterns.scanner import PatternScanner
from ztgate.redaction.service import RedactionService
from tests.unit.redaction.test_ext_proc import make_service, scanner  # noqa: F401 (fixture)

LIMITS = RequestLimits(max_json_depth=8, max_json_values=200)


@pytest.fixture
def service(scanner: PatternScanner) -> RedactionService:  # noqa: F811
    return make_service(scanner)


def _chat(**extra: object) -> bytes:
    return json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}], **extra}).encode()


@pytest.mark.parametrize("body, setting", [
    (_chat(x_vendor=[{}] * 300), "limits.max_json_values"),
    (_chat(x_vendor=json.loads("[" * 20 + "]" * 20)), "limits.max_json_depth"),
])
async def test_a_body_past_a_json_bound_is_413_naming_the_setting(service: RedactionService,
                                                                   body: bytes, setting: str) -> None:
    exchange = OpenAIExchange(service, CHAT_PATH, tenant="", limits=LIMITS)
    with pytest.raises(RequestTooLarge) as info:
        await exchange.request_body(body)
    assert setting in str(info.value)
    status, shape = error_shape(info.value)
    assert status == 413 and shape["error"]["code"] == "request_too_large"


async def test_a_body_within_the_bounds_is_scrubbed_as_before(service: RedactionService) -> None:
    # A vendor field the operator names (gateway.openai_extra_fields): scrubbed as JSON, then passed.
    exchange = OpenAIExchange(service, CHAT_PATH, tenant="", limits=LIMITS,
                              options=DoorOptions(extra_fields=frozenset({"x_vendor"})))
    outcome = await exchange.request_body(_chat(x_vendor=[{}] * 50))
    assert json.loads(outcome.body)["x_vendor"] == [{}] * 50
