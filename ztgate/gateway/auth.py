"""Gateway tokens: the key pair whose public half Envoy's `jwt_authn` filter verifies, and tokens.

Envoy checks every call's `authorization: Bearer <JWT>` against a local JWKS file (no network
fetch), its issuer, audience and expiry (which it must carry, at most
`gateway.auth.max_token_lifetime_s` ahead), and copies the verified tenant claim into the
`x-ztgate-tenant` header that the services read (ztgate/common/identity.py). This module makes
that JWKS and a signing key for development and tests (`ztgate token keygen`), and mints tokens
(`ztgate token mint`). In production tokens come from your identity provider: point
`gateway.auth.jwks_path` at its keys and keep its issuer and audience.

ES256 (P-256): small tokens, and Envoy's verifier supports it. The key id ties a token to its key.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from pathlib import Path

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from ztgate.common.atomic import write_atomically
from ztgate.gateway.config import DEFAULT_MAX_TOKEN_LIFETIME_S

ALGORITHM = "ES256"
# Where `ztgate token keygen` writes, and `ztgate token mint` reads, the development key pair.
DEFAULT_DIR = Path("~/.config/ztgate/tokens").expanduser()
SIGNING_KEY_FILE = "signing-key.pem"
JWKS_FILE = "jwks.json"
# What a token's scope grants: each scope name opens path prefixes through the gateway (inference:
# the gRPC Inference service and the OpenAI-compatible HTTP door, `/v1/`).
SCOPES: dict[str, tuple[str, ...]] = {
    "inference": ("/ztgate.inference.v1.Inference/", "/v1/"),
    "redaction": ("/ztgate.redaction.v1.Redaction/",),
}


class TokenError(ValueError):
    """A key file that is missing or not one this module wrote; the message says what to do."""


def keygen(directory: Path, *, force: bool = False) -> tuple[Path, Path]:
    """Writes a new signing key (private, mode 0600) and its JWKS; returns (key path, JWKS path)."""
    return keygen_at(directory / JWKS_FILE, force=force)


def signing_key_for(jwks_path: Path) -> Path:
    """Where the signing key of a JWKS that `keygen` wrote lies: beside it."""
    return jwks_path.parent / SIGNING_KEY_FILE


def keygen_at(jwks_path: Path, *, force: bool = False) -> tuple[Path, Path]:
    """`keygen` with the JWKS at `jwks_path` and the signing key beside it (`signing_key_for`)."""
    key_path = signing_key_for(jwks_path)
    if key_path.exists() and not force:
        raise TokenError(f"{key_path} exists; pass --force to replace it (tokens it signed stop "
                         "verifying once Envoy reloads the new JWKS)")
    key_path.parent.mkdir(parents=True, exist_ok=True)
    key = ec.generate_private_key(ec.SECP256R1())
    kid = uuid.uuid4().hex[:16]
    jwk = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(key.public_key()))
    jwk.update({"kid": kid, "alg": ALGORITHM, "use": "sig"})
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    # The key id travels in the PEM's comment line so that `mint` needs only the key file.
    key_path.unlink(missing_ok=True)
    fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # never readable by others
    with os.fdopen(fd, "wb") as handle:
        handle.write(f"# kid: {kid}\n".encode() + pem)
    write_atomically(jwks_path, json.dumps({"keys": [jwk]}, indent=2).encode())
    jwks_path.chmod(0o644)  # public keys: Envoy may run as another user
    return key_path, jwks_path


def load_signing_key(key_path: Path) -> tuple[ec.EllipticCurvePrivateKey, str]:
    """The private key and its key id from a file `keygen` wrote."""
    try:
        text = key_path.read_text()
    except OSError as exc:
        raise TokenError(f"cannot read the signing key {key_path}: {exc.strerror}; make one with "
                         "`ztgate token keygen`") from None
    first, _, pem = text.partition("\n")
    if not first.startswith("# kid: "):
        raise TokenError(f"{key_path} is not a key from `ztgate token keygen` (no key id line)")
    try:
        key = serialization.load_pem_private_key(pem.encode(), password=None)
    except ValueError:
        raise TokenError(f"{key_path} holds no readable private key; make one with "
                         "`ztgate token keygen`") from None
    if not isinstance(key, ec.EllipticCurvePrivateKey):
        raise TokenError(f"{key_path} is not a P-256 key")
    return key, first.removeprefix("# kid: ").strip()


def mint(key_path: Path, *, tenant: str, issuer: str, audience: str, tenant_claim: str = "tenant",
         ttl_s: int = 3600, subject: str = "", now: float | None = None,
         scopes: tuple[str, ...] = tuple(SCOPES), scope_claim: str = "scope",
         max_ttl_s: int = DEFAULT_MAX_TOKEN_LIFETIME_S) -> str:
    """A signed token for `tenant` that may call the APIs in `scopes`, valid `ttl_s` seconds from
    `now`; a `ttl_s` above `max_ttl_s` (the gateway's `max_token_lifetime_s`) is refused, since
    Envoy would refuse the token."""
    if ttl_s <= 0:
        raise TokenError("ttl must be positive (seconds)")
    if ttl_s > max_ttl_s:
        raise TokenError(f"a token valid {ttl_s} s is longer than gateway.auth.max_token_lifetime_s "
                         f"({max_ttl_s} s) and the gateway would refuse it: mint one with --ttl-s "
                         f"{max_ttl_s} or less (or raise that setting)")
    unknown = sorted(set(scopes) - set(SCOPES))
    if unknown:
        raise TokenError(f"unknown scope {', '.join(unknown)}: the gateway knows {', '.join(SCOPES)}")
    key, kid = load_signing_key(key_path)
    issued = int(time.time() if now is None else now)
    claims = {"iss": issuer, "aud": audience, "iat": issued, "nbf": issued, "exp": issued + ttl_s,
              "sub": subject or tenant or "anonymous", tenant_claim: tenant}
    if scopes:
        claims[scope_claim] = " ".join(scopes)
    return jwt.encode(claims, key, algorithm=ALGORITHM, headers={"kid": kid})
