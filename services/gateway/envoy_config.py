"""Renders Envoy's bootstrap from envoy/envoy.yaml with the configured addresses."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import jinja2
import yaml

from services.common.config import ConfigError
from services.common.identity import TENANT_HEADER
from services.common.pki import ENVOY, Pki, PkiError
from services.gateway.auth import SCOPES
from services.common.server import is_loopback, split_host_port
from services.config import ZtgateConfig
from services.gateway.envoy_process import envoy_binary

TEMPLATE = Path(__file__).resolve().parents[2] / "envoy" / "envoy.yaml"


class EnvoyConfigError(ConfigError):
    """The bootstrap cannot be rendered (a file it names is missing) or Envoy rejects it (the
    message is then Envoy's own)."""


def _address(value: str) -> dict[str, object]:
    host, port = split_host_port(value)
    return {"host": host, "port": port}


# A gRPC message's prefix on the wire: compressed flag (1 byte) and length (4 bytes).
GRPC_FRAME_HEADER_BYTES = 5
# Resource `service.name` of Envoy's spans, next to the services' `ztgate-<service>`.
GATEWAY_SERVICE_NAME = "ztgate-gateway"
# Seconds one OTLP export of Envoy's spans may take; it runs in the background, never on a call.
TRACE_EXPORT_TIMEOUT_S = 1.0
# Exports of Envoy's spans in flight at most (a frozen collector holds them; more are dropped).
TRACE_MAX_INFLIGHT_EXPORTS = 8


def _tracing(config: ZtgateConfig) -> dict[str, object] | None:
    """Envoy's tracer settings, or None: traced only while OpenTelemetry export is on."""
    if not (config.otel.enabled and config.gateway.tracing):
        return None
    endpoint = config.otel.endpoint.removeprefix("http://")
    return {"collector": _address(endpoint), "service_name": GATEWAY_SERVICE_NAME,
            "sampling_percent": config.gateway.trace_sampling_percent,
            "export_timeout_s": TRACE_EXPORT_TIMEOUT_S,
            "max_inflight_exports": TRACE_MAX_INFLIGHT_EXPORTS}


def _auth(config: ZtgateConfig) -> dict | None:
    """The jwt_authn settings, or None when no JWKS is configured (no token checked)."""
    auth = config.gateway.auth
    if auth.jwks_path is None:
        return None
    path = auth.jwks_path.expanduser().resolve()
    if not path.is_file():
        raise EnvoyConfigError(f"gateway.auth.jwks_path {path} is not a file; make one with "
                               "`ztgate token keygen`, or unset it to run without tokens")
    return {"jwks_path": str(path), "issuer": auth.issuer, "audience": auth.audience,
            "tenant_claim": auth.tenant_claim, "scope_claim": auth.scope_claim,
            # RE2, matched against the whole claim: the scope as one word of a space-separated list.
            "scopes": [{"name": name, "prefix": prefix, "regex": f"(.* )?{name}( .*)?"}
                       for name, prefix in SCOPES.items()]}


def _rate_limit(config: ZtgateConfig) -> dict | None:
    """Token bucket per tenant (refilled every second), or None when no limit is set."""
    limit = config.gateway.rate_limit
    if limit.requests_per_s is None:
        return None
    return {"per_s": limit.requests_per_s, "burst": limit.bucket_size,
            "max_tenants": limit.max_tenants}


def _mesh(config: ZtgateConfig) -> dict | None:
    """Envoy's side of the suite's mTLS (its certificate, the CA), or None when it is off."""
    if not config.mesh.mtls:
        return None
    suite = Pki.of(config.mesh)
    try:
        suite.check()
    except PkiError as exc:
        raise EnvoyConfigError(f"mesh.mtls is on but {exc}; or set mesh.mtls false for a "
                               "plaintext suite on loopback") from exc
    return {"ca": str(suite.ca), "cert": str(suite.cert(ENVOY)), "key": str(suite.key(ENVOY))}


def _listener_tls(config: ZtgateConfig) -> dict | None:
    """TLS on the ingress listener (and the CA of client certificates, for mTLS), or None; like a
    service, the listener runs plaintext on a loopback address only."""
    tls = config.gateway.tls
    if tls is None:
        host, _ = split_host_port(config.gateway.listen)
        if not is_loopback(host):
            raise EnvoyConfigError(
                f"gateway.listen {config.gateway.listen} is not a loopback address, so it needs "
                "gateway.tls (cert and key; `ztgate certs init` issues a gateway certificate)")
        return None
    paths = {"cert": tls.cert, "key": tls.key, "client_ca": tls.client_ca}
    resolved = {k: str(p.expanduser().resolve()) if p is not None else None for k, p in paths.items()}
    missing = [f"gateway.tls.{k} {v}" for k, v in resolved.items() if v and not Path(v).is_file()]
    if missing:
        raise EnvoyConfigError(f"{', '.join(missing)}: no such file (`ztgate certs init` issues a "
                               "gateway certificate)")
    return resolved


def render(config: ZtgateConfig) -> str:
    """Returns the bootstrap YAML that `ztgate up` runs Envoy with."""
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                             autoescape=False)
    template = env.from_string(TEMPLATE.read_text(encoding="utf-8"))
    gateway = config.gateway
    text = template.render(
        admin=_address(gateway.admin),
        listener=_address(gateway.listen),
        listener_tls=_listener_tls(config),
        redaction=_address(config.redaction.server.listen),
        redaction_timeout_s=gateway.redaction_timeout_s,
        redaction_message_timeout_s=gateway.redaction_message_timeout_s,
        health_interval_s=gateway.health_interval_s,
        # Stripped from clients before any filter: only Envoy sets it (services/common/identity.py).
        tenant_header=TENANT_HEADER,
        tracing=_tracing(config),
        auth=_auth(config),
        rate_limit=_rate_limit(config),
        mesh=_mesh(config),
        request_limit={"max_request_bytes": config.limits.max_request_bytes,
                       # The body Envoy buffers is the request message in its gRPC frame.
                       "buffer_bytes": config.limits.max_request_bytes + GRPC_FRAME_HEADER_BYTES},
        inference={
            "primary": _address(config.inference.primary.server.listen),
            "fallback": _address(config.inference.fallback.server.listen),
            "timeout_s": gateway.inference_timeout_s,
            "per_try_timeout_s": gateway.inference_per_try_timeout_s,
            "retries": gateway.inference_retries,
            # One key, declared once: the SLO controller writes the key that the route reads.
            "runtime_key": config.telemetry.slo.runtime_key,
        },
    )
    yaml.safe_load(text)  # a template error surfaces here, not as an Envoy start failure
    return text


def validate(text: str, timeout_s: float = 60.0) -> None:
    """Runs `envoy --mode validate` on a bootstrap; raises EnvoyConfigError with Envoy's reason."""
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", prefix="ztgate-envoy-") as handle:
        handle.write(text)
        handle.flush()
        result = subprocess.run(
            [str(envoy_binary()), "--mode", "validate", "-c", handle.name, "--log-level", "error",
             "--disable-hot-restart", "--use-dynamic-base-id"],
            capture_output=True, text=True, timeout=timeout_s)
    if result.returncode != 0:
        raise EnvoyConfigError((result.stderr or result.stdout).strip()[-4000:])
