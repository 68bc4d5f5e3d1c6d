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

from ztgate.common.identity import TenantAccess
from ztgate.common.scrub_timeout import OVERRIDE_FROM_BYTES, ScrubTimeouts, scrub_budget_s
from ztgate.gateway.config import GatewaySettings
from ztgate.gen.inference.v1 import inference_pb2 as ipb
from ztgate.inference.limits import LimitExceeded, RequestLimits, RequestTooLarge
from ztgate.gateway.processor.ext_proc import ExternalProcessorServicer
from ztgate.gateway.processor.grpc_api import FrameReader, InferenceExchange, encode_frame
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.patterns.scanner import PatternScanner
from ztgate.redaction.policies import PolicyStore
from ztgate.redaction.service import RedactionService
from ztgate.redaction.vault import Vault
from tests.fake_context import FakeContext
from tests.unit.redaction.pattern_service import TEST_POLICIES
from tests.unit.redaction.pool_doubles import HeldPool

GENERATE = "/ztgate.inference.v1.Inference/Generate"
BUDGET = GatewaySettings().first_token_budget
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


def _servicer(service: RedactionService, timeouts: ScrubTimeouts | None = None,
              limits: RequestLimits | None = LIMITS) -> ExternalProcessorServicer:
    return ExternalProcessorServicer(service, TenantAccess(None), BUDGET, limits=limits,
                                     timeouts=timeouts)


async def _answers(servicer: ExternalProcessorServicer, body: bytes) -> list[ep.ProcessingResponse]:
    """Every answer to the headers and the body, in order (a plaintext caller, no deadline)."""
    async def feed() -> AsyncIterator[ep.ProcessingRequest]:
        yield _headers()
        yield ep.ProcessingRequest(request_body=ep.HttpBody(body=body, end_of_stream=True))

    return [r async for r in servicer.Process(feed(), FakeContext())]


async def _drive(servicer: ExternalProcessorServicer, body: bytes) -> ep.ProcessingResponse:
    return (await _answers(servicer, body))[-1]


@pytest.mark.parametrize("name, request_, error, fragment", REFUSED, ids=[r[0] for r in REFUSED])
async def test_the_processor_answers_a_limit_with_its_status_and_message(
        service: RedactionService, pool: HeldPool, name: str, request_: ipb.GenerateRequest,
        error: type[Exception], fragment: str) -> None:
    last = await _drive(_servicer(service), _body(request_))
    assert last.WhichOneof("response") == "immediate_response"
    assert last.immediate_response.grpc_status.status == grpc.StatusCode[error.status].value[0]
    assert fragment in last.immediate_response.body.decode()
    assert pool.texts == []


@pytest.mark.parametrize("wait_s, budget_s", [(2.0, 1.8), (1.0, 0.8), (0.3, 0.15)])
def test_the_scrub_budget_answers_before_envoys_timer(wait_s: float, budget_s: float) -> None:
    assert scrub_budget_s(wait_s) == pytest.approx(budget_s)


async def test_a_prompt_too_slow_to_scrub_is_deadline_exceeded_naming_the_setting_before_envoy_gives_up(
        service: RedactionService, pool: HeldPool) -> None:
    pool.held_prefixes = {"slow"}
    servicer = _servicer(service, ScrubTimeouts(base_s=0.6, per_kib_s=0.1, max_s=5.0))
    loop = asyncio.get_running_loop()
    started = loop.time()
    answers = await _answers(servicer, _body(ipb.GenerateRequest(prompt="slow to scrub")))
    elapsed = loop.time() - started
    # A short body: Envoy's own message_timeout is the wait, no override is sent.
    assert [a.WhichOneof("response") for a in answers] == ["request_headers", "immediate_response"]
    refusal = answers[-1].immediate_response
    assert refusal.grpc_status.status == grpc.StatusCode.DEADLINE_EXCEEDED.value[0]
    message = refusal.body.decode()
    assert "gateway.redaction.message_timeout_s" in message and "0.6 s" in message
    assert "gateway.redaction.max_message_timeout_s" in message
    assert "nothing was forwarded" in message and "slow to scrub" not in message
    # The analysis was given until 0.4 s, so that the answer is ours, before Envoy's own timer.
    assert pool.deadlines[-1] - started == pytest.approx(scrub_budget_s(0.6), abs=0.05)
    assert elapsed >= 0.35


@pytest.mark.parametrize("prompt_bytes", [OVERRIDE_FROM_BYTES + 1, 10_000, 40_000, 200_000])
async def test_a_long_prompt_first_extends_envoys_wait_and_its_scrub_ends_by_the_extended_wait(
        service: RedactionService, pool: HeldPool, prompt_bytes: int) -> None:
    """The override comes before any scrubbing (Envoy restarts its timer for the body on it), grows
    with the body, stops at max_message_timeout, and the analyses' deadline follows it."""
    pool.held_prefixes = {"slow"}
    timeouts = ScrubTimeouts(base_s=0.3, per_kib_s=0.01, max_s=0.9)
    limits = RequestLimits(max_prompt_bytes=1 << 20)
    body = _body(ipb.GenerateRequest(prompt="slow " + "x" * (prompt_bytes - 5)))
    started = asyncio.get_running_loop().time()
    answers = await _answers(_servicer(service, timeouts, limits), body)
    assert [a.WhichOneof("response") for a in answers] == [
        "request_headers", None, "immediate_response"]
    override = answers[1].override_message_timeout.ToMilliseconds() / 1000
    expected = min(0.3 + 0.01 * len(body) / 1024, 0.9)
    assert override == pytest.approx(expected, abs=0.002) and 0.3 < override <= 0.9
    assert answers[1].ListFields() == [(ep.ProcessingResponse.DESCRIPTOR.fields_by_name[
        "override_message_timeout"], answers[1].override_message_timeout)]  # nothing else in it
    assert pool.deadlines[-1] - started == pytest.approx(scrub_budget_s(override), abs=0.05)
    message = answers[-1].immediate_response.body.decode()
    assert f"{override:g} s" in message and "gateway.redaction.message_timeout_per_kib_s" in message


async def test_a_long_prompt_that_scrubs_in_time_is_forwarded_after_the_override(
        service: RedactionService) -> None:
    timeouts = ScrubTimeouts(base_s=0.5, per_kib_s=0.1, max_s=5.0)
    answers = await _answers(_servicer(service, timeouts, RequestLimits(max_prompt_bytes=1 << 16)),
                             _body(ipb.GenerateRequest(prompt="word " * 4000)))
    assert [a.WhichOneof("response") for a in answers] == ["request_headers", None, "request_body"]
    assert answers[1].override_message_timeout.ToMilliseconds() == pytest.approx(
        (0.5 + 0.1 * len(_body(ipb.GenerateRequest(prompt="word " * 4000))) / 1024) * 1000, abs=2)


def test_the_scaled_wait_starts_past_a_few_kib_and_stops_at_the_maximum() -> None:
    timeouts = ScrubTimeouts(base_s=2.0, per_kib_s=0.1, max_s=8.0)
    assert timeouts.override_s(OVERRIDE_FROM_BYTES) is None
    assert timeouts.for_body(OVERRIDE_FROM_BYTES) == 2.0
    assert timeouts.override_s(32 * 1024) == pytest.approx(5.2)
    assert timeouts.override_s(1 << 20) == 8.0
    assert ScrubTimeouts(base_s=2.0, per_kib_s=0.0, max_s=2.0).override_s(1 << 20) is None


async def test_the_headers_answer_drops_the_content_length_of_envoys_buffered_body(
        service: RedactionService) -> None:
    async def feed() -> AsyncIterator[ep.ProcessingRequest]:
        yield _headers()

    [answer] = [r async for r in _servicer(service).Process(feed(), FakeContext())]
    # Envoy's buffer filter sets it; the scrubbed body has another length, which ext_proc would refuse.
    assert list(answer.request_headers.response.header_mutation.remove_headers) == ["content-length"]


async def test_a_tenant_past_its_cpu_budget_is_refused_before_its_body_is_read_naming_the_key(
        scanner: PatternScanner, pool: HeldPool) -> None:
    """One budget of the redaction process's CPU per tenant (ADR 0031): a tenant whose earlier work
    spent it is answered RESOURCE_EXHAUSTED (429 on the door) naming the key at its headers, before
    its body is sent or anything reaches the analysis pool; once the debt is paid back it is served again."""
    service = RedactionService(policies=PolicyStore.load(TEST_POLICIES), pool=pool, scanner=scanner,
                               vault=Vault(), max_text_bytes=1 << 20, cpu_ms_per_s_per_tenant=1000,
                               operators=Operators(hash_key="test-hash-key-0123456",
                                                   encrypt_key="0123456789abcdef"))
    service.cpu_budget.charge("default", 3.0)   # as the lanes charge finished jobs: 2 s in debt
    body = _body(ipb.GenerateRequest(prompt="hi"))
    last = await _drive(_servicer(service), body)
    assert [a.WhichOneof("response") for a in await _answers(_servicer(service), body)] == [
        "immediate_response"]   # at the headers: Envoy never sends the body over
    refusal = last.immediate_response
    assert refusal.grpc_status.status == grpc.StatusCode.RESOURCE_EXHAUSTED.value[0]
    assert "redaction.cpu_ms_per_s_per_tenant" in refusal.body.decode()
    assert pool.texts == []
    await asyncio.sleep(2.1)   # 1,000 ms a second pays it back
    served = await _drive(_servicer(service), body)
    assert served.WhichOneof("response") == "request_body"
