"""`ztgate serve`'s flags go through the same loader as ZTGATE_* variables: validated as the key they
set, refused with a message naming the flag, and equal to setting that key."""

from __future__ import annotations

import pytest

from ztgate.cli import _config, build_parser, serve_flags
from ztgate.common.config import ConfigError, load_settings
from ztgate.config import ZtgateConfig


def _args(*argv: str):
    return build_parser().parse_args(["serve", *argv])


@pytest.mark.parametrize(("argv", "key", "value"), [
    (("redaction", "--listen", "127.0.0.1:6001"), "redaction.server.listen", "127.0.0.1:6001"),
    (("telemetry", "--metrics-listen", "127.0.0.1:6002"), "telemetry.metrics.listen", "127.0.0.1:6002"),
    (("openai-adapter", "--listen", "127.0.0.1:6003"), "openai_adapter.listen", "127.0.0.1:6003"),
    (("inference", "--instance", "fallback", "--listen", "127.0.0.1:6004"),
     "inference.fallback.server.listen", "127.0.0.1:6004"),
    (("inference", "--speculative", "ngram"), "inference.primary.speculative.method", "ngram"),
    (("inference", "--instance", "fallback", "--parity", "fast"), "inference.fallback.parity", "fast"),
])
def test_a_flag_sets_the_key_it_names(monkeypatch, argv, key, value) -> None:
    monkeypatch.delenv("ZTGATE_CONFIG", raising=False)
    args = _args(*argv)
    assert {k: v for k, (_, v) in serve_flags(args).items()} == {key: value}
    config = _config(args, serve_flags(args))
    through_env = load_settings(ZtgateConfig, None, environ={
        "ZTGATE_" + key.upper().replace(".", "__"): value})
    assert config == through_env


def test_a_flag_for_another_service_is_ignored() -> None:
    assert serve_flags(_args("redaction", "--speculative", "ngram", "--metrics-listen", "127.0.0.1:1")) == {}


def test_an_invalid_flag_is_refused_naming_the_flag_and_its_key(monkeypatch) -> None:
    monkeypatch.delenv("ZTGATE_CONFIG", raising=False)
    args = _args("redaction", "--listen", "127.0.0.1")  # no port
    with pytest.raises(ConfigError) as refused:
        _config(args, serve_flags(args))
    assert "redaction.server.listen: Value error, '127.0.0.1' must be HOST:PORT" in str(refused.value)
    assert "--listen 127.0.0.1 sets redaction.server.listen" in str(refused.value)
