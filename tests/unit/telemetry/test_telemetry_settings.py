"""The telemetry section: design defaults, and hysteresis that cannot be configured backwards."""

import pytest

from ztgate.common.config import ConfigError, load_settings
from ztgate.config import ZtgateConfig


def test_defaults_match_design_ports_and_slo() -> None:
    t = load_settings(ZtgateConfig, None, environ={}).telemetry
    assert t.server.listen == "127.0.0.1:4317"
    assert t.metrics.listen == "127.0.0.1:9464"
    assert t.slo.envoy_admin is None  # read only where reachable: `ztgate up` sets it
    assert t.slo.rtds_layer == "ztgate_slo"
    assert t.slo.runtime_key == "ztgate.inference.primary_percent"
    assert (t.slo.ttft_trip_ms, t.slo.ttft_recover_ms) == (1200.0, 800.0)
    assert t.forward == []


def test_compose_and_kubernetes_can_leave_envoys_admin_unset() -> None:
    t = load_settings(ZtgateConfig, None, environ={
        "ZTGATE_TELEMETRY__SLO__ENVOY_ADMIN": "null"}).telemetry
    assert t.slo.envoy_admin is None


def test_env_override_reaches_slo_keys() -> None:
    t = load_settings(ZtgateConfig, None, environ={"ZTGATE_TELEMETRY__SLO__MIN_SAMPLES": "5",
                                                   "ZTGATE_TELEMETRY__QUEUE_SIZE": "10"}).telemetry
    assert t.slo.min_samples == 5 and t.queue_size == 10


@pytest.mark.parametrize("content, fragment", [
    ("telemetry:\n  slo:\n    ttft_recover_ms: 1500\n", "ttft_recover_ms must be below"),
    ("telemetry:\n  slo:\n    tpot_trip_ms: 50\n", "set both tpot_trip_ms"),
    ("telemetry:\n  slo:\n    fallback_percent: 100\n", "fallback_percent must be below"),
    ("telemetry:\n  queue_size: 0\n", "telemetry.queue_size"),
    ("telemetry:\n  forward:\n  - endpont: x:1\n", "telemetry.forward.0.endpont: unknown key"),
    ("telemetry:\n  forward:\n  - endpoint: x:1\n    signals: [spans]\n", "signals"),
])
def test_invalid_telemetry_settings_stop_start_up_naming_the_key(tmp_path, content, fragment):
    path = tmp_path / "ztgate.yaml"
    path.write_text(content)
    with pytest.raises(ConfigError) as info:
        load_settings(ZtgateConfig, path, environ={})
    assert fragment in str(info.value)
