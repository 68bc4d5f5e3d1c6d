"""Bearer tokens at the gateway (Envoy's jwt_authn filter with a JWKS from `ztgate token keygen`)
and the per-tenant rate limit that keys on the tenant they carry.

A real redaction service and Envoy in front of RECORDING inference upstreams (test doubles,
tests/e2e/gateway_suite.py), with `gateway.auth.jwks_path` set. The tenant comes only from a
verified token's claim, so a tenant's own redaction policy applies through the gateway.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import AsyncIterator

import grpc
import jwt
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from ztgate_bench.gateway_bench import measure
from ztgate.gateway.auth import ALGORITHM, keygen, load_signing_key, mint
from ztgate.gateway.config import DEFAULT_MAX_TOKEN_LIFETIME_S
from ztgate.gen.inference.v1 import inference_pb2 as ipb
from ztgate.gen.inference.v1 import inference_pb2_grpc
from ztgate.gen.redaction.v1 import redaction_pb2 as rpb
from ztgate.gen.redaction.v1 import redaction_pb2_grpc
from tests.e2e.gateway_suite import Suite, add_gateway, start_suite, stop_suite
from tests.e2e.held_streams import hold_streams, wait_stat

pytestmark = pytest.mark.slow

EMAIL = "jane.doe@example.com"
# Per tenant; the other tests stay well inside it (each tenant makes a few calls in all).
RATE_PER_S, BURST = 2, 4
ACME = """\
name: acme-strict
default_action: pseudonymize
tenants: [acme]
entities:
  EMAIL_ADDRESS: hash
"""


@pytest.fixture(scope="module")
async def keys(tmp_path_factory: pytest.TempPathFactory):
    return keygen(tmp_path_factory.mktemp("keys"))


@pytest.fixture(scope="module")
async def suite(tmp_path_factory: pytest.TempPathFactory, keys) -> AsyncIterator[Suite]:
    _, jwks = keys
    suite = await start_suite(tmp_path_factory.mktemp("auth"), policies={"acme.yaml": ACME},
                              message_timeout_s=2.0,
                              gateway_env={"ZTGATE_GATEWAY__AUTH__JWKS_PATH": str(jwks),
                                           "ZTGATE_GATEWAY__RATE_LIMIT__REQUESTS_PER_S": str(RATE_PER_S),
                                           "ZTGATE_GATEWAY__RATE_LIMIT__BURST": str(BURST)})
    try:
        yield suite
    finally:
        await stop_suite(suite)



def _token(keys, **overrides) -> str:
    key, _ = keys
    claims = {"tenant": "acme", "issuer": "ztgate", "audience": "ztgate-gateway"} | overrides
    return mint(key, **claims)


def _forged(keys, *, lifetime_s: int | None, tenant: str = "acme") -> str:
    """A token signed with the gateway's own key that `mint` would not make: without `exp`
    (lifetime None), or valid `lifetime_s` from now."""
    key, kid = load_signing_key(keys[0])
    now = int(time.time())
    claims = {"iss": "ztgate", "aud": "ztgate-gateway", "iat": now, "nbf": now, "sub": tenant,
              "tenant": tenant, "scope": "inference redaction"}
    if lifetime_s is not None:
        claims["exp"] = now + lifetime_s
    return jwt.encode(claims, key, algorithm=ALGORITHM, headers={"kid": kid})


def _auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


async def test_a_verified_tenant_gets_its_own_policy_and_the_body_tenant_is_ignored(suite, stub, keys) -> None:
    before = len(suite.recorded())
    await stub.Generate(ipb.GenerateRequest(prompt=f"mail {EMAIL}", tenant="someone-else"),
                        metadata=(*_auth(_token(keys)), ("x-ztgate-tenant", "default")), timeout=30)
    [sent] = suite.recorded()[before:]
    assert sent.tenant == "acme"  # the token's claim, not the body's nor a client header
    assert "<EMAIL_ADDRESS:" in sent.prompt and EMAIL not in sent.prompt  # acme hashes emails


@pytest.mark.parametrize("tenant", ["", "bad tenant!"], ids=["empty", "malformed"])
async def test_a_token_without_a_usable_tenant_claim_is_unauthenticated_and_reaches_nothing(
        suite, stub, keys, tenant) -> None:
    # More shapes (missing, numbers, lists), and Restore, in test_gateway_tenancy.py.
    before = len(suite.recorded())
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await stub.Generate(ipb.GenerateRequest(prompt=f"mail {EMAIL}", tenant="acme"),
                            metadata=_auth(_token(keys, tenant=tenant)), timeout=30)
    assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert "no usable tenant" in info.value.details()
    assert suite.recorded()[before:] == []


# Envoy's answers: UNAUTHENTICATED (401) for a token it cannot verify, PERMISSION_DENIED (403) for
# a verified token meant for another audience.
@pytest.mark.parametrize("case, code", [
    ("missing", grpc.StatusCode.UNAUTHENTICATED), ("garbage", grpc.StatusCode.UNAUTHENTICATED),
    ("expired", grpc.StatusCode.UNAUTHENTICATED), ("wrong-issuer", grpc.StatusCode.UNAUTHENTICATED),
    ("other-key", grpc.StatusCode.UNAUTHENTICATED), ("wrong-audience", grpc.StatusCode.PERMISSION_DENIED),
    ("no-expiry", grpc.StatusCode.UNAUTHENTICATED), ("too-long", grpc.StatusCode.UNAUTHENTICATED),
    ("ten-years", grpc.StatusCode.UNAUTHENTICATED)])
async def test_calls_without_a_valid_token_are_refused_and_reach_nothing(
        suite, stub, keys, case, code, tmp_path) -> None:
    tokens = {
        "missing": None,
        "garbage": "not.a.token",
        "expired": _token(keys, ttl_s=60, now=1_000_000_000),
        "wrong-audience": _token(keys, audience="someone-else"),
        "wrong-issuer": _token(keys, issuer="evil"),
        "other-key": mint(keygen(tmp_path)[0], tenant="acme", issuer="ztgate", audience="ztgate-gateway"),
        # Signed by the right key, but never expiring, or living past gateway.auth.max_token_lifetime_s.
        "no-expiry": _forged(keys, lifetime_s=None),
        "too-long": _forged(keys, lifetime_s=DEFAULT_MAX_TOKEN_LIFETIME_S + 60),
        "ten-years": _forged(keys, lifetime_s=10 * 365 * 86400),
    }
    token = tokens[case]
    before = len(suite.recorded())
    for call in (stub.Generate, stub.GenerateStream):
        with pytest.raises(grpc.aio.AioRpcError) as info:
            response = call(ipb.GenerateRequest(prompt=f"mail {EMAIL}"),
                            metadata=_auth(token) if token else None, timeout=30)
            if hasattr(response, "__aiter__"):
                [c async for c in response]
            else:
                await response
        assert info.value.code() == code, (case, info.value.details())
    assert suite.recorded()[before:] == []


async def test_tokens_within_the_maximum_lifetime_are_accepted(suite, stub, keys) -> None:
    """The refusals above are the limit's, not the forging's: the same forged token within it
    passes, and so does the longest token `ztgate token mint` makes (mint and Envoy agree)."""
    for token in (_forged(keys, lifetime_s=DEFAULT_MAX_TOKEN_LIFETIME_S - 60, tenant="lifetime"),
                  _token(keys, tenant="lifetime", ttl_s=DEFAULT_MAX_TOKEN_LIFETIME_S)):
        before = len(suite.recorded())
        reply = await stub.Generate(ipb.GenerateRequest(prompt="hi"), metadata=_auth(token), timeout=30)
        assert reply.text and len(suite.recorded()) == before + 1


async def _redact_through_gateway(suite: Suite, token: str) -> rpb.RedactResponse:
    async with grpc.aio.insecure_channel(suite.gateway) as channel:
        return await redaction_pb2_grpc.RedactionStub(channel).Redact(
            rpb.RedactRequest(text=f"mail {EMAIL}"), metadata=_auth(token), timeout=30)


@pytest.mark.parametrize("scopes", [("redaction",), ()], ids=["redaction-only", "no-scope-claim"])
async def test_a_token_without_the_inference_scope_cannot_reach_a_model(suite, stub, keys, scopes) -> None:
    token = _token(keys, tenant="scoped", scopes=scopes)
    before = len(suite.recorded())
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await stub.Generate(ipb.GenerateRequest(prompt=f"mail {EMAIL}"), metadata=_auth(token), timeout=30)
    assert info.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert "RBAC" in (info.value.details() or "")
    assert suite.recorded()[before:] == []
    if scopes:  # what it does grant still works
        reply = await _redact_through_gateway(suite, token)
        assert EMAIL not in reply.text


async def test_an_inference_only_token_cannot_call_the_redaction_api(suite, stub, keys) -> None:
    token = _token(keys, tenant="scoped-inference", scopes=("inference",))
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await _redact_through_gateway(suite, token)
    assert info.value.code() == grpc.StatusCode.PERMISSION_DENIED
    reply = await stub.Generate(ipb.GenerateRequest(prompt="hi"), metadata=_auth(token), timeout=30)
    assert reply.text


async def test_health_checks_need_no_token(suite) -> None:
    async with grpc.aio.insecure_channel(suite.gateway) as channel:
        reply = await health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=10)
    assert reply.status == health_pb2.HealthCheckResponse.SERVING


def test_the_cli_sends_its_token_and_the_redaction_route_needs_one_too(suite, keys) -> None:
    def redact(*extra: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "ztgate.cli", "redact", "--address", suite.gateway,
                               *extra, f"mail {EMAIL}"], capture_output=True, text=True, timeout=60)

    refused = redact()
    assert refused.returncode == 1 and "UNAUTHENTICATED" in refused.stderr
    answered = redact("--token", _token(keys))
    assert answered.returncode == 0, answered.stderr
    assert "<EMAIL_ADDRESS:" in answered.stdout and EMAIL not in answered.stdout  # acme's hash


async def test_a_flooding_tenant_is_limited_alone_and_its_refused_calls_reach_nothing(suite, stub, keys) -> None:
    before = len(suite.recorded())
    flood = _auth(_token(keys, tenant="flood"))
    results = await asyncio.gather(*(stub.Generate(ipb.GenerateRequest(prompt="hi"), metadata=flood, timeout=30)
                                     for _ in range(3 * BURST)), return_exceptions=True)
    refused = [r for r in results if isinstance(r, grpc.aio.AioRpcError)]
    assert refused and all(r.code() == grpc.StatusCode.RESOURCE_EXHAUSTED for r in refused), refused[:1]
    answered = len(results) - len(refused)
    assert BURST <= answered < len(results)
    assert len(suite.recorded()) - before == answered  # a refused call never reached a service
    reply = await stub.Generate(ipb.GenerateRequest(prompt="hi"), metadata=_auth(_token(keys)), timeout=30)
    assert reply.text  # acme has a bucket of its own


async def test_the_gateway_bench_sends_its_token(suite, keys) -> None:
    args = (suite.gateway, f"127.0.0.1:{suite.primary.port}", suite.redaction_address)
    with_token = await measure(*args, calls=2, warmup=0, token=_token(keys, tenant="bench"))
    assert with_token.errors["gateway"] == 0 and len(with_token.gateway.durations_ms) == 2
    without = await measure(*args, calls=1, warmup=0)
    assert without.errors["gateway"] == 1 and "UNAUTHENTICATED" in without.error_kinds[0]


# Held tokenless health streams (issue 28): on an Envoy with tokens and without a rate limit (its
# tokenless default bucket would refuse most of them), so that nothing but the ingress limits
# stands between the streams and the suite.
HELD_ENV = {"ZTGATE_GATEWAY__RATE_LIMIT__REQUESTS_PER_S": "null",
            "ZTGATE_GATEWAY__RATE_LIMIT__WITH_TOKENS_PER_S": "null",
            "ZTGATE_GATEWAY__INGRESS__HEALTH_MAX_STREAM_S": "2"}
# The control's stand-in for the ext_proc cluster's 1,024 requests: the same exhaustion, from
# fewer streams.
CONTROL_BREAKER = 16


def _health_on_the_scrubbing_cluster(bootstrap: dict) -> None:
    """The bootstrap as it was before the defence: health routed to the cluster ext_proc dials
    (its breakers lowered to CONTROL_BREAKER), with no bound on a stream's life."""
    hcm = bootstrap["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]
    for route in hcm["route_config"]["virtual_hosts"][0]["routes"]:
        if route["match"].get("prefix") == "/grpc.health.v1.Health/":
            route["route"] = {"cluster": "redaction", "timeout": "2s"}
    [redaction] = [c for c in bootstrap["static_resources"]["clusters"] if c["name"] == "redaction"]
    redaction["circuit_breakers"]["thresholds"][0].update(
        max_requests=CONTROL_BREAKER, max_pending_requests=CONTROL_BREAKER)


async def test_held_tokenless_health_streams_leave_every_tenant_its_calls(suite, keys) -> None:
    _, jwks = keys
    gateway, admin = await add_gateway(suite, "envoy-held", {
        **HELD_ENV, "ZTGATE_GATEWAY__AUTH__JWKS_PATH": str(jwks)})
    held = await hold_streams(gateway, connections=8, per_connection=50)
    try:
        # The health route's own cluster fills (16 in flight by default); every other stream is
        # refused at once.
        assert await wait_stat(admin, "cluster.redaction_health.upstream_rq_active", 16) == 16
        async with grpc.aio.insecure_channel(gateway) as channel:
            reply = await inference_pb2_grpc.InferenceStub(channel).Generate(
                ipb.GenerateRequest(prompt=f"mail {EMAIL}"), metadata=_auth(_token(keys)), timeout=10)
        assert reply.text and EMAIL not in reply.text
        assert held.refused_at_once(within_s=5.0) >= 400 - 2 * 16
        # The held ones end by gateway.ingress.health_max_stream_s (2 s here), not whenever the
        # caller lets go.
        await asyncio.wait_for(asyncio.gather(*held.tasks), timeout=10)
        assert len(held.ended) == 400 and max(at for _, at in held.ended) < 8
    finally:
        await held.close()


async def test_control_health_on_the_scrubbing_cluster_lets_held_streams_deny_every_tenant(
        suite, keys) -> None:
    """Without the defence the same attack works: the test above could fail."""
    _, jwks = keys
    gateway, admin = await add_gateway(suite, "envoy-held-control", {
        **HELD_ENV, "ZTGATE_GATEWAY__AUTH__JWKS_PATH": str(jwks)}, edit=_health_on_the_scrubbing_cluster)
    held = await hold_streams(gateway, connections=2, per_connection=CONTROL_BREAKER)
    try:
        assert await wait_stat(admin, "cluster.redaction.upstream_rq_active", CONTROL_BREAKER) >= CONTROL_BREAKER
        async with grpc.aio.insecure_channel(gateway) as channel:
            with pytest.raises(grpc.aio.AioRpcError) as info:
                await inference_pb2_grpc.InferenceStub(channel).Generate(
                    ipb.GenerateRequest(prompt=f"mail {EMAIL}"), metadata=_auth(_token(keys)), timeout=10)
        assert info.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        await held.close()
