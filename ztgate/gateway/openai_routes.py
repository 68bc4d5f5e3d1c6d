"""The HTTP door's part of Envoy's bootstrap: routes by model, upstream clusters, OpenAI-shaped refusals.

`/v1/` runs the same filter chain as gRPC. Envoy cannot read a JSON body, so the ext_proc, which parses
it anyway, names the model in `MODEL_HEADER` and clears the route cache; Envoy's own refusals are
rewritten into OpenAI's error shape. Routes, clusters and the refusal mappers in detail:
docs/architecture.md ("Module notes"); the operator's view: docs/operations/openai-door.md.
"""

from __future__ import annotations

import json

from ztgate.gateway.config import GatewaySettings, OpenAIUpstreamSettings
from ztgate.openai_adapter.config import ADAPTER_UPSTREAM
from ztgate.protocols.openai.errors import RETRY_AFTER_S
from ztgate.protocols.openai.fields import MODEL_HEADER

# Envoy's status -> (OpenAI error type, code) for its own refusals on the HTTP door.
LOCAL_REPLIES: dict[int, tuple[str, str]] = {
    400: ("invalid_request_error", "invalid_request"),
    401: ("authentication_error", "invalid_token"),
    403: ("permission_error", "insufficient_scope"),
    404: ("invalid_request_error", "not_found"),
    413: ("invalid_request_error", "request_too_large"),
    429: ("rate_limit_error", "rate_limit_exceeded"),
    500: ("api_error", "internal_error"),
    502: ("api_error", "upstream_error"),
    503: ("api_error", "unavailable"),
    504: ("api_error", "timeout"),
}
# Where the system's CA bundle is (Debian, Ubuntu), for https upstreams without their own ca_file.
SYSTEM_CA_BUNDLE = "/etc/ssl/certs/ca-certificates.crt"
# HTTP statuses of an upstream after which Envoy tries the next one (gRPC's UNAVAILABLE and
# RESOURCE_EXHAUSTED).
RETRIABLE_STATUSES = (429, 503)


def _cluster(upstream: OpenAIUpstreamSettings) -> str:
    return f"openai_{upstream.name}"


def _upstream(upstream: OpenAIUpstreamSettings) -> dict:
    key = None
    if upstream.api_key_file is not None:
        key = {"secret": f"openai_{upstream.name}_key",
               "source": {"filename": str(upstream.api_key_file.expanduser().resolve())}}
    elif upstream.api_key_env is not None:
        key = {"secret": f"openai_{upstream.name}_key",
               "source": {"environment_variable": upstream.api_key_env}}
    ca = None
    if upstream.tls:
        ca = str(upstream.ca_file.expanduser().resolve()) if upstream.ca_file else SYSTEM_CA_BUNDLE
    return {"cluster": _cluster(upstream), "host": upstream.host, "port": upstream.port,
            "tls": upstream.tls, "ca": ca, "key": key}


def adapter_upstream(listen: str, model: str) -> OpenAIUpstreamSettings:
    """ztgate's own model as an upstream: the adapter (ztgate/openai_adapter/) at `listen`."""
    host, port = listen.rsplit(":", 1)
    if host.strip("[]") in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    return OpenAIUpstreamSettings(name=ADAPTER_UPSTREAM, base_url=f"http://{host}:{port}/v1",
                                  models=[model])


def openai_door(gateway: GatewaySettings, adapter: OpenAIUpstreamSettings | None = None) -> dict:
    """What the template needs for the HTTP door (routes, clusters, mappers, the models list).

    `adapter`: ztgate's own model, first among the upstreams of its model name. Its route alone
    keeps the client's `Authorization`: the adapter calls the gateway's gRPC route with it, so
    the call runs there as the same tenant with the same scopes; no other upstream ever gets it,
    so a model name the adapter shares with a configured upstream reaches the adapter without it
    (and is refused there when tokens are on: give the configured upstream another name)."""
    upstreams = list(gateway.openai_upstreams)
    if adapter is not None:
        if any(u.name == adapter.name for u in upstreams):
            raise ValueError(f"gateway.openai_upstreams: the name {adapter.name!r} is ztgate's own "
                             "adapter's (openai_adapter); give that upstream another name")
        upstreams.insert(0, adapter)
    by_model: dict[str, list[OpenAIUpstreamSettings]] = {}
    for upstream in upstreams:
        for model in upstream.models:
            by_model.setdefault(model, []).append(upstream)
    aggregates: dict[tuple[str, ...], str] = {}
    routes = []
    for model, serving in by_model.items():
        names = tuple(_cluster(u) for u in serving)
        if len(names) == 1:
            cluster = names[0]
        else:
            cluster = aggregates.setdefault(names, f"openai_failover_{len(aggregates)}")
        routes.append({"model": model, "cluster": cluster, "path": serving[0].path,
                       "forward_token": adapter is not None and names == (_cluster(adapter),)})
    models = {"object": "list", "data": [
        {"id": model, "object": "model", "created": 0, "owned_by": serving[0].name}
        for model, serving in by_model.items()]}
    mappers = [{"status": status, "type": kind, "code": code} for status, (kind, code)
               in LOCAL_REPLIES.items()]
    return {
        "model_header": MODEL_HEADER,
        "routes": routes,
        "upstreams": [_upstream(u) for u in upstreams],
        "aggregates": [{"name": name, "clusters": list(clusters)}
                       for clusters, name in aggregates.items()],
        "models_json": json.dumps(models, separators=(",", ":")),
        "mappers": mappers,
        "retry_after_s": RETRY_AFTER_S,
        "retriable_statuses": list(RETRIABLE_STATUSES),
        "not_found": json.dumps({"error": {
            "message": "no upstream serves this model (gateway.openai_upstreams); "
                       "GET /v1/models lists the models the gateway serves",
            "type": "invalid_request_error", "param": "model", "code": "model_not_found"}}),
    }
