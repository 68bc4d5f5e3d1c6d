"""TLS on Envoy's ingress listener (`gateway.tls`), with client certificates required: a real
redaction service and Envoy in front of RECORDING inference upstreams (test doubles,
tests/e2e/gateway_suite.py). The listener's certificate is the `gateway` one `ztgate certs init`
issues; clients present the operator's certificate from the same CA. The OpenAI door's adapter
(`ztgate serve openai-adapter`, real) dials the same listener over TLS with the certificate
`openai_adapter.gateway_tls` names. A second Envoy on the same parts (`tokened`) has bearer tokens
on as well: the chat default's stand-ins are checked there, with both defences in place."""

from __future__ import annotations

import asyncio
import os
import ssl
import subprocess
import sys
import urllib.request
from collections.abc import AsyncIterator

import grpc
import httpx
import openai
import pytest

from ztgate.common import pki
from ztgate.common.settings import ClientTlsSettings
from ztgate.common.tls import client_credentials
from ztgate.gen.inference.v1 import inference_pb2 as ipb
from ztgate.gen.inference.v1 import inference_pb2_grpc
from ztgate.config import ZtgateConfig
from ztgate.gateway.auth import keygen, mint
from ztgate.redaction.vault import PLACEHOLDER_RE
from tests.e2e.gateway_suite import Suite, add_gateway, start_suite, stop_suite, wait_for
from tests.procs import free_port, spawn
from tests.stand_ins import pseudonyms_in
from tests.suite_pki import shared_pki

pytestmark = pytest.mark.slow

EMAIL = "jane.doe@example.com"
PSEUDONYMIZE = """\
name: default
default_action: pseudonymize
entities: {}
"""


@pytest.fixture(scope="module")
async def suite(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Suite]:
    issued = shared_pki()
    logs = tmp_path_factory.mktemp("tls")
    adapter_listen = f"127.0.0.1:{free_port()}"
    suite = adapter = None
    tls = suite_tls_env = {"ZTGATE_GATEWAY__TLS__CERT": str(issued.cert(pki.GATEWAY)),
           "ZTGATE_GATEWAY__TLS__KEY": str(issued.key(pki.GATEWAY)),
           "ZTGATE_GATEWAY__TLS__CLIENT_CA": str(issued.ca),
           "ZTGATE_OPENAI_ADAPTER__LISTEN": adapter_listen,
           "ZTGATE_OPENAI_ADAPTER__GATEWAY_TLS__CA": str(issued.ca),
           "ZTGATE_OPENAI_ADAPTER__GATEWAY_TLS__CERT": str(issued.cert(pki.OPERATOR)),
           "ZTGATE_OPENAI_ADAPTER__GATEWAY_TLS__KEY": str(issued.key(pki.OPERATOR))}
    try:
        suite = await start_suite(logs, policies={"default.yaml": PSEUDONYMIZE}, message_timeout_s=2.0,
                                  gateway_env=tls)
        adapter = spawn("openai-adapter", [sys.executable, "-m", "ztgate.cli", "serve",
                                           "openai-adapter"], logs, env={**suite.env, **tls})

        def ready() -> bool:
            with urllib.request.urlopen(f"http://{adapter_listen}/ready", timeout=1):  # noqa: S310
                return True

        await asyncio.to_thread(wait_for, ready, "the adapter answers /ready", 60.0, adapter)
        TLS_ENV.update(suite_tls_env)
        yield suite
    finally:
        if adapter is not None:
            adapter.stop()
        if suite is not None:
            await stop_suite(suite)


# The TLS settings the suite's Envoy was started with (a second Envoy renders from them too).
TLS_ENV: dict[str, str] = {}


@pytest.fixture(scope="module")
async def tokened(suite: Suite, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A second Envoy on the suite's parts with TLS and bearer tokens on: (listener, a tenant's token)."""
    key, jwks = keygen(tmp_path_factory.mktemp("tls-tokens"))
    listen, _ = await add_gateway(suite, "envoy-tls-tokens",
                                  {**TLS_ENV, "ZTGATE_GATEWAY__AUTH__JWKS_PATH": str(jwks)})
    return listen, mint(key, tenant="chat", issuer="ztgate", audience="ztgate-gateway")


async def _generate(suite: Suite, creds: grpc.ChannelCredentials | None) -> ipb.GenerateResponse:
    channel = (grpc.aio.secure_channel(suite.gateway, creds) if creds
               else grpc.aio.insecure_channel(suite.gateway))
    async with channel:
        return await inference_pb2_grpc.InferenceStub(channel).Generate(
            ipb.GenerateRequest(prompt=f"mail {EMAIL}"), timeout=30)


async def test_a_client_with_a_certificate_is_served_and_redaction_still_applies(suite) -> None:
    issued = shared_pki()
    creds = client_credentials(ClientTlsSettings(ca=issued.ca, cert=issued.cert(pki.OPERATOR),
                                                 key=issued.key(pki.OPERATOR)))
    before = len(suite.recorded())
    reply = await _generate(suite, creds)
    assert EMAIL in reply.text  # restored for the client
    [sent] = suite.recorded()[before:]
    assert EMAIL not in sent.prompt  # scrubbed before the model


async def test_plaintext_or_no_client_certificate_never_reaches_anything(suite) -> None:
    issued = shared_pki()
    before = len(suite.recorded())
    for creds in (None, client_credentials(ClientTlsSettings(ca=issued.ca))):
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await _generate(suite, creds)
        assert info.value.code() == grpc.StatusCode.UNAVAILABLE
    assert suite.recorded()[before:] == []


async def test_the_cli_calls_a_tls_gateway_with_its_certificate(suite) -> None:
    issued = shared_pki()
    # In a thread: the recording upstream answers on this test's event loop.
    result = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "ztgate.cli", "generate", "--address", suite.gateway, "--max-tokens", "8",
         "--tls-ca", str(issued.ca), "--tls-cert", str(issued.cert(pki.OPERATOR)),
         "--tls-key", str(issued.key(pki.OPERATOR)), f"mail {EMAIL}"],
        capture_output=True, text=True, timeout=60, env={**os.environ})
    assert result.returncode == 0, result.stderr
    assert EMAIL in result.stdout and "served by primary" in result.stdout


async def test_the_openai_door_serves_ztgates_own_model_over_the_tls_listener(suite) -> None:
    """HTTPS with a client certificate to Envoy, then the adapter's own TLS call back into the
    listener's gRPC route: the model's answer is restored, and the upstream saw no email."""
    issued = shared_pki()
    context = ssl.create_default_context(cafile=str(issued.ca))
    context.load_cert_chain(str(issued.cert(pki.OPERATOR)), str(issued.key(pki.OPERATOR)))
    http = httpx.Client(verify=context, timeout=60)
    client = openai.OpenAI(base_url=f"https://{suite.gateway}/v1", api_key="not-checked",
                           max_retries=0, http_client=http)
    before = len(suite.recorded())
    try:
        answer = await asyncio.to_thread(
            client.chat.completions.create, model=ZtgateConfig().inference.model_name,
            messages=[{"role": "user", "content": f"mail {EMAIL}"}], max_tokens=8)
    finally:
        http.close()
    assert EMAIL in (answer.choices[0].message.content or "")
    [sent] = suite.recorded()[before:]
    assert EMAIL not in sent.prompt and all(EMAIL not in m.content for m in sent.messages)


async def test_chat_through_tls_and_tokens_reads_stand_ins_and_gives_the_caller_the_values(suite, tokened) -> None:
    """The chat default (surrogates, ADR 0007) through the OpenAI door with the `openai` client, TLS with
    a client certificate and a bearer token: the model read stand-ins of the person and the address (not
    the values, not placeholders: the door's and the adapter's gRPC call each put their own), and the
    caller reads the values where the model wrote the stand-ins."""
    listen, token = tokened
    person, email = "Maria Gonzalez", "m.gonzalez@fastmail.com"
    issued = shared_pki()
    context = ssl.create_default_context(cafile=str(issued.ca))
    context.load_cert_chain(str(issued.cert(pki.OPERATOR)), str(issued.key(pki.OPERATOR)))
    http = httpx.Client(verify=context, timeout=60)
    client = openai.OpenAI(base_url=f"https://{listen}/v1", api_key=token, max_retries=0, http_client=http)
    before = len(suite.recorded())
    try:
        answer = await asyncio.to_thread(
            client.chat.completions.create, model=ZtgateConfig().inference.model_name,
            messages=[{"role": "user", "content": f"Write to {person} at {email}."}], max_tokens=8)
    finally:
        http.close()
    [sent] = suite.recorded()[before:]
    seen = " ".join([sent.prompt, *(m.content for m in sent.messages)])
    assert person not in seen and email not in seen and "Gonzalez" not in seen
    assert not PLACEHOLDER_RE.search(seen), seen
    stand_ins = pseudonyms_in(seen)
    assert any("@example." in s for s in stand_ins) and any(" " in s for s in stand_ins), seen
    text = answer.choices[0].message.content or ""
    assert person in text and email in text, text  # the double echoed the stand-ins: the values come back
    assert not [s for s in stand_ins if s in text] and not PLACEHOLDER_RE.search(text), text
