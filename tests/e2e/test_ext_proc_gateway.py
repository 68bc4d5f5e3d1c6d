"""Redaction enforced by Envoy: inference calls through a real Envoy and a real redaction service.

One suite per module: the redaction service (`ztgate serve redaction`, one analysis worker, a test
`default` policy that also blocks US SSNs), Envoy with the bootstrap `ztgate envoy-config` renders,
and two RECORDING inference upstreams (`RecordingInference`, test doubles in gateway_suite.py)
as primary and fallback. Tests that take parts away run last: the slow primary, the dead primary,
then the redaction service killed mid-call.
"""

from __future__ import annotations

import asyncio
import signal
import time
import urllib.request
from collections.abc import AsyncIterator

import grpc
import pytest

from ztgate_bench.gateway_bench import measure
from ztgate.gen.inference.v1 import inference_pb2 as ipb
from ztgate.redaction.vault import PLACEHOLDER_RE
from tests.e2e.gateway_suite import (
    INFERENCE,
    MODEL_SECRETS,
    Suite,
    start_suite,
    stop_suite,
)
from tests.procs import admin_get
from tests.stand_ins import stand_in, stand_ins

pytestmark = pytest.mark.slow

PERSON = "Maria Gonzalez"
EMAIL = "jane.doe@example.com"
PHONE = "+1 415 555 0134"
CARD = "4111 1111 1111 1111"
PII = (PERSON, EMAIL, PHONE, CARD)
AWS = "AKIAZ7Q3XH2LMN4PQ5RS"
GITHUB = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A"
SECRETS = (AWS, GITHUB)
CANARIES = PII + SECRETS
PROMPT = (f"Hi, I am {PERSON}. Mail me at {EMAIL} or call {PHONE}; my card is {CARD}. "
          f"Deploy with AWS key {AWS} and token {GITHUB}.")
# What the model reads instead (chat's default, ADR 0007): stand-ins for the person, e-mail and phone, the
# card's placeholder.
PERSON_SEEN, EMAIL_SEEN, PHONE_SEEN = stand_ins(
    [("PERSON", PERSON), ("EMAIL_ADDRESS", EMAIL), ("PHONE_NUMBER", PHONE)], PROMPT)
# The gateway's limit on one ext_proc answer (gateway.redaction.message_timeout_s) in this suite.
MESSAGE_TIMEOUT_S = 1.0
BLOCKING_DEFAULT = """\
# The built-in default policy, plus: prompts with a US SSN are refused.
name: default
default_action: pseudonymize
default_secret_action: redact
entities:
  US_SSN: block
"""


@pytest.fixture(scope="module")
async def suite(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Suite]:
    suite = await start_suite(tmp_path_factory.mktemp("ext_proc"), policies={"default.yaml": BLOCKING_DEFAULT},
                              message_timeout_s=MESSAGE_TIMEOUT_S)
    try:
        yield suite
    finally:
        await stop_suite(suite)



def _leaks(requests: list[ipb.GenerateRequest]) -> list[str]:
    wire = b"".join(r.SerializeToString() for r in requests).decode("utf-8", "replace")
    return [c for c in CANARIES if c in wire]


def _check_answer(text: str) -> None:
    for value in PII:  # every pseudonym came back as its original
        assert value in text, (value, text)
    assert not PLACEHOLDER_RE.search(text), text
    for secret in SECRETS + MODEL_SECRETS:  # no secret: the prompt's were never sent, the model's scrubbed
        assert secret not in text, (secret, text)
    assert "<AWS_ACCESS_KEY_ID>" in text and "<GITHUB_TOKEN>" in text


async def test_unary_prompt_reaches_upstream_scrubbed_and_answer_comes_back_restored(suite: Suite, stub) -> None:
    before = len(suite.recorded())
    answer = await stub.Generate(ipb.GenerateRequest(
        prompt=PROMPT, session_id="client-session",
        sampling=ipb.SamplingParams(stop=[f"Bye {PERSON}", GITHUB])), timeout=30)
    [sent] = suite.recorded()[before:]
    assert _leaks([sent]) == []  # stop sequences included
    assert f"I am {PERSON_SEEN}. Mail me at {EMAIL_SEEN} or call {PHONE_SEEN}; my card is <CREDIT_CARD_1>." \
        in sent.prompt and "<AWS_ACCESS_KEY_ID>" in sent.prompt
    assert list(sent.sampling.stop) == [f"Bye {PERSON_SEEN}", "<GITHUB_TOKEN>"]
    assert sent.session_id and sent.session_id != "client-session"
    _check_answer(answer.text)
    assert answer.served_by == "primary" and list(answer.token_ids) == []


async def test_chat_messages_reach_upstream_scrubbed_and_stream_comes_back_restored(suite: Suite, stub) -> None:
    before = len(suite.recorded())
    request = ipb.GenerateRequest(messages=[
        ipb.ChatMessage(role="system", content="You are terse."),
        ipb.ChatMessage(role="user", content=PROMPT[:PROMPT.index(" or call")]),
        ipb.ChatMessage(role="user", content=PROMPT[PROMPT.index(" or call"):])])
    chunks = [c async for c in stub.GenerateStream(request, timeout=30)]
    [sent] = suite.recorded()[before:]
    assert _leaks([sent]) == [] and sent.messages[0].content == "You are terse."
    text = "".join(c.text for c in chunks)
    _check_answer(text)
    assert len(chunks) > 20 and chunks[-1].finish_reason == "stop"  # tiny chunks made it through


async def test_client_tenant_header_and_body_tenant_are_ignored(suite: Suite, stub) -> None:
    before = len(suite.recorded())
    await stub.Generate(ipb.GenerateRequest(prompt=f"mail {EMAIL}", tenant="acme"),
                        metadata=(("x-ztgate-tenant", "acme"),), timeout=30)
    [sent] = suite.recorded()[before:]
    assert sent.tenant == "default"  # the gateway's tenant (`default` without tokens), not the body's
    # The default policy's stand-in, not acme's hash.
    assert sent.prompt == f"mail {stand_in('EMAIL_ADDRESS', EMAIL, f'mail {EMAIL}')}"


# Values disguised as issue #12 found them reaching a model: each must be replaced before upstream.
DISGUISED = {
    "card with soft hyphens": "4111\u00ad1111\u00ad1111\u00ad1111",
    "AWS key with a zero-width space": "AKIAZ7Q3XH2L\u200bMN4PQ5RS",
    "IBAN grouped by no-break spaces": "DE89\u00a03704\u00a00044\u00a00532\u00a00130\u00a000",
    "percent-encoded e-mail in a URL": "jane.doe%40example.com",
    "full-width phone": "+1 ４１５ ５５５ ０１３４",
}


async def test_disguised_values_never_reach_upstream(suite: Suite, stub) -> None:
    before = len(suite.recorded())
    prompt = ("Card " + DISGUISED["card with soft hyphens"] + ", key " + DISGUISED["AWS key with a zero-width space"]
              + ", IBAN " + DISGUISED["IBAN grouped by no-break spaces"] + ", see https://crm.example/?u="
              + DISGUISED["percent-encoded e-mail in a URL"] + " and call " + DISGUISED["full-width phone"] + ".")
    await stub.Generate(ipb.GenerateRequest(prompt=prompt), timeout=30)
    [sent] = suite.recorded()[before:]
    assert {name for name, value in DISGUISED.items() if value in sent.prompt} == set(), sent.prompt
    # A disguised SSN is an SSN: this suite's policy blocks it as it blocks a plain one.
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await stub.Generate(ipb.GenerateRequest(prompt="my ssn is ５３６-２２-１９８４"), timeout=30)
    assert refused.value.code() is grpc.StatusCode.PERMISSION_DENIED
    assert len(suite.recorded()) == before + 1


async def test_blocked_prompt_is_permission_denied_and_never_reaches_upstream(suite: Suite, stub) -> None:
    before = len(suite.recorded())
    for call in (stub.Generate, stub.GenerateStream):
        with pytest.raises(grpc.aio.AioRpcError) as info:
            response = call(ipb.GenerateRequest(prompt=f"my SSN is 536-22-8790, I am {PERSON}"),
                            timeout=30)
            if hasattr(response, "__aiter__"):
                [c async for c in response]
            else:
                await response
        assert info.value.code() == grpc.StatusCode.PERMISSION_DENIED
        assert "US_SSN" in info.value.details() and "536-22-8790" not in info.value.details()
    assert len(suite.recorded()) == before


@pytest.mark.parametrize("method, body, code", [
    ("Generate", b"\xff\xff\xff", grpc.StatusCode.INVALID_ARGUMENT),
    ("Embed", ipb.GenerateRequest(prompt=PROMPT).SerializeToString(), grpc.StatusCode.UNIMPLEMENTED),
])
async def test_bad_frames_and_unknown_methods_are_refused_before_upstream(
        suite: Suite, method: str, body: bytes, code: grpc.StatusCode) -> None:
    before = len(suite.recorded())
    async with grpc.aio.insecure_channel(suite.gateway) as channel:
        call = channel.unary_unary(f"/{INFERENCE}/{method}")
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await call(body, timeout=30)
    assert info.value.code() == code, info.value
    assert len(suite.recorded()) == before


async def test_concurrent_calls_each_get_their_own_pseudonyms_back(suite: Suite, stub) -> None:
    people = [f"user{i}@example.com" for i in range(8)]
    answers = await asyncio.gather(*(
        stub.Generate(ipb.GenerateRequest(prompt=f"I am {email}"), timeout=30) for email in people))
    for email, answer in zip(people, answers):
        assert email in answer.text and not [p for p in people if p != email and p in answer.text]


async def test_gateway_bench_measures_all_three_series_without_errors(suite: Suite) -> None:
    before = len(suite.primary.requests)
    result = await measure(suite.gateway, f"127.0.0.1:{suite.primary.port}", suite.redaction_address,
                           calls=20, warmup=3)
    # The bench's "direct" series calls the upstream around the gateway, by design: those requests
    # (the only ones without a gateway session) are not what the leak checks are about.
    direct = [r for r in suite.primary.requests[before:] if not r.session_id]
    assert len(direct) == 23
    suite.primary.requests[before:] = [r for r in suite.primary.requests[before:] if r.session_id]
    assert result.calls == 20 and not any(result.errors.values())
    for series in (result.direct, result.gateway, result.redaction):
        assert len(series.durations_ms) == 20 and 0 < series.p50_ms <= series.p99_ms
    assert result.gateway.p50_ms > result.direct.p50_ms


async def test_frozen_redaction_times_out_closed_and_nothing_reaches_upstream(suite: Suite, stub) -> None:
    before = len(suite.recorded())
    suite.redaction.process.send_signal(signal.SIGSTOP)
    try:
        started = time.perf_counter()
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await stub.Generate(ipb.GenerateRequest(prompt=PROMPT), timeout=30)
        elapsed = time.perf_counter() - started
    finally:
        suite.redaction.process.send_signal(signal.SIGCONT)
    assert info.value.code() == grpc.StatusCode.UNAVAILABLE, info.value  # status_on_error: 503
    assert MESSAGE_TIMEOUT_S * 0.9 < elapsed < MESSAGE_TIMEOUT_S + 3, elapsed
    assert len(suite.recorded()) == before
    answer = await stub.Generate(ipb.GenerateRequest(prompt=f"I am {EMAIL}"), timeout=30)
    assert EMAIL in answer.text  # thawed, the gateway serves again


def _runtime(admin: str, percent: int) -> None:
    request = urllib.request.Request(
        f"http://{admin}/runtime_modify?ztgate.inference.primary_percent={percent}", method="POST")
    with urllib.request.urlopen(request, timeout=2) as resp:
        assert resp.status == 200


async def test_runtime_key_of_the_slo_controller_moves_traffic_to_the_fallback_and_back(
        suite: Suite, stub) -> None:
    _runtime(suite.admin, 0)
    try:
        shifted = [await stub.Generate(ipb.GenerateRequest(prompt="hi"), timeout=30) for _ in range(5)]
    finally:
        _runtime(suite.admin, 100)
    back = await stub.Generate(ipb.GenerateRequest(prompt="hi"), timeout=30)
    assert {a.served_by for a in shifted} == {"fallback"} and back.served_by == "primary"


async def test_slow_primary_is_abandoned_after_the_per_try_timeout_for_the_fallback(suite: Suite, stub) -> None:
    suite.primary.delay_s = 5.0
    try:
        started = time.perf_counter()
        answer = await stub.Generate(ipb.GenerateRequest(prompt=f"I am {EMAIL}"), timeout=30)
        elapsed = time.perf_counter() - started
    finally:
        suite.primary.delay_s = 0.0
    assert answer.served_by == "fallback" and EMAIL in answer.text
    assert 1.1 < elapsed < 3.0, elapsed


async def test_dead_primary_fails_over_to_the_fallback_and_retries_carry_the_scrubbed_body(
        suite: Suite, stub) -> None:
    await suite.primary.server.stop(0)
    before = len(suite.fallback.requests)
    # At once, before health checks notice: first tries are refused and retried on the fallback.
    unary = [stub.Generate(ipb.GenerateRequest(prompt=f"I am {EMAIL}"), timeout=30) for _ in range(20)]

    async def stream() -> list[ipb.GenerateChunk]:
        return [c async for c in stub.GenerateStream(ipb.GenerateRequest(prompt=PROMPT), timeout=30)]

    *answers, chunks = await asyncio.gather(*unary, stream())
    assert {a.served_by for a in answers} == {"fallback"} and chunks[-1].served_by == "fallback"
    assert all(EMAIL in a.text for a in answers)
    _check_answer("".join(c.text for c in chunks))
    assert _leaks(suite.fallback.requests[before:]) == []
    retried = admin_get(suite.admin, "/stats?filter=inference_primary_first.upstream_rq_retry$")
    assert int(retried.split(":")[-1]) > 0, retried  # the retry path was taken


async def test_redaction_killed_mid_call_fails_every_call_and_no_canary_reaches_upstream(
        suite: Suite, stub) -> None:
    suite.fallback.chunk_chars, suite.fallback.delay_s = 1, 0.5
    before = len(suite.recorded())
    in_flight = stub.GenerateStream(ipb.GenerateRequest(prompt=PROMPT), timeout=30)
    await in_flight.read()  # the prompt went through; the answer is under way
    suite.redaction.process.send_signal(signal.SIGKILL)
    suite.redaction.process.wait(10)
    with pytest.raises(grpc.aio.AioRpcError):  # the rest of its answer cannot be scrubbed: it fails
        while await in_flight.read() is not grpc.aio.EOF:
            pass
    for call in (stub.Generate, stub.GenerateStream):
        for _ in range(3):
            with pytest.raises(grpc.aio.AioRpcError) as info:
                response = call(ipb.GenerateRequest(prompt=PROMPT), timeout=10)
                if hasattr(response, "__aiter__"):
                    [c async for c in response]
                else:
                    await response
            assert info.value.code() == grpc.StatusCode.UNAVAILABLE, info.value
    sent_after = suite.recorded()[before:]
    assert len(sent_after) == 1  # only the call scrubbed before the kill
    assert _leaks(suite.recorded()) == []
