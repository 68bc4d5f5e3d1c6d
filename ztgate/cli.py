"""The `ztgate` command: run the suite or one service, and talk to it as a client would."""

from __future__ import annotations

import argparse
import importlib.util
import asyncio
import os
import sys
from pathlib import Path

from ztgate import parts as suite_parts
from ztgate.common.config import ConfigError

DEFAULT_ENVOY = "127.0.0.1:8080"


# The parts `ztgate status --part` can probe (the names of `ztgate up`'s children).
STATUS_PARTS = suite_parts.NAMES
# The certificates `ztgate status --identity` can present: a server part's own, or the operator's.
STATUS_IDENTITIES = (*suite_parts.SERVERS, suite_parts.OPERATOR)


def _version() -> str:
    """The installed distribution's version (pyproject's), as pip recorded it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ztgate")
    except PackageNotFoundError:
        return "unknown (not installed: run `make install`)"


def _config(args: argparse.Namespace, flags: dict[str, tuple[str, str]] | None = None):
    """The configuration: the file, the ZTGATE_* environment, then `flags` ({key path: (flag,
    value)}), which go through the same loader as ZTGATE_* variables, so a flag is validated as the
    key it sets; ConfigError names the flag."""
    from ztgate.common.config import load_settings
    from ztgate.config import ZtgateConfig

    flags = flags or {}
    environ = {**os.environ, **{suite_parts.env_var(key): value for key, (_, value) in flags.items()}}
    try:
        return load_settings(ZtgateConfig, getattr(args, "config", None), environ=environ)
    except ConfigError as exc:
        if not flags:
            raise
        said = ", ".join(f"{flag} {value} sets {key}" for key, (flag, value) in flags.items())
        raise ConfigError(f"{exc}\n  (from the command line: {said})") from None


def serve_flags(args: argparse.Namespace) -> dict[str, tuple[str, str]]:
    """`ztgate serve`'s flags as {key path: (flag, value)}: --listen sets the served part's listen
    address (ztgate/parts.py), the others their inference instance's or the collector's keys."""
    part = suite_parts.BY_NAME[f"inference-{args.instance}" if args.service == "inference" else args.service]
    given = {part.listen: ("--listen", args.listen)}
    if args.service == "inference":
        given[f"{part.section}.speculative.method"] = ("--speculative", args.speculative)
        given[f"{part.section}.parity"] = ("--parity", args.parity)
    if args.service == "telemetry":
        given["telemetry.metrics_listen"] = ("--metrics-listen", args.metrics_listen)
    return {key: (flag, value) for key, (flag, value) in given.items() if value}


def cmd_serve(args: argparse.Namespace) -> int:
    from ztgate.common.logging import setup_logging

    config = _config(args, serve_flags(args))
    setup_logging(args.service, config.logging.level)
    if args.service == "redaction":
        from ztgate.redaction.server import run

        asyncio.run(run(config))
        return 0
    if args.service == "inference":
        from ztgate.inference.server import run as run_inference

        asyncio.run(run_inference(config, args.instance))
        return 0
    if args.service == "telemetry":
        from ztgate.telemetry.server import run as run_telemetry

        asyncio.run(run_telemetry(config))
        return 0
    if args.service == "openai-adapter":
        from ztgate.openai_adapter.server import run as run_adapter

        asyncio.run(run_adapter(config))
        return 0
    print(f"ztgate serve {args.service}: not part of this build yet", file=sys.stderr)
    return 2


def cmd_up(args: argparse.Namespace) -> int:
    from ztgate.launcher import run_suite
    from ztgate.replicas import ReplicaError, parse

    config = _config(args)
    try:
        counts = parse(args.replicas, config.supervisor.max_replicas)
    except ReplicaError as exc:
        print(f"ztgate up: {exc}", file=sys.stderr)
        return 2
    return asyncio.run(run_suite(config, args.config, counts, verbose=args.verbose))


def cmd_envoy_config(args: argparse.Namespace) -> int:
    from ztgate.gateway.envoy_config import render

    text = render(_config(args))
    if args.out:
        Path(args.out).write_text(text)
        print(f"wrote {args.out}")
    else:
        sys.stdout.write(text)
    return 0


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


def cmd_token(args: argparse.Namespace) -> int:
    from ztgate.gateway.auth import (DEFAULT_DIR, SCOPES, SIGNING_KEY_FILE, TokenError, keygen, mint,
                                       signing_key_for)

    try:
        if args.action == "keygen":
            key_path, jwks_path = keygen(args.out or DEFAULT_DIR, force=args.force)
            print(f"signing key: {key_path} (keep it private)\nJWKS: {jwks_path}\n"
                  f"turn tokens on with gateway.auth.jwks_path: {jwks_path}", file=sys.stderr)
            return 0
        auth = _config(args).gateway.auth
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

    directory = args.dir or _config(args).mesh.pki_dir
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
    from ztgate.launcher import prepare

    if args.kubernetes_secrets and not args.parts:
        raise ConfigError("--kubernetes-secrets needs --parts (the folders it packs)")
    config = _config(args)
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


# Benchmarks and the golden gate live in their own distribution (bench/), not in the product.
_NO_BENCH = ("ztgate {verb} needs the ztgate-bench distribution, which is not installed: from a "
             "checkout, `pip install -e bench` (`make install` does)")


def _bench_installed() -> bool:
    return importlib.util.find_spec("ztgate_bench") is not None


def cmd_bench(args: argparse.Namespace) -> int:
    if not _bench_installed():
        print(_NO_BENCH.format(verb="bench"), file=sys.stderr)
        return 2
    if args.target is None:
        from ztgate_bench.all_parts import main as all_parts

        return all_parts(args)
    from ztgate_bench.registry import part_main

    return part_main(args.target)(args)


def cmd_eval(args: argparse.Namespace) -> int:
    if not _bench_installed():
        print(_NO_BENCH.format(verb="eval"), file=sys.stderr)
        return 2
    from ztgate_bench.eval.main import main as eval_main

    return eval_main(args)


def cmd_models(args: argparse.Namespace) -> int:
    from ztgate.inference.models import prepare
    from ztgate.redaction.detection.names import gazetteer
    from ztgate.redaction.detection.patterns.scanner import PatternScanner

    path = prepare(args.cache_dir, force=args.force)
    print(f"model ready: {path}")
    # The redaction service's compiled caches too (a minute of Hyperscan compiling and seconds of
    # town parsing on a small machine), so that its first start is as quick as every later one.
    cache_dir = _config(args).redaction.cache_dir
    scanner = PatternScanner(cache_dir=cache_dir)
    print(f"redaction patterns ready: {scanner.cache_path} ({scanner.database_source})")
    print(f"redaction place table ready: {gazetteer.warm_place_cache(cache_dir)}")
    return 0


def cmd_train_speculator(args: argparse.Namespace) -> int:
    try:
        from ztgate.speculators.train import TrainSettings, train_speculator
    except ImportError as exc:  # Faker (the dev extra) fills the prompts; torch/transformers: inference
        print(f"ztgate models train-speculator needs the dev and inference extras: {exc}", file=sys.stderr)
        return 2

    defaults = TrainSettings()
    settings = TrainSettings(
        method=args.method, samples=defaults.samples if args.samples is None else args.samples,
        steps=defaults.steps if args.steps is None else args.steps, seed=args.seed,
        draft_vocab=args.draft_vocab, max_new_tokens=args.max_new_tokens, batch_size=args.batch_size,
        ttt_steps=args.ttt_steps, heads=args.heads, head_layers=args.head_layers, threads=args.threads,
        self_prompts=args.self_prompts, device=args.device, collector=args.collector,
        collect_batch=args.collect_batch, heldout=args.heldout, time_budget_s=args.time_budget_s)
    try:
        out = train_speculator(settings, out=args.out, model_dir=args.model, resume=args.resume)
    except (FileNotFoundError, ValueError) as exc:
        print(f"ztgate models train-speculator: {exc}", file=sys.stderr)
        return 2
    print(f"speculator ready: {out} (serve it with inference.primary.speculative.method: {args.method}, "
          f"draft_model: {out})")
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    from ztgate.launcher import print_status

    return asyncio.run(print_status(_config(args), parts=tuple(args.part or ()), as_json=args.json,
                                    identity=args.identity))


def cmd_top(args: argparse.Namespace) -> int:
    from ztgate.top.app import run

    if not 0.1 <= args.interval <= 60:
        print(f"ztgate top: --interval {args.interval:g} is outside 0.1 to 60 seconds", file=sys.stderr)
        return 2
    try:
        asyncio.run(run(_config(args), args.interval))
    except KeyboardInterrupt:
        pass
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ztgate", description=__doc__)
    parser.add_argument("--version", action="version", version=f"ztgate {_version()}")
    sub = parser.add_subparsers(dest="verb", required=True)

    def with_json(p: argparse.ArgumentParser) -> None:
        p.add_argument("--json", action="store_true",
                       help="print the reply as JSON (proto field names), one object a line, for scripts")

    def with_gateway_credentials(p: argparse.ArgumentParser) -> None:
        p.add_argument("--token", default=os.environ.get("ZTGATE_TOKEN", ""),
                       help="bearer token for a gateway that checks them (default $ZTGATE_TOKEN)")
        p.add_argument("--tls-ca", type=Path, default=os.environ.get("ZTGATE_TLS_CA") or None,
                       help="CA of a gateway that serves TLS (gateway.tls; default $ZTGATE_TLS_CA)")
        p.add_argument("--tls-cert", type=Path, default=os.environ.get("ZTGATE_TLS_CERT") or None,
                       help="client certificate for a gateway that requires one (default $ZTGATE_TLS_CERT)")
        p.add_argument("--tls-key", type=Path, default=os.environ.get("ZTGATE_TLS_KEY") or None,
                       help="its private key (default $ZTGATE_TLS_KEY)")

    def with_config(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument("--config", type=Path, help="ztgate.yaml (default: $ZTGATE_CONFIG or built-in defaults)")
        return p

    p = with_config(sub.add_parser("serve", help="run one service in the foreground"))
    p.add_argument("service", choices=tuple(dict.fromkeys(p.serve[0] for p in suite_parts.PARTS if p.serve)))
    p.add_argument("--listen", help="HOST:PORT (overrides the config)")
    p.add_argument("--metrics-listen", help="HOST:PORT of the Prometheus exposition (telemetry)")
    p.add_argument("--instance", choices=["primary", "fallback"], default="primary",
                   help="which inference instance of the config to run (inference)")
    p.add_argument("--speculative", choices=["none", "ngram", "suffix", "draft_model", "eagle", "eagle3", "medusa"],
                   help="speculative decoding method (inference; overrides the config)")
    p.add_argument("--parity", choices=["strict", "fast"],
                   help="strict: float32, greedy output identical with and without speculation (inference)")
    p.set_defaults(func=cmd_serve)

    p = with_config(sub.add_parser("up", help="run the whole suite behind Envoy until Ctrl-C"))
    p.add_argument("--replicas", action="append", default=[], metavar="PART=N",
                   help=f"run PART ({', '.join(suite_parts.REPLICABLE)}) as N replicas "
                        "behind Envoy, each on its configured port + i * supervisor.replica_port_stride "
                        "(repeat, or comma-separate, for several parts)")
    p.add_argument("--verbose", action="store_true",
                   help="every part's output on this terminal (default: one file per part, named at start)")
    p.set_defaults(func=cmd_up)

    p = with_config(sub.add_parser("envoy-config", help="render the Envoy bootstrap that `up` runs"))
    p.add_argument("--out", help="write to this file instead of stdout")
    p.set_defaults(func=cmd_envoy_config)

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

    p = sub.add_parser("certs", help="the suite's own CA and certificates for mTLS inside it")
    certs = p.add_subparsers(dest="action", required=True)
    p = with_config(certs.add_parser("init", help="issue a fresh CA and a certificate for every part"))
    p.add_argument("--dir", type=Path, help="folder (default mesh.pki_dir, ~/.config/ztgate/pki)")
    p.add_argument("--force", action="store_true", help="replace the certificates already there")
    p.add_argument("--days", type=int, default=365, help="days the certificates are valid")
    p.add_argument("--name", action="append", default=[], metavar="DNS",
                   help="another DNS name for the servers' certificates (repeatable)")
    p.set_defaults(func=cmd_certs)

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

    p = with_config(sub.add_parser("bench", help="measure a part side by side with its anchor"))
    if _bench_installed():
        from ztgate_bench.registry import add_arguments as add_bench_arguments

        add_bench_arguments(p)
    else:
        p.add_argument("target", nargs="?")
        p.add_argument("rest", nargs=argparse.REMAINDER)
    p.set_defaults(func=cmd_bench)

    p = with_config(sub.add_parser("eval", help="the golden gate: run tests/golden/ through a suite; exit 1 on drift"))
    p.add_argument("--full", action="store_true", help="the nightly set (default: the quick set)")
    p.add_argument("--target", metavar="ADDR",
                   help="the gateway of a running suite (default: start one on free loopback ports)")
    p.add_argument("--update", action="store_true",
                   help="rewrite the expected answers from this run and print the diff (review, then commit it)")
    p.add_argument("--out", type=Path, help="folder for eval-report.json, .md and eval-latency.png")
    p.add_argument("--golden-dir", type=Path, help="golden files (default tests/golden)")
    with_gateway_credentials(p)
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("models", help="prepare the default model offline")
    models = p.add_subparsers(dest="action", required=True)
    p = with_config(models.add_parser(
        "prepare", help="convert the packaged SmolLM2 GGUF to a Hugging Face folder; build the redaction caches"))
    p.add_argument("--cache-dir", type=Path, help="default: $ZTGATE_CACHE_DIR/models, else ~/.cache/ztgate/models")
    p.add_argument("--force", action="store_true", help="convert again even if prepared")
    p.set_defaults(func=cmd_models)
    p = models.add_parser(
        "train-speculator", help="train an EAGLE-3 head or Medusa heads for the default model, or the Llama-family "
                                 "model in --model DIR, on the CPU or a GPU (self-distillation; docs/speculator.md)")
    p.add_argument("--method", choices=("eagle3", "medusa"), default="eagle3",
                   help="the speculator to train (default eagle3); both share the target's answers and "
                        "hidden states, cached in speculator-data/ beside the checkpoint folder")
    p.add_argument("--samples", type=int, help="training prompts from the templates (default 256)")
    p.add_argument("--self-prompts", type=int, default=0,
                   help="more training prompts, written by the target itself from a seed (Magpie; "
                        "broader than the templates, docs/speculator.md; default 0)")
    p.add_argument("--steps", type=int, help="optimizer steps (default 600)")
    p.add_argument("--seed", type=int, default=0, help="seed of the prompts, the initial weights and the batches")
    p.add_argument("--out", type=Path,
                   help="checkpoint folder (default: $ZTGATE_CACHE_DIR/models/<model folder name>-<method>, where "
                        "a primary serving that model finds it)")
    p.add_argument("--model", "--model-dir", dest="model", type=Path, metavar="DIR",
                   help="the served Llama-family model (a Hugging Face folder) to train for (default: the one "
                        "`models prepare` made)")
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                   help="where the target answers and the head trains (default cpu; the same code on both)")
    p.add_argument("--collector", choices=("auto", "vllm", "transformers"), default="auto",
                   help="who answers: vllm (the CPU engine), transformers (batched, on the device); default auto: "
                        "vllm on cpu where installed, else transformers")
    p.add_argument("--collect-batch", type=int, default=32,
                   help="transformers collector: prompts per batch (default 32)")
    p.add_argument("--heldout", type=float, default=0.05,
                   help="share of the samples held out of training for the agreement figures (default 0.05, "
                        "at most 400 samples)")
    p.add_argument("--time-budget-s", type=float,
                   help="seconds the command may run, collection included: training stops there, saves its state "
                        "and writes the checkpoint (continue with --resume); default: no limit")
    p.add_argument("--draft-vocab", type=int,
                   help="draft vocabulary size K (default 8192, or the model's vocabulary if smaller)")
    p.add_argument("--max-new-tokens", type=int, default=128, help="length of each target answer (default 128)")
    p.add_argument("--batch-size", type=int, default=8, help="samples per step (default 8)")
    p.add_argument("--ttt-steps", type=int, default=3,
                   help="eagle3: draft positions trained by test-time-training unroll (default 3; 1: none)")
    p.add_argument("--heads", type=int, default=3,
                   help="medusa: heads, the most draft tokens it proposes (default 3)")
    p.add_argument("--head-layers", type=int, default=1, help="medusa: residual blocks per head (default 1)")
    p.add_argument("--threads", type=int, default=1,
                   help="torch CPU threads (default 1: fastest on a shared 2-vCPU machine)")
    p.add_argument("--resume", action="store_true",
                   help="continue from the saved state in <out>/.train (same samples, seed and settings)")
    p.set_defaults(func=cmd_train_speculator)

    p = with_config(sub.add_parser("status", help="health of every part of a running suite"))
    p.add_argument("--part", action="append", choices=STATUS_PARTS,
                   help="only this part (repeatable): a container's own health check, over gRPC health "
                        "with the operator certificate; a wildcard listen address is probed on loopback")
    p.add_argument("--identity", choices=STATUS_IDENTITIES, default="operator",
                   help="the suite certificate to present (default operator; a part's container "
                        "checks itself with its own)")
    with_json(p)
    p.set_defaults(func=cmd_status)

    p = with_config(sub.add_parser("top", help="live terminal view of the running suite (Ctrl-C quits)"))
    p.add_argument("--interval", type=float, default=1.0, help="seconds between refreshes (default 1)")
    p.set_defaults(func=cmd_top)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except ConfigError as exc:
        print(f"ztgate: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`| head`): nothing more to say, and no traceback about it.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:  # noqa: BLE001 - a gRPC failure is shown as its status, not a traceback
        import grpc

        if isinstance(exc, grpc.RpcError):
            print(f"ztgate: {exc.code().name}: {exc.details()}", file=sys.stderr)
            return 1
        raise


if __name__ == "__main__":
    sys.exit(main())
