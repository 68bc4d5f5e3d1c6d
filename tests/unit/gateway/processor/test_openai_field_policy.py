"""The door's field policy as a family: generated OpenAI requests with private values planted at
random paths (tests/openai_requests.py) through the processor's request transformation, and
generated answers with the call's pseudonyms planted anywhere, whole and streamed.

The RedactionService is the real one on the pattern tier (`make_service`, test_ext_proc.py). A
request is either refused (a 4xx naming the field, or the limit and its setting) or its scrubbed
body holds no private value; an answer comes back with every pseudonym restored and no
placeholder left, log-probabilities dropped.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ztgate.inference.limits import LimitExceeded, RequestTooLarge
from ztgate.gateway.processor.openai_api import OpenAIExchange
from ztgate.protocols.openai.errors import OpenAIRequestError
from ztgate.protocols.openai.fields import CHAT_PATH, COMPLETIONS_PATH
from ztgate.redaction.detection.patterns.scanner import PatternScanner
from ztgate.redaction.service import RedactionService
from ztgate.redaction.vault import PLACEHOLDER_RE
from tests.openai_requests import CARD, EMAIL, PRIVATE, SSN, VENDOR_FIELD, answers, requests
from tests.stand_ins import stand_in
from tests.unit.redaction.pattern_service import make_service

# What the model reads for the private values of `_answering`'s request (EMAIL, SSN, CARD), as chat writes
# them by default (ADR 0007): a stand-in for the e-mail address, placeholders for the SSN and the card.
PLACEHOLDERS = (stand_in("EMAIL_ADDRESS", EMAIL), "<US_SSN_1>", "<CREDIT_CARD_1>")
FAMILY = settings(max_examples=150, deadline=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                         HealthCheck.data_too_large])


@pytest.fixture
def service(scanner: PatternScanner) -> RedactionService:
    return make_service(scanner)


def _leaks(text: str) -> list[str]:
    return [value for value in PRIVATE if value in text]


# Built once: a strategy built inside the test is built again, and its recursion analysed again, for every example.
REQUESTS = {path: requests(path) for path in (CHAT_PATH, COMPLETIONS_PATH)}


@FAMILY
@given(data=st.data(), path=st.sampled_from([CHAT_PATH, COMPLETIONS_PATH]))
async def test_a_generated_request_is_refused_naming_the_field_or_sent_without_private_values(
        service: RedactionService, data: st.DataObject, path: str) -> None:
    payload = data.draw(REQUESTS[path])
    exchange = OpenAIExchange(service, path, tenant="")
    try:
        outcome = await exchange.request_body(json.dumps(payload).encode())
    except OpenAIRequestError as refused:
        assert refused.param, refused  # a 400 names the field
        assert _leaks(str(refused)) == []
        return
    except (RequestTooLarge, LimitExceeded) as refused:
        assert "limits." in str(refused), refused  # a limit names its setting
        return
    finally:
        exchange.close()
    assert VENDOR_FIELD not in payload, "a field the schema does not know reached the upstream"
    sent = outcome.body.decode()
    assert _leaks(sent) == [], sent
    assert json.loads(sent)["model"] == payload["model"]


async def _answering(service: RedactionService, content_type: str) -> OpenAIExchange:
    """A call whose request made the three pseudonyms, its answer's headers in."""
    exchange = OpenAIExchange(service, CHAT_PATH, tenant="")
    outcome = await exchange.request_body(json.dumps({"model": "m", "messages": [
        {"role": "user", "content": f"{EMAIL} and {SSN} and {CARD}"}]}).encode())
    assert json.loads(outcome.body)["messages"][0]["content"] == " and ".join(PLACEHOLDERS)
    exchange.response_headers(content_type)
    return exchange


def _restored(out: str) -> None:
    assert not PLACEHOLDER_RE.search(out) and PLACEHOLDERS[0] not in out, out


@FAMILY
@given(answer=answers(PLACEHOLDERS))
async def test_every_pseudonym_in_any_field_of_a_json_answer_comes_back_restored(
        service: RedactionService, answer: object) -> None:
    exchange = await _answering(service, "application/json")
    raw = json.dumps(answer)
    out = (await exchange.response_body(raw.encode(), True)).decode()
    _restored(out)
    for placeholder, value in zip(PLACEHOLDERS, PRIVATE):
        assert (placeholder in raw) == (value in out), (placeholder, out)


@FAMILY
@given(events=st.lists(answers(PLACEHOLDERS), min_size=1, max_size=4))
async def test_every_pseudonym_in_any_field_of_an_sse_event_comes_back_restored(
        service: RedactionService, events: list) -> None:
    exchange = await _answering(service, "text/event-stream")
    body = "".join(f"data: {json.dumps(e)}\n\n" for e in events) + "data: [DONE]\n\n"
    out = (await exchange.response_body(body.encode(), True)).decode()
    _restored(out)
    assert out.endswith("data: [DONE]\n\n")


def _chunk(delta: dict, **extra: object) -> str:
    return "data: " + json.dumps({"id": "c", "object": "chat.completion.chunk", "model": "m",
                                  "choices": [{"index": 0, "delta": delta, **extra}]}) + "\n\n"


async def test_legacy_function_call_arguments_split_across_deltas_are_restored(
        service: RedactionService) -> None:
    arguments = json.dumps({"to": PLACEHOLDERS[0], "ssn": PLACEHOLDERS[1]})
    pieces = [arguments[i:i + 5] for i in range(0, len(arguments), 5)]
    body = (_chunk({"role": "assistant", "function_call": {"name": "send", "arguments": ""}})
            + "".join(_chunk({"function_call": {"arguments": p}}) for p in pieces)
            + _chunk({}, finish_reason="function_call") + "data: [DONE]\n\n")
    exchange = await _answering(service, "text/event-stream")
    out = (await exchange.response_body(body.encode(), True)).decode()
    events = [json.loads(line[6:]) for line in out.split("\n") if line.startswith("data: {")]
    got = "".join(e["choices"][0]["delta"].get("function_call", {}).get("arguments", "")
                  for e in events if e.get("choices"))
    assert json.loads(got) == {"to": EMAIL, "ssn": SSN}


async def test_log_probabilities_are_dropped_whole_and_streamed(service: RedactionService) -> None:
    logprobs = {"content": [{"token": "<EMAIL", "logprob": -0.1, "bytes": [60, 69],
                             "top_logprobs": [{"token": "_ADDRESS_1>", "logprob": -1.0}]}]}
    exchange = await _answering(service, "application/json")
    whole = json.loads(await exchange.response_body(json.dumps({"choices": [
        {"index": 0, "message": {"role": "assistant", "content": PLACEHOLDERS[0]},
         "logprobs": logprobs, "finish_reason": "stop"}]}).encode(), True))
    assert whole["choices"][0]["logprobs"] is None
    assert whole["choices"][0]["message"]["content"] == EMAIL
    exchange = await _answering(service, "text/event-stream")
    out = (await exchange.response_body(_chunk({"content": "hi"}, logprobs=logprobs).encode(),
                                        True)).decode()
    assert "EMAIL" not in out and '"logprobs":null' in out


@pytest.mark.parametrize("answer", [
    json.dumps([f"for {PLACEHOLDERS[0]}", {"x": PLACEHOLDERS[1]}]),
    json.dumps(f"plain {PLACEHOLDERS[2]}"),
])
async def test_a_json_answer_that_is_not_an_object_is_restored_not_passed_raw(
        service: RedactionService, answer: str) -> None:
    exchange = await _answering(service, "application/json")
    out = (await exchange.response_body(answer.encode(), True)).decode()
    _restored(out)
    exchange = await _answering(service, "text/event-stream")
    out = (await exchange.response_body(f"data: {answer}\n\n".encode(), True)).decode()
    _restored(out)
