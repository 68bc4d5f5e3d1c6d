"""The gateway's request limits and deadline, without Envoy: refusals come before any redaction work.

The RedactionService is the real one with its pool replaced by `HeldPool` (a TEST DOUBLE that records
every text reaching it, tests/unit/redaction/pool_doubles.py), so "no redaction work" is checked as
"nothing reached the pool". The processor is driven with the messages Envoy sends, in Envoy's order.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest
from envoy.config.core.v3 import base_pb2
from envoy.service.ext_proc.v3 import external_processor_pb2 as ep

from services.gen.ztgate.inference.v1 import inference_pb2 as ipb
from services.inference.limits import LimitExceeded, RequestLimits, RequestTooLarge
from services.redaction.exchange import FrameReader, InferenceExchange, encode_frame
from services.redaction.ext_proc import ExternalProcessorServicer, body_budget_s
from services.redaction.operators import Operators
from services.redaction.pattern_scanner import PatternScanner
from services.redaction.policies import PolicyStore
from services.redaction.service import RedactionService
from services.redaction.vault import Vault
from tests.unit.redaction.pool_doubles import HeldPool

TEST_POLICIES = Path(__file__).parent / "data" / "policies"
GENERATE = "/ztgate.inference.v1.Inference/Generate"
LIMITS = RequestLimits(max_request_bytes=8192, max_prompt_bytes=1000, max_messages=4,
                       max_stop_sequences=2, max_stop_chars=8, max_output_tokens=100)


@pytest.fixture(scope="module")
def scanner(hs_cache_dir: Path) -> PatternScanner:
    return PatternScanner(cache_dir=hs_cache_dir)


@pytest.fixture
def pool() -> HeldPool:
    return HeldPool()


@pytest.fixture
def service(scanner: PatternScanner, pool: HeldPool) -> RedactionService:
    return RedactionService(policies=PolicyStore.load(TEST_POLICIES), pool=pool, scanner=scanner,
                            vault=Vault(), max_text_bytes=1 << 20,
                            operators=Operators(hash_key="test-hash-key-0123456", encrypt_key="0123456789abcdef"))


def _messages(n: int, content: str = "hi") -> list[ipb.ChatMessage]:
    return [ipb.ChatMessage(role="user", content=content) for _ in range(n)]


def _body(request: ipb.GenerateRequest) -> bytes:
    return encode_frame(request.SerializeToString())


# Each limit passed, beside its near miss (at the limit) below.
REFUSED = [
    ("20,000 messages", ipb.GenerateRequest(messages=_messages(20_000)), RequestTooLarge,
     "the request is"),  # 20,000 messages are more bytes than the whole request may be
    ("5 messages", ipb.GenerateRequest(messages=_messages(5)), RequestTooLarge,
     "the request has 5 messages; the limit is 4 (limits.max_messages)"),
    ("prompt 1001 bytes", ipb.GenerateRequest(prompt="x" * 1001), RequestTooLarge,
     "the prompt is 1001 bytes (UTF-8); the limit is 1000 bytes (limits.max_prompt_bytes)"),
    ("messages 1001 bytes", ipb.GenerateRequest(messages=_messages(2, "x" * 500) + _messages(1, "y")),
     RequestTooLarge, "the messages' contents are 1001 bytes"),
    ("prompt 1 MiB", ipb.GenerateRequest(prompt="x" * (1 << 20)), RequestTooLarge,
     f"the request is {(1 << 20) + 4} bytes; the limit is 8192 bytes (limits.max_request_bytes)"),
    ("3 stops", ipb.GenerateRequest(prompt="hi", sampling=ipb.SamplingParams(stop=["a", "b", "c"])),
     LimitExceeded, "the request has 3 stop sequences; the limit is 2 (limits.max_stop_sequences)"),
    ("stop of 9", ipb.GenerateRequest(prompt="hi", sampling=ipb.SamplingParams(stop=["123456789"])),
     LimitExceeded, "stop sequence 0 is 9 characters; the limit is 8 (limits.max_stop_chars)"),
    ("max_tokens 10^9", ipb.GenerateRequest(prompt="hi", sampling=ipb.SamplingParams(max_tokens=10**9)),
     LimitExceeded, "max_tokens is 1000000000; the limit is 100 (limits.max_output_tokens)"),
    ("max_tokens 101", ipb.GenerateRequest(prompt="hi", sampling=ipb.SamplingParams(max_tokens=101)),
     LimitExceeded, "max_tokens is 101; the limit is 100"),
]
ACCEPTED = [
    ("4 messages", ipb.GenerateRequest(messages=_messages(4))),
    ("prompt 1000 bytes", ipb.GenerateRequest(prompt="x" * 1000)),
    ("messages 1000 bytes", ipb.GenerateRequest(messages=_messages(2, "x" * 500))),
    ("2 stops of 8", ipb.GenerateRequest(prompt="hi", sampling=ipb.SamplingParams(stop=["12345678", "b"]))),
    ("max_tokens 100", ipb.GenerateRequest(prompt="hi", sampling=ipb.SamplingParams(max_tokens=100))),
    ("max_tokens unset", ipb.GenerateRequest(prompt="hi")),
]


@pytest.mark.parametrize("name, request_, error, fragment", REFUSED, ids=[r[0] for r in REFUSED])
async def test_a_request_past_a_limit_is_refused_before_any_redaction_work(
        service: RedactionService, pool: HeldPool, name: str, request_: ipb.GenerateRequest,
        error: type[Exception], fragment: str) -> None:
    exchange = InferenceExchange(service, GENERATE, tenant="", limits=LIMITS)
    with pytest.raises(error) as raised:
        await exchange.request_body(_body(request_))
    assert fragment in str(raised.value)
    assert pool.texts == [] and len(service.vault) == 0


@pytest.mark.parametrize("name, request_", ACCEPTED, ids=[a[0] for a in ACCEPTED])
async def test_a_request_at_each_limit_is_scrubbed_and_forwarded(
        service: RedactionService, pool: HeldPool, name: str, request_: ipb.GenerateRequest) -> None:
    exchange = InferenceExchange(service, GENERATE, tenant="", limits=LIMITS)
    outcome = await exchange.request_body(_body(request_))
    (raw,) = FrameReader().feed(outcome.body)
    sent = ipb.GenerateRequest.FromString(raw)
    assert sent.prompt == request_.prompt and list(sent.messages) == list(request_.messages)
    assert sent.sampling == request_.sampling
    assert pool.texts  # it was scrubbed


async def test_twenty_thousand_messages_are_refused_by_count_under_the_default_limits(
        service: RedactionService, pool: HeldPool) -> None:
    exchange = InferenceExchange(service, GENERATE, tenant="")  # the shipped defaults
    with pytest.raises(RequestTooLarge) as raised:
        await exchange.request_body(_body(ipb.GenerateRequest(messages=_messages(20_000))))
    assert "the request has 20000 messages; the limit is 256 (limits.max_messages)" in str(raised.value)
    assert pool.texts == []


async def test_a_frame_declaring_more_than_the_request_limit_is_refused_before_it_is_read(
        service: RedactionService) -> None:
    exchange = InferenceExchange(service, GENERATE, tenant="", limits=LIMITS)
    with pytest.raises(RequestTooLarge, match="the request is 8193 bytes"):
        await exchange.request_body(b"\x00\x00\x00\x20\x01" + b"x" * 10)  # 8193 declared, 10 sent


async def test_fields_the_gateway_does_not_know_never_reach_the_upstream(service: RedactionService) -> None:
    unscrubbed = b"jane.doe@example.com"
    # Field 99, length-delimited: bytes no gateway check or scrubber ever reads.
    extra = bytes([0x9A, 0x06, len(unscrubbed)]) + unscrubbed
    body = encode_frame(ipb.GenerateRequest(prompt="hi").SerializeToString() + extra)
    outcome = await InferenceExchange(service, GENERATE, tenant="", limits=LIMITS).request_body(body)
    assert unscrubbed not in outcome.body


# --- through the processor, as Envoy drives it ---------------------------------------------

def _headers() -> ep.ProcessingRequest:
    pairs = [(":path", GENERATE), (":method", "POST"), ("content-type", "application/grpc")]
    return ep.ProcessingRequest(request_headers=ep.HttpHeaders(headers=base_pb2.HeaderMap(headers=[
        base_pb2.HeaderValue(key=k, raw_value=v.encode()) for k, v in pairs])))


async def _drive(servicer: ExternalProcessorServicer, body: bytes) -> ep.ProcessingResponse:
    async def feed() -> AsyncIterator[ep.ProcessingRequest]:
        yield _headers()
        yield ep.ProcessingRequest(request_body=ep.HttpBody(body=body, end_of_stream=True))

    return [r async for r in servicer.Process(feed(), None)][-1]


@pytest.mark.parametrize("name, request_, error, fragment", REFUSED, ids=[r[0] for r in REFUSED])
async def test_the_processor_answers_a_limit_with_its_status_and_message(
        service: RedactionService, pool: HeldPool, name: str, request_: ipb.GenerateRequest,
        error: type[Exception], fragment: str) -> None:
    last = await _drive(ExternalProcessorServicer(service, limits=LIMITS), _body(request_))
    assert last.WhichOneof("response") == "immediate_response"
    assert last.immediate_response.grpc_status.status == grpc.StatusCode[error.status].value[0]
    assert fragment in last.immediate_response.body.decode()
    assert pool.texts == []


@pytest.mark.parametrize("message_timeout_s, budget_s", [(2.0, 1.8), (1.0, 0.8), (0.3, 0.15)])
def test_the_body_budget_answers_before_envoys_timer(message_timeout_s: float, budget_s: float) -> None:
    assert body_budget_s(message_timeout_s) == pytest.approx(budget_s)


async def test_a_prompt_too_slow_to_scrub_is_deadline_exceeded_naming_the_setting_before_envoy_gives_up(
        service: RedactionService, pool: HeldPool) -> None:
    pool.held_prefixes = {"slow"}
    servicer = ExternalProcessorServicer(service, limits=LIMITS, message_timeout_s=0.6)
    loop = asyncio.get_running_loop()
    started = loop.time()
    last = await _drive(servicer, _body(ipb.GenerateRequest(prompt="slow to scrub")))
    elapsed = loop.time() - started
    refusal = last.immediate_response
    assert refusal.grpc_status.status == grpc.StatusCode.DEADLINE_EXCEEDED.value[0]
    message = refusal.body.decode()
    assert "gateway.redaction_message_timeout_s" in message and "0.6 s" in message
    assert "nothing was forwarded" in message and "slow to scrub" not in message
    # The analysis was given until 0.4 s, so that the answer is ours, before Envoy's own timer.
    assert pool.deadlines[-1] - started == pytest.approx(body_budget_s(0.6), abs=0.05)
    assert elapsed >= 0.35


async def test_the_headers_answer_drops_the_content_length_of_envoys_buffered_body(
        service: RedactionService) -> None:
    async def feed() -> AsyncIterator[ep.ProcessingRequest]:
        yield _headers()

    [answer] = [r async for r in ExternalProcessorServicer(service).Process(feed(), None)]
    # Envoy's buffer filter sets it; the scrubbed body has another length, which ext_proc would refuse.
    assert list(answer.request_headers.response.header_mutation.remove_headers) == ["content-length"]
