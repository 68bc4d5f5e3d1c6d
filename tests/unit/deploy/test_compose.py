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


def _environment(compose: dict, volume: Path) -> dict[str, str]:
    """The service's environment with the container's /pki at `volume`."""
    [service] = compose["services"].values()
    return {k: v.replace("/pki", str(volume)) for k, v in service["environment"].items()}


def test_the_compose_configuration_renders_once_up_has_prepared_the_volume(tmp_path: Path) -> None:
    """What the first `ztgate up` in the container makes (certificates, token keys, redaction keys)
    is enough for Envoy's bootstrap, which requires a token on every call; a second start reuses it."""
    from services.gateway.envoy_config import render, validate
    from services.launcher import prepare

    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    config = load_settings(ZtgateConfig, None, environ=_environment(compose, tmp_path / "pki"))
    first = prepare(config)
    assert any(line.startswith("made the gateway's token signing key") for line in first)
    assert any(line.startswith("generated the redaction keys in") for line in first)
    text = render(config)
    validate(text)
    assert "DownstreamTlsContext" in text
    bootstrap = yaml.safe_load(text)
    hcm = bootstrap["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]
    [jwt_authn] = [f["typed_config"] for f in hcm["http_filters"] if f["name"] == "envoy.filters.http.jwt_authn"]
    provider = jwt_authn["providers"]["ztgate"]
    assert provider["local_jwks"]["filename"] == str(tmp_path / "pki" / "tokens" / "jwks.json")
    assert provider["require_expiration"] is True and provider["max_lifetime"] == "86400s"
    assert {"match": {"prefix": "/"}, "requires": {"provider_name": "ztgate"}} in jwt_authn["rules"]
    jwks = (tmp_path / "pki" / "tokens" / "jwks.json").read_bytes()
    second = prepare(config)
    assert not any("made the gateway's token" in line for line in second)
    assert any(line.startswith("using the redaction keys in") for line in second)
    assert (tmp_path / "pki" / "tokens" / "jwks.json").read_bytes() == jwks  # the same install's keys


def test_compose_requires_tokens_and_ships_no_key() -> None:
    from services.redaction.keys import PUBLISHED_KEYS

    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    [service] = compose["services"].values()
    config = load_settings(ZtgateConfig, None, environ=service["environment"])
    auth = config.gateway.auth
    assert auth.jwks_path == Path("/pki/tokens/jwks.json") and auth.keygen_if_missing
    assert not auth.allow_anonymous_off_loopback
    # Keys are the install's own, in the volume: none in the environment, the image or the file.
    assert config.redaction.hash_key is None and config.redaction.encrypt_key is None
    assert config.redaction.keys_file == Path("/pki/keys/redaction.json")
    for path in ("compose.yaml", "Dockerfile"):
        text = (ROOT / path).read_text()
        assert "HASH_KEY" not in text and "ENCRYPT_KEY" not in text, path
        assert not any(key in text for key in PUBLISHED_KEYS), path


def test_the_readme_says_how_to_mint_a_token_in_the_container() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "docker compose exec -T ztgate ztgate token mint --tenant" in readme
    assert "ZTGATE_TOKEN" in readme
