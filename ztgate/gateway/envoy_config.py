"""Renders Envoy's bootstrap from the packaged template (ztgate/gateway/templates/envoy.yaml)
with the configured addresses."""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import jinja2
import yaml

from ztgate.common.config import ConfigError
from ztgate.common.identity import SESSION_HEADER, TENANT_HEADER
from ztgate.common.pki import ENVOY, Pki, PkiError
from ztgate.common.tenants import DEFAULT_TENANT, TENANT_PATTERN, TENANT_RULE
from ztgate.gateway.auth import SCOPES
from ztgate.common.server import is_loopback, split_host_port
from ztgate.gateway.envoy_process import envoy_binary
from ztgate.gateway.ingress import SHRINK_HEAP_AT, STOP_REQUESTS_AT
from ztgate.gateway.openai_routes import adapter_upstream, openai_door

from ztgate.common.settings import MeshSettings, OtelSettings
from ztgate.gateway.config import GatewaySettings
from ztgate.inference.limits import RequestLimits


@dataclass(frozen=True)
class EnvoyInputs:
    """What Envoy's bootstrap is rendered from: the gateway's own section, and the few values it
    needs from the others (built from the whole configuration by ztgate/serve.py)."""

    gateway: GatewaySettings
    otel: OtelSettings
    mesh: MeshSettings
    limits: RequestLimits
    # The parts Envoy routes to, by cluster (redaction, inference_primary, inference_fallback).
    upstreams: Mapping[str, str]
    # The collector's OTLP address, which also serves the SLO controller's runtime layer (RTDS).
    collector: str
    rtds_layer: str
    runtime_key: str
    # ztgate's own model behind the HTTP door: (the adapter's listen address, the model's name),
    # None when the adapter does not run.
    adapter: tuple[str, str] | None = None


# Package data (pyproject's package-data): found the same way in an editable or a wheel install.
TEMPLATE = resources.files("ztgate.gateway") / "templates" / "envoy.yaml"
# The clusters whose endpoints a caller may give (several replicas of a part), and the setting
# that names the one address of each otherwise.
ENDPOINT_CLUSTERS = {"redaction": "redaction.server.listen",
                     "inference_primary": "inference.primary.server.listen",
                     "inference_fallback": "inference.fallback.server.listen"}


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
# Seconds Envoy waits for the collector's runtime (RTDS) before serving by the route's default.
RTDS_INITIAL_FETCH_TIMEOUT_S = 1
# Longest pause, seconds, between Envoy's attempts to reach the collector's RTDS again.
RTDS_MAX_RECONNECT_S = 2


# Request headers with which a client could steer Envoy's router (its own timeouts, retries,
# hedging) past the gateway's bounds; Envoy drops them from external callers by default, and the
# bootstrap drops them from every caller before any filter. The ext_proc filter then sets the
# per-try timeout itself.
ROUTER_CONTROL_HEADERS = (
    "x-envoy-upstream-rq-timeout-ms", "x-envoy-upstream-rq-per-try-timeout-ms",
    "x-envoy-expected-rq-timeout-ms", "x-envoy-max-retries", "x-envoy-retry-on",
    "x-envoy-retry-grpc-on", "x-envoy-retriable-status-codes", "x-envoy-retriable-header-names",
    "x-envoy-hedge-on-per-try-timeout", "x-envoy-upstream-rq-timeout-alt-response",
    "x-envoy-upstream-stream-duration-ms",
)
# The redaction cluster's breakers (not configurable: Envoy is its only caller, one ext_proc
# stream per inference call, and the redaction service bounds its own work).
REDACTION_BREAKERS = {"max_connections": 1024, "max_pending_requests": 1024,
                      "max_requests": 1024, "max_retries": 64}


def _ingress(config: EnvoyInputs) -> dict[str, object]:
    """The listener's and the overload manager's limits (gateway.ingress), with the heap
    pressures at which Envoy acts."""
    return {**config.gateway.ingress.model_dump(), "shrink_heap_at": SHRINK_HEAP_AT,
            "stop_requests_at": STOP_REQUESTS_AT}


def _health_breakers(config: EnvoyInputs) -> dict[str, int]:
    """The tokenless health route's own cluster: a handful of calls in flight, no retries."""
    limit = config.gateway.ingress.health_max_requests
    return {"max_connections": limit, "max_pending_requests": limit, "max_requests": limit,
            "max_retries": 1}


def _tracing(config: EnvoyInputs) -> dict[str, object] | None:
    """Envoy's tracer settings, or None: traced only while OpenTelemetry export is on."""
    if not (config.otel.enabled and config.gateway.tracing):
        return None
    endpoint = config.otel.endpoint.removeprefix("http://")
    return {"collector": _address(endpoint), "service_name": GATEWAY_SERVICE_NAME,
            "sampling_percent": config.gateway.trace_sampling_percent,
            "export_timeout_s": TRACE_EXPORT_TIMEOUT_S,
            "max_inflight_exports": TRACE_MAX_INFLIGHT_EXPORTS}


def _auth(config: EnvoyInputs) -> dict | None:
    """The jwt_authn settings, or None when no JWKS is configured (no token checked; allowed on a
    loopback listener only, `check_exposure`)."""
    auth = config.gateway.auth
    if auth.jwks_path is None:
        return None
    path = auth.jwks_path.expanduser().resolve()
    if not path.is_file():
        raise EnvoyConfigError(f"gateway.auth.jwks_path {path} is not a file; make one with "
                               "`ztgate token keygen` (or set gateway.auth.keygen_if_missing for "
                               "`ztgate up` to make it)")
    return {"jwks_path": str(path), "issuer": auth.issuer, "audience": auth.audience,
            "tenant_claim": auth.tenant_claim, "scope_claim": auth.scope_claim,
            "max_lifetime_s": auth.max_token_lifetime_s,
            # The tenant check's RBAC policy; its refusal is recognised by this name.
            "tenant_policy": "no_usable_tenant",
            "tenant_refusal": (f"the token has no usable tenant: its `{auth.tenant_claim}` claim is "
                               f"missing or not a tenant name ({TENANT_RULE}); ask for a token that "
                               f"names your tenant (gateway.auth.tenant_claim)"),
            # RE2, matched against the whole claim: the scope as one word of a space-separated list.
            "scopes": [{"name": name, "prefixes": list(prefixes), "regex": f"(.* )?{name}( .*)?"}
                       for name, prefixes in SCOPES.items()]}


def rate_limit_in_force(gateway: GatewaySettings) -> tuple[int, int] | None:
    """(calls per second, burst) of each tenant's bucket in Envoy, or None: on by default wherever
    tokens are on or the listener is off loopback (GatewayRateLimitSettings)."""
    limit = gateway.rate_limit
    exposed = gateway.auth.jwks_path is not None or not _on_loopback(gateway.listen)
    per_s = limit.per_s(tokens_or_exposed=exposed)
    return None if per_s is None else (per_s, limit.burst or per_s)


def _rate_limit(config: EnvoyInputs) -> dict | None:
    """Token bucket per tenant (refilled every second), or None when no limit applies."""
    in_force = rate_limit_in_force(config.gateway)
    if in_force is None:
        return None
    return {"per_s": in_force[0], "burst": in_force[1],
            "max_tenants": config.gateway.rate_limit.max_tenants}


def _mesh(config: EnvoyInputs) -> dict | None:
    """Envoy's side of the suite's mTLS (its certificate, the CA), or None when it is off."""
    if not config.mesh.mtls:
        return None
    suite = Pki.of(config.mesh)
    try:
        # Only what Envoy presents and trusts: in a container its folder holds nothing else.
        suite.check(names=(ENVOY,))
    except PkiError as exc:
        raise EnvoyConfigError(f"mesh.mtls is on but {exc}; or set mesh.mtls false for a "
                               "plaintext suite on loopback") from exc
    return {"ca": str(suite.ca), "cert": str(suite.cert(ENVOY)), "key": str(suite.key(ENVOY))}


def _on_loopback(address: str) -> bool:
    host, _ = split_host_port(address)
    return is_loopback(host)


def check_exposure(gateway: GatewaySettings) -> list[str]:
    """The one place that decides what Envoy may expose: raises EnvoyConfigError, saying what to
    set, for an admin console off loopback, or a listener off loopback without TLS or without
    tokens (unless `gateway.auth.allow_anonymous_off_loopback` says so); returns the warnings that
    `ztgate up` prints on every start."""
    if not _on_loopback(gateway.admin):
        raise EnvoyConfigError(
            f"gateway.admin {gateway.admin} is not a loopback address: Envoy's admin console has no "
            "authentication (POST /runtime_modify moves traffic and lifts the rate limit, POST "
            "/quitquitquit stops Envoy), so it listens on loopback only (e.g. 127.0.0.1:9901)")
    if _on_loopback(gateway.listen):
        return []
    if gateway.tls is None:
        raise EnvoyConfigError(
            f"gateway.listen {gateway.listen} is not a loopback address, so it needs "
            "gateway.tls (cert and key; `ztgate certs init` issues a gateway certificate)")
    if gateway.auth.jwks_path is not None:
        return []
    if not gateway.auth.allow_anonymous_off_loopback:
        raise EnvoyConfigError(
            f"gateway.listen {gateway.listen} is not a loopback address, so it needs bearer tokens: "
            "set gateway.auth.jwks_path (`ztgate token keygen` makes one; with "
            "gateway.auth.keygen_if_missing `ztgate up` makes it), or set "
            "gateway.auth.allow_anonymous_off_loopback: true to serve every caller unauthenticated")
    return [f"WARNING: gateway.listen {gateway.listen} is off loopback and checks no token "
            "(gateway.auth.allow_anonymous_off_loopback is true): anyone who reaches it calls as "
            "tenant default. Set gateway.auth.jwks_path to require tokens."]


def _listener_tls(config: EnvoyInputs) -> dict | None:
    """TLS on the ingress listener (and the CA of client certificates, for mTLS), or None (a
    listener on loopback only, `check_exposure`)."""
    tls = config.gateway.tls
    if tls is None:
        return None
    paths = {"cert": tls.cert, "key": tls.key, "client_ca": tls.client_ca}
    resolved = {k: str(p.expanduser().resolve()) if p is not None else None for k, p in paths.items()}
    missing = [f"gateway.tls.{k} {v}" for k, v in resolved.items() if v and not Path(v).is_file()]
    if missing:
        raise EnvoyConfigError(f"{', '.join(missing)}: no such file (`ztgate certs init` issues a "
                               "gateway certificate)")
    return resolved


def _endpoints(config: EnvoyInputs, endpoints: Mapping[str, Sequence[str]] | None
               ) -> dict[str, list[dict[str, object]]]:
    """Each upstream cluster's endpoints: the given addresses (replicas of one part), else the
    configured address of the part (a DNS name there may stand for several replicas itself)."""
    given = dict(endpoints or {})
    unknown = sorted(set(given) - set(ENDPOINT_CLUSTERS))
    if unknown:
        raise EnvoyConfigError(f"no cluster {', '.join(unknown)}: endpoints can be given for "
                               f"{', '.join(ENDPOINT_CLUSTERS)}")
    configured = config.upstreams
    out: dict[str, list[dict[str, object]]] = {}
    for cluster, setting in ENDPOINT_CLUSTERS.items():
        addresses = list(given.get(cluster, [configured[cluster]]))
        if not addresses:
            raise EnvoyConfigError(f"cluster {cluster} needs at least one endpoint ({setting})")
        if len(set(addresses)) != len(addresses):
            raise EnvoyConfigError(f"cluster {cluster}: an endpoint is listed twice in {addresses}")
        out[cluster] = [_address(a) for a in addresses]
    return out


def render(config: EnvoyInputs, endpoints: Mapping[str, Sequence[str]] | None = None) -> str:
    """Returns the bootstrap YAML that `ztgate up` runs Envoy with. `endpoints` gives a cluster
    (redaction, inference_primary, inference_fallback) several addresses: replicas of one part,
    each health-checked and balanced over."""
    check_exposure(config.gateway)
    upstreams = _endpoints(config, endpoints)
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                             autoescape=False)
    template = env.from_string(TEMPLATE.read_text(encoding="utf-8"))
    gateway = config.gateway
    text = template.render(
        admin=_address(gateway.admin),
        listener=_address(gateway.listen),
        listener_tls=_listener_tls(config),
        redaction=upstreams["redaction"],
        session_header=SESSION_HEADER,
        redaction_timeout_s=gateway.redaction.timeout_s,
        redaction_message_timeout_s=gateway.redaction.message_timeout_s,
        redaction_max_message_timeout_s=gateway.redaction.max_message_timeout_s,
        health_interval_s=gateway.health_interval_s,
        # Stripped from clients before any filter: only Envoy sets it (ztgate/common/identity.py).
        tenant_header=TENANT_HEADER,
        router_control_headers=ROUTER_CONTROL_HEADERS,
        redaction_breakers=REDACTION_BREAKERS,
        ingress=_ingress(config),
        health_breakers=_health_breakers(config),
        # Without tokens, Envoy sets the header to this itself; with them, the claim must match
        # the pattern (RBAC) or nothing runs.
        default_tenant=DEFAULT_TENANT,
        tenant_regex=TENANT_PATTERN,
        node=GATEWAY_SERVICE_NAME,
        tracing=_tracing(config),
        # The collector serves the SLO controller's runtime layer at its OTLP address.
        rtds={"layer": config.rtds_layer,
              "collector": _address(config.collector),
              "initial_fetch_timeout_s": RTDS_INITIAL_FETCH_TIMEOUT_S,
              "max_reconnect_s": RTDS_MAX_RECONNECT_S},
        openai=openai_door(gateway, adapter_upstream(*config.adapter) if config.adapter else None),
        auth=_auth(config),
        rate_limit=_rate_limit(config),
        mesh=_mesh(config),
        request_limit={"max_request_bytes": config.limits.max_request_bytes,
                       # The body Envoy buffers is the request message in its gRPC frame.
                       "buffer_bytes": config.limits.max_request_bytes + GRPC_FRAME_HEADER_BYTES},
        inference={
            "primary": upstreams["inference_primary"],
            "fallback": upstreams["inference_fallback"],
            "timeout_s": gateway.inference.timeout_s,
            "per_try_timeout_s": gateway.inference.per_try_timeout_s,
            "stream_idle_timeout_s": gateway.inference.stream_idle_timeout_s,
            "retries": gateway.inference.retries,
            "breakers": gateway.inference.breakers.model_dump(),
            "outlier": gateway.inference.outlier_detection.model_dump(),
            # One key, declared once: the SLO controller writes the key that the route reads.
            "runtime_key": config.runtime_key,
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
