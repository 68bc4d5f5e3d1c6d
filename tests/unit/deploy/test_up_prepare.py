"""What `ztgate up` makes and checks before it starts a child: the token keys when asked, and the
refusal of, or loud warning about, a listener off loopback without tokens."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from ztgate.common.config import load_settings
from ztgate.config import ZtgateConfig, load_config
from ztgate.gateway.auth import mint
from ztgate.gateway.envoy_config import EnvoyConfigError
from ztgate.supervisor.launcher import prepare_tokens, run_suite
from ztgate.supervisor.child import Child
from tests.procs import free_port
from tests.suite_pki import PLAINTEXT, shared_pki


def test_token_keys_are_made_only_when_asked_and_only_once(tmp_path: Path) -> None:
    jwks = tmp_path / "tokens" / "jwks.json"
    asked = {"ZTGATE_GATEWAY__AUTH__JWKS_PATH": str(jwks)}
    assert prepare_tokens(load_settings(ZtgateConfig, None, environ=asked)) is None
    assert not jwks.exists()  # not asked: the missing file stops rendering instead
    config = load_settings(ZtgateConfig, None, environ={**asked, "ZTGATE_GATEWAY__AUTH__KEYGEN_IF_MISSING": "true"})
    line = prepare_tokens(config)
    assert line.startswith(f"made the gateway's token signing key {tmp_path / 'tokens' / 'signing-key.pem'}")
    assert "ztgate token mint --tenant T" in line
    made = jwks.read_bytes()
    assert prepare_tokens(config) is None and jwks.read_bytes() == made  # later starts keep them
    assert mint(tmp_path / "tokens" / "signing-key.pem", tenant="acme", issuer="ztgate", audience="ztgate-gateway")


def _open_listener(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, **extra: str) -> ZtgateConfig:
    suite = shared_pki()
    env = {**PLAINTEXT, "ZTGATE_GATEWAY__LISTEN": f"0.0.0.0:{free_port()}",
           "ZTGATE_GATEWAY__TLS__CERT": str(suite.cert("gateway")),
           "ZTGATE_GATEWAY__TLS__KEY": str(suite.key("gateway")),
           "ZTGATE_REDACTION__KEYS_FILE": str(tmp_path / "keys.json"), **extra}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return load_config(None)


def _no_children(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Replaces the suite with one child that exits at once (a RECORDING fake: it counts the calls)."""
    calls: list[int] = []

    def suite(*_args) -> list[Child]:
        calls.append(1)
        return [Child("fake", [sys.executable, "-c", "raise SystemExit(3)"], f"127.0.0.1:{free_port()}")]

    monkeypatch.setattr("ztgate.supervisor.launcher.suite", suite)
    return calls


def test_up_refuses_an_open_listener_without_tokens_before_starting_anything(monkeypatch, tmp_path) -> None:
    calls = _no_children(monkeypatch)
    config = _open_listener(monkeypatch, tmp_path)
    with pytest.raises(EnvoyConfigError, match="needs bearer tokens"):
        asyncio.run(run_suite(config, None))
    assert calls == [] and not (tmp_path / "keys.json").exists()  # nothing made either


def test_up_warns_on_stderr_on_every_start_when_told_to_serve_anonymously(monkeypatch, tmp_path, capsys) -> None:
    calls = _no_children(monkeypatch)
    config = _open_listener(monkeypatch, tmp_path, ZTGATE_GATEWAY__AUTH__ALLOW_ANONYMOUS_OFF_LOOPBACK="true")
    for start in (1, 2):
        assert asyncio.run(run_suite(config, None)) == 1  # the fake child exits
        err = capsys.readouterr().err
        assert "WARNING: gateway.listen 0.0.0.0:" in err and "checks no token" in err, start
        assert "!" * 78 in err
    assert len(calls) == 2
