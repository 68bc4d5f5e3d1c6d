"""The config loader: file + ZTGATE_* overrides, and errors that name what to fix."""

from pathlib import Path

import pytest

from ztgate.common.config import ConfigError, env_overrides, load_settings
from ztgate.config import ZtgateConfig


def test_defaults_without_file_match_design_ports() -> None:
    config = load_settings(ZtgateConfig, None, environ={})
    assert config.redaction.server.listen == "127.0.0.1:50051"
    assert config.gateway.listen.endswith(":8080")
    assert config.gateway.admin == "127.0.0.1:9901"
    assert config.redaction.max_text_bytes == 1024 * 1024


def test_file_values_and_env_overrides_merge(tmp_path: Path) -> None:
    path = tmp_path / "ztgate.yaml"
    path.write_text("redaction:\n  workers: 3\n  server:\n    listen: 127.0.0.1:6001\n")
    config = load_settings(ZtgateConfig, path, environ={
        "ZTGATE_REDACTION__WORKERS": "1", "ZTGATE_OTEL__ENABLED": "true"})
    assert config.redaction.workers == 1
    assert config.redaction.server.listen == "127.0.0.1:6001"
    assert config.otel.enabled is True


def test_config_env_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "z.yaml"
    path.write_text("logging:\n  level: debug\n")
    config = load_settings(ZtgateConfig, None, environ={"ZTGATE_CONFIG": str(path)})
    assert config.logging.level == "debug"


@pytest.mark.parametrize("content, fragment", [
    ("redaction:\n  wokers: 2\n", "redaction.wokers: unknown key"),
    ("bogus: 1\n", "bogus: unknown key"),
    ("redaction:\n  workers: -1\n", "redaction.workers"),
    ("logging:\n  level: loud\n", "logging.level"),
    ("- a\n- b\n", "mapping at the top level"),
    ("redaction: [\n", "not valid YAML"),
])
def test_invalid_file_stops_with_message_naming_the_key(tmp_path: Path, content: str,
                                                        fragment: str) -> None:
    path = tmp_path / "ztgate.yaml"
    path.write_text(content)
    with pytest.raises(ConfigError, match=None) as info:
        load_settings(ZtgateConfig, path, environ={})
    assert fragment in str(info.value)


def test_unknown_env_override_is_an_error() -> None:
    with pytest.raises(ConfigError) as info:
        load_settings(ZtgateConfig, None, environ={"ZTGATE_REDACTION__NOPE": "1"})
    assert "redaction.nope: unknown key" in str(info.value)


def test_missing_explicit_file_is_an_error_not_defaults(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read configuration file"):
        load_settings(ZtgateConfig, tmp_path / "absent.yaml", environ={})


def test_env_overrides_parse_yaml_scalars() -> None:
    assert env_overrides({"ZTGATE_A__B": "2", "ZTGATE_A__C": "x:y", "OTHER": "1",
                          "ZTGATE_CONFIG": "f"}) == {"a": {"b": 2, "c": "x:y"}}


def test_one_key_of_an_instance_keeps_the_instance_defaults(tmp_path: Path) -> None:
    path = tmp_path / "ztgate.yaml"
    path.write_text("inference:\n  fallback:\n    max_inflight: 3\n")
    config = load_settings(ZtgateConfig, path, environ={
        "ZTGATE_INFERENCE__PRIMARY__SERVER__LISTEN": "127.0.0.1:7000"})
    assert config.inference.primary.server.listen == "127.0.0.1:7000"
    assert config.inference.primary.engine == "vllm" and config.inference.primary.name == "primary"
    assert config.inference.fallback.max_inflight == 3
    assert config.inference.fallback.engine == "transformers"
