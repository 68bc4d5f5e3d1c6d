"""The HTTP door in the rendered bootstrap: Envoy 1.40 accepts it, routes each model to the
upstreams that serve it (in order, failing over), keeps API keys out of its configuration, and
answers its own refusals in OpenAI's error shape."""

from __future__ import annotations

import json

import pytest
import yaml
from pydantic import ValidationError

from ztgate.common.config import load_settings
from ztgate.config import ZtgateConfig
from ztgate.gateway.config import GatewaySettings
from ztgate.gateway.envoy_config import validate
from ztgate.serve import render_envoy
from tests.suite_pki import mesh_env

KEY = "sk-upstream-secret-0123456789"


def _upstreams(tmp_path) -> str:
    (tmp_path / "key").write_text(KEY)
    return json.dumps([
        {"name": "local", "base_url": "http://127.0.0.1:8000/v1", "models": ["small"],
         "api_key_file": str(tmp_path / "key")},
        {"name": "hosted", "base_url": "https://api.example.com/v1", "models": ["big"],
         "api_key_env": "HOSTED_KEY"},
        {"name": "a", "base_url": "http://127.0.0.1:8001/v1", "models": ["shared"]},
        {"name": "b", "base_url": "https://b.example.com/v1", "models": ["shared"]},
    ])


@pytest.fixture
def text(tmp_path) -> str:
    from ztgate.gateway.auth import keygen

    _, jwks = keygen(tmp_path / "tokens")
    return render_envoy(load_settings(ZtgateConfig, None, environ={
        **mesh_env(), "ZTGATE_GATEWAY__AUTH__JWKS_PATH": str(jwks),
        "ZTGATE_GATEWAY__RATE_LIMIT__REQUESTS_PER_S": "5",
        "ZTGATE_GATEWAY__OPENAI_UPSTREAMS": _upstreams(tmp_path)}))


def _routes(bootstrap: dict) -> list[dict]:
    hcm = bootstrap["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]
    return hcm["route_config"]["virtual_hosts"][0]["routes"]


def test_envoy_accepts_the_door_and_never_holds_an_api_key(text: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOSTED_KEY", "from-the-environment")  # Envoy refuses to start without it
    validate(text)
    assert KEY not in text
    secrets = {s["name"]: s["generic_secret"]["secret"] for s in yaml.safe_load(text)[
        "static_resources"]["secrets"]}
    assert secrets["openai_hosted_key"] == {"environment_variable": "HOSTED_KEY"}
    assert secrets["openai_local_key"]["filename"].endswith("/key")


def test_each_model_routes_to_its_upstreams_in_order_with_failover(text: str) -> None:
    bootstrap = yaml.safe_load(text)
    routes = {r["match"]["headers"][0]["string_match"]["exact"]: r for r in _routes(bootstrap)
              if r["match"].get("headers")}
    assert routes["small"]["route"]["cluster"] == "openai_local"
    assert "retry_priority" not in routes["small"]["route"]["retry_policy"]
    shared = routes["shared"]["route"]
    clusters = {c["name"]: c for c in bootstrap["static_resources"]["clusters"]}
    assert clusters[shared["cluster"]]["cluster_type"]["typed_config"]["clusters"] == [
        "openai_a", "openai_b"]
    injector = clusters["openai_local"]["typed_extension_protocol_options"][
        "envoy.extensions.upstreams.http.v3.HttpProtocolOptions"]["http_filters"][0]["typed_config"]
    assert injector["credential"]["typed_config"]["credential"] == {"name": "openai_local_key"}
    assert shared["prefix_rewrite"] == "/v1/" and shared["retry_policy"]["retriable_status_codes"] == [
        429, 503]
    assert "retry_priority" in shared["retry_policy"]
    # The client's credentials and the gateway's own headers never reach an upstream.
    assert set(routes["small"]["request_headers_to_remove"]) == {
        "authorization", "accept-encoding", "x-ztgate-openai-model", "x-ztgate-tenant"}
    hosted = clusters["openai_b"]
    assert hosted["transport_socket"]["typed_config"]["sni"] == "b.example.com"
    # Every door route goes through the redaction service and shows it the answer's headers.
    for route in _routes(bootstrap):
        if route["match"].get("prefix") == "/v1/":
            mode = route["typed_per_filter_config"]["envoy.filters.http.ext_proc"]["overrides"][
                "processing_mode"]
            assert mode["response_header_mode"] == "SEND" and mode["request_body_mode"] == "BUFFERED"


def test_models_are_listed_by_envoy_and_an_unknown_model_is_a_404_in_openais_shape(text: str) -> None:
    routes = _routes(yaml.safe_load(text))
    [models] = [r for r in routes if r["match"].get("path") == "/v1/models"]
    listed = json.loads(models["direct_response"]["body"]["inline_string"])
    assert [(m["id"], m["owned_by"]) for m in listed["data"]] == [
        ("SmolLM2-135M-Instruct", "ztgate"),  # ztgate's own model, through its adapter
        ("small", "local"), ("big", "hosted"), ("shared", "a")]
    [fallback] = [r for r in routes if r["match"] == {"prefix": "/v1/"}]
    error = json.loads(fallback["direct_response"]["body"]["inline_string"])["error"]
    assert fallback["direct_response"]["status"] == 404 and error["code"] == "model_not_found"


def test_the_inference_scope_opens_the_door(text: str) -> None:
    bootstrap = yaml.safe_load(text)
    hcm = bootstrap["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]
    scope = hcm["http_filters"][2]["typed_config"]["rules"]["policies"]["inference"]
    prefixes = [r["url_path"]["path"]["prefix"] for r in scope["permissions"][0]["or_rules"]["rules"]]
    assert prefixes == ["/ztgate.inference.v1.Inference/", "/v1/"]


def test_envoys_own_refusals_on_the_door_are_in_openais_shape(text: str) -> None:
    hcm = yaml.safe_load(text)["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0][
        "typed_config"]
    door = [m for m in hcm["local_reply_config"]["mappers"]
            if "/v1/" in json.dumps(m.get("filter", {}))]
    formats = {m["filter"]["extension_filter"]["typed_config"]["expression"].split("== ")[-1]:
               m["body_format_override"] for m in door if "json_format" in m.get("body_format_override", {})}
    assert formats["429"]["json_format"]["error"]["type"] == "rate_limit_error"
    assert formats["401"]["json_format"]["error"]["message"] == "%LOCAL_REPLY_BODY%"
    [retry] = [m for m in door if m.get("headers_to_add")]
    assert retry["headers_to_add"][0]["header"] == {"key": "retry-after", "value": "1"}


@pytest.mark.parametrize("upstreams, words", [
    ([{"name": "a", "base_url": "ftp://x/v1", "models": ["m"]}], "must be http"),
    ([{"name": "a", "base_url": "http://x/v1", "models": []}], "at least 1"),
    ([{"name": "a", "base_url": "http://x/v1", "models": ["m"]},
      {"name": "a", "base_url": "http://y/v1", "models": ["n"]}], "name of its own"),
    ([{"name": "a", "base_url": "http://x/v1", "models": ["m"]},
      {"name": "b", "base_url": "http://y/api", "models": ["m"]}], "same path"),
    ([{"name": "a", "base_url": "http://x/v1", "models": ["m"], "api_key_file": "/k",
       "api_key_env": "K"}], "not both"),
    ([{"name": "a", "base_url": "https://x/v1", "models": ["m"], "api_key_env": "K"},
      {"name": "b", "base_url": "http://y/v1", "models": ["m"]}], "must serve its models alone"),
])
def test_bad_upstreams_stop_start_up_saying_why(upstreams: list, words: str) -> None:
    with pytest.raises(ValidationError, match=words):
        GatewaySettings(openai_upstreams=upstreams)
