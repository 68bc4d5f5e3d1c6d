"""The HTTP door's processor without Envoy: OpenAI JSON bodies scrubbed, SSE answers restored.

The RedactionService is the real one on the pattern tier (`make_service`, test_ext_proc.py: its
analysis pool is the Hyperscan tier alone, so no NER model loads); the PII is what that tier finds.
The servicer is driven with the ext_proc messages Envoy sends, in Envoy's order.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest
from envoy.config.core.v3 import base_pb2
from envoy.service.ext_proc.v3 import external_processor_pb2 as ep
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ztgate.common import semconv as sc
from ztgate.common.identity import TenantAccess
from ztgate.inference.limits import LimitExceeded, RequestLimits, RequestTooLarge
from ztgate.gateway.processor.ext_proc import PER_TRY_TIMEOUT_HEADER, ExternalProcessorServicer
from ztgate.gateway.processor.openai_api import OpenAIExchange
from ztgate.protocols.openai.errors import OpenAIRequestError, UnknownRoute
from ztgate.protocols.openai.fields import CHAT_PATH, COMPLETIONS_PATH, MODEL_HEADER
from ztgate.protocols.openai.schema import DoorOptions
from ztgate.protocols.openai.sse import SseReader
from ztgate.redaction.detection.patterns.scanner import PatternScanner
from ztgate.redaction.service import RedactionService
from tests.fake_context import FakeContext
from tests.unit.gateway.processor.test_ext_proc import (AWS, BUDGET, CANARIES, EMAIL, GITHUB, MAIL, PHONE,
                                                        PHONE_STAND_IN)
from tests.unit.redaction.pattern_service import make_service
from tests.unit.redaction.test_redaction_service_metrics import Recorded, finding

MODEL = "qwen2.5-0.5b"


@pytest.fixture
def service(scanner: PatternScanner) -> RedactionService:
    return make_service(scanner)


def _json(payload: object) -> bytes:
    return json.dumps(payload).encode()


async def _scrubbed(service: RedactionService, payload: dict, path: str = CHAT_PATH,
                    **kwargs) -> tuple[dict, OpenAIExchange]:
    exchange = OpenAIExchange(service, path, tenant="", **kwargs)
    outcome = await exchange.request_body(_json(payload))
    assert outcome.model == payload["model"]
    return json.loads(outcome.body), exchange


# --- requests --------------------------------------------------------------------------------

async def test_every_text_the_model_reads_is_scrubbed(service: RedactionService) -> None:
    sent, _ = await _scrubbed(service, {
        "model": MODEL, "temperature": 0.2, "user": EMAIL, "stop": [EMAIL, "\n\n"], "max_tokens": 8,
        "metadata": {"owner": EMAIL}, "prediction": {"type": "content", "content": EMAIL},
        "response_format": {"type": "json_schema", "json_schema": {
            "name": "answer", "description": f"for {EMAIL}",
            "schema": {"type": "object", "properties": {"who": {"enum": [EMAIL, "other"]}}}}},
        "tools": [{"type": "function", "function": {
            "name": "lookup", "description": f"looks up {EMAIL}",
            "parameters": {"type": "object", "properties": {
                "email": {"type": "string", "description": f"e.g. {EMAIL}", "enum": [EMAIL]}}}}}],
        "messages": [
            {"role": "system", "content": "Be brief.", "name": EMAIL},
            {"role": "user", "content": [{"type": "text", "text": f"I am {EMAIL}, key {AWS}"},
                                         {"type": "text", "text": f"call {PHONE}"}]},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c1", "type": "function",
                 "function": {"name": "lookup", "arguments": json.dumps({"email": EMAIL})}}],
             "function_call": {"name": "lookup", "arguments": json.dumps({"email": EMAIL})}},
            {"role": "tool", "tool_call_id": "c1", "content": f"token {GITHUB} for {EMAIL}"},
        ]})
    wire = json.dumps(sent)
    assert not [c for c in CANARIES if c in wire]
    assert sent["temperature"] == 0.2
    messages = sent["messages"]
    assert messages[1]["content"][0]["text"] == f"I am {MAIL}, key <AWS_ACCESS_KEY_ID>"
    assert json.loads(messages[2]["tool_calls"][0]["function"]["arguments"]) == {
        "email": MAIL}
    assert json.loads(messages[2]["function_call"]["arguments"]) == {"email": MAIL}
    assert messages[3]["content"] == f"token <GITHUB_TOKEN> for {MAIL}"
    assert sent["stop"] == [MAIL, "\n\n"] and sent["user"] == MAIL
    assert sent["tools"][0]["function"]["parameters"]["properties"]["email"]["enum"] == [
        MAIL]
    assert sent["metadata"] == {"owner": MAIL} and messages[0]["name"] == MAIL


async def test_an_unknown_field_is_refused_naming_it_unless_the_operator_lists_it(
        service: RedactionService) -> None:
    payload = {"model": MODEL, "x_vendor": {"keep": [1, EMAIL], EMAIL: 2},
               "messages": [{"role": "user", "content": "hi"}]}
    with pytest.raises(OpenAIRequestError, match="gateway.openai_extra_fields") as refused:
        await _scrubbed(service, json.loads(json.dumps(payload)))
    assert refused.value.param == "x_vendor"
    with pytest.raises(OpenAIRequestError) as nested:
        await _scrubbed(service, {"model": MODEL, "messages": [
            {"role": "user", "content": "hi", "x_note": EMAIL}]})
    assert nested.value.param == "messages[0].x_note"
    sent, _ = await _scrubbed(service, payload, options=DoorOptions(extra_fields=frozenset({"x_vendor"})))
    assert sent["x_vendor"] == {"keep": [1, MAIL], MAIL: 2}


@pytest.mark.parametrize("body, param", [
    (b'{"model": "m", "messages": [{"role": "user", "content": "hi"}], "seed": 1' + b"9" * 5000 + b"}",
     None),
    (b'{"model": "m", "messages": [{"role": "user", "content": "hi"}], "temperature": 1e999}', None),
    (b'{"model": "m", "messages": [{"role": "user", "content": "hi"}], "temperature": NaN}', None),
    (_json({"model": "m", "messages": [{"role": "user", "content": "hi"}], "n": 5}), "n"),
    (_json({"model": "m", "messages": [{"role": "user", "content": "hi"}], "n": 0}), "n"),
    (_json({"model": "m", "messages": [{"role": "user", "content": "hi"}], "seed": 2**64}), "seed"),
    (_json({"model": "m", "messages": [{"role": "user", "content": "hi"}], "temperature": 3}),
     "temperature"),
    (_json({"model": "m", "messages": [{"role": "user", "content": "hi"}], "logprobs": True}),
     "logprobs"),
    (_json({"model": "m", "messages": [{"role": "wizard", "content": "hi"}]}), "messages[0].role"),
    (_json({"model": "m", "messages": [{"role": "user", "content": "hi"}],
            "response_format": {"type": "yaml"}}), "response_format.type"),
    (_json({"model": "m", "messages": [{"role": "user", "content": "hi"}],
            "logit_bias": {"not-a-token": 1}}), "logit_bias (key 0)"),
])
async def test_numbers_enums_and_bounds_are_validated_with_a_400(service: RedactionService,
                                                                 body: bytes, param: str | None) -> None:
    with pytest.raises(OpenAIRequestError) as refused:
        await OpenAIExchange(service, CHAT_PATH, tenant="").request_body(body)
    assert refused.value.param == param
    assert len(str(refused.value)) < 400  # a 5,000-digit number is not echoed back


async def test_every_scrubbed_text_counts_against_the_prompt_limit(service: RedactionService) -> None:
    limits = RequestLimits(max_prompt_bytes=200)
    tools = [{"type": "function", "function": {"name": "f", "description": "x" * 300}}]
    with pytest.raises(RequestTooLarge, match="limits.max_prompt_bytes"):
        await OpenAIExchange(service, CHAT_PATH, tenant="", limits=limits).request_body(_json(
            {"model": MODEL, "messages": [{"role": "user", "content": "hi"}], "tools": tools}))


@pytest.mark.parametrize("prompt", [f"mail {EMAIL}", [f"mail {EMAIL}", "second"]])
async def test_completion_prompts_string_or_list_are_scrubbed(service: RedactionService,
                                                              prompt: object) -> None:
    sent, exchange = await _scrubbed(service, {"model": MODEL, "prompt": prompt, "stop": EMAIL},
                                     COMPLETIONS_PATH)
    assert EMAIL not in json.dumps(sent) and MAIL in json.dumps(sent["prompt"])
    assert sent["stop"] == MAIL and exchange.operation == "text_completion"


IMAGE = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}


async def test_non_text_parts_are_refused_or_passed_as_configured(service: RedactionService) -> None:
    payload = {"model": MODEL, "messages": [{"role": "user", "content": [
        {"type": "text", "text": EMAIL}, IMAGE]}]}
    with pytest.raises(OpenAIRequestError, match="gateway.openai_non_text_parts") as refused:
        await _scrubbed(service, json.loads(json.dumps(payload)))
    assert refused.value.param == "messages[0].content[1].type"
    sent, _ = await _scrubbed(service, payload, options=DoorOptions(pass_non_text_parts=True))
    assert sent["messages"][0]["content"] == [{"type": "text", "text": MAIL}, IMAGE]


@pytest.mark.parametrize("body, param", [
    (b"{not json", None),
    (b"[1, 2]", None),
    (_json({"messages": [{"role": "user", "content": "hi"}]}), "model"),
    (_json({"model": "bad\nmodel", "messages": [{"role": "user", "content": "hi"}]}), "model"),
    (_json({"model": MODEL}), "messages"),
    (_json({"model": MODEL, "messages": []}), "messages"),
    (_json({"model": MODEL, "messages": ["hi"]}), "messages[0]"),
    (_json({"model": MODEL, "messages": [{"role": "user", "content": 5}]}), "messages[0].content"),
    (_json({"model": MODEL, "messages": [{"content": "hi"}]}), "messages[0].role"),
    (_json({"model": MODEL, "messages": [{"role": "user", "content": [{"type": "text"}]}]}),
     "messages[0].content[0].text"),
    (_json({"model": MODEL, "messages": [{"role": "user", "content": "hi"}], "stop": [1]}), "stop[0]"),
    (_json({"model": MODEL, "messages": [{"role": "user", "content": "hi"}], "max_tokens": "9"}),
     "max_tokens"),
    (_json({"model": MODEL, "messages": [{"role": "user", "content": "hi"}], "stream": "yes"}),
     "stream"),
])
async def test_malformed_chat_requests_name_the_field(service: RedactionService, body: bytes,
                                                      param: str | None) -> None:
    with pytest.raises(OpenAIRequestError) as refused:
        await OpenAIExchange(service, CHAT_PATH, tenant="").request_body(body)
    assert refused.value.param == param
    if param:
        assert f"`{param}" in str(refused.value)


@pytest.mark.parametrize("prompt", [[1, 2, 3], [[1, 2]], None, []])
async def test_token_id_prompts_cannot_be_scrubbed_and_are_refused(service: RedactionService,
                                                                   prompt: object) -> None:
    with pytest.raises(OpenAIRequestError, match="token-id"):
        await OpenAIExchange(service, COMPLETIONS_PATH, tenant="").request_body(
            _json({"model": MODEL, "prompt": prompt}))


LIMITS = RequestLimits(max_request_bytes=4096, max_prompt_bytes=200, max_messages=2,
                       max_stop_sequences=1, max_stop_chars=8, max_output_tokens=50)


@pytest.mark.parametrize("payload, error, setting", [
    ({"messages": [{"role": "user", "content": "x" * 300}]}, RequestTooLarge, "limits.max_prompt_bytes"),
    ({"messages": [{"role": "user", "content": "hi"}] * 3}, RequestTooLarge, "limits.max_messages"),
    ({"messages": [{"role": "user", "content": "hi"}], "stop": ["a", "b"]}, LimitExceeded,
     "limits.max_stop_sequences"),
    ({"messages": [{"role": "user", "content": "hi"}], "max_completion_tokens": 51}, LimitExceeded,
     "limits.max_output_tokens"),
    ({"messages": [{"role": "user", "content": "y" * 5000}]}, RequestTooLarge, "limits.max_request_bytes"),
])
async def test_limits_refuse_before_any_redaction_work(service: RedactionService, payload: dict,
                                                       error: type, setting: str) -> None:
    with pytest.raises(error, match=setting):
        await OpenAIExchange(service, CHAT_PATH, tenant="", limits=LIMITS).request_body(
            _json({"model": MODEL, **payload}))
    assert len(service.vault) <= 1  # at most the call's empty session


def test_paths_the_door_does_not_serve_are_refused(service: RedactionService) -> None:
    with pytest.raises(UnknownRoute, match="/v1/embeddings"):
        OpenAIExchange(service, "/v1/embeddings", tenant="")


# --- answers ---------------------------------------------------------------------------------

ANSWER = f"Hello {MAIL} ({PHONE_STAND_IN}), your key is " + AWS + " ok"
EXPECTED = f"Hello {EMAIL} ({PHONE}), your key is <AWS_ACCESS_KEY_ID> ok"


async def _answering(service: RedactionService, content_type: str,
                     path: str = CHAT_PATH) -> OpenAIExchange:
    payload = ({"model": MODEL, "messages": [{"role": "user", "content": f"I am {EMAIL}, call {PHONE}"}]}
               if path == CHAT_PATH else {"model": MODEL, "prompt": f"I am {EMAIL}, call {PHONE}"})
    exchange = OpenAIExchange(service, path, tenant="")
    await exchange.request_body(_json(payload))
    exchange.response_headers(content_type)
    return exchange


def _sse(chunks: list[dict], done: bool = True, newline: str = "\n") -> bytes:
    events = [f"data: {json.dumps(c)}{newline}{newline}" for c in chunks]
    return "".join(events + ([f"data: [DONE]{newline}{newline}"] if done else [])).encode()


def _chat_chunks(pieces: list[str], finish: str | None = "stop") -> list[dict]:
    chunks = [{"id": "c", "object": "chat.completion.chunk", "model": MODEL,
               "choices": [{"index": 0, "delta": {"content": p}, "finish_reason": None}]}
              for p in pieces]
    if finish:
        chunks.append({"id": "c", "object": "chat.completion.chunk", "model": MODEL,
                       "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
    return chunks


def _read_sse(body: bytes) -> tuple[str, list[object]]:
    events = SseReader().feed(body) + SseReader().finish()
    payloads: list[object] = []
    text = ""
    for lines in events:
        data = "\n".join(line.removeprefix("data: ") for line in lines if line.startswith("data:"))
        if data == "[DONE]":
            payloads.append("[DONE]")
            continue
        chunk = json.loads(data)
        payloads.append(chunk)
        for choice in chunk.get("choices", []):
            text += choice.get("delta", {}).get("content") or choice.get("text") or ""
    return text, payloads


async def _through(exchange: OpenAIExchange, pieces: list[bytes]) -> bytes:
    out = b""
    for i, piece in enumerate(pieces):
        out += await exchange.response_body(piece, i == len(pieces) - 1)
    return out


async def test_unary_chat_answer_is_restored_and_secrets_scrubbed(service: RedactionService) -> None:
    exchange = await _answering(service, "application/json")
    body = _json({"id": "x", "object": "chat.completion", "model": MODEL, "usage": {"total_tokens": 9},
                  "choices": [{"index": 0, "finish_reason": "stop",
                               "message": {"role": "assistant", "content": ANSWER}}]})
    out = json.loads(await _through(exchange, [body[:11], body[11:40], body[40:]]))
    assert out["choices"][0]["message"]["content"] == EXPECTED
    assert out["usage"] == {"total_tokens": 9} and out["model"] == MODEL


async def test_an_upstream_error_message_is_scrubbed_too(service: RedactionService) -> None:
    exchange = await _answering(service, "application/json")
    out = json.loads(await _through(exchange, [_json({"error": {"message": f"bad key {AWS}",
                                                                "type": "x", "code": None}})]))
    assert out["error"]["message"] == "bad key <AWS_ACCESS_KEY_ID>"


@pytest.mark.parametrize("cut", range(1, len(ANSWER)))
async def test_a_value_split_across_sse_events_is_restored_and_scrubbed(service: RedactionService,
                                                                        cut: int) -> None:
    exchange = await _answering(service, "text/event-stream; charset=utf-8")
    text, payloads = _read_sse(await _through(exchange, [_sse(_chat_chunks([ANSWER[:cut], ANSWER[cut:]]))]))
    assert text == EXPECTED and payloads[-1] == "[DONE]"
    assert payloads[-2]["choices"][0]["finish_reason"] == "stop"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
async def test_sse_bodies_split_at_any_bytes_give_the_same_answer(service: RedactionService,
                                                                  data: st.DataObject) -> None:
    """Events in random pieces, body chunks cut at random bytes (inside a CRLF, a UTF-8 character,
    `data:`), CRLF or LF framing: the restored text is the same and no secret leaks."""
    answer = ANSWER + " – ünïcode ✓ " + GITHUB
    newline = data.draw(st.sampled_from(["\n", "\r\n"]))
    cuts = sorted(data.draw(st.lists(st.integers(1, len(answer) - 1), max_size=8, unique=True)))
    pieces = [answer[a:b] for a, b in zip([0, *cuts], [*cuts, len(answer)])]
    body = _sse(_chat_chunks(pieces), newline=newline)
    splits = sorted(data.draw(st.lists(st.integers(1, len(body) - 1), max_size=12, unique=True)))
    exchange = await _answering(service, "text/event-stream")
    out = await _through(exchange, [body[a:b] for a, b in zip([0, *splits], [*splits, len(body)])])
    text, _ = _read_sse(out)
    assert text == EXPECTED + " – ünïcode ✓ <GITHUB_TOKEN>"
    assert AWS.encode() not in out and GITHUB.encode() not in out


async def test_a_stream_that_ends_without_finish_or_done_flushes_what_it_held(
        service: RedactionService) -> None:
    exchange = await _answering(service, "text/event-stream")
    out = await _through(exchange, [_sse(_chat_chunks(["bye " + MAIL[:5], MAIL[5:]], finish=None),
                                         done=False)])
    assert _read_sse(out)[0] == f"bye {EMAIL}"


async def test_streamed_completions_and_tool_call_arguments_are_restored(
        service: RedactionService) -> None:
    exchange = await _answering(service, "text/event-stream", COMPLETIONS_PATH)
    chunks = [{"choices": [{"index": 0, "text": p, "finish_reason": None}]}
              for p in ["to " + MAIL[:6], MAIL[6:] + " key ", AWS[:9], AWS[9:]]]
    chunks.append({"choices": [{"index": 0, "text": "", "finish_reason": "length"}]})
    assert _read_sse(await _through(exchange, [_sse(chunks)]))[0] == \
        f"to {EMAIL} key <AWS_ACCESS_KEY_ID>"
    exchange = await _answering(service, "text/event-stream")
    calls = [{"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": 0, "function": {"arguments": p}}]}}]} for p in ['{"to": "' + MAIL[:6], MAIL[6:] + '"}']]
    calls.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    _, payloads = _read_sse(await _through(exchange, [_sse(calls)]))
    arguments = "".join(call["function"]["arguments"] for p in payloads if p != "[DONE]"
                        for call in p["choices"][0]["delta"].get("tool_calls", []))
    assert json.loads(arguments) == {"to": EMAIL}


async def test_a_non_json_event_cuts_the_stream_rather_than_pass_it(service: RedactionService) -> None:
    exchange = await _answering(service, "text/event-stream")
    with pytest.raises(Exception, match="not JSON"):
        await _through(exchange, [f"data: key {AWS}\n\n".encode()])


# --- the servicer ------------------------------------------------------------------------------

def _headers(path: str, method: str = "POST") -> ep.ProcessingRequest:
    pairs = [(":path", path), (":method", method), ("content-type", "application/json")]
    return ep.ProcessingRequest(request_headers=ep.HttpHeaders(headers=base_pb2.HeaderMap(headers=[
        base_pb2.HeaderValue(key=k, raw_value=v.encode()) for k, v in pairs])))


def _response_headers(content_type: str) -> ep.ProcessingRequest:
    pairs = [(":status", "200"), ("content-type", content_type), ("content-length", "10")]
    return ep.ProcessingRequest(response_headers=ep.HttpHeaders(headers=base_pb2.HeaderMap(headers=[
        base_pb2.HeaderValue(key=k, raw_value=v.encode()) for k, v in pairs])))


async def _drive(service: RedactionService, requests: list[ep.ProcessingRequest],
                 **kwargs) -> list[ep.ProcessingResponse]:
    async def feed() -> AsyncIterator[ep.ProcessingRequest]:
        for request in requests:
            yield request

    servicer = ExternalProcessorServicer(service, TenantAccess(None), BUDGET, **kwargs)
    return [r async for r in servicer.Process(feed(), FakeContext(None))]


async def test_servicer_routes_by_model_and_rewrites_the_stream(service: RedactionService) -> None:
    body = _json({"model": MODEL, "stream": True,
                  "messages": [{"role": "user", "content": f"I am {EMAIL}"}]})
    answer = _sse(_chat_chunks(["Hi " + MAIL[:6], MAIL[6:]]))
    responses = await _drive(service, [
        _headers(CHAT_PATH),
        ep.ProcessingRequest(request_body=ep.HttpBody(body=body, end_of_stream=True)),
        _response_headers("text/event-stream"),
        ep.ProcessingRequest(response_body=ep.HttpBody(body=answer[:30])),
        ep.ProcessingRequest(response_body=ep.HttpBody(body=answer[30:], end_of_stream=True)),
    ])
    common = responses[1].request_body.response
    headers = {h.header.key: h.header.raw_value for h in common.header_mutation.set_headers}
    assert headers[MODEL_HEADER] == MODEL.encode() and PER_TRY_TIMEOUT_HEADER in headers
    assert common.clear_route_cache
    assert EMAIL.encode() not in common.body_mutation.body
    assert list(responses[2].response_headers.response.header_mutation.remove_headers) == [
        "content-length"]
    out = b"".join(r.response_body.response.body_mutation.body for r in responses[3:])
    assert _read_sse(out)[0] == f"Hi {EMAIL}"
    assert len(service.vault) == 0


@pytest.mark.parametrize("path, body, status, code, kwargs", [
    (CHAT_PATH, b"{oops", 400, "invalid_request", {}),
    (CHAT_PATH, _json({"model": MODEL, "messages": [{"role": "user", "content": "x" * 70000}]}),
     413, "request_too_large", {}),
    ("/v1/embeddings", b"{}", 404, "not_found", {}),
])
async def test_servicer_refusals_are_in_openais_error_shape(
        service: RedactionService, path: str, body: bytes, status: int, code: str, kwargs) -> None:
    responses = await _drive(service, [
        _headers(path), ep.ProcessingRequest(request_body=ep.HttpBody(body=body, end_of_stream=True))],
        **kwargs)
    refusal = responses[-1].immediate_response
    assert refusal.status.code == status
    error = json.loads(refusal.body)["error"]
    assert error["code"] == code and error["type"] and error["message"]
    assert refusal.details.startswith("ztgate_")
    assert {h.header.key: h.header.raw_value for h in refusal.headers.set_headers}[
        "content-type"] == b"application/json"


async def test_door_calls_record_genai_metrics_with_their_operation(service: RedactionService) -> None:
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import InMemoryMetricReader

    from ztgate.gateway.processor.openai_metrics import DoorMetrics

    reader = InMemoryMetricReader()
    door = DoorMetrics(MeterProvider(metric_readers=[reader]).get_meter("test"))
    prompt = _json({"model": MODEL, "prompt": f"I am {EMAIL}", "stream": True})
    chunks = [{"choices": [{"index": 0, "text": "Hi", "finish_reason": None}]},
              {"choices": [{"index": 0, "text": "", "finish_reason": "stop"}],
               "usage": {"prompt_tokens": 7, "completion_tokens": 2}}]
    await _drive(service, [
        _headers(COMPLETIONS_PATH),
        ep.ProcessingRequest(request_body=ep.HttpBody(body=prompt, end_of_stream=True)),
        _response_headers("text/event-stream"),
        ep.ProcessingRequest(response_body=ep.HttpBody(body=_sse(chunks), end_of_stream=True)),
    ], door_metrics=door)
    points = {}
    for resource in reader.get_metrics_data().resource_metrics:
        for scope in resource.scope_metrics:
            for metric in scope.metrics:
                for point in metric.data.data_points:
                    points.setdefault(metric.name, []).append(point)
    [ttft] = points["gen_ai.server.time_to_first_token"]
    assert ttft.attributes["gen_ai.operation.name"] == "text_completion"
    assert ttft.attributes["gen_ai.request.model"] == MODEL and ttft.count == 1
    assert len(points["gen_ai.server.request.duration"]) == 1
    assert sorted((p.attributes["gen_ai.token.type"], p.sum) for p in points["gen_ai.client.token.usage"]) == [
        ("input", 7), ("output", 2)]


async def test_envoys_own_answer_before_any_request_passes_unchanged(service: RedactionService) -> None:
    """A token or rate-limit refusal Envoy made itself reaches the processor's answer path (the
    door's routes send answer headers) without a request: nothing went upstream, so it passes."""
    responses = await _drive(service, [
        _response_headers("application/json"),
        ep.ProcessingRequest(response_body=ep.HttpBody(body=b'{"error": {}}', end_of_stream=True))])
    assert [r.WhichOneof("response") for r in responses] == ["response_headers", "response_body"]
    assert not responses[1].response_body.response.HasField("body_mutation")


async def test_a_compressed_answer_fails_the_call_rather_than_pass_unread(service: RedactionService) -> None:
    exchange = OpenAIExchange(service, CHAT_PATH, tenant="")
    await exchange.request_body(_json({"model": MODEL, "messages": [{"role": "user", "content": "hi"}]}))
    with pytest.raises(Exception, match="content-encoding 'gzip'"):
        exchange.response_headers("application/json", "gzip")


async def test_a_text_repeated_across_a_tool_schema_is_scrubbed_once(service: RedactionService,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A schema repeats `type`, `string`, `description` hundreds of times: each distinct text goes
    to the analysers once (recorded by wrapping the real redact_many), every copy gets its result."""
    seen: list[int] = []
    real = service.redact_many

    async def recording(texts, **kwargs):
        seen.append(len(texts))
        return await real(texts, **kwargs)
    monkeypatch.setattr(service, "redact_many", recording)
    props = {f"p{i}": {"type": "string", "description": f"mail {EMAIL}"} for i in range(50)}
    sent, _ = await _scrubbed(service, {"model": MODEL, "messages": [{"role": "user", "content": EMAIL}],
                                        "tools": [{"type": "function", "function": {
                                            "name": "f", "parameters": {"type": "object",
                                                                        "properties": props}}}]})
    assert seen and seen[0] < 70  # 50 keys, a handful of distinct words; not the 200-odd copies
    described = {p["description"] for p in sent["tools"][0]["function"]["parameters"]["properties"].values()}
    assert described == {f"mail {MAIL}"}


async def test_the_doors_prompt_findings_are_counted_as_the_gateways(scanner: PatternScanner) -> None:
    """The HTTP door's prompts are scrubbed in the call's session as the gRPC door's are, and their
    findings counted on the same path (gateway_request), never as direct Redact calls."""
    recorded = Recorded()
    service = make_service(scanner)
    service.metrics = recorded.metrics
    body = _json({"model": MODEL, "messages": [{"role": "user", "content": f"I am {EMAIL}"}]})
    await _drive(service, [_headers(CHAT_PATH),
                           ep.ProcessingRequest(request_body=ep.HttpBody(body=body, end_of_stream=True))])
    assert recorded.points(sc.REDACTION_FINDINGS) == {
        finding("EMAIL_ADDRESS", "surrogate", "pattern", "gateway_request", "default"): 1}
