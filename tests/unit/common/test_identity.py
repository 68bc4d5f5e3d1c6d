"""Which tenant a call acts for (ztgate/common/identity.py), decided by who is calling.

The calls are FakeContexts (TEST DOUBLE, tests/fake_context.py: the verified certificate's common
name and the metadata, no handshake); tests/e2e/test_gateway_tenancy.py makes the same decisions
through real Envoy, certificates and services."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ztgate.common.config import ConfigError, load_settings
from ztgate.common.errors import InvalidArgument, PermissionDenied
from ztgate.common.identity import TENANT_HEADER, TenantAccess
from ztgate.common.settings import TlsSettings
from ztgate.config import ZtgateConfig
from tests.fake_context import FakeContext

# A listener that requires client certificates (what `ztgate up` sets with mesh.mtls).
MESH = TlsSettings(cert=Path("/c"), key=Path("/k"), client_ca=Path("/ca"),
                   tenants={"operator": ("*",), "ci": ("acme", "default")})
mesh = TenantAccess(MESH)
plaintext = TenantAccess(None)


def call(caller: str | None, header: str | None = None) -> FakeContext:
    return FakeContext(caller, ((TENANT_HEADER, header),) if header is not None else ())


@pytest.mark.parametrize("access, caller, header, body, tenant", [
    # Envoy: the header it set, never the body; no header is `default`.
    (mesh, "envoy", "acme", "globex", "acme"),
    (mesh, "envoy", None, "acme", "default"),
    (mesh, "envoy", "", "acme", "default"),
    # The operator may act for any tenant: the header, else the body, else `default`.
    (mesh, "operator", None, "acme", "acme"),
    (mesh, "operator", "globex", "acme", "globex"),
    (mesh, "operator", None, "", "default"),
    # A caller listed with some tenants: only those.
    (mesh, "ci", None, "acme", "acme"),
    (mesh, "ci", None, "", "default"),
    # No client certificates on this listener (mesh.mtls false, loopback): taken at its word,
    # the header first (Envoy's, through the gateway), else the body, else `default`.
    (plaintext, None, "acme", "globex", "acme"),
    (plaintext, None, None, "globex", "globex"),
    (plaintext, None, None, "", "default"),
])
def test_the_tenant_a_call_acts_for(access, caller, header, body, tenant) -> None:
    assert access.caller_tenant(call(caller, header), body) == tenant


@pytest.mark.parametrize("caller, header, body, words", [
    ("ci", None, "globex", "may not act for tenant globex; server.tls.tenants allows it acme, default"),
    ("ci", "globex", "acme", "may not act for tenant globex"),
    ("inference-primary", None, "acme", "inference-primary may not act for any tenant here; server.tls.tenants"),
    ("telemetry", None, "", "server.tls.tenants"),
    (None, None, "acme", "no client certificate"),   # cannot pass the handshake; refused regardless
])
def test_callers_not_allowed_a_tenant_are_permission_denied(caller, header, body, words) -> None:
    with pytest.raises(PermissionDenied, match=words):
        mesh.caller_tenant(call(caller, header), body)


@pytest.mark.parametrize("access, caller", [(mesh, "envoy"), (mesh, "operator"), (plaintext, None)])
@pytest.mark.parametrize("bad", ["bad tenant!", "a" * 129, "acme,globex", "ac/me", "é"])
def test_a_tenant_that_is_no_tenant_name_is_invalid(access, caller, bad) -> None:
    with pytest.raises(InvalidArgument, match="tenant must be 1-128"):
        access.caller_tenant(call(caller, bad), "")
    if caller != "envoy":  # Envoy's body is never read, so never checked
        with pytest.raises(InvalidArgument):
            access.caller_tenant(call(caller), bad)


def test_two_tenant_headers_are_refused() -> None:
    context = FakeContext("operator", ((TENANT_HEADER, "acme"), (TENANT_HEADER, "globex")))
    with pytest.raises(InvalidArgument, match="2 x-ztgate-tenant headers"):
        mesh.caller_tenant(context, "")


@given(body=st.text(max_size=40))
def test_whatever_the_body_says_envoys_calls_act_for_the_header(body: str) -> None:
    assert mesh.caller_tenant(call("envoy", "acme"), body) == "acme"
    assert mesh.caller_tenant(call("envoy"), body) == "default"


def test_a_service_grant_adds_to_the_settings_and_allows_nothing_more() -> None:
    granted = TenantAccess(MESH, grants={"ci": ("probe",), "telemetry": ("probe",)})
    assert granted.caller_tenant(call("ci"), "probe") == "probe"        # added to its list
    assert granted.caller_tenant(call("ci"), "acme") == "acme"          # the list still holds
    assert granted.caller_tenant(call("telemetry"), "probe") == "probe"  # a caller not listed
    for caller, tenant in [("telemetry", "acme"), ("telemetry", ""), ("ci", "globex")]:
        with pytest.raises(PermissionDenied, match=f"may not act for tenant {tenant or 'default'}"):
            granted.caller_tenant(call(caller), tenant)
    assert granted.caller_tenant(call("envoy", "acme"), "probe") == "acme"  # Envoy: the header


def test_by_default_only_the_operator_is_listed() -> None:
    assert TlsSettings(cert=Path("/c"), key=Path("/k")).tenants == {"operator": ("*",)}


@pytest.mark.parametrize("tenants, words", [
    ("{envoy: [acme]}", "envoy cannot be listed"),
    ("{ci: ['bad tenant']}", "tls.tenants.ci"),
])
def test_tenants_settings_that_cannot_work_stop_start_up(tenants, words) -> None:
    with pytest.raises(ConfigError, match=words):
        load_settings(ZtgateConfig, None, environ={
            "ZTGATE_REDACTION__SERVER__TLS__CERT": "/c", "ZTGATE_REDACTION__SERVER__TLS__KEY": "/k",
            "ZTGATE_REDACTION__SERVER__TLS__TENANTS": tenants})


def test_the_gateway_listener_takes_no_tenants_setting() -> None:
    with pytest.raises(ConfigError, match="gateway.tls.tenants is not used"):
        load_settings(ZtgateConfig, None, environ={
            "ZTGATE_GATEWAY__TLS__CERT": "/c", "ZTGATE_GATEWAY__TLS__KEY": "/k",
            "ZTGATE_GATEWAY__TLS__TENANTS": "{operator: ['*']}"})
