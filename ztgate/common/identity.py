"""Who is calling, and so which tenant a call acts for: decided by the caller's verified
certificate, never by what a request says about itself.

- Envoy (certificate `envoy`): the `x-ztgate-tenant` header only, which Envoy always sets itself
  (the verified token's claim, or `default` without tokens) after dropping any client's copy; a
  call without it acts for `default`. The request's own tenant field is never read.
- Another suite identity listed in `server.tls.tenants` (the operator by default): the tenant it
  names (the header, else the request's field, else `default`), if the list allows it.
- Any other certificate: PERMISSION_DENIED, naming the setting.
- No client certificates on this listener (`mesh.mtls: false`: plaintext, loopback only, for
  development): nobody is authenticated, so the caller is taken at its word (header, else the
  request's field, else `default`). Through Envoy that is still the header Envoy set.
"""

from __future__ import annotations

from collections.abc import Mapping

import grpc

from ztgate.common.errors import InvalidArgument, PermissionDenied
from ztgate.common.pki import ENVOY
from ztgate.common.settings import TlsSettings
from ztgate.common.tenants import DEFAULT_TENANT, TENANT_RULE, is_tenant
from ztgate.common.tls import peer_name

# Set by Envoy (from the verified token's claim, or `default`); Envoy strips any client-supplied copy.
TENANT_HEADER = "x-ztgate-tenant"
# In `server.tls.tenants`: the caller may act for any tenant.
ANY_TENANT = "*"


def tenant_header(context: grpc.aio.ServicerContext) -> str | None:
    """The call's tenant header, None without one; more than one is refused (only Envoy sets it,
    once)."""
    values = [value for key, value in context.invocation_metadata() or () if key == TENANT_HEADER]
    if len(values) > 1:
        raise InvalidArgument(f"the call carries {len(values)} {TENANT_HEADER} headers; send one")
    return values[0] if values else None


class TenantAccess:
    """Which tenant a call acts for, by who is calling (module doc); built from the listener's
    `server.tls`."""

    def __init__(self, tls: TlsSettings | None,
                 grants: Mapping[str, tuple[str, ...]] | None = None) -> None:
        """`grants`: tenants a service itself lets a suite identity act for, on top of
        `server.tls.tenants` (the inference service's for the collector's SLO probes)."""
        # With a client CA the handshake verified a certificate: every caller has a name.
        self._certificates = tls is not None and tls.client_ca is not None
        configured = dict(tls.tenants) if tls else {}
        self._tenants: Mapping[str, frozenset[str]] = {
            name: frozenset((*configured.get(name, ()), *(grants or {}).get(name, ())))
            for name in {*configured, *(grants or {})}}

    def decide(self, caller: str | None, header: str | None, body: str) -> str:
        """The tenant of a call from `caller` (its certificate's name, None without one) that
        carries `header` (None: no tenant header) and names `body` in its request."""
        if caller is None:
            if self._certificates:  # cannot happen after the handshake; fail closed regardless
                raise PermissionDenied("the call has no client certificate; this service requires one")
            return _checked(header or body or DEFAULT_TENANT)
        if caller == ENVOY:
            return _checked(header or DEFAULT_TENANT)
        allowed = self._tenants.get(caller)
        if allowed is None:
            raise PermissionDenied(
                f"caller {caller} may not act for any tenant here; server.tls.tenants lists who may "
                f"({', '.join(sorted(self._tenants)) or 'nobody'}), and Envoy acts for the tenant "
                "its tokens name")
        tenant = _checked(header or body or DEFAULT_TENANT)
        if ANY_TENANT not in allowed and tenant not in allowed:
            raise PermissionDenied(
                f"caller {caller} may not act for tenant {tenant}; server.tls.tenants allows it "
                f"{', '.join(sorted(allowed))}")
        return tenant

    def caller_tenant(self, context: grpc.aio.ServicerContext, body_tenant: str) -> str:
        """The tenant this call acts for (module doc); `body_tenant` is the request's own field."""
        return self.decide(peer_name(context), tenant_header(context), body_tenant)


def _checked(tenant: str) -> str:
    if not is_tenant(tenant):
        raise InvalidArgument(f"tenant must be {TENANT_RULE}")
    return tenant


# A routing hint a client of the Redaction API sends with its session id: Envoy hashes it with the
# tenant header to keep one session on one redaction replica (its vault). Never an identity.
SESSION_HEADER = "x-ztgate-session"


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    """Call metadata carrying `token` for Envoy's jwt_authn filter (none for an empty token)."""
    return (("authorization", f"Bearer {token}"),) if token else ()
