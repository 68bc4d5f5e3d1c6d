"""Request limits and deadlines through a real Envoy and a real redaction service.

One suite for the module (`gateway_suite.start_suite`: the redaction service with one analysis worker,
Envoy as `ztgate envoy-config` renders it with the shipped `limits`, two RECORDING inference upstreams,
test doubles that record what reaches them). Each oversize or out-of-bounds request is refused with the
right status and a message naming the limit, and nothing reaches an upstream; a request too slow to
scrub is refused with our DEADLINE_EXCEEDED before Envoy's own timer, and the gateway serves on.

The suite's wait for a scrubbed body is 1 s plus 0.005 s a KiB, at most 2 s: a body of the prompt
limit (67 KiB in its messages) is given ~1.3 s, which Envoy keeps only because the redaction
service's override_message_timeout extends its 1 s message_timeout (else Envoy's own UNAVAILABLE
would come first). Its 256 texts of dense personal data take the one NER worker several times
that, on a fast machine too (at 0.01 s a KiB and 86 bytes a text, a fast machine once scrubbed it
in time).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import grpc
import pytest

from ztgate.common.scrub_timeout import ScrubTimeouts
from ztgate.gen.inference.v1 import inference_pb2 as ipb
from ztgate.gen.inference.v1 import inference_pb2_grpc
from ztgate.inference.limits import RequestLimits
from tests.e2e.gateway_suite import Suite, start_suite, stop_suite, wait_for
from tests.procs import admin_get

pytestmark = pytest.mark.slow

LIMITS = RequestLimits()  # the shipped defaults, which this suite runs with
MESSAGE_TIMEOUT_S = 1.0
PER_KIB_S = 0.005
MAX_MESSAGE_TIMEOUT_S = 2.0
DEFAULT_POLICY = "name: default\ndefault_action: pseudonymize\ndefault_secret_action: redact\n"
MIB = 1024 * 1024
PROSE = "The quick brown fox jumps over the lazy dog. "
# Dense personal data: every text of it keeps the NER model busy.
DENSE = "Maria Garcia from Madrid wrote to Jan Kowalski in Warsaw and Ahmed Khan in Leeds. "


@pytest.fixture(scope="module")
async def suite(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Suite]:
    suite = await start_suite(tmp_path_factory.mktemp("limits"), policies={"default.yaml": DEFAULT_POLICY},
                              message_timeout_s=MESSAGE_TIMEOUT_S, gateway_env={
                                  "ZTGATE_GATEWAY__REDACTION__MESSAGE_TIMEOUT_PER_KIB_S": str(PER_KIB_S),
                                  "ZTGATE_GATEWAY__REDACTION__MAX_MESSAGE_TIMEOUT_S": str(MAX_MESSAGE_TIMEOUT_S)})
    try:
        yield suite
    finally:
        await stop_suite(suite)


@pytest.fixture
async def big_stub(suite: Suite) -> AsyncIterator[inference_pb2_grpc.InferenceStub]:
    """A client that may send more than gRPC's default 4 MiB, as an attacker's would."""
    async with grpc.aio.insecure_channel(suite.gateway, options=[("grpc.max_send_message_length", 64 * MIB)]) as ch:
        yield inference_pb2_grpc.InferenceStub(ch)


def _chat(n: int, content: str = "hi there") -> list[ipb.ChatMessage]:
    return [ipb.ChatMessage(role="user", content=content) for _ in range(n)]


REFUSED = [
    ("20,000 messages", ipb.GenerateRequest(messages=_chat(20_000)), grpc.StatusCode.RESOURCE_EXHAUSTED,
     f"the request has 20000 messages; the limit is {LIMITS.max_messages} (limits.max_messages)"),
    ("8 MiB prompt", ipb.GenerateRequest(prompt="a" * 8 * MIB), grpc.StatusCode.RESOURCE_EXHAUSTED,
     f"over the gateway limit of {LIMITS.max_request_bytes} bytes (limits.max_request_bytes)"),  # Envoy's
    ("1 MiB prompt", ipb.GenerateRequest(prompt="a" * MIB), grpc.StatusCode.RESOURCE_EXHAUSTED,
     f"the prompt is {MIB} bytes (UTF-8); the limit is {LIMITS.max_prompt_bytes} bytes (limits.max_prompt_bytes)"),
    ("prompt one byte over", ipb.GenerateRequest(prompt="a" * (LIMITS.max_prompt_bytes + 1)),
     grpc.StatusCode.RESOURCE_EXHAUSTED, "(limits.max_prompt_bytes)"),
    ("max_tokens 10^9", ipb.GenerateRequest(prompt="hi", sampling=ipb.SamplingParams(max_tokens=10**9)),
     grpc.StatusCode.INVALID_ARGUMENT,
     f"max_tokens is 1000000000; the limit is {LIMITS.max_output_tokens} (limits.max_output_tokens)"),
    ("too many stops", ipb.GenerateRequest(prompt="hi", sampling=ipb.SamplingParams(
        stop=[f"s{i}" for i in range(LIMITS.max_stop_sequences + 1)])), grpc.StatusCode.INVALID_ARGUMENT,
     f"the limit is {LIMITS.max_stop_sequences} (limits.max_stop_sequences)"),
    ("a stop too long", ipb.GenerateRequest(prompt="hi", sampling=ipb.SamplingParams(
        stop=["x" * (LIMITS.max_stop_chars + 1)])), grpc.StatusCode.INVALID_ARGUMENT,
     f"the limit is {LIMITS.max_stop_chars} (limits.max_stop_chars)"),
]


async def _call(stub: inference_pb2_grpc.InferenceStub, method: str, request: ipb.GenerateRequest) -> None:
    if method == "Generate":
        await stub.Generate(request, timeout=30)
    else:
        [chunk async for chunk in stub.GenerateStream(request, timeout=30)]


@pytest.mark.parametrize("method", ["Generate", "GenerateStream"])
@pytest.mark.parametrize("name, request_, code, fragment", REFUSED, ids=[r[0] for r in REFUSED])
async def test_a_request_past_a_limit_is_refused_naming_it_and_reaches_no_upstream(
        suite: Suite, big_stub, method: str, name: str, request_: ipb.GenerateRequest,
        code: grpc.StatusCode, fragment: str) -> None:
    before = len(suite.recorded())
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await _call(big_stub, method, request_)
    assert info.value.code() == code, info.value
    assert fragment in info.value.details(), info.value.details()
    assert len(suite.recorded()) == before


@pytest.mark.parametrize("request_", [
    ipb.GenerateRequest(prompt=(PROSE * LIMITS.max_prompt_bytes)[:LIMITS.max_prompt_bytes]),
    ipb.GenerateRequest(messages=_chat(LIMITS.max_messages, "ok")),
    ipb.GenerateRequest(prompt="hi", sampling=ipb.SamplingParams(
        max_tokens=LIMITS.max_output_tokens, stop=["x" * LIMITS.max_stop_chars] * LIMITS.max_stop_sequences)),
], ids=["prompt at the limit", "messages at the limit", "max_tokens and stops at their limits"])
async def test_a_request_at_the_limits_goes_through(suite: Suite, big_stub, request_: ipb.GenerateRequest) -> None:
    before = len(suite.recorded())
    answer = await big_stub.Generate(request_, timeout=30)
    assert answer.served_by and len(suite.recorded()) == before + 1


def _slow_request() -> ipb.GenerateRequest:
    """Within every size limit, but each of its messages is a text for the NER model, one after another
    on the one worker: more than the time the gateway allows one ext_proc message."""
    each = LIMITS.max_prompt_bytes // LIMITS.max_messages
    return ipb.GenerateRequest(messages=_chat(LIMITS.max_messages, (DENSE * (each // len(DENSE) + 1))[:each]))


def _overrides(suite: Suite) -> dict[str, int]:
    """Envoy's ext_proc counters of override_message_timeout answers (received, ignored)."""
    text = admin_get(suite.admin, "/stats?filter=ext_proc.*override_message_timeout")
    counts = {"received": 0, "ignored": 0}
    for line in text.splitlines():
        name, _, value = line.rpartition(": ")
        for kind in counts:
            if name.endswith(f"override_message_timeout_{kind}"):
                counts[kind] += int(value)
    return counts


async def test_a_request_too_slow_to_scrub_is_deadline_exceeded_before_envoy_gives_up_and_the_gateway_serves_on(
        suite: Suite, big_stub) -> None:
    """Refused by us after the extended wait (Envoy's 1 s timer alone would have answered
    UNAVAILABLE first): Envoy honoured the override."""
    before = len(suite.recorded())
    overrides = _overrides(suite)
    dense = _slow_request()
    wait = ScrubTimeouts(MESSAGE_TIMEOUT_S, PER_KIB_S, MAX_MESSAGE_TIMEOUT_S).for_body(
        dense.ByteSize() + 5)  # the message in its gRPC frame, as ext_proc receives it
    assert wait > MESSAGE_TIMEOUT_S
    loop = asyncio.get_running_loop()
    started = loop.time()
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await big_stub.Generate(dense, timeout=30)
    elapsed = loop.time() - started
    assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED, info.value  # ours, not Envoy's UNAVAILABLE
    details = info.value.details()
    assert f"waits {wait:g} s" in details, details
    assert "gateway.redaction.message_timeout_per_kib_s" in details and "nothing was forwarded" in details
    assert elapsed > MESSAGE_TIMEOUT_S  # past Envoy's own timer: only the override kept it waiting
    assert _overrides(suite) == {"received": overrides["received"] + 1, "ignored": overrides["ignored"]}
    assert "Maria" not in details
    assert len(suite.recorded()) == before
    answer = await big_stub.Generate(ipb.GenerateRequest(prompt="I am Maria Garcia."), timeout=30)
    assert "Maria Garcia" in answer.text and len(suite.recorded()) == before + 1
    assert "Maria" not in suite.recorded()[-1].prompt


async def test_a_client_that_gives_up_mid_scrub_stops_its_analyses_and_the_gateway_serves_on(
        suite: Suite, big_stub) -> None:
    gave_up = '"the caller of an analysis gave up'
    # A short call first: the one worker is up and idle (the test before this one abandoned an analysis,
    # and its worker may still be being replaced; a call cancelled while it waits for a worker abandons
    # nothing).
    await _served_again(big_stub, ipb.GenerateRequest(prompt="I am Maria Garcia."))
    before = len(suite.recorded())
    abandoned = suite.redaction.log().count(gave_up)
    overrides = _overrides(suite)["received"]
    # One long prompt, one analysis of seconds: a cancel lands inside it. (The many short messages of
    # `_slow_request` leave gaps between analyses, where a cancel abandons nothing, rightly.)
    call = big_stub.Generate(ipb.GenerateRequest(prompt=(DENSE * LIMITS.max_prompt_bytes)[:LIMITS.max_prompt_bytes]),
                             timeout=30)
    # The service answers the body with its override_message_timeout just before it scrubs: once Envoy
    # counts that answer, scrubbing is under way (a fixed sleep raced a busy machine's Envoy buffering).
    await asyncio.to_thread(wait_for, lambda: _overrides(suite)["received"] > overrides,
                            "Envoy receives the override_message_timeout of the slow body", 10.0, suite.redaction)
    await asyncio.sleep(0.2)  # well inside the analysis, well before its deadline
    assert not call.done()
    call.cancel()
    # Envoy closes the ext_proc stream; the handler is cancelled, and so is the analysis on the worker.
    await asyncio.to_thread(wait_for, lambda: suite.redaction.log().count(gave_up) > abandoned,
                            "the redaction service abandons the analysis of a call its client left", 10.0,
                            suite.redaction)
    # The worker still on the long text is replaced (its slot is held till then, so the next call may be
    # refused while a new worker starts); the gateway then serves again, and nothing of the left call
    # reached an upstream.
    answer = await _served_again(big_stub, ipb.GenerateRequest(prompt="I am Maria Garcia."))
    assert "Maria Garcia" in answer.text and len(suite.recorded()) == before + 1


async def test_a_client_may_push_64_kib_on_a_stream_and_1_mib_on_a_connection_before_envoy_reads(
        suite: Suite) -> None:
    """Envoy's edge windows, as the real Envoy advertises them to a new HTTP/2 client (its SETTINGS
    and its first WINDOW_UPDATE, read off the wire). Without them (the control, run by hand) Envoy
    advertised 16 MiB and 24 MiB, so a stream refused at its headers or its size could still push
    its whole body into Envoy."""
    assert await _advertised_windows(suite.gateway) == (64 << 10, 1 << 20)


async def _advertised_windows(address: str) -> tuple[int, int]:
    """(initial stream window, connection window) a server gives a client that sent the HTTP/2
    preface and empty SETTINGS (RFC 9113: both start at 65,535; SETTINGS_INITIAL_WINDOW_SIZE is
    setting 4, and the connection window grows by WINDOW_UPDATE frames on stream 0)."""
    host, port = address.rsplit(":", 1)
    reader, writer = await asyncio.open_connection(host, int(port))
    stream_window = connection_window = 65_535
    try:
        writer.write(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0]))
        await writer.drain()
        while True:
            header = await asyncio.wait_for(reader.readexactly(9), 10)
            length, kind, flags = int.from_bytes(header[:3], "big"), header[3], header[4]
            stream = int.from_bytes(header[5:], "big") & 0x7FFF_FFFF
            payload = await reader.readexactly(length)
            if kind == 4 and not flags & 1:   # SETTINGS (not an ACK)
                for at in range(0, length, 6):
                    if int.from_bytes(payload[at:at + 2], "big") == 4:
                        stream_window = int.from_bytes(payload[at + 2:at + 6], "big")
            elif kind == 8 and stream == 0:   # WINDOW_UPDATE for the connection
                connection_window += int.from_bytes(payload, "big") & 0x7FFF_FFFF
                return stream_window, connection_window
    finally:
        writer.close()


async def _served_again(stub: inference_pb2_grpc.InferenceStub, request: ipb.GenerateRequest,
                        within_s: float = 60.0) -> ipb.GenerateResponse:
    """The first answer to `request`, sent again each second while the redaction service refuses it."""
    loop = asyncio.get_running_loop()
    until = loop.time() + within_s
    while True:
        try:
            return await stub.Generate(request, timeout=30)
        except grpc.aio.AioRpcError as exc:
            if exc.code() not in (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.UNAVAILABLE,
                                  grpc.StatusCode.RESOURCE_EXHAUSTED) or loop.time() > until:
                raise
        await asyncio.sleep(1.0)
