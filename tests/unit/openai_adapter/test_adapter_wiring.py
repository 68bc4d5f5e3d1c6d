"""The adapter in `ztgate up` and in Envoy's bootstrap: a supervised part with its own address,
the first upstream of the default model name, the only upstream that keeps the caller's token."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from ztgate.common.config import ConfigError, load_settings
from ztgate.config import ZtgateConfig
from ztgate.gateway.envoy_config import validate
from ztgate.serve import render_envoy
from ztgate.supervisor.launcher import address_problems, suite
from tests.suite_pki import PLAINTEXT

MODEL = ZtgateConfig().inference.model_name


def _config(**env: str) -> ZtgateConfig:
    return load_settings(ZtgateConfig, None, environ={**PLAINTEXT, **env})


def _routes(text: str) -> dict[str, dict]:
    bootstrap = yaml.safe_load(text)
    hcm = bootstrap["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]
    return {r["match"]["headers"][0]["string_match"]["exact"]: r
            for r in hcm["route_config"]["virtual_hosts"][0]["routes"] if r["match"].get("headers")}


def test_up_runs_the_adapter_before_envoy_on_its_own_address() -> None:
    children = suite(_config(), None, Path("/nonexistent/envoy.yaml"))
    names = [c.name for c in children]
    assert names.index("openai-adapter") == names.index("envoy") - 1
    adapter = children[names.index("openai-adapter")]
    assert adapter.argv[-1] == "openai-adapter" and "serve" in adapter.argv
    assert adapter.ready_url == "http://127.0.0.1:8090/ready"
    assert [listen.setting for listen in adapter.listens] == ["openai_adapter.listen"]
    clash = suite(_config(ZTGATE_OPENAI_ADAPTER__LISTEN="127.0.0.1:50052"), None, Path("/x"))
    assert any("openai_adapter.listen" in p and "inference.primary.server.listen" in p
               for p in address_problems(clash))


@pytest.mark.parametrize("env", [{"ZTGATE_OPENAI_ADAPTER__ENABLED": "false"}])
def test_an_adapter_turned_off_is_neither_run_nor_routed(env: dict) -> None:
    config = _config(**env)
    assert "openai-adapter" not in [c.name for c in suite(config, None, Path("/x"))]
    assert MODEL not in _routes(render_envoy(config))


def test_envoy_routes_the_default_model_to_the_adapter_with_the_callers_token(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    upstreams = json.dumps([{"name": "vllm", "base_url": "http://127.0.0.1:8000/v1",
                             "models": ["other"]}])
    text = render_envoy(_config(ZTGATE_GATEWAY__OPENAI_UPSTREAMS=upstreams,
                          ZTGATE_OPENAI_ADAPTER__LISTEN="127.0.0.1:8091"))
    validate(text)
    routes = _routes(text)
    ours = routes[MODEL]
    assert ours["route"]["cluster"] == "openai_ztgate" and ours["route"]["prefix_rewrite"] == "/v1/"
    # The adapter calls the gateway's gRPC route as the same caller; nobody else gets the token.
    assert "authorization" not in ours["request_headers_to_remove"]
    assert "x-ztgate-tenant" in ours["request_headers_to_remove"]
    # The gRPC route behind the adapter retried 429/503 already: no second round of retries here.
    assert ours["route"]["retry_policy"]["retry_on"] == "connect-failure,reset"
    assert "retriable-status-codes" in routes["other"]["route"]["retry_policy"]["retry_on"]
    assert "authorization" in routes["other"]["request_headers_to_remove"]
    # The same redaction of the body and the answer as every door route.
    assert ours["typed_per_filter_config"]["envoy.filters.http.ext_proc"]["overrides"][
        "processing_mode"]["response_header_mode"] == "SEND"
    clusters = {c["name"]: c for c in yaml.safe_load(text)["static_resources"]["clusters"]}
    address = clusters["openai_ztgate"]["load_assignment"]["endpoints"][0]["lb_endpoints"][0][
        "endpoint"]["address"]["socket_address"]
    assert address == {"address": "127.0.0.1", "port_value": 8091}


def test_a_shared_model_name_never_hands_the_token_to_another_upstream() -> None:
    upstreams = json.dumps([{"name": "vllm", "base_url": "http://127.0.0.1:8000/v1", "models": [MODEL]}])
    routes = _routes(render_envoy(_config(ZTGATE_GATEWAY__OPENAI_UPSTREAMS=upstreams)))
    assert routes[MODEL]["route"]["cluster"].startswith("openai_failover_")
    assert "authorization" in routes[MODEL]["request_headers_to_remove"]


def test_the_adapters_name_is_its_own(tmp_path: Path) -> None:
    taken = json.dumps([{"name": "ztgate", "base_url": "http://127.0.0.1:8000/v1", "models": ["x"]}])
    with pytest.raises(ConfigError, match="openai_adapter.enabled"):
        _config(ZTGATE_GATEWAY__OPENAI_UPSTREAMS=taken)


def test_a_tls_listener_is_dialled_with_the_suites_ca_when_its_certificate_is_the_suites(
        tmp_path: Path) -> None:
    suite_dir = tmp_path / "pki"
    tls = _config(ZTGATE_MESH__PKI_DIR=str(suite_dir),
                  ZTGATE_GATEWAY__TLS__CERT=str(suite_dir / "gateway.pem"),
                  ZTGATE_GATEWAY__TLS__KEY=str(suite_dir / "gateway.key"))
    assert tls.openai_adapter_active
    assert tls.openai_adapter_gateway_tls is not None
    assert tls.openai_adapter_gateway_tls.ca == suite_dir.resolve() / "ca.pem"
    assert tls.openai_adapter_gateway_tls.cert is None
    assert "openai-adapter" in [c.name for c in suite(tls, None, Path("/x"))]


@pytest.mark.parametrize(("extra", "reason"), [
    ({}, "gateway.tls.cert is not the suite's own: set openai_adapter.gateway_tls.ca"),
    ({"ZTGATE_GATEWAY__TLS__CLIENT_CA": "/elsewhere/ca.pem"},
     "gateway.tls.client_ca requires client certificates: set openai_adapter.gateway_tls"),
])
def test_a_tls_listener_the_adapter_cannot_dial_leaves_it_off_saying_what_to_set(
        tmp_path: Path, extra: dict[str, str], reason: str) -> None:
    tls = _config(ZTGATE_GATEWAY__TLS__CERT=str(tmp_path / "c.pem"),
                  ZTGATE_GATEWAY__TLS__KEY=str(tmp_path / "k.pem"), **extra)
    assert not tls.openai_adapter_active
    assert tls.openai_adapter_off_reason is not None and reason in tls.openai_adapter_off_reason
    assert "openai-adapter" not in [c.name for c in suite(tls, None, Path("/x"))]
    told = _config(ZTGATE_GATEWAY__TLS__CERT=str(tmp_path / "c.pem"),
                   ZTGATE_GATEWAY__TLS__KEY=str(tmp_path / "k.pem"),
                   ZTGATE_OPENAI_ADAPTER__GATEWAY_TLS__CA=str(tmp_path / "their-ca.pem"),
                   ZTGATE_OPENAI_ADAPTER__GATEWAY_TLS__CERT=str(tmp_path / "adapter.pem"),
                   ZTGATE_OPENAI_ADAPTER__GATEWAY_TLS__KEY=str(tmp_path / "adapter.key"), **extra)
    assert told.openai_adapter_active
    assert told.openai_adapter_gateway_tls is not None
    assert told.openai_adapter_gateway_tls.ca == tmp_path / "their-ca.pem"
