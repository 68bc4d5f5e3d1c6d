"""The OpenAI-compatible HTTP door, driven by the official `openai` package (sync, async, streaming).

One suite: a real redaction service and a real Envoy (tests/e2e/gateway_suite.py, with a test
`default` policy that blocks US SSNs), with `gateway.openai_upstreams` naming two RECORDING
OpenAI upstreams (`RecordingOpenAI`, test doubles in openai_upstream.py that record every request
they receive and answer with the placeholders they saw plus a secret of their own, in SSE events of
3 characters): `first` and `second` both serve `echo` (in that order: failover), `first` has an API
key that Envoy injects from a file. A second Envoy of the same suite checks tokens and a rate limit.
The redaction service is killed in the last test.
"""

from __future__ import annotations

import json
import signal
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from email.message import Message

import openai
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ztgate.gateway.auth import keygen, mint
from ztgate.redaction.vault import PLACEHOLDER_RE
from tests.e2e.gateway_suite import MODEL_SECRETS, Suite, add_gateway, start_suite, stop_suite
from ztgate.redaction.detection.patterns.scanner import default_cache_dir
from tests.e2e.openai_upstream import RecordingOpenAI
from tests.openai_requests import CARD, PRIVATE, VENDOR_FIELD, answers, requests
from tests.stand_ins import stand_in, stand_ins

pytestmark = pytest.mark.slow
# The Hyperscan database from the shared cache, whose file names carry the rules' hash (what the
# suite runs does not depend on it): compiling it afresh takes minutes on a busy 2-core machine.
SHARED_CACHE = {"ZTGATE_CACHE_DIR": str(default_cache_dir())}

PERSON = "Maria Gonzalez"
EMAIL = "jane.doe@example.com"
AWS = "AKIAZ7Q3XH2LMN4PQ5RS"
CANARIES = (PERSON, EMAIL, AWS)
PROMPT = f"Hi, I am {PERSON}; mail me at {EMAIL}. Deploy with AWS key {AWS}."
# What an upstream reads instead of the person and the address: stand-ins (chat's default, ADR 0007).
PERSON_SEEN, EMAIL_SEEN = stand_ins([("PERSON", PERSON), ("EMAIL_ADDRESS", EMAIL)], PROMPT)
UPSTREAM_KEY = "sk-upstream-" + "k" * 24
MODEL = "echo"
KEYED = "keyed-model"  # served by an upstream whose API key Envoy injects
BLOCKING_DEFAULT = """\
name: default
default_action: pseudonymize
default_secret_action: redact
entities:
  US_SSN: block
"""
RATE_PER_S = 1


@pytest.fixture(scope="module")
async def door(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[tuple[Suite, dict]]:
    logs = tmp_path_factory.mktemp("openai")
    first, second, keyed = RecordingOpenAI("first"), RecordingOpenAI("second"), RecordingOpenAI("keyed")
    for upstream in (first, second, keyed):
        upstream.start()
    (logs / "upstream.key").write_text(UPSTREAM_KEY)
    upstreams = json.dumps([
        {"name": "first", "base_url": first.base_url, "models": [MODEL, "only-first"]},
        {"name": "second", "base_url": second.base_url, "models": [MODEL]},
        {"name": "keyed", "base_url": keyed.base_url, "models": [KEYED],
         "api_key_file": str(logs / "upstream.key")}])
    # This suite runs no adapter of ztgate's own model (tests/e2e/test_adapter_door.py does).
    door_env = {"ZTGATE_GATEWAY__OPENAI_UPSTREAMS": upstreams, "ZTGATE_OPENAI_ADAPTER__ENABLED": "false",
                "ZTGATE_LIMITS__MAX_REQUEST_BYTES": "65536", "ZTGATE_LIMITS__MAX_PROMPT_BYTES": "16384"}
    suite = await start_suite(logs, policies={"default.yaml": BLOCKING_DEFAULT}, message_timeout_s=2.0,
                              gateway_env=door_env,
                              redaction_env=SHARED_CACHE)
    key, jwks = keygen(logs / "tokens")
    try:
        # add_gateway starts from the suite's base settings: the door's are given again.
        listen, _ = await add_gateway(suite, "envoy-auth", {
            **door_env, "ZTGATE_GATEWAY__AUTH__JWKS_PATH": str(jwks),
            "ZTGATE_GATEWAY__RATE_LIMIT__REQUESTS_PER_S": str(RATE_PER_S),
            "ZTGATE_GATEWAY__RATE_LIMIT__BURST": "2"})
        yield suite, {"first": first, "second": second, "keyed": keyed, "auth": listen, "key": key}
    finally:
        await stop_suite(suite)
        for upstream in (first, second, keyed):
            upstream.stop()


def _client(address: str, key: str = "not-checked") -> openai.OpenAI:
    return openai.OpenAI(base_url=f"http://{address}/v1", api_key=key, max_retries=0, timeout=30)


def _sent(door: tuple[Suite, dict]) -> str:
    return "".join(door[1][name].wire() for name in ("first", "second", "keyed"))


def _check(text: str) -> None:
    assert EMAIL in text and PERSON in text, text  # pseudonyms restored
    assert not PLACEHOLDER_RE.search(text), text
    assert MODEL_SECRETS[0] not in text and "<AWS_ACCESS_KEY_ID>" in text  # the model's secret scrubbed


def test_sync_chat_reaches_the_upstream_scrubbed_and_comes_back_restored(door) -> None:
    suite, parts = door
    answer = _client(suite.gateway).chat.completions.create(
        model=MODEL, messages=[{"role": "system", "content": "Be brief."},
                               {"role": "user", "content": PROMPT}], max_tokens=16)
    _check(answer.choices[0].message.content)
    assert answer.usage.total_tokens == 12 and answer.choices[0].finish_reason == "stop"
    request = parts["first"].received[-1]
    assert [c for c in CANARIES if c in _sent(door)] == []
    # The model read stand-ins (chat's default, ADR 0007), and the client got the values back (_check).
    assert request.json["messages"][1]["content"] == PROMPT.replace(PERSON, PERSON_SEEN).replace(
        EMAIL, EMAIL_SEEN).replace(AWS, "<AWS_ACCESS_KEY_ID>")
    # The client's own Authorization and the gateway's tenant header never reach an upstream.
    assert "authorization" not in request.headers and "x-ztgate-tenant" not in request.headers
    assert "not-checked" not in _sent(door)


def test_an_upstreams_api_key_is_envoys_and_the_clients_never_reaches_it(door) -> None:
    suite, parts = door
    answer = _client(suite.gateway, key="client-key").chat.completions.create(
        model=KEYED, messages=[{"role": "user", "content": PROMPT}])
    _check(answer.choices[0].message.content)
    request = parts["keyed"].received[-1]
    assert request.headers["authorization"] == f"Bearer {UPSTREAM_KEY}"
    assert "client-key" not in parts["keyed"].wire()


def test_sync_streaming_restores_values_split_across_sse_events(door) -> None:
    suite, parts = door
    parts["first"].chunk_chars = 2  # every placeholder and secret split across events
    stream = _client(suite.gateway).chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": PROMPT}], stream=True)
    pieces = [chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices]
    _check("".join(pieces))
    assert len(pieces) > 10  # it really streamed
    assert [c for c in CANARIES if c in _sent(door)] == []


async def test_async_completions_unary_and_streamed(door) -> None:
    suite, _ = door
    client = openai.AsyncOpenAI(base_url=f"http://{suite.gateway}/v1", api_key="x", max_retries=0)
    answer = await client.completions.create(model=MODEL, prompt=PROMPT, max_tokens=16)
    _check(answer.choices[0].text)
    stream = await client.completions.create(model=MODEL, prompt=[PROMPT], stream=True)
    _check("".join([c.choices[0].text async for c in stream if c.choices]))
    assert [c for c in CANARIES if c in _sent(door)] == []


def test_models_are_listed(door) -> None:
    suite, _ = door
    assert [m.id for m in _client(suite.gateway).models.list()] == [MODEL, "only-first", KEYED]


def _post(address: str, body: bytes, path: str = "/v1/chat/completions",
          token: str | None = None) -> tuple[int, Message, dict]:
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    request = urllib.request.Request(f"http://{address}{path}", data=body, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, json.loads(exc.read())


def _chat(content: object, **more) -> bytes:
    return json.dumps({"model": MODEL, "messages": [{"role": "user", "content": content}], **more}).encode()


@pytest.mark.parametrize("body, status, code, words", [
    (b"{not json", 400, "invalid_request", "not valid JSON"),
    (json.dumps({"messages": []}).encode(), 400, "invalid_request", "`model`"),
    (_chat([{"type": "image_url", "image_url": {"url": "http://x/y.png"}}]), 400, "invalid_request",
     "gateway.openai_non_text_parts"),
    (_chat("hi", max_tokens=10**6), 400, "invalid_request", "limits.max_output_tokens"),
    (_chat("my SSN is 536-22-8790"), 403, "blocked_by_policy", "US_SSN"),
    (_chat("x" * 20000), 413, "request_too_large", "limits.max_prompt_bytes"),
    (_chat("x" * 70000), 413, "request_too_large", "limits.max_request_bytes"),
    (json.dumps({"model": "nobody-serves-it", "messages": [{"role": "user", "content": "hi"}]}).encode(),
     404, "model_not_found", "GET /v1/models"),
])
def test_bad_input_is_refused_in_openais_error_shape_and_never_sent(door, body: bytes, status: int,
                                                                     code: str, words: str) -> None:
    suite, parts = door
    before = len(parts["first"].received) + len(parts["second"].received)
    got, headers, payload = _post(suite.gateway, body)
    assert got == status, payload
    assert headers["Content-Type"].startswith("application/json")
    assert payload["error"]["code"] == code and words in payload["error"]["message"], payload
    assert "536-22-8790" not in json.dumps(payload)
    assert len(parts["first"].received) + len(parts["second"].received) == before


def test_the_openai_client_raises_its_own_errors_on_refusals(door) -> None:
    suite, _ = door
    with pytest.raises(openai.PermissionDeniedError):
        _client(suite.gateway).chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": "my SSN is 536-22-8790"}])
    with pytest.raises(openai.NotFoundError):
        _client(suite.gateway).chat.completions.create(
            model="gpt-nobody", messages=[{"role": "user", "content": "hi"}])


def _raw_post(address: str, payload: dict, path: str) -> tuple[int, bytes]:
    request = urllib.request.Request(f"http://{address}{path}", data=json.dumps(payload).encode(),
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


@settings(max_examples=24, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), path=st.sampled_from(["/v1/chat/completions", "/v1/completions"]))
def test_generated_requests_through_envoy_are_refused_or_reach_the_upstream_without_private_values(
        door, data: st.DataObject, path: str) -> None:
    """The unit family (tests/unit/redaction/test_openai_field_policy.py), a bounded number through
    Envoy to the recording upstreams: a 400 names the field, a 403 the blocked entity (this
    suite's default policy blocks SSNs), a 413 the limit; else the upstream got no private value."""
    suite, _ = door
    payload = data.draw(requests(path, MODEL))
    status, body = _raw_post(suite.gateway, payload, path)
    if status >= 400:
        error = json.loads(body)["error"]
        assert status in (400, 403, 413), (status, error)
        assert error["param"] or status != 400, error
        assert not [v for v in PRIVATE if v in error["message"]], error
    else:
        assert status == 200 and VENDOR_FIELD not in payload
    assert not [v for v in PRIVATE if v in _sent(door)]


@settings(max_examples=16, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(answer=answers((stand_in("EMAIL_ADDRESS", EMAIL, f"mail {EMAIL}, card {CARD}"), "<CREDIT_CARD_1>")),
       stream=st.booleans())
def test_generated_answers_through_envoy_come_back_with_every_pseudonym_restored(
        door, answer: object, stream: bool) -> None:
    """The unit answer family (test_openai_field_policy.py), a bounded number through Envoy: the
    upstream (a TEST DOUBLE answering a canned body) puts the call's pseudonyms in any field, as
    JSON or as SSE events; the client reads no placeholder, and the values where they were."""
    suite, parts = door
    raw = json.dumps(answer)
    mail = stand_in("EMAIL_ADDRESS", EMAIL, f"mail {EMAIL}, card {CARD}")
    body = f"data: {raw}\n\ndata: [DONE]\n\n" if stream else raw
    parts["first"].canned = ("text/event-stream" if stream else "application/json", body.encode())
    try:
        status, got = _raw_post(suite.gateway, {"model": MODEL, "messages": [
            {"role": "user", "content": f"mail {EMAIL}, card {CARD}"}]}, "/v1/chat/completions")
    finally:
        parts["first"].canned = None
    text = got.decode()
    assert status == 200, text
    assert not PLACEHOLDER_RE.search(text), text
    assert (mail in raw) == (EMAIL in text) and ("<CREDIT_CARD_1>" in raw) == (CARD in text)
    assert mail not in text


def test_tokens_scopes_and_the_rate_limit_answer_in_openais_shape(door) -> None:
    suite, parts = door
    address, key = parts["auth"], parts["key"]
    status, _, payload = _post(address, _chat("hi"))
    assert status == 401 and payload["error"]["type"] == "authentication_error"
    redaction_only = mint(key, tenant="acme", issuer="ztgate", audience="ztgate-gateway",
                          scopes=("redaction",))
    status, _, payload = _post(address, _chat("hi"), token=redaction_only)
    assert status == 403 and payload["error"]["type"] == "permission_error"
    token = mint(key, tenant="acme", issuer="ztgate", audience="ztgate-gateway")
    answer = _client(address, token).chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": PROMPT}])
    _check(answer.choices[0].message.content)
    # The door keeps a verified token for ztgate's own adapter only: no other upstream gets it.
    assert "authorization" not in parts["first"].received[-1].headers
    limited = [_post(address, _chat("hi"), token=token) for _ in range(6)]
    refused = [(h, p) for s, h, p in limited if s == 429]
    assert refused, [s for s, _, _ in limited]
    headers, payload = refused[0]
    assert headers["Retry-After"] == "1" and payload["error"]["type"] == "rate_limit_error"


def test_an_overloaded_upstream_fails_over_to_the_next_for_the_model(door) -> None:
    suite, parts = door
    parts["first"].fail_status = 503
    try:
        before = len(parts["second"].received)
        answer = _client(suite.gateway).chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": PROMPT}])
        _check(answer.choices[0].message.content)
        assert len(parts["second"].received) == before + 1
        # A model only the failing upstream serves: its error comes back, scrubbed, as the upstream's.
        with pytest.raises(openai.InternalServerError):
            _client(suite.gateway).chat.completions.create(
                model="only-first", messages=[{"role": "user", "content": "hi"}])
    finally:
        parts["first"].fail_status = None
    assert [c for c in CANARIES if c in _sent(door)] == []


def test_redaction_killed_fails_closed_with_503_and_nothing_reaches_an_upstream(door) -> None:
    suite, parts = door
    before = len(parts["first"].received) + len(parts["second"].received)
    suite.redaction.process.send_signal(signal.SIGKILL)
    suite.redaction.process.wait(10)
    for _ in range(3):
        status, _, payload = _post(suite.gateway, _chat(PROMPT))
        assert status == 503 and payload["error"]["type"] == "api_error", payload
    assert len(parts["first"].received) + len(parts["second"].received) == before

