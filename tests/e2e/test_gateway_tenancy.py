"""Tenants hold under attack: a tenant's pseudonyms are restored for that tenant only, whatever a
call says about itself, with tokens off and on, through Envoy and around it.

One suite with mTLS inside it, as under `ztgate up` (tests/e2e/gateway_suite.py: a real redaction
service and real Envoys in front of RECORDING inference upstreams, test doubles): one Envoy without
tokens, one with `gateway.auth.jwks_path`. The redaction service takes calls from Envoy, the
operator and (for these tests) the telemetry identity, which `server.tls.tenants` allows tenant
globex only; its vault has small per-tenant quotas. acme's session is made by the operator, who may
act for any tenant.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import jwt
import pytest
from cryptography.hazmat.primitives import serialization

from ztgate.common import pki
from ztgate.common.settings import ClientTlsSettings
from ztgate.common.tls import client_credentials
from ztgate.gateway.auth import ALGORITHM, keygen, mint
from ztgate.gen.inference.v1 import inference_pb2 as ipb
from ztgate.gen.inference.v1 import inference_pb2_grpc
from ztgate.gen.redaction.v1 import redaction_pb2 as rpb
from ztgate.gen.redaction.v1 import redaction_pb2_grpc
from tests.e2e.gateway_suite import Suite, add_gateway, start_suite, stop_suite
from tests.procs import admin_get
from tests.suite_pki import shared_pki

pytestmark = pytest.mark.slow

EMAIL = "jane.doe@example.com"
PSEUDONYMIZE = """\
name: default
default_action: pseudonymize
entities: {}
"""
PER_TENANT = 8  # redaction.vault.max_sessions_per_tenant here
TENANT_REFUSAL = "the token has no usable tenant"


@pytest.fixture(scope="module")
async def suite(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Suite]:
    suite = await start_suite(
        tmp_path_factory.mktemp("tenancy"), policies={"default.yaml": PSEUDONYMIZE},
        message_timeout_s=2.0, mesh=True, redaction_env={
            "ZTGATE_REDACTION__SERVER__TLS__ALLOWED_CLIENTS": "[envoy, operator, telemetry]",
            "ZTGATE_REDACTION__SERVER__TLS__TENANTS": "{operator: ['*'], telemetry: [globex]}",
            "ZTGATE_REDACTION__VAULT__MAX_SESSIONS": "20",  # mallory alone could fill it, by count
            "ZTGATE_REDACTION__VAULT__MAX_SESSIONS_PER_TENANT": str(PER_TENANT)})
    try:
        yield suite
    finally:
        await stop_suite(suite)


@pytest.fixture(scope="module")
async def tokens(suite: Suite, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str, Path]:
    """An Envoy that requires tokens, in front of the same parts: (listener, admin, signing key)."""
    key, jwks = keygen(tmp_path_factory.mktemp("keys"))
    listener, admin = await add_gateway(suite, "envoy-tokens", {"ZTGATE_GATEWAY__AUTH__JWKS_PATH": str(jwks)})
    return listener, admin, key


def _mesh_channel(suite: Suite, identity: str) -> grpc.aio.Channel:
    """A direct call to the redaction service with one of the suite's certificates."""
    issued = shared_pki()
    creds = client_credentials(ClientTlsSettings(ca=issued.ca, cert=issued.cert(identity), key=issued.key(identity)))
    return grpc.aio.secure_channel(suite.redaction_address, creds)


async def _restore(channel: grpc.aio.Channel, session_id: str, *, tenant: str = "acme",
                   metadata: tuple[tuple[str, str], ...] = ()) -> str:
    reply = await redaction_pb2_grpc.RedactionStub(channel).Restore(
        rpb.RestoreRequest(text="mail <EMAIL_ADDRESS_1>", session_id=session_id, tenant=tenant),
        metadata=metadata, timeout=30)
    return reply.text


async def _refused(call) -> grpc.aio.AioRpcError:
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await call
    return info.value


@pytest.fixture(scope="module")
async def acme_session(suite: Suite) -> str:
    """acme's session, made by the operator (which may act for any tenant) on the service itself."""
    async with _mesh_channel(suite, pki.OPERATOR) as channel:
        reply = await redaction_pb2_grpc.RedactionStub(channel).Redact(
            rpb.RedactRequest(text=f"mail {EMAIL}", tenant="acme"), timeout=60)
    assert reply.text == "mail <EMAIL_ADDRESS_1>"
    return reply.session_id


async def test_the_operator_acts_for_the_tenant_it_names(suite, acme_session) -> None:
    async with _mesh_channel(suite, pki.OPERATOR) as channel:
        assert await _restore(channel, acme_session) == f"mail {EMAIL}"
        refusal = await _refused(_restore(channel, acme_session, tenant="globex"))
    assert refusal.code() == grpc.StatusCode.NOT_FOUND
    assert f"session {acme_session} is unknown or expired for tenant globex" in refusal.details()


# --- without tokens every gateway call is tenant `default` -------------------------------------------

@pytest.mark.parametrize("metadata", [(), (("x-ztgate-tenant", "acme"),)], ids=["body", "body-and-header"])
async def test_without_tokens_a_restore_through_the_gateway_is_defaults_whatever_it_says(
        suite, acme_session, metadata) -> None:
    async with grpc.aio.insecure_channel(suite.gateway) as channel:
        refusal = await _refused(_restore(channel, acme_session, metadata=metadata))
    assert refusal.code() == grpc.StatusCode.NOT_FOUND
    assert "for tenant default" in refusal.details() and "redaction.vault.ttl_s" in refusal.details()


async def test_without_tokens_a_redact_through_the_gateway_makes_a_default_session(suite) -> None:
    async with grpc.aio.insecure_channel(suite.gateway) as channel:
        stub = redaction_pb2_grpc.RedactionStub(channel)
        reply = await stub.Redact(rpb.RedactRequest(text=f"mail {EMAIL}", tenant="acme"),
                                  metadata=(("x-ztgate-tenant", "acme"),), timeout=60)
        assert await _restore(channel, reply.session_id) == f"mail {EMAIL}"  # default's own
        nothing = await stub.Redact(rpb.RedactRequest(text="no personal data here"), timeout=60)
        assert await _restore(channel, nothing.session_id) == "mail <EMAIL_ADDRESS_1>"  # empty, not unknown
    async with _mesh_channel(suite, pki.OPERATOR) as channel:
        assert (await _refused(_restore(channel, reply.session_id))).code() == grpc.StatusCode.NOT_FOUND
        assert await _restore(channel, reply.session_id, tenant="default") == f"mail {EMAIL}"


# --- inside the suite: who holds which certificate ----------------------------------------------------

async def test_envoys_certificate_acts_only_for_the_header_never_the_body(suite, acme_session) -> None:
    async with _mesh_channel(suite, pki.ENVOY) as channel:
        refusal = await _refused(_restore(channel, acme_session))  # body says acme, no header
        assert refusal.code() == grpc.StatusCode.NOT_FOUND and "for tenant default" in refusal.details()
        assert await _restore(channel, acme_session, tenant="globex",
                              metadata=(("x-ztgate-tenant", "acme"),)) == f"mail {EMAIL}"


async def test_a_suite_identity_acts_only_for_the_tenants_it_is_allowed(suite, acme_session) -> None:
    async with _mesh_channel(suite, pki.TELEMETRY) as channel:
        refusal = await _refused(_restore(channel, acme_session))
        assert refusal.code() == grpc.StatusCode.PERMISSION_DENIED
        assert "telemetry may not act for tenant acme" in refusal.details()
        assert "server.tls.tenants" in refusal.details()
        header = await _refused(_restore(channel, acme_session, tenant="globex",
                                         metadata=(("x-ztgate-tenant", "acme"),)))
        assert header.code() == grpc.StatusCode.PERMISSION_DENIED
        own = await _refused(_restore(channel, acme_session, tenant="globex"))
        assert own.code() == grpc.StatusCode.NOT_FOUND and "for tenant globex" in own.details()


# --- with tokens: the verified claim, or nothing runs ---------------------------------------------------

def _signed(key_path: Path, claims: dict[str, object]) -> str:
    """A token signed with the gateway's key, with claims `mint` would not write (a number, a list)."""
    kid, _, pem = key_path.read_text().partition("\n")
    key = serialization.load_pem_private_key(pem.encode(), password=None)
    now = int(time.time())
    payload = {"iss": "ztgate", "aud": "ztgate-gateway", "iat": now, "nbf": now, "exp": now + 600,
               "sub": "someone", "scope": "inference redaction", **claims}
    return jwt.encode(payload, key, algorithm=ALGORITHM, headers={"kid": kid.removeprefix("# kid: ").strip()})


def _token(key: Path, tenant: str) -> str:
    return mint(key, tenant=tenant, issuer="ztgate", audience="ztgate-gateway")


NO_USABLE_TENANT = {
    "missing": lambda key: mint(key, tenant="acme", tenant_claim="org", issuer="ztgate",
                                audience="ztgate-gateway"),  # the tenant claim is named otherwise
    "empty": lambda key: _token(key, ""),
    "space": lambda key: _token(key, "ac me"),
    "comma": lambda key: _token(key, "acme,globex"),
    "too-long": lambda key: _token(key, "a" * 129),
    "number": lambda key: _signed(key, {"tenant": 7}),
    "list": lambda key: _signed(key, {"tenant": ["acme"]}),
    "object": lambda key: _signed(key, {"tenant": {"name": "acme"}}),
    "null": lambda key: _signed(key, {"tenant": None}),
}


def _redaction_requests(admin: str) -> int:
    stats = admin_get(admin, "/stats?filter=^cluster\\.redaction\\.upstream_rq_total$")
    return int(stats.split(":")[1])


@pytest.mark.parametrize("case", sorted(NO_USABLE_TENANT))
async def test_a_token_without_a_usable_tenant_reaches_nothing(suite, tokens, acme_session, case) -> None:
    listener, admin, key = tokens
    auth = (("authorization", f"Bearer {NO_USABLE_TENANT[case](key)}"), ("x-ztgate-tenant", "acme"))
    recorded, reached = len(suite.recorded()), _redaction_requests(admin)
    async with grpc.aio.insecure_channel(listener) as channel:
        restore = await _refused(_restore(channel, acme_session, metadata=auth))
        generate = await _refused(inference_pb2_grpc.InferenceStub(channel).Generate(
            ipb.GenerateRequest(prompt=f"mail {EMAIL}", tenant="acme"), metadata=auth, timeout=30))
    for refusal in (restore, generate):
        assert refusal.code() == grpc.StatusCode.UNAUTHENTICATED, (case, refusal.details())
        assert TENANT_REFUSAL in refusal.details() and "`tenant` claim" in refusal.details()
    assert len(suite.recorded()) == recorded and _redaction_requests(admin) == reached


async def test_a_verified_tenant_restores_its_own_sessions_only(suite, tokens, acme_session) -> None:
    listener, _, key = tokens
    async with grpc.aio.insecure_channel(listener) as channel:
        as_globex = (("authorization", f"Bearer {_token(key, 'globex')}"), ("x-ztgate-tenant", "acme"))
        refusal = await _refused(_restore(channel, acme_session, metadata=as_globex))
        assert refusal.code() == grpc.StatusCode.NOT_FOUND and "for tenant globex" in refusal.details()
        as_acme = (("authorization", f"Bearer {_token(key, 'acme')}"),)
        assert await _restore(channel, acme_session, tenant="globex", metadata=as_acme) == f"mail {EMAIL}"


async def test_a_flood_of_sessions_from_one_tenant_never_evicts_another(suite, tokens, acme_session) -> None:
    listener, _, key = tokens
    flood = (("authorization", f"Bearer {_token(key, 'mallory')}"),)
    async with grpc.aio.insecure_channel(listener) as channel:
        stub = redaction_pb2_grpc.RedactionStub(channel)
        sessions = [(await stub.Redact(rpb.RedactRequest(text=f"mail m{n}@example.com"), metadata=flood,
                                       timeout=60)).session_id for n in range(3 * PER_TENANT)]
        first = await _refused(_restore(channel, sessions[0], metadata=flood))  # its own oldest went
        assert first.code() == grpc.StatusCode.NOT_FOUND
        assert "redaction.vault.max_sessions_per_tenant" in first.details()
        assert await _restore(channel, sessions[-1], metadata=flood) == f"mail m{3 * PER_TENANT - 1}@example.com"
        as_acme = (("authorization", f"Bearer {_token(key, 'acme')}"),)
        assert await _restore(channel, acme_session, metadata=as_acme) == f"mail {EMAIL}"


