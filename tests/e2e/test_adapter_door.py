"""ztgate's own Inference service behind the OpenAI door through the adapter, driven by the official
`openai` package (sync and streaming): Envoy -> ext_proc redaction -> adapter -> the gateway's own
gRPC Inference route (ext_proc again, primary/fallback) -> the inference upstream.

The parts are real (redaction service, Envoy, `ztgate serve openai-adapter`), except two TEST
DOUBLES that record what crossed a boundary: the inference upstreams are `RecordingInference`
(tests/e2e/gateway_suite.py: no model; each answer echoes the placeholders it saw plus secrets of
its own, split across chunks), and between Envoy and the adapter sits a RECORDING PROXY
(`RecordingOpenAI` with `forward_to`) that records every request the adapter receives. The
adapter's own log is at debug level and must not hold a canary either.
Tokens are on (gateway.auth): the adapter gets the caller's verified token from Envoy and calls
the gRPC route with it, so the call runs there as the token's tenant.
(tests/e2e/test_adapter_up.py runs the real model under `ztgate up`.)
"""

from __future__ import annotations

import asyncio
import sys
import urllib.request
from collections.abc import AsyncIterator
from typing import NamedTuple

import grpc
import openai
import pytest

from ztgate.config import ZtgateConfig
from ztgate.gateway.auth import keygen, mint
from ztgate.redaction.detection.patterns.scanner import default_cache_dir
from ztgate.redaction.vault import PLACEHOLDER_RE
from tests.e2e.gateway_suite import MODEL_SECRETS, Suite, start_suite, stop_suite, wait_for
from tests.e2e.openai_upstream import RecordingOpenAI
from tests.procs import Child, free_port, spawn
from tests.stand_ins import pseudonyms_in, stand_in

pytestmark = pytest.mark.slow
SHARED_CACHE = {"ZTGATE_CACHE_DIR": str(default_cache_dir())}
MODEL = ZtgateConfig().inference.model_name
PERSON = "Maria Gonzalez"
EMAIL = "jane.doe@example.com"
AWS = "AKIAZ7Q3XH2LMN4PQ5RS"
CANARIES = (PERSON, EMAIL, AWS)
PROMPT = f"Hi, I am {PERSON}; mail me at {EMAIL}. Deploy with AWS key {AWS}."
TENANT = "acme"
POLICY = "name: default\ndefault_action: pseudonymize\ndefault_secret_action: redact\n"


class Door(NamedTuple):
    suite: Suite
    recorder: RecordingOpenAI  # the recording proxy in front of the adapter
    adapter: Child
    token: str  # a valid token of TENANT with every scope


@pytest.fixture(scope="module")
async def door(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Door]:
    logs = tmp_path_factory.mktemp("adapter")
    key, jwks = keygen(logs / "tokens")
    adapter_listen = f"127.0.0.1:{free_port()}"
    recorder = RecordingOpenAI("adapter", forward_to=f"http://{adapter_listen}")
    recorder.start()
    suite = adapter = None
    try:
        # Envoy routes the model to the recorder, which passes every request on to the adapter.
        suite = await start_suite(logs, policies={"default.yaml": POLICY}, message_timeout_s=5.0,
                                  gateway_env={"ZTGATE_OPENAI_ADAPTER__LISTEN": f"127.0.0.1:{recorder.port}",
                                               "ZTGATE_GATEWAY__AUTH__JWKS_PATH": str(jwks)},
                                  redaction_env=SHARED_CACHE)
        adapter = spawn("openai-adapter", [sys.executable, "-m", "ztgate.cli", "serve",
                                           "openai-adapter", "--listen", adapter_listen], logs,
                        env={**suite.env, "ZTGATE_LOGGING__LEVEL": "debug"})

        def ready() -> bool:
            with urllib.request.urlopen(f"http://{adapter_listen}/ready", timeout=1):  # noqa: S310
                return True

        await asyncio.to_thread(wait_for, ready, "the adapter answers /ready", 60.0, adapter)
        yield Door(suite, recorder, adapter,
                   mint(key, tenant=TENANT, issuer="ztgate", audience="ztgate-gateway"))
    finally:
        if adapter is not None:
            adapter.stop()
        if suite is not None:
            await stop_suite(suite)
        recorder.stop()


def _client(door: Door) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"http://{door.suite.gateway}/v1", api_key=door.token,
                         max_retries=0, timeout=60)


def _nothing_leaked(door: Door, answer: str) -> None:
    suite, recorder, adapter, _ = door
    # Neither the adapter nor the inference service ever saw a canary; the adapter logs none.
    assert [c for c in CANARIES if c in recorder.wire()] == []
    mail = stand_in("EMAIL_ADDRESS", EMAIL, PROMPT)  # what the model reads (chat's default, ADR 0007)
    assert mail in recorder.received[-1].body.decode()
    seen = "".join(str(r) for r in suite.recorded())
    # The adapter's gRPC call is scrubbed again (a session of its own): a stand-in of the stand-in.
    assert [c for c in CANARIES if c in seen] == [] and any("@example." in p for p in pseudonyms_in(seen))
    assert "request of" in adapter.log()  # its debug log is on, and says what it may say
    assert [c for c in CANARIES if c in adapter.log()] == []
    # The model's answer echoed the stand-ins: the client gets the values back, and none of
    # the model's own secrets.
    assert PERSON in answer and EMAIL in answer, answer
    assert not PLACEHOLDER_RE.search(answer) and not any(s in answer for s in MODEL_SECRETS), answer


def _async_client(door: Door) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(base_url=f"http://{door.suite.gateway}/v1", api_key=door.token,
                              max_retries=0, timeout=60)


# The recording inference upstreams serve on this test session's event loop: every call is made
# off it (the sync client in a thread, or the async client).
async def test_a_chat_completion_reaches_ztgates_own_inference_scrubbed_and_restored(door) -> None:
    suite = door.suite
    answer = await asyncio.to_thread(lambda: _client(door).chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": PROMPT}], max_tokens=16, temperature=0))
    text = answer.choices[0].message.content
    _nothing_leaked(door, text)
    assert answer.model == MODEL and answer.object == "chat.completion"
    assert answer.choices[0].finish_reason == "stop"
    assert answer.model_extra["ztgate"]["served_by"] in ("primary", "fallback")
    sent = suite.recorded()[-1]
    assert sent.sampling.max_tokens == 16 and sent.sampling.temperature == 0.0
    # The adapter got the caller's verified token, and the gRPC route ran as its tenant.
    assert door.recorder.received[-1].headers["authorization"] == f"Bearer {door.token}"
    assert sent.tenant == TENANT


async def test_without_a_token_the_door_refuses_before_the_adapter(door) -> None:
    suite, recorder = door.suite, door.recorder
    before = len(recorder.received)
    client = openai.AsyncOpenAI(base_url=f"http://{suite.gateway}/v1", api_key="not-a-token",
                                max_retries=0, timeout=60)
    with pytest.raises(openai.AuthenticationError):
        await client.chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": PROMPT}], max_tokens=4)
    assert len(recorder.received) == before


async def test_a_streamed_chat_and_completion_arrive_as_openai_chunks(door) -> None:
    stream = await _async_client(door).chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": PROMPT}], max_tokens=16, stream=True,
        stream_options={"include_usage": True})
    chunks = [c async for c in stream]
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    _nothing_leaked(door, text)
    assert chunks[0].choices[0].delta.role == "assistant"
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "stop"
    assert chunks[-1].choices == [] and chunks[-1].usage is not None
    completion = await _async_client(door).completions.create(model=MODEL, prompt=PROMPT,
                                                               max_tokens=16, stream=True)
    _nothing_leaked(door, "".join([c.choices[0].text async for c in completion if c.choices]))


async def test_a_failing_primary_fails_over_behind_the_adapter_and_bad_fields_are_400s(door) -> None:
    suite = door.suite
    suite.primary.fail = grpc.StatusCode.UNAVAILABLE
    try:
        answer = await _async_client(door).chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": "hello"}], max_tokens=8)
    finally:
        suite.primary.fail = None
    # The gateway's gRPC route retried on the other instance: the adapter kept its routing.
    assert answer.model_extra["ztgate"]["served_by"] == "fallback"
    with pytest.raises(openai.BadRequestError) as caught:
        await _async_client(door).chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": "hello"}], presence_penalty=0.5)
    assert "presence_penalty" in caught.value.message
