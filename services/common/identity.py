"""Who is calling: the tenant Envoy sets from the verified token, never one a client chose."""

from __future__ import annotations

import grpc

# Set by Envoy from the verified token's claim; Envoy strips any client-supplied copy.
TENANT_HEADER = "x-ztgate-tenant"


def caller_tenant(context: grpc.aio.ServicerContext, body_tenant: str) -> str:
    """The header's tenant when Envoy set one, else the request body's (direct mesh callers)."""
    for key, value in context.invocation_metadata() or ():
        if key == TENANT_HEADER:
            return value
    return body_tenant


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    """Call metadata carrying `token` for Envoy's jwt_authn filter (none for an empty token)."""
    return (("authorization", f"Bearer {token}"),) if token else ()
