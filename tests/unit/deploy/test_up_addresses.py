"""`ztgate up` refuses, before it starts anything, to listen where it cannot: an address in use (a
second `up` beside a running one), or one address set for two parts. Real sockets on loopback."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from ztgate.common.config import load_settings
from ztgate.config import ZtgateConfig
from ztgate.supervisor.launcher import LISTEN_SETTINGS, address_problems, listen_variables, run_suite, suite
from tests.procs import free_port

SETTINGS = {"ZTGATE_GATEWAY__LISTEN": "gateway.listen", "ZTGATE_GATEWAY__ADMIN": "gateway.admin",
            "ZTGATE_REDACTION__SERVER__LISTEN": "redaction.server.listen",
            "ZTGATE_TELEMETRY__SERVER__LISTEN": "telemetry.server.listen",
            "ZTGATE_TELEMETRY__METRICS__LISTEN": "telemetry.metrics.listen",
            "ZTGATE_INFERENCE__PRIMARY__SERVER__LISTEN": "inference.primary.server.listen",
            "ZTGATE_INFERENCE__FALLBACK__SERVER__LISTEN": "inference.fallback.server.listen",
            "ZTGATE_OPENAI_ADAPTER__LISTEN": "openai_adapter.listen"}


def _config(tmp_path: Path, **overrides: str) -> tuple[ZtgateConfig, dict[str, str]]:
    ports: list[int] = []
    while len(ports) < len(SETTINGS):  # free_port may hand out a port twice: one per part here
        port = free_port()
        if port not in ports:
            ports.append(port)
    env = {key: f"127.0.0.1:{port}" for key, port in zip(SETTINGS, ports)}
    env.update(overrides)
    env["ZTGATE_MESH__PKI_DIR"] = str(tmp_path / "pki")
    return load_settings(ZtgateConfig, None, environ=env), env


def test_every_address_up_listens_on_is_checked(tmp_path: Path) -> None:
    config, env = _config(tmp_path)
    checked = {listen.setting: listen.address
               for child in suite(config, None, tmp_path / "envoy.yaml") for listen in child.listens}
    assert checked == {setting: env[key] for key, setting in SETTINGS.items()}
    assert set(checked) == set(LISTEN_SETTINGS)  # the list harnesses give free ports to is complete
    assert set(listen_variables()) == set(SETTINGS)
    assert address_problems(suite(config, None, tmp_path / "envoy.yaml")) == []


@pytest.mark.parametrize("key", list(SETTINGS))
def test_an_address_in_use_is_named_with_its_setting(tmp_path: Path, key: str) -> None:
    config, env = _config(tmp_path)
    host, port = env[key].rsplit(":", 1)
    with socket.socket() as taken:
        taken.bind((host, int(port)))
        taken.listen()
        [problem] = address_problems(suite(config, None, tmp_path / "envoy.yaml"))
    assert problem.startswith(f"{env[key]} ({SETTINGS[key]}) is already in use")
    assert key in problem  # the variable that moves it


def test_one_address_for_two_parts_is_refused_naming_both(tmp_path: Path) -> None:
    shared = f"127.0.0.1:{free_port()}"
    config, _ = _config(tmp_path, ZTGATE_TELEMETRY__METRICS__LISTEN=shared,
                        ZTGATE_GATEWAY__ADMIN=shared)
    [problem] = address_problems(suite(config, None, tmp_path / "envoy.yaml"))
    assert problem.startswith(f"{shared} is set for both telemetry.metrics.listen and gateway.admin")


async def test_up_with_an_address_in_use_fails_before_starting_anything(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config, env = _config(tmp_path)
    host, port = env["ZTGATE_GATEWAY__ADMIN"].rsplit(":", 1)
    with socket.socket() as taken:
        taken.bind((host, int(port)))
        taken.listen()
        assert await run_suite(config, None) == 1
    out, err = capsys.readouterr()
    assert "gateway.admin" in err and "already in use" in err
    assert "nothing was started" in err and out == ""
    assert not (tmp_path / "pki").exists()  # not even the certificates were issued
