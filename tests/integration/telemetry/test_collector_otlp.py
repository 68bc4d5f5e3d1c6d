"""The collector over real gRPC: SDK exports reach /metrics, overload is refused and counted,
promtool accepts the exposition, forwarding is delivered or bounded."""

from __future__ import annotations

import asyncio
import logging
import subprocess

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from opentelemetry.proto.collector.logs.v1 import logs_service_pb2, logs_service_pb2_grpc
from opentelemetry.proto.collector.metrics.v1 import metrics_service_pb2_grpc
from opentelemetry.proto.logs.v1.logs_pb2 import LogRecord, ResourceLogs, ScopeLogs
from prometheus_client.parser import text_string_to_metric_families

from ztgate.common.server import ListenError
from ztgate.gen.telemetry.v1 import telemetry_pb2, telemetry_pb2_grpc
from ztgate.common import semconv
from ztgate_bench import otlp_synthetic as synthetic
from ztgate.telemetry.config import ForwardEndpoint
from ztgate.telemetry.otlp_receivers import SERVICE_NAMES
from ztgate.telemetry.retry_info import retry_delay
from ztgate.telemetry.server import build_collector

from telemetry_harness import SdkExporter, free_port, require_tool, running_collector, settings

pytestmark = pytest.mark.slow


def _samples(text: str) -> dict[tuple[str, frozenset], float]:
    out = {}
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            labels = {k: v for k, v in s.labels.items() if k not in ("job", "instance")}
            out[(s.name, frozenset(labels.items()))] = s.value
    return out


def _record_genai(meter) -> None:
    ttft = meter.create_histogram(semconv.TIME_TO_FIRST_TOKEN, unit="s",
                                  explicit_bucket_boundaries_advisory=semconv.LATENCY_BUCKETS_S)
    tokens = meter.create_histogram(semconv.TOKEN_USAGE, unit="{token}",
                                    explicit_bucket_boundaries_advisory=semconv.TOKEN_BUCKETS)
    draft = meter.create_counter(semconv.SPEC_DRAFT_TOKENS, unit="{token}")
    accepted = meter.create_counter(semconv.SPEC_ACCEPTED_TOKENS, unit="{token}")
    findings = meter.create_counter(semconv.REDACTION_FINDINGS, unit="{finding}")
    blocked = meter.create_counter(semconv.BLOCKED_REQUESTS, unit="{request}")
    rpc = meter.create_histogram(semconv.RPC_SERVER_DURATION, unit="ms",
                                 explicit_bucket_boundaries_advisory=semconv.RPC_BUCKETS_MS)
    score = meter.create_histogram(
        semconv.HALLUCINATION_SCORE, unit="1",
        explicit_bucket_boundaries_advisory=semconv.UNIT_INTERVAL_BUCKETS)
    attrs = {semconv.REQUEST_MODEL: "qwen", semconv.OPERATION_NAME: "chat",
             semconv.INSTANCE: "primary", semconv.TENANT: "acme"}
    for value in (0.05, 0.3, 0.9, 1.5):
        ttft.record(value, attrs)
    tokens.record(12, {**attrs, semconv.TOKEN_TYPE: "input"})
    tokens.record(300, {**attrs, semconv.TOKEN_TYPE: "output"})
    draft.add(40, attrs)
    accepted.add(30, attrs)
    findings.add(2, {semconv.ENTITY_TYPE: "EMAIL_ADDRESS", semconv.ACTION: "pseudonymize",
                     semconv.TENANT: "acme"})
    blocked.add(1, {semconv.BLOCK_REASON: "policy", semconv.TENANT: "acme"})
    rpc.record(12.0, {"rpc.system": "grpc", "rpc.service": "ztgate.inference.v1.Inference",
                      "rpc.method": "Generate", "rpc.grpc.status_code": 0})
    score.record(0.2, attrs)


async def test_collector_serves_health_and_reflection_for_every_service_once_ready() -> None:
    async with running_collector(settings()) as c:
        async with grpc.aio.insecure_channel(c.endpoint) as channel:
            health = health_pb2_grpc.HealthStub(channel)
            for name in ("", *SERVICE_NAMES):
                response = await health.Check(health_pb2.HealthCheckRequest(service=name))
                assert response.status == health_pb2.HealthCheckResponse.SERVING, name
            refl = reflection_pb2_grpc.ServerReflectionStub(channel)
            responses = refl.ServerReflectionInfo(
                iter([reflection_pb2.ServerReflectionRequest(list_services="")]))
            names = {s.name async for r in responses for s in r.list_services_response.service}
            assert set(SERVICE_NAMES) <= names


async def test_sdk_exported_genai_metrics_appear_at_metrics_with_their_values() -> None:
    async with running_collector(settings()) as c:
        sdk = SdkExporter(c.endpoint, "ztgate-inference")
        _record_genai(sdk.meter)
        await sdk.flush()
        text = await c.wait_for_text(lambda t: "ztgate_hallucination_score_count" in t)
        await sdk.close()
    s = _samples(text)
    base = {("gen_ai_request_model", "qwen"), ("gen_ai_operation_name", "chat"),
            ("ztgate_instance", "primary"), ("ztgate_tenant", "acme")}
    ttft = "gen_ai_server_time_to_first_token_seconds"
    assert s[(f"{ttft}_count", frozenset(base))] == 4
    assert s[(f"{ttft}_bucket", frozenset(base | {("le", "1.2")}))] == 3
    assert s[(f"{ttft}_sum", frozenset(base))] == pytest.approx(2.75)
    out = frozenset(base | {("gen_ai_token_type", "output")})
    assert s[("gen_ai_client_token_usage_sum", out)] == 300
    assert s[("ztgate_spec_decode_draft_tokens_total", frozenset(base))] == 40
    assert s[("ztgate_spec_decode_accepted_tokens_total", frozenset(base))] == 30
    assert s[("ztgate_redaction_findings_total", frozenset(
        {("ztgate_entity_type", "EMAIL_ADDRESS"), ("ztgate_action", "pseudonymize"),
         ("ztgate_tenant", "acme")}))] == 2
    assert s[("ztgate_blocked_requests_total", frozenset(
        {("ztgate_block_reason", "policy"), ("ztgate_tenant", "acme")}))] == 1
    rpc = frozenset({("rpc_system", "grpc"), ("rpc_service", "ztgate.inference.v1.Inference"),
                     ("rpc_method", "Generate"), ("rpc_grpc_status_code", "0")})
    assert s[("rpc_server_duration_seconds_sum", rpc)] == pytest.approx(0.012)


async def test_exposition_passes_promtool_check_metrics() -> None:
    promtool = require_tool("promtool")
    async with running_collector(settings(max_series_per_metric=3)) as c:
        sdk = SdkExporter(c.endpoint, "ztgate-inference")
        _record_genai(sdk.meter)
        await sdk.flush()
        await sdk.close()
        # Enough tenants to overflow the cap, so the `other` series is checked too.
        c.collector.offer("metrics", synthetic.request([synthetic.sum_metric(
            semconv.BLOCKED_REQUESTS, "{request}",
            [({semconv.TENANT: f"t{i}"}, 1.0) for i in range(6)], synthetic.DELTA)]), 6)
        text = await c.wait_for_text(lambda t: 'ztgate_tenant="other"' in t
                                     and "ztgate_hallucination_score_count" in t)
    result = subprocess.run([promtool, "check", "metrics"], input=text, capture_output=True,
                            text=True, timeout=30)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "" and result.stderr.strip() == ""


def _burst(endpoint: str, payload: bytes, count: int) -> list[grpc.RpcError | None]:
    """Fires `count` exports at once from a plain gRPC client (another thread, pre-serialized),
    so that they arrive faster than the collector aggregates, and waits for every answer."""
    with grpc.insecure_channel(endpoint) as channel:
        export = channel.unary_unary(
            "/opentelemetry.proto.collector.metrics.v1.MetricsService/Export")
        futures = [export.future(payload, timeout=60) for _ in range(count)]
        results: list[grpc.RpcError | None] = []
        for future in futures:
            try:
                future.result()
                results.append(None)
            except grpc.RpcError as exc:
                results.append(exc)
        return results


async def test_overload_is_refused_with_resource_exhausted_and_retry_info_and_counted() -> None:
    per_export, exports = 1_000, 100
    payload = synthetic.inference_load(per_export).SerializeToString()
    async with running_collector(settings(queue_size=3 * per_export,
                                          retry_delay_s=0.75)) as c:
        results = await asyncio.to_thread(_burst, c.endpoint, payload, exports)
        refused = [r for r in results if r is not None]
        assert refused, "no export was refused: the queue was never full"
        assert {r.code() for r in refused} == {grpc.StatusCode.RESOURCE_EXHAUSTED}
        assert {retry_delay(r.trailing_metadata()) for r in refused} == {0.75}
        assert "retry in 0.75 s" in refused[0].details()
        async with grpc.aio.insecure_channel(c.endpoint) as channel:
            status = await telemetry_pb2_grpc.TelemetryStub(channel).Status(
                telemetry_pb2.StatusRequest())
        assert status.dropped == len(refused) * per_export
        assert status.accepted == (exports - len(refused)) * per_export
        await c.wait_for_text(lambda t: "ztgate_telemetry_queue_depth 0.0" in t)
        text = await c.scrape()
    s = _samples(text)
    assert s[("ztgate_telemetry_refused_items_total", frozenset({("signal", "metrics")}))] \
        == len(refused) * per_export
    assert s[("ztgate_telemetry_processed_items_total", frozenset())] == status.accepted


async def test_forwarding_delivers_a_copy_to_an_upstream_collector() -> None:
    async with running_collector(settings()) as upstream:
        forward = [ForwardEndpoint(endpoint=upstream.endpoint, insecure=True,
                                   initial_backoff_s=0.05)]
        async with running_collector(settings(forward=forward)) as edge:
            sdk = SdkExporter(edge.endpoint, "ztgate-redaction")
            sdk.meter.create_counter(semconv.REDACTION_FINDINGS, unit="{finding}").add(
                5, {semconv.ENTITY_TYPE: "IBAN_CODE", semconv.ACTION: "redact"})
            await sdk.flush()
            await sdk.close()
            text = await upstream.wait_for_text(lambda t: "ztgate_redaction_findings_total{" in t)
            assert 'ztgate_entity_type="IBAN_CODE"' in text
            own = await edge.wait_for_text(
                lambda t: 'ztgate_telemetry_forward_sent_exports_total{upstream=' in t)
            assert "ztgate_telemetry_forward_buffer_bytes" in own


async def test_an_unreachable_upstream_costs_bounded_memory_and_never_the_collector() -> None:
    bound = 64 * 1024
    forward = [ForwardEndpoint(endpoint=f"127.0.0.1:{free_port()}", insecure=True,
                               max_buffer_bytes=bound, timeout_s=0.5, initial_backoff_s=0.05,
                               max_backoff_s=0.2)]
    payload = synthetic.inference_load(400)
    size = payload.ByteSize()
    async with running_collector(settings(forward=forward)) as c:
        forwarder = c.collector.forwarders[0]
        async with grpc.aio.insecure_channel(c.endpoint) as channel:
            stub = metrics_service_pb2_grpc.MetricsServiceStub(channel)
            for _ in range(3 * bound // size + 5):
                await stub.Export(payload, timeout=10)
                assert forwarder.buffered_bytes <= bound
            health = await health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=""))
        await c.wait_for_text(lambda t: "ztgate_telemetry_queue_depth 0.0" in t)
        assert forwarder.buffered_bytes <= bound
        assert forwarder.dropped_overflow > 0 and forwarder.sent == 0
        assert health.status == health_pb2.HealthCheckResponse.SERVING


async def test_evaluation_events_are_logged_and_counted(caplog) -> None:
    record = LogRecord(event_name=semconv.EVALUATION_EVENT, attributes=synthetic.key_values({
        semconv.EVALUATION_NAME: "hallucination", semconv.EVALUATION_SCORE: 0.25}))
    request = logs_service_pb2.ExportLogsServiceRequest(resource_logs=[ResourceLogs(
        scope_logs=[ScopeLogs(log_records=[record, LogRecord(event_name="other")])])])
    caplog.set_level(logging.INFO, logger="ztgate.telemetry.otlp_signals")
    async with running_collector(settings()) as c:
        async with grpc.aio.insecure_channel(c.endpoint) as channel:
            await logs_service_pb2_grpc.LogsServiceStub(channel).Export(request, timeout=5)
        text = await c.wait_for_text(lambda t: "ztgate_evaluation_events_total{" in t)
    assert 'gen_ai_evaluation_name="hallucination"} 1.0' in text
    assert any("gen_ai.evaluation.result hallucination score=0.2500" in r.getMessage()
               for r in caplog.records)


def test_metrics_listen_off_loopback_without_tls_is_refused() -> None:
    with pytest.raises(ListenError, match="without TLS"):
        build_collector(settings(metrics={"listen": "0.0.0.0:9464"}))
