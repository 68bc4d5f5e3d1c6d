"""`ztgate redact` and `ztgate generate`: talk to the suite as a client would."""

from __future__ import annotations

import argparse
import asyncio
import sys

from ztgate import parts as suite_parts
from ztgate.common.config import ConfigError
from ztgate.cli.common import DEFAULT_ENVOY, with_gateway_credentials, with_json


def _client_tls(args: argparse.Namespace):
    """TLS to Envoy's listener with --tls-ca (and --tls-cert/--tls-key for mTLS); the operator's
    certificate to a service inside a suite that runs with mTLS (`--address` of the service);
    else plaintext (Envoy's listener on loopback)."""
    from ztgate.common.pki import Pki, operator_tls
    from ztgate.common.settings import ClientTlsSettings
    from ztgate.config import load_config

    if args.tls_ca:
        if (args.tls_cert is None) != (args.tls_key is None):
            raise ConfigError("--tls-cert and --tls-key go together")
        return ClientTlsSettings(ca=args.tls_ca, cert=args.tls_cert, key=args.tls_key)
    config = load_config(None)
    # The suite's gRPC servers, which take the operator's certificate.
    services = {part.address(config) for part in suite_parts.PARTS if part.tls_section}
    if args.address not in services or not Pki.of(config.mesh).exists():
        return None
    return operator_tls(config.mesh)


def cmd_redact(args: argparse.Namespace) -> int:
    from ztgate.redaction.client import print_redaction, redact

    text = sys.stdin.read() if args.text == "-" else args.text
    response = asyncio.run(redact(args.address, text, policy=args.policy, tenant=args.tenant,
                                  session_id=args.session, token=args.token,
                                  tls=_client_tls(args)))
    if args.json:
        from ztgate.common.jsonout import message_json

        print(message_json(response))
    else:
        print_redaction(response, sys.stdout)
    return 0


def cmd_generate(args: argparse.Namespace) -> int:
    from ztgate.inference.client import build_request, generate

    request = build_request(args.prompt, chat=not args.raw, max_tokens=args.max_tokens,
                            temperature=args.temperature)
    asyncio.run(generate(args.address, request, stream=args.stream, token=args.token,
                         tls=_client_tls(args), as_json=args.json))
    return 0


def register_redact(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("redact", help="redact TEXT through the gateway and show the findings")
    p.add_argument("text", help="the text, or - to read standard input")
    p.add_argument("--address", default=DEFAULT_ENVOY,
                   help=f"gateway or redaction service address (default {DEFAULT_ENVOY}, Envoy)")
    p.add_argument("--policy", default="")
    p.add_argument("--tenant", default="")
    p.add_argument("--session", default="")
    with_gateway_credentials(p)
    with_json(p)
    p.set_defaults(func=cmd_redact)


def register_generate(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("generate", help="ask the model through the gateway (redaction enforced)")
    p.add_argument("prompt")
    p.add_argument("--stream", action="store_true", help="print tokens as they arrive")
    p.add_argument("--address", default=DEFAULT_ENVOY, help=f"default {DEFAULT_ENVOY} (Envoy)")
    p.add_argument("--max-tokens", type=int, default=128)
    p.add_argument("--temperature", type=float, help="0 is greedy (default: the service's, greedy); above 0 samples")
    p.add_argument("--raw", action="store_true", help="send a raw prompt, not a chat message")
    with_gateway_credentials(p)
    with_json(p)
    p.set_defaults(func=cmd_generate)
