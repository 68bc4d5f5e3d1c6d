"""Envoy's OpenTelemetry tracer in the rendered bootstrap: on with OpenTelemetry export, pointed at
the collector the services export to, and accepted by Envoy 1.40."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ztgate.common.config import ConfigError, load_settings
from ztgate.config import ZtgateConfig
from ztgate.gateway.envoy_config import GATEWAY_SERVICE_NAME, validate
from ztgate.serve import render_envoy
from ztgate.supervisor.launcher import children_config
from tests.suite_pki import mesh_env, shared_pki

TRACED = {"ZTGATE_OTEL__ENABLED": "true", "ZTGATE_OTEL__ENDPOINT": "127.0.0.1:6317",
          "ZTGATE_GATEWAY__TRACE_SAMPLING_PERCENT": "12.5", **mesh_env()}


def _bootstrap(environ: dict[str, str]) -> dict:
    return yaml.safe_load(render_envoy(load_settings(ZtgateConfig, None, environ=environ)))


def _hcm(bootstrap: dict) -> dict:
    return bootstrap["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]


def _clusters(bootstrap: dict) -> dict[str, dict]:
    return {c["name"]: c for c in bootstrap["static_resources"]["clusters"]}


def test_envoy_validates_the_bootstrap_with_the_opentelemetry_tracer() -> None:
    validate(render_envoy(load_settings(ZtgateConfig, None, environ=TRACED)))


def test_tracer_exports_otlp_grpc_to_the_otel_endpoint_with_the_configured_sampling() -> None:
    bootstrap = _bootstrap(TRACED)
    tracing = _hcm(bootstrap)["tracing"]
    assert tracing["random_sampling"]["value"] == 12.5
    assert tracing["spawn_upstream_span"] is True  # a span per try: retries and failover show
    provider = tracing["provider"]
    assert provider["name"] == "envoy.tracers.opentelemetry"
    config = provider["typed_config"]
    assert config["service_name"] == GATEWAY_SERVICE_NAME == "ztgate-gateway"
    cluster = _clusters(bootstrap)[config["grpc_service"]["envoy_grpc"]["cluster_name"]]
    address = cluster["load_assignment"]["endpoints"][0]["lb_endpoints"][0]["endpoint"]["address"]
    assert address["socket_address"] == {"address": "127.0.0.1", "port_value": 6317}
    options = cluster["typed_extension_protocol_options"]["envoy.extensions.upstreams.http.v3.HttpProtocolOptions"]
    assert "http2_protocol_options" in options["explicit_http_config"]  # OTLP/gRPC
    # A collector that never answers holds a bounded number of exports, not one per flush.
    assert cluster["circuit_breakers"]["thresholds"][0]["max_requests"] == 8
    # Over mTLS, to the collector's own certificate.
    validation = cluster["transport_socket"]["typed_config"]["common_tls_context"]["validation_context"]
    assert validation["match_typed_subject_alt_names"] == [{"san_type": "DNS", "matcher": {"exact": "telemetry"}}]


@pytest.mark.parametrize("environ", [mesh_env(), {**TRACED, "ZTGATE_GATEWAY__TRACING": "false"}],
                         ids=["otel-off", "gateway-tracing-off"])
def test_no_tracer_and_no_collector_cluster_when_tracing_is_off(environ: dict[str, str]) -> None:
    bootstrap = _bootstrap(environ)
    assert "tracing" not in _hcm(bootstrap)
    assert "otel_collector" not in _clusters(bootstrap)


def test_up_renders_envoy_tracing_to_the_suites_own_collector(monkeypatch: pytest.MonkeyPatch,
                                                               tmp_path: Path) -> None:
    for name in ("ZTGATE_OTEL__ENABLED", "ZTGATE_OTEL__ENDPOINT", "ZTGATE_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    config_file = tmp_path / "ztgate.yaml"
    config_file.write_text("telemetry:\n  server:\n    listen: 127.0.0.1:7317\n"
                           f"mesh:\n  pki_dir: {shared_pki().dir}\n")
    config = load_settings(ZtgateConfig, config_file, environ={})
    assert not config.otel.enabled  # off in the file's view, on for `up`'s children and Envoy
    seen = children_config(config, config_file)
    assert seen.otel.enabled and seen.otel.endpoint == "127.0.0.1:7317"
    cluster = _clusters(yaml.safe_load(render_envoy(seen)))["otel_collector"]
    address = cluster["load_assignment"]["endpoints"][0]["lb_endpoints"][0]["endpoint"]["address"]
    assert address["socket_address"]["port_value"] == 7317


@pytest.mark.parametrize("value", ["-1", "100.5", "all"])
def test_bad_sampling_percent_stops_start_up_naming_the_key(value: str) -> None:
    with pytest.raises(ConfigError, match="gateway.trace_sampling_percent"):
        load_settings(ZtgateConfig, None, environ={"ZTGATE_GATEWAY__TRACE_SAMPLING_PERCENT": value})
