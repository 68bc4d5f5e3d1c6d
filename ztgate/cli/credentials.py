"""`ztgate certs`, `ztgate token` and `ztgate prepare`: the suite's certificates and keys."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ztgate.common.config import ConfigError
from ztgate.cli.common import config_from, with_config


def cmd_token(args: argparse.Namespace) -> int:
    from ztgate.gateway.auth import (DEFAULT_DIR, SCOPES, SIGNING_KEY_FILE, TokenError, keygen, mint,
                                       signing_key_for)

    try:
        if args.action == "keygen":
            key_path, jwks_path = keygen(args.out or DEFAULT_DIR, force=args.force)
            print(f"signing key: {key_path} (keep it private)\nJWKS: {jwks_path}\n"
                  f"turn tokens on with gateway.auth.jwks_path: {jwks_path}", file=sys.stderr)
            return 0
        auth = config_from(args).gateway.auth
        # The key beside the configured JWKS (where `keygen` and `up` put it), else keygen's default.
        default_key = (signing_key_for(auth.jwks_path.expanduser()) if auth.jwks_path
                       else DEFAULT_DIR / SIGNING_KEY_FILE)
        print(mint(args.key or default_key, tenant=args.tenant, issuer=auth.issuer,
                   audience=auth.audience, tenant_claim=auth.tenant_claim, ttl_s=args.ttl_s,
                   subject=args.subject, scopes=tuple(args.scope or SCOPES), scope_claim=auth.scope_claim,
                   max_ttl_s=auth.max_token_lifetime_s))
        return 0
    except TokenError as exc:
        print(f"ztgate: {exc}", file=sys.stderr)
        return 2


def cmd_certs(args: argparse.Namespace) -> int:
    from ztgate.common.pki import IDENTITIES, PkiError, create

    directory = args.dir or config_from(args).mesh.pki_dir
    try:
        suite = create(directory, force=args.force, days=args.days, extra_names=tuple(args.name))
    except PkiError as exc:
        print(f"ztgate: {exc}", file=sys.stderr)
        return 2
    print(f"suite CA and certificates for {', '.join(IDENTITIES)} in {suite.dir} "
          f"(valid {args.days} days; the CA's key was not kept)\n"
          f"`ztgate up` uses them while mesh.pki_dir points there", file=sys.stderr)
    return 0


def cmd_prepare(args: argparse.Namespace) -> int:
    from ztgate.common.pki import PkiError
    from ztgate.deploy import write_parts
    from ztgate.gateway.auth import TokenError
    from ztgate.supervisor.launcher import prepare

    if args.kubernetes_secrets and not args.parts:
        raise ConfigError("--kubernetes-secrets needs --parts (the folders it packs)")
    config = config_from(args)
    try:
        lines = prepare(config)
        if args.parts:
            lines += write_parts(config, args.parts, args.mount)
        if args.kubernetes_secrets:
            import yaml

            from ztgate.deploy import kubernetes_secrets

            fd = os.open(args.kubernetes_secrets, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as handle:
                yaml.safe_dump_all(kubernetes_secrets(args.parts, args.namespace), handle, sort_keys=False)
            lines.append(f"Kubernetes Secrets of every part: {args.kubernetes_secrets} "
                         f"(`kubectl apply -f {args.kubernetes_secrets}`; keep it private)")
    except (PkiError, TokenError) as exc:
        print(f"ztgate prepare: {exc}", file=sys.stderr)
        return 2
    for line in lines:
        print(line)
    return 0


def register_token(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("token", help="gateway tokens: a signing key and JWKS, and tokens for a tenant")
    tokens = p.add_subparsers(dest="action", required=True)
    p = tokens.add_parser("keygen", help="write a signing key and the JWKS that Envoy verifies against")
    p.add_argument("--out", type=Path, help="folder (default ~/.config/ztgate/tokens)")
    p.add_argument("--force", action="store_true", help="replace an existing key")
    p.set_defaults(func=cmd_token)
    p = with_config(tokens.add_parser("mint", help="print a token for TENANT (issuer and audience from the config)"))
    p.add_argument("--tenant", required=True)
    p.add_argument("--key", type=Path, help="signing key (default: the one beside gateway.auth.jwks_path, "
                                            "else ~/.config/ztgate/tokens/signing-key.pem)")
    p.add_argument("--ttl-s", type=int, default=3600,
                   help="seconds the token is valid (at most gateway.auth.max_token_lifetime_s)")
    p.add_argument("--subject", default="", help="the token's sub (default: the tenant)")
    p.add_argument("--scope", action="append",
                   help="an API the token may call: inference or redaction (repeatable; default both)")
    p.set_defaults(func=cmd_token)


def register_certs(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("certs", help="the suite's own CA and certificates for mTLS inside it")
    certs = p.add_subparsers(dest="action", required=True)
    p = with_config(certs.add_parser("init", help="issue a fresh CA and a certificate for every part"))
    p.add_argument("--dir", type=Path, help="folder (default mesh.pki_dir, ~/.config/ztgate/pki)")
    p.add_argument("--force", action="store_true", help="replace the certificates already there")
    p.add_argument("--days", type=int, default=365, help="days the certificates are valid")
    p.add_argument("--name", action="append", default=[], metavar="DNS",
                   help="another DNS name for the servers' certificates (repeatable)")
    p.set_defaults(func=cmd_certs)


def register_prepare(sub: argparse._SubParsersAction) -> None:
    p = with_config(sub.add_parser(
        "prepare", help="issue the suite's certificates and keys (as `up` does on its first start), "
                        "and with --parts lay them out one folder per container"))
    p.add_argument("--parts", type=Path, metavar="DIR",
                   help="write DIR/<part> for each part (its certificate, key and the CA; Envoy's "
                        "bootstrap, gateway certificate and JWKS; the redaction keys): compose "
                        "volumes, Kubernetes Secrets")
    p.add_argument("--mount", type=Path, metavar="DIR",
                   help="where the part folders are mounted in the containers, if not at --parts "
                        "(Kubernetes: /pki/parts); Envoy's bootstrap names its files there")
    p.add_argument("--kubernetes-secrets", type=Path, metavar="FILE",
                   help="also write one Secret per part (ztgate-<part>) to FILE, for deploy/k8s")
    p.add_argument("--namespace", default="ztgate", help="the Secrets' namespace (default ztgate)")
    p.set_defaults(func=cmd_prepare)
