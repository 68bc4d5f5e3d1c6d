"""What `ztgate up` hands each child for mTLS: its own certificate, the callers it accepts, and its
credentials towards the collector; and the certificates issued on first use."""

from __future__ import annotations

from pathlib import Path

import pytest

from ztgate.common import pki
from ztgate.common.config import load_settings
from ztgate.config import ZtgateConfig
from ztgate.supervisor.launcher import SERVED_PARTS, child_env, prepare_pki


def _config(tmp_path: Path, **env: str) -> ZtgateConfig:
    return load_settings(ZtgateConfig, None, environ={"ZTGATE_MESH__PKI_DIR": str(tmp_path / "pki"), **env})


def test_every_served_part_gets_its_own_certificate_and_its_callers(tmp_path: Path) -> None:
    config = _config(tmp_path)
    suite = pki.Pki(tmp_path / "pki")
    redaction = child_env(config, pki.REDACTION)
    assert redaction["ZTGATE_REDACTION__SERVER__TLS__CERT"] == str(suite.cert(pki.REDACTION))
    assert redaction["ZTGATE_REDACTION__SERVER__TLS__KEY"] == str(suite.key(pki.REDACTION))
    assert redaction["ZTGATE_REDACTION__SERVER__TLS__CLIENT_CA"] == str(suite.ca)
    assert redaction["ZTGATE_OTEL__TLS__CERT"] == str(suite.cert(pki.REDACTION))
    # The child loads its configuration from this environment: the values must parse as settings.
    seen = load_settings(ZtgateConfig, None, environ=redaction)
    assert seen.redaction.server.tls is not None
    # Envoy, the operator, and the other redaction replicas (session replication only).
    assert seen.redaction.server.tls.allowed_clients == (pki.ENVOY, pki.OPERATOR, pki.REDACTION)
    assert seen.inference.primary.server.tls is None  # another part's settings are untouched
    primary = load_settings(ZtgateConfig, None, environ=child_env(config, pki.INFERENCE_PRIMARY))
    assert primary.inference.primary.server.tls.cert == suite.cert(pki.INFERENCE_PRIMARY)
    collector = load_settings(ZtgateConfig, None, environ=child_env(config, pki.TELEMETRY))
    assert set(collector.telemetry.server.tls.allowed_clients) == {pki.ENVOY, pki.OPERATOR, *pki.SERVERS}
    assert set(SERVED_PARTS) == set(pki.SERVERS)


def test_without_mtls_children_get_no_certificates(tmp_path: Path) -> None:
    env = child_env(_config(tmp_path, ZTGATE_MESH__MTLS="false"), pki.REDACTION)
    assert not any("__TLS__" in key for key in env)


def test_prepare_issues_once_then_reuses(tmp_path: Path) -> None:
    config = _config(tmp_path)
    assert prepare_pki(config).startswith(f"issued the suite's certificates in {tmp_path / 'pki'}")
    ca = (tmp_path / "pki" / "ca.pem").read_bytes()
    assert prepare_pki(config).startswith("using the suite's certificates")
    assert (tmp_path / "pki" / "ca.pem").read_bytes() == ca
    (tmp_path / "pki" / "envoy.key").unlink()
    with pytest.raises(pki.PkiError, match="lacks envoy.key"):
        prepare_pki(config)
    assert prepare_pki(_config(tmp_path, ZTGATE_MESH__MTLS="false")) is None
