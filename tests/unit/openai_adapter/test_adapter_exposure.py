"""What the HTTP door's own listeners may expose: the adapter only on loopback (it serves plaintext
and checks no token; Envoy does both before it), and an upstream's API key only over TLS off
loopback. Each unsafe setting stops start-up with a message naming it: at config load, and again
when `ztgate serve openai-adapter --listen` bypasses the file, tried by starting the real command."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from ztgate.common.config import ConfigError, load_settings
from ztgate.config import ZtgateConfig


@pytest.mark.parametrize("listen, refused", [
    ("127.0.0.1:8090", False), ("[::1]:8090", False), ("localhost:8090", False),
    ("0.0.0.0:8090", True), ("[::]:8090", True), ("10.0.0.5:8090", True), ("adapter.example:8090", True),
])
def test_the_adapter_listens_on_loopback_only(listen: str, refused: bool) -> None:
    environ = {"ZTGATE_OPENAI_ADAPTER__LISTEN": listen}
    if refused:
        with pytest.raises(ConfigError, match="openai_adapter.listen"):
            load_settings(ZtgateConfig, None, environ=environ)
        # Off, it may say anything: nothing listens there.
        load_settings(ZtgateConfig, None, environ={**environ, "ZTGATE_OPENAI_ADAPTER__ENABLED": "false"})
    else:
        assert load_settings(ZtgateConfig, None, environ=environ).openai_adapter.listen == listen


def _upstream(base_url: str) -> dict[str, str]:
    return {"ZTGATE_GATEWAY__OPENAI_UPSTREAMS": json.dumps([
        {"name": "hosted", "base_url": base_url, "models": ["m"], "api_key_env": "HOSTED_KEY"}])}


@pytest.mark.parametrize("base_url, refused", [
    ("https://api.example.com/v1", False), ("http://127.0.0.1:8000/v1", False),
    ("http://localhost:8000/v1", False), ("http://api.example.com/v1", True),
    ("http://10.0.0.7:8000/v1", True),
])
def test_an_upstream_api_key_travels_only_over_tls_off_loopback(base_url: str, refused: bool) -> None:
    if refused:
        with pytest.raises(ConfigError, match="openai upstream hosted.*https://"):
            load_settings(ZtgateConfig, None, environ=_upstream(base_url))
    else:
        load_settings(ZtgateConfig, None, environ=_upstream(base_url))


@pytest.mark.parametrize("argv, environ, named", [
    (["up"], {"ZTGATE_OPENAI_ADAPTER__LISTEN": "0.0.0.0:8090"}, "openai_adapter.listen"),
    (["up"], _upstream("http://api.example.com/v1"), "openai upstream hosted"),
    (["serve", "openai-adapter", "--listen", "0.0.0.0:8090"], {}, "openai_adapter.listen"),
])
def test_starting_with_an_unsafe_setting_is_refused_naming_it(argv: list[str], environ: dict[str, str],
                                                             named: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ZTGATE_")}
    result = subprocess.run([sys.executable, "-m", "ztgate.cli", *argv], env={**env, **environ},
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr[-2000:]
    assert named in result.stderr
