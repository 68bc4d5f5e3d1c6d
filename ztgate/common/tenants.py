"""What a tenant is called: the one pattern every part checks a tenant name against, and the
tenant of calls that name none. No grpc here: domain code, settings and Envoy's template use it."""

from __future__ import annotations

import re

# The tenant of a gateway call without tokens, and of a direct call that names no tenant.
DEFAULT_TENANT = "default"
# A tenant name: what Envoy's RBAC filter requires of a token's tenant claim (RE2, matched whole)
# and what the services accept. No space, comma or slash: a header value, a metrics label and a
# vault key component, unambiguous in each.
TENANT_PATTERN = r"[A-Za-z0-9._:@-]{1,128}"
TENANT_RE = re.compile(TENANT_PATTERN)
# Said to a person whose tenant name is refused.
TENANT_RULE = "1-128 letters, digits or . _ : @ -"


def is_tenant(name: str) -> bool:
    """Whether `name` is a usable tenant name."""
    return TENANT_RE.fullmatch(name) is not None
