"""`ztgate serve`'s flags go through the same loader as ZTGATE_* variables: validated as the key they
set, refused with a message naming the flag, and equal to setting that key."""

from __future__ import annotations

import pytest

from ztgate.cli import build_parser, config_from, serve_flags
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
    config = config_from(args, serve_flags(args))
    through_env = load_settings(ZtgateConfig, None, environ={
        "ZTGATE_" + key.upper().replace(".", "__"): value})
    assert config == through_env


def test_a_flag_for_another_service_is_ignored() -> None:
    assert serve_flags(_args("redaction", "--speculative", "ngram", "--metrics-listen", "127.0.0.1:1")) == {}


def test_an_invalid_flag_is_refused_naming_the_flag_and_its_key(monkeypatch) -> None:
    monkeypatch.delenv("ZTGATE_CONFIG", raising=False)
    args = _args("redaction", "--listen", "127.0.0.1")  # no port
    with pytest.raises(ConfigError) as refused:
        config_from(args, serve_flags(args))
    assert "redaction.server.listen: Value error, '127.0.0.1' must be HOST:PORT" in str(refused.value)
    assert "--listen 127.0.0.1 sets redaction.server.listen" in str(refused.value)


@pytest.mark.parametrize(("argv", "key", "value"), [
    (("redaction", "--listen", "127.0.0.1"), "redaction.server.listen", "127.0.0.1"),
    (("telemetry", "--metrics-listen", "127.0.0.1:99999"), "telemetry.metrics.listen", "127.0.0.1:99999"),
    (("openai-adapter", "--listen", "10.0.0.1:8090"), "openai_adapter.listen", "10.0.0.1:8090"),
    (("inference", "--instance", "fallback", "--listen", "nohostport"), "inference.fallback.server.listen",
     "nohostport"),
])
def test_an_invalid_flag_is_refused_with_the_same_message_as_its_variable(monkeypatch, argv, key, value) -> None:
    monkeypatch.delenv("ZTGATE_CONFIG", raising=False)
    args = _args(*argv)
    with pytest.raises(ConfigError) as by_flag:
        config_from(args, serve_flags(args))
    with pytest.raises(ConfigError) as by_variable:
        load_settings(ZtgateConfig, None, environ={"ZTGATE_" + key.upper().replace(".", "__"): value})
    # The same reasons, key by key; the flag's message adds the flag that set the key.
    flag_lines, variable_lines = str(by_flag.value).splitlines(), str(by_variable.value).splitlines()
    assert flag_lines[1:len(variable_lines)] == variable_lines[1:] and len(variable_lines) > 1
    assert flag_lines[-1] == f"  (from the command line: {argv[-2]} {value} sets {key})"
