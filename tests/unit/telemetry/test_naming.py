"""OTel metric and attribute names become the Prometheus names the dashboards query."""

import pytest

from ztgate.telemetry.naming import label_name, metric_name


@pytest.mark.parametrize("name, unit, kind, expected, factor", [
    ("gen_ai.client.token.usage", "{token}", "histogram", "gen_ai_client_token_usage", 1.0),
    ("gen_ai.server.request.duration", "s", "histogram", "gen_ai_server_request_duration_seconds",
     1.0),
    ("gen_ai.server.time_to_first_token", "s", "histogram",
     "gen_ai_server_time_to_first_token_seconds", 1.0),
    ("rpc.server.duration", "ms", "histogram", "rpc_server_duration_seconds", 1e-3),
    ("ztgate.spec_decode.draft_tokens", "{token}", "counter", "ztgate_spec_decode_draft_tokens",
     1.0),
    ("requests_total", "", "counter", "requests", 1.0),
    ("cache.hit_ratio", "1", "gauge", "cache_hit_ratio", 1.0),
    ("memory.usage", "By", "gauge", "memory_usage_bytes", 1.0),
    ("ztgate.hallucination.score", "1", "histogram", "ztgate_hallucination_score", 1.0),
    ("throughput", "{token}/s", "gauge", "throughput_per_second", 1.0),
    ("io", "By/s", "gauge", "io_bytes_per_second", 1.0),
    ("9lives", "", "gauge", "_9lives", 1.0),
])
def test_metric_names_follow_the_otel_prometheus_rules(name, unit, kind, expected, factor):
    assert metric_name(name, unit, kind) == (expected, factor)


@pytest.mark.parametrize("key, expected", [
    ("gen_ai.request.model", "gen_ai_request_model"),
    ("ztgate.instance", "ztgate_instance"),
    ("rpc.grpc.status_code", "rpc_grpc_status_code"),
    ("le", "otel_le"),
    ("__name__", "key__name__"),
    ("1st", "key_1st"),
    ("a-b/c", "a_b_c"),
])
def test_attribute_keys_become_valid_label_names(key, expected):
    assert label_name(key) == expected
