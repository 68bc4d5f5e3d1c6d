"""The rendered Envoy bootstrap: Envoy 1.40 accepts it, and it says what the design says."""

from __future__ import annotations

import re

import pytest
import yaml

from ztgate.common.config import ConfigError, load_settings
from ztgate.config import ZtgateConfig
from ztgate.gateway.envoy_config import EnvoyConfigError, validate
from ztgate.serve import render_envoy
from tests.suite_pki import mesh_env, shared_pki

CUSTOM = {"ZTGATE_INFERENCE__PRIMARY__SERVER__LISTEN": "127.0.0.1:6102",
          "ZTGATE_INFERENCE__FALLBACK__SERVER__LISTEN": "localhost:6103",
          "ZTGATE_GATEWAY__REDACTION__MESSAGE_TIMEOUT_S": "0.75",
          "ZTGATE_TELEMETRY__SLO__RUNTIME_KEY": "custom.primary_percent", **mesh_env()}


@pytest.fixture(scope="module")
def bootstrap() -> dict:
    return yaml.safe_load(render_envoy(load_settings(ZtgateConfig, None, environ=CUSTOM)))


def _hcm(bootstrap: dict) -> dict:
    return bootstrap["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]


def _clusters(bootstrap: dict) -> dict[str, dict]:
    return {c["name"]: c for c in bootstrap["static_resources"]["clusters"]}


@pytest.mark.parametrize("environ", [mesh_env(), CUSTOM], ids=["defaults", "custom"])
def test_envoy_validates_the_rendered_bootstrap(environ: dict[str, str]) -> None:
    validate(render_envoy(load_settings(ZtgateConfig, None, environ=environ)))


def test_envoy_validation_reports_envoys_reason() -> None:
    text = render_envoy(load_settings(ZtgateConfig, None, environ=mesh_env())).replace("CLUSTER_PROVIDED", "NO_SUCH_LB")
    with pytest.raises(EnvoyConfigError, match="NO_SUCH_LB"):
        validate(text)


def test_inference_routes_prefer_primary_by_runtime_key_and_fail_over(bootstrap: dict) -> None:
    routes = _hcm(bootstrap)["route_config"]["virtual_hosts"][0]["routes"]
    score, first, second = routes[0], routes[1], routes[2]
    # GetScore goes where scores are kept (the primary) whatever the runtime key says.
    assert score["match"] == {"path": "/ztgate.inference.v1.Inference/GetScore"}
    assert score["route"]["cluster"] == "inference_primary_first"
    assert first["match"]["prefix"] == second["match"]["prefix"] == "/ztgate.inference.v1.Inference/"
    assert first["match"]["runtime_fraction"]["runtime_key"] == "custom.primary_percent"
    assert first["match"]["runtime_fraction"]["default_value"]["numerator"] == 100
    assert first["route"]["cluster"] == "inference_primary_first"
    assert second["route"]["cluster"] == "inference_fallback_first"
    for route in (score, first, second):
        retry = route["route"]["retry_policy"]
        # The short-prompt value; ext_proc sets each call's own from its prompt.
        assert retry["per_try_timeout"] == "1.2s"
        assert set(retry["retry_on"].split(",")) == {"unavailable", "resource-exhausted", "reset",
                                                    "connect-failure"}
        # One failover: a second retry would go back to the instance that already failed.
        assert retry["num_retries"] == 1
        assert route["route"]["idle_timeout"] == "240.0s"
        # A try past its budget runs on beside the retry (the first to answer wins): a cut try
        # was retried on the instance that had just failed, and the call was lost.
        assert route["route"]["hedge_policy"] == {"hedge_on_per_try_timeout": True}
    clusters = _clusters(bootstrap)
    aggregate = clusters["inference_primary_first"]["cluster_type"]["typed_config"]["clusters"]
    assert aggregate == ["inference_primary", "inference_fallback"]
    assert clusters["inference_fallback_first"]["cluster_type"]["typed_config"]["clusters"] == [
        "inference_fallback", "inference_primary"]


@pytest.mark.parametrize("name, host, port", [("inference_primary", "127.0.0.1", 6102),
                                              ("inference_fallback", "localhost", 6103)])
def test_inference_clusters_come_from_config_with_grpc_health_checks(bootstrap: dict, name: str,
                                                                     host: str, port: int) -> None:
    cluster = _clusters(bootstrap)[name]
    address = cluster["load_assignment"]["endpoints"][0]["lb_endpoints"][0]["endpoint"]["address"]
    assert address["socket_address"] == {"address": host, "port_value": port}
    assert cluster["health_checks"][0]["grpc_health_check"]["service_name"] == "ztgate.inference.v1.Inference"
    options = cluster["typed_extension_protocol_options"]["envoy.extensions.upstreams.http.v3.HttpProtocolOptions"]
    assert "http2_protocol_options" in options["explicit_http_config"]


def test_ext_proc_fails_closed_and_is_off_only_on_the_redaction_services_routes(bootstrap: dict) -> None:
    hcm = _hcm(bootstrap)
    ext_proc = hcm["http_filters"][-2]
    assert ext_proc["name"] == "envoy.filters.http.ext_proc"
    assert hcm["http_filters"][-1]["name"] == "envoy.filters.http.router"
    config = ext_proc["typed_config"]
    assert config["failure_mode_allow"] is False
    assert config["grpc_service"]["envoy_grpc"]["cluster_name"] == "redaction"
    assert config["message_timeout"] == "0.75s"
    # The redaction service's override_message_timeout on a long prompt is honoured up to this.
    assert config["max_message_timeout"] == "20.0s"
    assert config["processing_mode"]["request_body_mode"] == "BUFFERED"
    # SKIP would let the router start (and retry) the upstream try with the unscrubbed body.
    assert config["processing_mode"]["request_header_mode"] == "SEND"
    assert config["processing_mode"]["response_body_mode"] == "STREAMED"
    for route in hcm["route_config"]["virtual_hosts"][0]["routes"]:
        for name in ("envoy.filters.http.ext_proc", "envoy.filters.http.buffer"):
            per_route = route.get("typed_per_filter_config", {}).get(name)
            disabled = bool(per_route and per_route.get("disabled"))
            # Off on the redaction service's own routes and on Envoy's own answer (GET /v1/models).
            own = route.get("route", {}).get("cluster") in ("redaction", "redaction_sessions",
                                                                "redaction_health") or \
                route["match"].get("path") == "/v1/models"
            assert disabled == own, (name, route["match"])


def _grpc_mappers(bootstrap: dict) -> list[dict]:
    """The local-reply mappers of the gRPC door (not the HTTP door's, which match /v1/ only)."""
    return [m for m in _hcm(bootstrap)["local_reply_config"]["mappers"]
            if "/v1/" not in str(m.get("filter", ""))]


def _early_mutations(bootstrap: dict) -> list[dict]:
    return _hcm(bootstrap)["early_header_mutation_extensions"][0]["typed_config"]["mutations"]


def _tenant_mutations(bootstrap: dict) -> list[dict]:
    """The early mutations of the tenant header, in order (the router's x-envoy-* are apart)."""
    return [m for m in _early_mutations(bootstrap) if "x-ztgate-tenant" in (
        m.get("remove"), m.get("append", {}).get("header", {}).get("key"))]


def test_without_tokens_envoy_replaces_any_client_tenant_header_by_default(bootstrap: dict) -> None:
    assert _tenant_mutations(bootstrap) == [
        {"remove": "x-ztgate-tenant"},
        {"append": {"header": {"key": "x-ztgate-tenant", "value": "default"},
                    "append_action": "OVERWRITE_IF_EXISTS_OR_ADD"}}]


def test_client_router_headers_are_dropped_and_only_ext_proc_may_set_them(bootstrap: dict) -> None:
    mutations = _early_mutations(bootstrap)
    for header in ("x-envoy-upstream-rq-per-try-timeout-ms", "x-envoy-upstream-rq-timeout-ms",
                   "x-envoy-max-retries", "x-envoy-retry-on", "x-envoy-retry-grpc-on"):
        assert {"remove": header} in mutations
    [ext_proc] = [f["typed_config"] for f in _hcm(bootstrap)["http_filters"]
                  if f["name"] == "envoy.filters.http.ext_proc"]
    assert ext_proc["mutation_rules"] == {"allow_envoy": True}


def test_inference_breakers_and_outlier_detection_come_from_settings() -> None:
    clusters = _clusters(yaml.safe_load(render_envoy(load_settings(ZtgateConfig, None, environ={
        **mesh_env(), "ZTGATE_GATEWAY__INFERENCE__BREAKERS__MAX_REQUESTS": "7",
        "ZTGATE_GATEWAY__INFERENCE__OUTLIER_DETECTION__CONSECUTIVE_GATEWAY_FAILURE": "4",
        "ZTGATE_GATEWAY__INFERENCE__OUTLIER_DETECTION__BASE_EJECTION_TIME_S": "2.5"}))))
    for name in ("inference_primary", "inference_fallback"):
        [thresholds] = clusters[name]["circuit_breakers"]["thresholds"]
        assert thresholds == {"max_connections": 1024, "max_pending_requests": 1024,
                              "max_requests": 7, "max_retries": 64}
        outlier = clusters[name]["outlier_detection"]
        assert outlier["consecutive_gateway_failure"] == 4 and outlier["base_ejection_time"] == "2.5s"
        # Timeouts, resets and connect failures never eject (health checks and the SLO do).
        assert outlier["split_external_local_origin_errors"] is True
        assert outlier["enforcing_consecutive_local_origin_failure"] == 0
    assert "outlier_detection" not in clusters["redaction"]
    for name in ("inference_primary_first", "inference_fallback_first"):  # retries count here
        assert clusters[name]["circuit_breakers"]["thresholds"] == [{"max_retries": 64}]


def test_no_listener_shares_its_port_with_another_envoy(bootstrap: dict) -> None:
    # Envoy's default is SO_REUSEPORT: a second suite's Envoy would bind beside the first.
    listeners = bootstrap["static_resources"]["listeners"]
    assert listeners and all(listener["enable_reuse_port"] is False for listener in listeners)


def test_the_slo_runtime_comes_by_rtds_from_the_collector_above_the_admin_layer(
        bootstrap: dict) -> None:
    """The controller's split arrives over the mesh (RTDS), in every deployment; the console's
    layer stays for the operator's levers, below it, so it cannot override the controller."""
    layers = bootstrap["layered_runtime"]["layers"]
    assert [layer["name"] for layer in layers] == ["static", "admin", "ztgate_slo"]
    assert "admin_layer" in layers[1]
    rtds = layers[2]["rtds_layer"]
    assert rtds["name"] == "ztgate_slo"
    source = rtds["rtds_config"]["api_config_source"]
    assert source["api_type"] == "GRPC"
    assert source["grpc_services"][0]["envoy_grpc"]["cluster_name"] == "telemetry_rtds"
    cluster = _clusters(bootstrap)["telemetry_rtds"]
    address = cluster["load_assignment"]["endpoints"][0]["lb_endpoints"][0]["endpoint"]["address"]
    assert address["socket_address"] == {"address": "127.0.0.1", "port_value": 4317}
    tls = cluster["transport_socket"]["typed_config"]
    assert tls["sni"] == "telemetry"  # the collector's certificate, over the suite's mTLS
    assert bootstrap["node"]["id"] and bootstrap["node"]["cluster"]


@pytest.mark.parametrize("key, value", [("LISTEN", "nohostport"),
                                        ("ADMIN", "127.0.0.1:70000"),
                                        ("INFERENCE__PER_TRY_TIMEOUT_S", "0")])
def test_bad_gateway_settings_stop_start_up_naming_the_key(key: str, value: str) -> None:
    with pytest.raises(ConfigError, match=f"gateway.{key.lower().replace('__', '.')}"):
        load_settings(ZtgateConfig, None, environ={f"ZTGATE_GATEWAY__{key}": value})


@pytest.mark.parametrize("environ, message", [
    ({"INFERENCE__PER_TRY_TIMEOUT_MAX_S": "1.0"}, "must be at least per_try_timeout_s"),
    ({"INFERENCE__PER_TRY_TIMEOUT_MAX_S": "400"}, "must be below timeout_s"),
    ({"INFERENCE__STREAM_IDLE_TIMEOUT_S": "20"}, "must exceed per_try_timeout_max_s")])
def test_timeouts_that_cannot_nest_stop_start_up(environ: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_settings(ZtgateConfig, None, environ={f"ZTGATE_GATEWAY__{k}": v for k, v in environ.items()})


def test_without_a_jwks_no_token_is_checked(bootstrap: dict) -> None:
    names = [f["name"] for f in _hcm(bootstrap)["http_filters"]]
    assert names == ["envoy.filters.http.buffer", "envoy.filters.http.ext_proc", "envoy.filters.http.router"]


def test_with_a_jwks_every_call_but_health_needs_a_token_whose_claim_sets_the_tenant(tmp_path) -> None:
    from ztgate.gateway.auth import keygen

    _, jwks = keygen(tmp_path)
    text = render_envoy(load_settings(ZtgateConfig, None, environ={
        "ZTGATE_GATEWAY__AUTH__JWKS_PATH": str(jwks), "ZTGATE_GATEWAY__AUTH__TENANT_CLAIM": "org", **mesh_env()}))
    validate(text)
    bootstrap = yaml.safe_load(text)
    assert _tenant_mutations(bootstrap) == [{"remove": "x-ztgate-tenant"}]  # jwt_authn sets it
    filters = _hcm(bootstrap)["http_filters"]
    # With tokens the per-tenant rate limit is on by default (gateway.rate_limit.with_tokens_per_s).
    assert [f["name"] for f in filters] == ["envoy.filters.http.jwt_authn", "envoy.filters.http.rbac",
                                            "envoy.filters.http.rbac",
                                            "envoy.filters.http.local_ratelimit",
                                            "envoy.filters.http.buffer",
                                            "envoy.filters.http.ext_proc",
                                            "envoy.filters.http.router"]
    config = filters[0]["typed_config"]
    provider = config["providers"]["ztgate"]
    assert provider["local_jwks"]["filename"] == str(jwks.resolve())
    assert provider["issuer"] == "ztgate" and provider["audiences"] == ["ztgate-gateway"]
    assert provider["claim_to_headers"] == [{"header_name": "x-ztgate-tenant", "claim_name": "org"}]
    assert config["rules"] == [{"match": {"prefix": "/grpc.health.v1.Health/"}},
                               {"match": {"prefix": "/v1/"}, "requires": {"provider_name": "ztgate_door"}},
                               {"match": {"prefix": "/"}, "requires": {"provider_name": "ztgate"}}]
    # The HTTP door's provider is the same but keeps the token (for ztgate's own adapter only):
    door = config["providers"]["ztgate_door"]
    assert door == {**provider, "forward": True} and provider["forward"] is False
    ext_proc = next(f for f in filters if f["name"] == "envoy.filters.http.ext_proc")["typed_config"]
    assert ext_proc["forward_rules"] == {"disallowed_headers": {"patterns": [{"exact": "authorization"}]}}
    assert provider["payload_in_metadata"] == "jwt_payload"
    tenant = filters[1]["typed_config"]["rules"]
    assert tenant["action"] == "DENY" and list(tenant["policies"]) == ["no_usable_tenant"]
    policy = tenant["policies"]["no_usable_tenant"]
    assert policy["permissions"] == [{"not_rule": {"url_path": {"path": {"prefix": "/grpc.health.v1.Health/"}}}}]
    [claim, header] = policy["principals"][0]["not_id"]["and_ids"]["ids"]
    assert claim["sourced_metadata"]["metadata_matcher"]["path"] == [{"key": "jwt_payload"}, {"key": "org"}]
    assert header["header"]["name"] == "x-ztgate-tenant"
    for matcher in (claim["sourced_metadata"]["metadata_matcher"]["value"], header["header"]):
        pattern = matcher["string_match"]["safe_regex"]["regex"]
        assert [bool(re.fullmatch(pattern, name)) for name in (
            "acme", "a" * 128, "user@example.com", "org:team-1.x_y", "", "a" * 129, "ac me", "a,b", "a/b",
            "é")] == [True] * 4 + [False] * 6
    # The gRPC door's mappers (the HTTP door's, on /v1/, come first: test_openai_routes.py).
    too_large, mapper = _grpc_mappers(bootstrap)
    assert too_large["filter"]["status_code_filter"]["comparison"]["value"]["default_value"] == 413
    assert mapper["status_code"] == 401  # UNAUTHENTICATED, saying which claim and what a tenant is
    assert "`org` claim is missing or not a tenant name" in mapper["body"]["inline_string"]
    expression = mapper["filter"]["extension_filter"]["typed_config"]["expression"]
    assert expression == "response.code_details == 'rbac_access_denied_matched_policy[no_usable_tenant]'"
    rbac = filters[2]["typed_config"]["rules"]
    assert rbac["action"] == "ALLOW" and set(rbac["policies"]) == {"health", "inference", "redaction"}
    assert rbac["policies"]["health"]["principals"] == [{"any": True}]
    inference = rbac["policies"]["inference"]
    assert inference["permissions"] == [{"or_rules": {"rules": [
        {"url_path": {"path": {"prefix": "/ztgate.inference.v1.Inference/"}}},
        {"url_path": {"path": {"prefix": "/v1/"}}}]}}]
    [principal] = inference["principals"]
    matcher = principal["sourced_metadata"]["metadata_matcher"]
    assert matcher["path"] == [{"key": "jwt_payload"}, {"key": "scope"}]
    pattern = matcher["value"]["string_match"]["safe_regex"]["regex"]
    assert [bool(re.fullmatch(pattern, claim)) for claim in  # Envoy's safe_regex must match it all
            ("inference", "redaction inference", "inference redaction", "inferences", "noinference", "")] == [
        True, True, True, False, False, False]


def test_a_missing_jwks_file_stops_rendering_with_what_to_do(tmp_path) -> None:
    config = load_settings(ZtgateConfig, None, environ={
        "ZTGATE_GATEWAY__AUTH__JWKS_PATH": str(tmp_path / "nope.json"), **mesh_env()})
    with pytest.raises(EnvoyConfigError, match="ztgate token keygen"):
        render_envoy(config)


def test_a_rate_limit_gives_each_tenant_a_bucket_and_answers_resource_exhausted() -> None:
    text = render_envoy(load_settings(ZtgateConfig, None, environ={
        "ZTGATE_GATEWAY__RATE_LIMIT__REQUESTS_PER_S": "20", **mesh_env()}))
    validate(text)
    filters = _hcm(yaml.safe_load(text))["http_filters"]
    [config] = [f["typed_config"] for f in filters if f["name"] == "envoy.filters.http.local_ratelimit"]
    assert [f["name"] for f in filters][-3:] == ["envoy.filters.http.buffer", "envoy.filters.http.ext_proc",
                                                 "envoy.filters.http.router"]
    bucket = {"max_tokens": 20, "tokens_per_fill": 20, "fill_interval": "1s"}  # burst defaults to 1 s
    assert config["token_bucket"] == bucket and config["rate_limited_as_resource_exhausted"] is True
    assert config["descriptors"] == [{"entries": [{"key": "tenant"}], "token_bucket": bucket}]
    assert config["rate_limits"] == [{"actions": [
        {"request_headers": {"header_name": "x-ztgate-tenant", "descriptor_key": "tenant"}}]}]
    assert config["always_consume_default_token_bucket"] is False and config["max_dynamic_descriptors"] == 1000


def test_without_a_rate_limit_setting_no_call_is_limited(bootstrap: dict) -> None:
    assert "local_ratelimit" not in yaml.safe_dump(bootstrap)


UPSTREAM_NAMES = {"redaction": "redaction", "redaction_sessions": "redaction",
                  "redaction_health": "redaction", "inference_primary": "inference-primary",
                  "inference_fallback": "inference-fallback"}


def test_envoy_calls_every_service_over_mtls_and_accepts_only_that_services_certificate(
        bootstrap: dict) -> None:
    clusters = _clusters(bootstrap)
    suite = shared_pki()
    for cluster, name in UPSTREAM_NAMES.items():
        socket = clusters[cluster]["transport_socket"]
        assert socket["name"] == "envoy.transport_sockets.tls"
        context = socket["typed_config"]
        assert context["sni"] == name
        common = context["common_tls_context"]
        assert common["alpn_protocols"] == ["h2"]
        assert common["tls_certificates"] == [{"certificate_chain": {"filename": str(suite.cert("envoy"))},
                                               "private_key": {"filename": str(suite.key("envoy"))}}]
        assert common["validation_context"] == {
            "trusted_ca": {"filename": str(suite.ca)},
            "match_typed_subject_alt_names": [{"san_type": "DNS", "matcher": {"exact": name}}]}


def test_with_mtls_off_the_clusters_are_plaintext() -> None:
    text = render_envoy(load_settings(ZtgateConfig, None, environ={"ZTGATE_MESH__MTLS": "false"}))
    assert "transport_socket" not in text


def test_mtls_without_certificates_stops_rendering_with_what_to_do(tmp_path) -> None:
    config = load_settings(ZtgateConfig, None, environ={"ZTGATE_MESH__PKI_DIR": str(tmp_path / "none")})
    with pytest.raises(EnvoyConfigError, match="ztgate certs init"):
        render_envoy(config)


def _listener_socket(environ: dict[str, str]) -> dict | None:
    text = render_envoy(load_settings(ZtgateConfig, None, environ={**mesh_env(), **environ}))
    validate(text)
    return yaml.safe_load(text)["static_resources"]["listeners"][0]["filter_chains"][0].get("transport_socket")


def test_the_listener_serves_tls_and_with_a_client_ca_requires_client_certificates() -> None:
    suite = shared_pki()
    tls = {"ZTGATE_GATEWAY__TLS__CERT": str(suite.cert("gateway")), "ZTGATE_GATEWAY__TLS__KEY": str(suite.key("gateway"))}
    assert _listener_socket({}) is None  # plaintext by default (loopback)
    server_only = _listener_socket(tls)["typed_config"]
    assert server_only["require_client_certificate"] is False
    assert server_only["common_tls_context"]["tls_certificates"] == [
        {"certificate_chain": {"filename": str(suite.cert("gateway"))},
         "private_key": {"filename": str(suite.key("gateway"))}}]
    assert "validation_context" not in server_only["common_tls_context"]
    mutual = _listener_socket({**tls, "ZTGATE_GATEWAY__TLS__CLIENT_CA": str(suite.ca)})["typed_config"]
    assert mutual["require_client_certificate"] is True
    assert mutual["common_tls_context"]["validation_context"] == {"trusted_ca": {"filename": str(suite.ca)}}


def test_listener_tls_settings_that_cannot_work_stop_with_what_to_fix(tmp_path) -> None:
    config = load_settings(ZtgateConfig, None, environ={
        **mesh_env(), "ZTGATE_GATEWAY__TLS__CERT": str(tmp_path / "no.pem"),
        "ZTGATE_GATEWAY__TLS__KEY": str(shared_pki().key("gateway"))})
    with pytest.raises(EnvoyConfigError, match=r"gateway.tls.cert .*no.pem: no such file"):
        render_envoy(config)
    with pytest.raises(ConfigError, match="allowed_clients is not used by Envoy's listener"):
        load_settings(ZtgateConfig, None, environ={
            "ZTGATE_GATEWAY__TLS__CERT": "/c", "ZTGATE_GATEWAY__TLS__KEY": "/k",
            "ZTGATE_GATEWAY__TLS__CLIENT_CA": "/ca", "ZTGATE_GATEWAY__TLS__ALLOWED_CLIENTS": "[envoy]"})


def test_a_listener_off_loopback_needs_tls() -> None:
    with pytest.raises(EnvoyConfigError, match="not a loopback address, so it needs gateway.tls"):
        render_envoy(load_settings(ZtgateConfig, None, environ={**mesh_env(), "ZTGATE_GATEWAY__LISTEN": "0.0.0.0:8080"}))


@pytest.mark.parametrize("limit", [2 * 1024 * 1024, 65536])
def test_envoy_reads_an_inference_body_up_to_the_request_limit_and_refuses_more_naming_it(limit: int) -> None:
    text = render_envoy(load_settings(ZtgateConfig, None, environ={
        "ZTGATE_LIMITS__MAX_REQUEST_BYTES": str(limit), "ZTGATE_LIMITS__MAX_PROMPT_BYTES": "1024",
        **mesh_env()}))
    validate(text)
    hcm = _hcm(yaml.safe_load(text))
    [buffer] = [f["typed_config"] for f in hcm["http_filters"] if f["name"] == "envoy.filters.http.buffer"]
    assert buffer["max_request_bytes"] == limit + 5  # the message and its gRPC frame header
    [mapper] = _grpc_mappers({"static_resources": {"listeners": [{"filter_chains": [{"filters": [
        {"typed_config": hcm}]}]}]}})
    assert mapper["filter"]["status_code_filter"]["comparison"]["value"]["default_value"] == 413
    assert mapper["headers_to_add"] == [{"header": {"key": "grpc-status", "value": "8"},  # RESOURCE_EXHAUSTED
                                         "append_action": "OVERWRITE_IF_EXISTS_OR_ADD"}]
    assert f"limit of {limit} bytes (limits.max_request_bytes)" in mapper["body"]["inline_string"]


def test_tokens_must_carry_an_expiry_within_the_configured_lifetime(tmp_path) -> None:
    from ztgate.gateway.auth import keygen

    _, jwks = keygen(tmp_path)
    environ = {"ZTGATE_GATEWAY__AUTH__JWKS_PATH": str(jwks), **mesh_env()}
    for lifetime, rendered in ((None, "86400s"), ("900", "900s")):
        extra = {"ZTGATE_GATEWAY__AUTH__MAX_TOKEN_LIFETIME_S": lifetime} if lifetime else {}
        text = render_envoy(load_settings(ZtgateConfig, None, environ={**environ, **extra}))
        validate(text)  # Envoy 1.40 knows both fields
        [jwt_authn] = [f for f in _hcm(yaml.safe_load(text))["http_filters"]
                       if f["name"] == "envoy.filters.http.jwt_authn"]
        provider = jwt_authn["typed_config"]["providers"]["ztgate"]
        assert provider["require_expiration"] is True and provider["max_lifetime"] == rendered
    with pytest.raises(ConfigError, match="max_token_lifetime_s"):
        load_settings(ZtgateConfig, None, environ={"ZTGATE_GATEWAY__AUTH__MAX_TOKEN_LIFETIME_S": "0"})


def _gateway_tls() -> dict[str, str]:
    suite = shared_pki()
    return {"ZTGATE_GATEWAY__TLS__CERT": str(suite.cert("gateway")),
            "ZTGATE_GATEWAY__TLS__KEY": str(suite.key("gateway"))}


@pytest.mark.parametrize("listen", ["0.0.0.0:8080", "[::]:8080", "192.0.2.7:8080"])
def test_a_listener_off_loopback_needs_tokens_unless_told_otherwise_in_so_many_words(listen, tmp_path) -> None:
    from ztgate.gateway.auth import keygen
    from ztgate.gateway.envoy_config import check_exposure

    environ = {**mesh_env(), **_gateway_tls(), "ZTGATE_GATEWAY__LISTEN": listen}
    config = load_settings(ZtgateConfig, None, environ=environ)
    with pytest.raises(EnvoyConfigError, match="needs bearer tokens: set gateway.auth.jwks_path.*"
                                               "gateway.auth.allow_anonymous_off_loopback: true"):
        render_envoy(config)
    _, jwks = keygen(tmp_path)
    with_tokens = load_settings(ZtgateConfig, None, environ={**environ, "ZTGATE_GATEWAY__AUTH__JWKS_PATH": str(jwks)})
    assert check_exposure(with_tokens.gateway) == []
    validate(render_envoy(with_tokens))
    anonymous = load_settings(ZtgateConfig, None, environ={
        **environ, "ZTGATE_GATEWAY__AUTH__ALLOW_ANONYMOUS_OFF_LOOPBACK": "true"})
    [warning] = check_exposure(anonymous.gateway)
    assert warning.startswith("WARNING") and listen in warning and "checks no token" in warning
    assert "envoy.filters.http.jwt_authn" not in render_envoy(anonymous)


def test_on_loopback_no_token_is_needed_and_nothing_is_warned() -> None:
    from ztgate.gateway.envoy_config import check_exposure

    for listen in ("127.0.0.1:8080", "localhost:8080", "[::1]:8080"):
        assert check_exposure(load_settings(ZtgateConfig, None, environ={
            **mesh_env(), "ZTGATE_GATEWAY__LISTEN": listen}).gateway) == []


@pytest.mark.parametrize("admin", ["0.0.0.0:9901", "[::]:9901", "192.0.2.7:9901"])
def test_the_admin_console_is_refused_off_loopback_with_the_reason(admin: str) -> None:
    config = load_settings(ZtgateConfig, None, environ={**mesh_env(), "ZTGATE_GATEWAY__ADMIN": admin})
    with pytest.raises(EnvoyConfigError, match=r"gateway.admin .* no authentication.*/runtime_modify.*"
                                               r"/quitquitquit.*loopback only"):
        render_envoy(config)


def test_envoy_config_refuses_an_open_listener_and_says_what_to_set(capsys, monkeypatch) -> None:
    from ztgate.cli import main

    for key, value in {**mesh_env(), **_gateway_tls(), "ZTGATE_GATEWAY__LISTEN": "0.0.0.0:8080"}.items():
        monkeypatch.setenv(key, value)
    assert main(["envoy-config"]) == 2
    err = capsys.readouterr().err
    assert "gateway.auth.jwks_path" in err and "allow_anonymous_off_loopback" in err


@pytest.mark.parametrize("environ, message", [
    ({"ZTGATE_GATEWAY__REDACTION__MAX_MESSAGE_TIMEOUT_S": "1.0"},
     "max_message_timeout_s must be at least message_timeout_s"),
    ({"ZTGATE_REDACTION__ANALYSIS_TIMEOUT_S": "10"},
     r"redaction.analysis_timeout_s \(10\) is below gateway.redaction.max_message_timeout_s \(20\)")])
def test_message_timeouts_that_cannot_nest_stop_start_up(environ: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_settings(ZtgateConfig, None, environ=environ)
