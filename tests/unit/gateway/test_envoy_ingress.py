"""What a caller can hold at Envoy's ingress (gateway.ingress): the rendered limits, the overload
manager, the tokenless health route's own cluster, and retries of calls that never reached a
replica. Envoy 1.40 validates each rendering."""

from __future__ import annotations

import pytest
import yaml

from ztgate.common.config import ConfigError, load_settings
from ztgate.config import ZtgateConfig
from ztgate.gateway.envoy_config import validate
from ztgate.serve import render_envoy
from tests.suite_pki import PLAINTEXT

CUSTOM = {**PLAINTEXT, "ZTGATE_GATEWAY__INGRESS__STREAM_IDLE_TIMEOUT_S": "45",
          "ZTGATE_GATEWAY__INGRESS__REQUEST_HEADERS_TIMEOUT_S": "3",
          "ZTGATE_GATEWAY__INGRESS__MAX_CONCURRENT_STREAMS": "32",
          "ZTGATE_GATEWAY__INGRESS__HTTP2_STREAM_WINDOW_BYTES": str(256 << 10),
          "ZTGATE_GATEWAY__INGRESS__HTTP2_CONNECTION_WINDOW_BYTES": str(4 << 20),
          "ZTGATE_GATEWAY__INGRESS__MAX_CONNECTIONS": "500",
          "ZTGATE_GATEWAY__INGRESS__MAX_HEAP_BYTES": str(256 << 20),
          "ZTGATE_GATEWAY__INGRESS__HEALTH_MAX_REQUESTS": "4",
          "ZTGATE_GATEWAY__INGRESS__HEALTH_MAX_STREAM_S": "1.5"}


def _bootstrap(environ: dict[str, str]) -> dict:
    text = render_envoy(load_settings(ZtgateConfig, None, environ=environ))
    validate(text)
    return yaml.safe_load(text)


@pytest.fixture(scope="module")
def defaults() -> dict:
    return _bootstrap(PLAINTEXT)


@pytest.fixture(scope="module")
def custom() -> dict:
    return _bootstrap(CUSTOM)


def _hcm(bootstrap: dict) -> dict:
    return bootstrap["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]


def _routes(bootstrap: dict) -> list[dict]:
    return _hcm(bootstrap)["route_config"]["virtual_hosts"][0]["routes"]


def _clusters(bootstrap: dict) -> dict[str, dict]:
    return {c["name"]: c for c in bootstrap["static_resources"]["clusters"]}


def _overload(bootstrap: dict) -> tuple[dict[str, dict], dict[str, float]]:
    """The overload manager's monitors by name, and each action's fixed_heap threshold."""
    manager = bootstrap["overload_manager"]
    monitors = {m["name"]: m["typed_config"] for m in manager["resource_monitors"]}
    actions = {a["name"]: a["triggers"][0]["threshold"]["value"] for a in manager["actions"]
               if a["triggers"][0]["name"] == "envoy.resource_monitors.fixed_heap"}
    return monitors, actions


@pytest.mark.parametrize("fixture, idle, headers, streams", [
    ("defaults", "60.0s", "10.0s", 100), ("custom", "45.0s", "3.0s", 32)])
def test_the_listener_bounds_idle_streams_slow_headers_and_streams_per_connection(
        request: pytest.FixtureRequest, fixture: str, idle: str, headers: str, streams: int) -> None:
    hcm = _hcm(request.getfixturevalue(fixture))
    assert hcm["stream_idle_timeout"] == idle
    assert hcm["request_headers_timeout"] == headers
    assert hcm["http2_protocol_options"]["max_concurrent_streams"] == streams


@pytest.mark.parametrize("fixture, stream, connection", [
    ("defaults", 64 << 10, 1 << 20), ("custom", 256 << 10, 4 << 20)])
def test_the_listener_gives_a_client_edge_sized_http2_windows(
        request: pytest.FixtureRequest, fixture: str, stream: int, connection: int) -> None:
    """Without them Envoy lets a client push 16 MiB on a stream before it reads any of it."""
    options = _hcm(request.getfixturevalue(fixture))["http2_protocol_options"]
    assert (options["initial_stream_window_size"], options["initial_connection_window_size"]) == (stream, connection)


@pytest.mark.parametrize("fixture, heap, connections", [
    ("defaults", 1 << 30, 4096), ("custom", 256 << 20, 500)])
def test_the_overload_manager_caps_heap_and_connections_from_the_settings(
        request: pytest.FixtureRequest, fixture: str, heap: int, connections: int) -> None:
    monitors, actions = _overload(request.getfixturevalue(fixture))
    assert monitors["envoy.resource_monitors.fixed_heap"]["max_heap_size_bytes"] == heap
    assert monitors["envoy.resource_monitors.global_downstream_max_connections"][
        "max_active_downstream_connections"] == connections
    # Memory is given back first; only nearer the ceiling are new requests refused.
    assert actions["envoy.overload_actions.shrink_heap"] < \
        actions["envoy.overload_actions.stop_accepting_requests"] < 1.0


@pytest.mark.parametrize("fixture, limit, duration", [("defaults", 16, "5.0s"), ("custom", 4, "1.5s")])
def test_health_has_a_cluster_of_its_own_never_the_one_ext_proc_dials(
        request: pytest.FixtureRequest, fixture: str, limit: int, duration: str) -> None:
    bootstrap = request.getfixturevalue(fixture)
    [health] = [r for r in _routes(bootstrap) if r["match"].get("prefix") == "/grpc.health.v1.Health/"]
    [ext_proc] = [f["typed_config"] for f in _hcm(bootstrap)["http_filters"]
                  if f["name"] == "envoy.filters.http.ext_proc"]
    scrubbing = ext_proc["grpc_service"]["envoy_grpc"]["cluster_name"]
    assert health["route"]["cluster"] == "redaction_health" != scrubbing
    # A held Watch (headers only, no end) ends this long after its first byte.
    assert health["route"]["max_stream_duration"] == {"max_stream_duration": duration}
    [thresholds] = _clusters(bootstrap)["redaction_health"]["circuit_breakers"]["thresholds"]
    assert thresholds["max_requests"] == thresholds["max_pending_requests"] == limit
    # No other route shares the health route's cluster, nor health the ext_proc's.
    others = [r["route"]["cluster"] for r in _routes(bootstrap) if "route" in r and r is not health]
    assert "redaction_health" not in others


def test_calls_that_never_reached_a_replica_are_retried_and_sent_ones_never(defaults: dict) -> None:
    for route in _routes(defaults):
        if "route" not in route:
            continue  # Envoy's own answers (direct responses) reach no replica
        retry_on = set(route["route"]["retry_policy"]["retry_on"].split(","))
        assert "connect-failure" in retry_on, route["match"]
        if route["route"]["cluster"].startswith("redaction"):
            # A Redact or Restore already sent may have changed a session: only one that never
            # went out is tried on another replica.
            assert retry_on == {"connect-failure", "refused-stream", "reset-before-request"}
            hosts = route["route"]["retry_policy"]["retry_host_predicate"][0]["name"]
            assert hosts == "envoy.retry_host_predicates.previous_hosts"


def test_a_scrub_stream_that_never_reached_a_replica_is_opened_on_another(defaults: dict) -> None:
    """The ext_proc stream is dialled by Envoy's gRPC client, not the router: the route retries
    above do not cover it, its grpc_service's retry policy does."""
    [ext_proc] = [f["typed_config"] for f in _hcm(defaults)["http_filters"]
                  if f["name"] == "envoy.filters.http.ext_proc"]
    policy = ext_proc["grpc_service"]["retry_policy"]
    # A stream the replica never answered, also one reset after its messages went out (a replica
    # killed with streams in flight); `reset` ends before any answer: one begun is never retried.
    assert set(policy["retry_on"].split(",")) == {"connect-failure", "refused-stream", "reset"}
    assert policy["num_retries"] >= 1
    assert policy["retry_host_predicate"][0]["name"] == "envoy.retry_host_predicates.previous_hosts"
    assert ext_proc["failure_mode_allow"] is False  # and past the retries it still fails closed


@pytest.mark.parametrize("key, value, message", [
    ("REQUEST_HEADERS_TIMEOUT_S", "120", "request_headers_timeout_s"),
    ("MAX_HEAP_BYTES", "1000", "max_heap_bytes"),
    ("MAX_CONCURRENT_STREAMS", "0", "max_concurrent_streams"),
    ("HEALTH_MAX_REQUESTS", "0", "health_max_requests"),
    ("HTTP2_STREAM_WINDOW_BYTES", "1024", "http2_stream_window_bytes"),
    ("HTTP2_STREAM_WINDOW_BYTES", str(2 << 20), "http2_connection_window_bytes must not be less"),
])
def test_an_ingress_limit_that_cannot_work_stops_start_up_naming_it(key: str, value: str,
                                                                     message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_settings(ZtgateConfig, None, environ={**PLAINTEXT, f"ZTGATE_GATEWAY__INGRESS__{key}": value})


def _rate(environ: dict[str, str]) -> dict | None:
    text = render_envoy(load_settings(ZtgateConfig, None, environ={**PLAINTEXT, **environ}))
    hcm = _hcm(yaml.safe_load(text))
    [limit] = [f["typed_config"] for f in hcm["http_filters"]
               if f["name"] == "envoy.filters.http.local_ratelimit"] or [None]
    return limit and limit["token_bucket"]


def test_a_rate_limit_is_on_by_default_wherever_tokens_are_and_can_be_set_or_turned_off(
        tmp_path) -> None:
    jwks = tmp_path / "jwks.json"
    jwks.write_text('{"keys": []}')
    tokens = {"ZTGATE_GATEWAY__AUTH__JWKS_PATH": str(jwks)}
    assert _rate({}) is None  # loopback, no tokens: development
    default = _rate(tokens)
    assert default["max_tokens"] == default["tokens_per_fill"] == 50
    assert _rate({**tokens, "ZTGATE_GATEWAY__RATE_LIMIT__REQUESTS_PER_S": "7"})["tokens_per_fill"] == 7
    assert _rate({**tokens, "ZTGATE_GATEWAY__RATE_LIMIT__WITH_TOKENS_PER_S": "null"}) is None
