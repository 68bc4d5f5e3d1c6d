"""Where `ztgate eval` sends its cases: a suite it starts itself (`ztgate up` on free loopback ports,
with its own certificates, token keys and the goldens' policies), or a running one (`--target`).

Either way the eval calls the gateway (Envoy: redaction, inference, restore) with a bearer token,
and each inference instance directly, over mTLS as the operator, for the per-engine goldens and the
gateway-versus-direct latency ratio. A suite of its own also runs the primary a second time with
speculation off (`Target.plain`: the same engine, model and settings, `speculative.method: none`), for
the speed check that compares speculation on and off on the same engine.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import grpc

from ztgate.supervisor.launcher import listen_variables
from ztgate.common.process import free_address, is_serving, spawn, stop_all, wait_until
from ztgate.common import pki
from ztgate.common.identity import bearer
from ztgate.common.settings import ClientTlsSettings
from ztgate.common.tls import open_channel
from ztgate.config import ZtgateConfig
from ztgate.gen.redaction.v1 import redaction_pb2, redaction_pb2_grpc

# The tenant the eval's token names.
TENANT = "golden"
# Seconds `ztgate up` gets to say it is up (two model instances load on a small machine).
START_TIMEOUT_S = 600.0
# The per-try (first token) timeout of the eval's own gateway, seconds (below the stream idle
# timeout, 60 s by default, as the gateway settings require).
EVAL_PER_TRY_TIMEOUT_S = 50.0
# Seconds the probe of a --target waits for an answer.
PROBE_TIMEOUT_S = 10.0
INFERENCE_SERVICE = "ztgate.inference.v1.Inference"


class TargetError(RuntimeError):
    """The --target does not answer as a ztgate gateway; the message names the address."""


@dataclass(frozen=True, slots=True)
class Target:
    """How to reach a suite: its gateway (with `token`), and its inference instances directly."""

    gateway: str
    token: str
    primary: str
    fallback: str
    # The operator's certificate for the direct calls (None when the suite runs plaintext inside).
    tls: ClientTlsSettings | None
    # Whether the goldens' own policies (tests/golden/policies) are loaded: a suite eval started.
    own: bool
    gateway_tls: ClientTlsSettings | None = None
    # The primary's engine again with speculation off (a suite of its own only; None: not run).
    plain: str | None = None
    # Tokens for more tenants than TENANT, by tenant (`own_suite(tenants=...)`).
    tokens: dict[str, str] = field(default_factory=dict)

    def gateway_channel(self) -> grpc.aio.Channel:
        return open_channel(self.gateway, self.gateway_tls)

    def metadata(self) -> tuple[tuple[str, str], ...]:
        return tuple(bearer(self.token)) if self.token else ()


def probe(target: Target) -> None:
    """Raises TargetError unless `target.gateway` answers a ztgate Redact (so that a typo in --target
    or another service there reads as such, not as a thousand drifted cases)."""
    import asyncio

    async def call() -> None:
        async with target.gateway_channel() as channel:
            await redaction_pb2_grpc.RedactionStub(channel).Redact(
                redaction_pb2.RedactRequest(text="ztgate eval probe"), timeout=PROBE_TIMEOUT_S,
                metadata=target.metadata())

    try:
        asyncio.run(call())
    except grpc.RpcError as exc:
        code = exc.code()
        if code in (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED):
            raise TargetError(f"{target.gateway} refused the eval's call ({code.name}: {exc.details()}); "
                              "pass a token for it with --token (or $ZTGATE_TOKEN)") from None
        if code is grpc.StatusCode.UNAVAILABLE:
            raise TargetError(f"nothing answers gRPC at {target.gateway} ({exc.details()}); is a ztgate "
                              "suite running there (`ztgate up`)?") from None
        raise TargetError(f"{target.gateway} is not a ztgate gateway: ztgate.redaction.v1.Redaction/Redact "
                          f"answered {code.name}: {exc.details()}") from None


def _env(config: ZtgateConfig, workdir: Path, policies: tuple[Path, ...]) -> dict[str, str]:
    from ztgate.redaction.config import DEFAULT_POLICY_DIR

    env = {key: free_address() for key in listen_variables()}  # every address up listens on
    env.update({
        # Fresh certificates and keys for this run, in its own folder (`up` issues them there).
        "ZTGATE_MESH__PKI_DIR": str(workdir / "pki"),
        "ZTGATE_REDACTION__KEYS_FILE": str(workdir / "keys" / "redaction.json"),
        "ZTGATE_GATEWAY__AUTH__JWKS_PATH": str(workdir / "tokens" / "jwks.json"),
        "ZTGATE_REDACTION__POLICIES": "[" + ", ".join(str(p) for p in (DEFAULT_POLICY_DIR, *policies)) + "]",
        # One analysis worker and no background scoring: a small machine runs the eval.
        "ZTGATE_REDACTION__WORKERS": os.environ.get("ZTGATE_REDACTION__WORKERS", "1"),
        "ZTGATE_INFERENCE__PRIMARY__BACKGROUND_SCORING": "false",
        "ZTGATE_INFERENCE__FALLBACK__BACKGROUND_SCORING": "false",
        # The gate sends its cases as one tenant, many at once: it judges what redaction and the model
        # answer, not the per-tenant rate limit that tokens turn on (tests/e2e/test_gateway_auth.py does).
        "ZTGATE_GATEWAY__RATE_LIMIT__WITH_TOKENS_PER_S": "null",
        # The gate judges answers, not time to first token (tests/e2e/test_gateway_slo.py does): a
        # loaded machine's slow first token must not turn a case into a failed call.
        "ZTGATE_GATEWAY__INFERENCE__PER_TRY_TIMEOUT_S": str(EVAL_PER_TRY_TIMEOUT_S),
        "ZTGATE_GATEWAY__INFERENCE__PER_TRY_TIMEOUT_MAX_S": str(EVAL_PER_TRY_TIMEOUT_S),
    })
    return env


@contextlib.contextmanager
def own_suite(config_path: Path | None, policies: Path, workdir: Path | None = None,
              start_timeout_s: float = START_TIMEOUT_S, *, extra_policies: tuple[Path, ...] = (),
              environ: dict[str, str] | None = None, tenants: tuple[str, ...] = (),
              plain: bool = True) -> Iterator[Target]:
    """`ztgate up` on free loopback ports with tokens on and certificates of its own; stopped after.
    Its settings (and `environ`, more ZTGATE_* settings) are in `workdir/eval-suite.env`, its signing
    key beside the JWKS in `workdir/tokens`. `tenants`: more tenants to mint tokens for (`Target.tokens`);
    `plain`: also start the primary with speculation off (`Target.plain`)."""
    from ztgate.config import load_config
    from ztgate.gateway.auth import keygen_at, mint

    workdir = workdir or Path(tempfile.mkdtemp(prefix="ztgate-eval-"))
    workdir.mkdir(parents=True, exist_ok=True)
    config = load_config(config_path)
    env = {**_env(config, workdir, (policies, *extra_policies)), **(environ or {})}
    (workdir / "eval-suite.env").write_text("".join(f"{k}={v}\n" for k, v in env.items()))
    key, _ = keygen_at(Path(env["ZTGATE_GATEWAY__AUTH__JWKS_PATH"]), force=True)
    auth = config.gateway.auth
    tokens = {tenant: mint(key, tenant=tenant, issuer=auth.issuer, audience=auth.audience,
                           tenant_claim=auth.tenant_claim, ttl_s=min(3600, auth.max_token_lifetime_s),
                           max_ttl_s=auth.max_token_lifetime_s, scope_claim=auth.scope_claim)
              for tenant in (TENANT, *tenants)}
    token = tokens[TENANT]
    argv = [sys.executable, "-m", "ztgate.cli", "up", "--verbose",  # every part's output in up.log
            *(["--config", str(config_path)] if config_path else [])]
    log = workdir / "up.log"
    process = spawn(argv, log, env)
    print(f"ztgate eval: starting the suite (ztgate up; its log: {log}) ...", file=sys.stderr, flush=True)
    # SIGTERM to the eval stops its suite too (Python's default would exit at once and leave `up` running).
    previous = signal.signal(signal.SIGTERM, _exit_on_sigterm)
    children = [process]
    try:
        _wait_up(process, log, start_timeout_s)
        mesh = config.mesh.model_copy(update={"pki_dir": workdir / "pki"})
        tls = pki.operator_tls(mesh) if config.mesh.mtls else None
        plain_address = None
        if plain:  # started once the suite is up (its certificates exist), so that the two loads do not compete
            plain_address = address = free_address()
            children.append(spawn([sys.executable, "-m", "ztgate.cli", "serve", "inference", "--instance",
                                   "primary", *(["--config", str(config_path)] if config_path else [])],
                                  workdir / "plain-primary.log",
                                  {**env, **_plain_env(config.model_copy(update={"mesh": mesh}), address)}))
            wait_until(lambda: is_serving(address, INFERENCE_SERVICE, tls), "the primary with speculation off",
                       children, workdir, start_timeout_s, interval_s=1.0)
        yield Target(gateway=env["ZTGATE_GATEWAY__LISTEN"], token=token,
                     primary=env["ZTGATE_INFERENCE__PRIMARY__SERVER__LISTEN"],
                     fallback=env["ZTGATE_INFERENCE__FALLBACK__SERVER__LISTEN"], tls=tls, own=True,
                     plain=plain_address, tokens=tokens)
    finally:
        stop_all(children, 60.0)
        signal.signal(signal.SIGTERM, previous)


def _plain_env(config: ZtgateConfig, address: str) -> dict[str, str]:
    """The primary's settings with speculation off, on `address`, with the primary's certificate; it
    exports no telemetry (it is not part of the suite) and scores nothing in the background."""
    from ztgate.supervisor.launcher import mesh_env

    return {**mesh_env(config, "inference-primary"),
            "ZTGATE_INFERENCE__PRIMARY__SERVER__LISTEN": address,
            "ZTGATE_INFERENCE__PRIMARY__SPECULATIVE__METHOD": "none",
            "ZTGATE_INFERENCE__PRIMARY__BACKGROUND_SCORING": "false",
            "ZTGATE_OTEL__ENABLED": "false"}


def _exit_on_sigterm(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _wait_up(process: subprocess.Popen, log: Path, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while "ztgate is up" not in log.read_text(errors="replace"):
        if process.poll() is not None:
            raise RuntimeError(f"ztgate up exited ({process.returncode}) before it was up; its log: {log}\n"
                               + log.read_text(errors="replace")[-3000:])
        if time.monotonic() > deadline:
            raise RuntimeError(f"ztgate up not up within {timeout_s:.0f} s; its log: {log}")
        time.sleep(0.5)


def running_target(address: str, token: str, config_path: Path | None,
                   gateway_tls: ClientTlsSettings | None = None) -> Target:
    """A running suite at `address`: its inference instances where the config puts them, reached with
    the operator's certificate from mesh.pki_dir (as `ztgate generate --address` does)."""
    from ztgate.config import load_config

    config = load_config(config_path)
    tls = pki.operator_tls(config.mesh) if config.mesh.mtls and pki.Pki.of(config.mesh).exists() else None
    target = Target(gateway=address, token=token, primary=config.inference.primary.server.listen,
                    fallback=config.inference.fallback.server.listen, tls=tls, own=False,
                    gateway_tls=gateway_tls)
    probe(target)
    return target
