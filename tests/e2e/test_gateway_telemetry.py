"""Telemetry through the real gateway: one trace from Envoy through redaction and inference, and
calls that never wait on a collector that is stopped or dead.

One suite per module, all real processes: the telemetry collector (`ztgate serve telemetry`), the
redaction service, the inference service (`ztgate serve inference`, transformers engine, the
default model) as primary and fallback, and Envoy with the bootstrap `ztgate envoy-config`
renders, tracing on. Every service's OTel SDK and Envoy's tracer export to the collector.

The collector only counts spans, so it forwards its traces (`telemetry.forward`) to
`RecordingTraces`, a BOUNDARY RECORDER written here: an OTLP TraceService that keeps what crossed
the collector's forwarding boundary, so the test can read the spans. Nothing in the path is a fake.

The redaction service's own metrics (ztgate/redaction/metrics.py) go the same way, from its OTel
runtime to the collector's Prometheus exposition, which is read back and checked with promtool.

The collector is then frozen (SIGSTOP: connections are accepted by the kernel and never answered,
the hard case for an exporter) and finally killed (port closed); both are injected faults.
"""

from __future__ import annotations

import asyncio
import shutil
import signal
import statistics
import subprocess
import time
import urllib.request
from collections.abc import AsyncIterator
from dataclasses import dataclass

import grpc
import pytest
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc
from prometheus_client.parser import text_string_to_metric_families

from ztgate.common.config import load_settings
from ztgate.config import ZtgateConfig
from ztgate.gateway.envoy_config import GATEWAY_SERVICE_NAME
from ztgate.serve import render_envoy
from ztgate.gateway.envoy_process import envoy_argv
from ztgate.gen.inference.v1 import inference_pb2 as ipb
from tests.e2e.gateway_suite import wait_for
from tests.procs import Child, admin_get, compiled_cache_dir, free_port, spawn, spawn_service, wait_serving
from tests.suite_pki import PLAINTEXT

pytestmark = pytest.mark.slow

INFERENCE = "ztgate.inference.v1.Inference"
EXT_PROC = "envoy.service.ext_proc.v3.ExternalProcessor"
# The client's trace: Envoy, redaction and inference spans must all carry this id.
TRACE_ID = "5ca1ab1e0ddba11c0ffee000d1ce5eed"
CLIENT_SPAN_ID = "feedfacecafebeef"
EMAIL = "maria.gonzalez@example.com"
# Values only the redaction-metrics test sends, so that its counts are its own.
AWS_KEY = "AKIAZ7Q3XH2LMN4PQ5RS"
PHONE = "+1 415 555 0134"
# Seconds the services' OTLP exporters wait on the collector (the SDK's default, said explicitly).
EXPORTER_TIMEOUT_S = 10
# Seconds each phase of calls lasts at least: several export rounds of every exporter.
PHASE_S = 7.0
# Export often, so that each faulty phase spans many export attempts of every kind.
OTEL_ENV = {"ZTGATE_OTEL__ENABLED": "true", "ZTGATE_OTEL__EXPORT_INTERVAL_S": "0.5",
            "OTEL_BSP_SCHEDULE_DELAY": "250",
            "OTEL_EXPORTER_OTLP_TIMEOUT": str(EXPORTER_TIMEOUT_S)}


@dataclass
class Span:
    service: str
    name: str
    trace_id: str
    span_id: str
    parent_id: str


class RecordingTraces(trace_service_pb2_grpc.TraceServiceServicer):
    """BOUNDARY RECORDER: an OTLP TraceService that keeps every span (and the raw exports)
    the collector forwards to it."""

    def __init__(self) -> None:
        self.spans: list[Span] = []
        self.raw: list[bytes] = []
        self.server = grpc.aio.server()
        trace_service_pb2_grpc.add_TraceServiceServicer_to_server(self, self.server)
        self.port = self.server.add_insecure_port("127.0.0.1:0")

    async def Export(self, request: trace_service_pb2.ExportTraceServiceRequest, context):
        self.raw.append(request.SerializeToString())
        for rs in request.resource_spans:
            service = next((a.value.string_value for a in rs.resource.attributes
                            if a.key == "service.name"), "")
            for ss in rs.scope_spans:
                self.spans.extend(Span(service, s.name, s.trace_id.hex(), s.span_id.hex(),
                                       s.parent_span_id.hex()) for s in ss.spans)
        return trace_service_pb2.ExportTraceServiceResponse()

    def trace(self, trace_id: str) -> list[Span]:
        return [s for s in self.spans if s.trace_id == trace_id]


@dataclass
class Suite:
    collector: Child
    redaction: Child
    inference: Child
    envoy: Child
    recorder: RecordingTraces
    gateway: str
    admin: str
    # The collector's Prometheus exposition (host:port).
    metrics: str


@pytest.fixture(scope="module")
async def suite(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Suite]:
    logs = tmp_path_factory.mktemp("telemetry_e2e")
    recorder = RecordingTraces()
    await recorder.server.start()
    collector_address = f"127.0.0.1:{free_port()}"
    inference_address = f"127.0.0.1:{free_port()}"
    redaction_address = f"127.0.0.1:{free_port()}"
    otel = {**OTEL_ENV, "ZTGATE_OTEL__ENDPOINT": collector_address}
    env = {**otel,
           "ZTGATE_GATEWAY__LISTEN": f"127.0.0.1:{free_port()}",
           "ZTGATE_GATEWAY__ADMIN": f"127.0.0.1:{free_port()}",
           "ZTGATE_GATEWAY__HEALTH_INTERVAL_S": "0.5",
           # A loaded CPU may take more than the default 1.2 s to a first token; one try per call
           # keeps one router span per trace.
           "ZTGATE_GATEWAY__INFERENCE__PER_TRY_TIMEOUT_S": "60",
           "ZTGATE_GATEWAY__INFERENCE__PER_TRY_TIMEOUT_MAX_S": "60",
           "ZTGATE_GATEWAY__INFERENCE__STREAM_IDLE_TIMEOUT_S": "120",
           "ZTGATE_GATEWAY__INFERENCE__RETRIES": "0",
           # One inference process serves both routes: this suite is about telemetry, not failover.
           "ZTGATE_INFERENCE__PRIMARY__SERVER__LISTEN": inference_address,
           "ZTGATE_INFERENCE__FALLBACK__SERVER__LISTEN": inference_address,
           "ZTGATE_REDACTION__SERVER__LISTEN": redaction_address, **PLAINTEXT}
    metrics_address = f"127.0.0.1:{free_port()}"
    collector = spawn_service("telemetry", "telemetry", collector_address, logs, env={
        "ZTGATE_TELEMETRY__METRICS__LISTEN": metrics_address,
        "ZTGATE_TELEMETRY__SLO__ENABLED": "false",
        "ZTGATE_TELEMETRY__FORWARD":
            f"[{{endpoint: '127.0.0.1:{recorder.port}', insecure: true, signals: [traces]}}]"})
    # The redaction service reads the gateway's settings too (the per-try timeout it sets on each
    # call is the gateway's first-token budget), as under `ztgate up`.
    redaction = spawn_service("redaction", "redaction", redaction_address, logs, env={
        **env, "ZTGATE_REDACTION__WORKERS": "1", "ZTGATE_CACHE_DIR": str(compiled_cache_dir())})
    # The primary ends a try at the gateway's first-token budget itself (docs/adr/0008): it reads the
    # same loose budget as Envoy, so a loaded CPU slows this suite's calls without failing them.
    budget = {k: v for k, v in env.items() if k.startswith("ZTGATE_GATEWAY__INFERENCE__PER_TRY")}
    inference = spawn_service("inference", "inference", inference_address, logs, env={
        **otel, **budget, "ZTGATE_INFERENCE__PRIMARY__ENGINE": "transformers",
        "ZTGATE_INFERENCE__PRIMARY__SPECULATIVE__METHOD": "none",
        "ZTGATE_INFERENCE__PRIMARY__BACKGROUND_SCORING": "false",
        "ZTGATE_INFERENCE__FALLBACK__BACKGROUND_SCORING": "false"})
    bootstrap = logs / "envoy.yaml"
    bootstrap.write_text(render_envoy(load_settings(ZtgateConfig, None, environ=env)))
    envoy = spawn("envoy", envoy_argv(bootstrap), logs)
    suite = Suite(collector, redaction, inference, envoy, recorder, env["ZTGATE_GATEWAY__LISTEN"],
                  env["ZTGATE_GATEWAY__ADMIN"], metrics_address)
    try:
        await asyncio.to_thread(wait_serving, collector, collector_address,
                                "opentelemetry.proto.collector.trace.v1.TraceService")
        await asyncio.to_thread(wait_serving, redaction, redaction_address, EXT_PROC, 300)
        await asyncio.to_thread(wait_serving, inference, inference_address, INFERENCE, 300)

        def healthy() -> bool:
            clusters = admin_get(suite.admin, "/clusters")
            return all(f"{name}::{address}::health_flags::healthy" in clusters for name, address in [
                ("redaction", redaction_address), ("inference_primary", inference_address)])

        await asyncio.to_thread(wait_for, healthy, "Envoy sees every upstream healthy", 60.0, envoy)
        yield suite
    finally:
        # The collector goes first (it may be frozen): the services' final exports then fail fast.
        collector.stop(signal.SIGKILL)
        for child in (envoy, inference, redaction):
            child.stop()
        await recorder.server.stop(0)



def _request(prompt: str) -> ipb.GenerateRequest:
    return ipb.GenerateRequest(messages=[ipb.ChatMessage(role="user", content=prompt)],
                               sampling=ipb.SamplingParams(temperature=0, max_tokens=2))


async def test_one_trace_runs_from_the_clients_traceparent_through_envoy_redaction_and_inference(
        suite: Suite, stub) -> None:
    traceparent = f"00-{TRACE_ID}-{CLIENT_SPAN_ID}-01"
    answer = await stub.Generate(_request(f"Say hello to {EMAIL}"),
                                 metadata=(("traceparent", traceparent),), timeout=60)
    assert answer.served_by == "primary" and answer.usage.completion_tokens > 0

    def by(service: str, name: str) -> list[Span]:
        return [s for s in suite.recorder.trace(TRACE_ID) if s.service == service and name in s.name]

    def complete() -> bool:
        return bool(by(GATEWAY_SERVICE_NAME, "ingress") and by("ztgate-redaction", "/Process")
                    and by("ztgate-inference-primary", "/Generate"))

    # Envoy flushes its spans every 5 s; the services within a second.
    await asyncio.to_thread(wait_for, complete, f"spans of trace {TRACE_ID} from Envoy, redaction and inference", 60.0)
    [ingress] = by(GATEWAY_SERVICE_NAME, "ingress")
    assert ingress.parent_id == CLIENT_SPAN_ID  # Envoy continued the client's trace
    [ext_proc] = by(GATEWAY_SERVICE_NAME, EXT_PROC)
    [router] = by(GATEWAY_SERVICE_NAME, "router")
    assert ext_proc.parent_id == router.parent_id == ingress.span_id
    # Envoy passes its ext_proc span on the Process stream's metadata: redaction's span is its child.
    [processed] = by("ztgate-redaction", f"/{EXT_PROC}/Process")
    assert processed.parent_id == ext_proc.span_id
    # The upstream try's span is the parent of the inference server's span.
    [generated] = by("ztgate-inference-primary", f"/{INFERENCE}/Generate")
    assert generated.parent_id == router.span_id
    # No prompt text leaves in a span.
    assert not any(EMAIL.encode() in raw or b"Say hello" in raw for raw in suite.recorder.raw)


def _scrape(metrics: str) -> str:
    with urllib.request.urlopen(f"http://{metrics}/metrics", timeout=5) as response:  # noqa: S310
        return response.read().decode()


def _redaction_samples(text: str) -> dict[tuple[str, frozenset], float]:
    """The redaction service's samples in an exposition: (name, its own labels) -> value (the
    resource's `job` and `instance` left out)."""
    return {(sample.name, frozenset((k, v) for k, v in sample.labels.items()
                                    if k not in ("job", "instance"))): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples
            if sample.labels.get("job") == "ztgate-redaction"}


async def test_redaction_metrics_reach_the_collectors_prometheus_exposition(suite: Suite, stub) -> None:
    """Findings of a scrubbed prompt by type, action, tier, path and tenant; the scrub times of the
    prompt and of the answer; a refused call by status; promtool accepts the exposition, and neither
    a value nor a session id is in it."""
    answer = await stub.Generate(_request(f"Call {PHONE} about the key {AWS_KEY}"), timeout=60)
    assert answer.usage.completion_tokens > 0
    too_many_stops = ipb.GenerateRequest(prompt="hi", sampling=ipb.SamplingParams(
        max_tokens=2, stop=[f"s{i}" for i in range(9)]))  # limits.max_stop_sequences is 8
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await stub.Generate(too_many_stops, timeout=60)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT

    def finding(entity: str, action: str) -> tuple[str, frozenset]:
        return ("ztgate_redaction_findings_total", frozenset({
            ("ztgate_entity_type", entity), ("ztgate_action", action), ("ztgate_redaction_tier", "pattern"),
            ("ztgate_redaction_path", "gateway_request"), ("ztgate_tenant", "default")}))

    def duration_count(path: str) -> tuple[str, frozenset]:
        return ("ztgate_redaction_duration_seconds_count", frozenset({
            ("ztgate_redaction_path", path), ("ztgate_tenant", "default")}))

    refusals = ("ztgate_redaction_refusals_total", frozenset({
        ("ztgate_grpc_status", "INVALID_ARGUMENT"), ("ztgate_redaction_path", "gateway_request"),
        ("ztgate_tenant", "default")}))
    # The phone number reached the model as a stand-in (chat's default, ADR 0007): counted as `surrogate`.
    wanted = [finding("PHONE_NUMBER", "surrogate"), finding("AWS_ACCESS_KEY_ID", "redact"),
              duration_count("gateway_request"), duration_count("gateway_answer"), refusals]

    samples: dict[tuple[str, frozenset], float] = {}
    deadline = time.monotonic() + 30
    while not all(samples.get(key, 0) >= 1 for key in wanted):
        assert time.monotonic() < deadline, (f"not in the collector's exposition within 30 s: "
                                             f"{[k for k in wanted if k not in samples]}; it has {samples}")
        await asyncio.sleep(0.5)
        text = await asyncio.to_thread(_scrape, suite.metrics)
        samples = _redaction_samples(text)
    assert samples[finding("PHONE_NUMBER", "surrogate")] == samples[finding("AWS_ACCESS_KEY_ID", "redact")] == 1
    assert samples[refusals] == 1
    assert "# TYPE ztgate_redaction_duration_seconds histogram" in text
    check = subprocess.run([shutil.which("promtool") or "promtool", "check", "metrics"],
                           input=text, capture_output=True, text=True, timeout=30)
    assert check.returncode == 0, check.stdout + check.stderr
    assert not [value for value in (EMAIL, AWS_KEY, PHONE, "415 555") if value in text]


@dataclass
class Timed:
    # Wall time of the call at the client, and the part of it the engine did not spend generating
    # (Envoy, ext_proc and redaction, the services' interceptors, the network): the engine's own
    # time follows the machine's load, the overhead is where a wait on telemetry would show.
    wall_s: float
    overhead_s: float


async def _timed_calls(stub, min_calls: int = 6, min_phase_s: float = PHASE_S) -> list[Timed]:
    """Sequential calls through the gateway for at least `min_phase_s` (several export rounds of
    every exporter, Envoy's 5 s flush included); each must succeed."""
    calls: list[Timed] = []
    phase_started = time.perf_counter()
    while len(calls) < min_calls or time.perf_counter() - phase_started < min_phase_s:
        started = time.perf_counter()
        answer = await stub.Generate(_request(f"Count to three, take {len(calls)}."), timeout=120)
        wall = time.perf_counter() - started
        assert answer.usage.completion_tokens > 0 and answer.timings.total_ms > 0
        calls.append(Timed(wall, wall - answer.timings.total_ms / 1000))
        await asyncio.sleep(0.2)
    return calls


def _otlp_export_stats(admin: str) -> dict[str, int]:
    """Envoy's counters of its span exports (the otel_collector cluster)."""
    stats = admin_get(admin, "/stats?filter=^cluster\\.otel_collector\\.upstream_(rq|cx)_")
    return {line.split(":")[0].rsplit(".", 1)[-1]: int(line.split(":")[1])
            for line in stats.strip().splitlines() if line.split(":")[1].strip().isdigit()}


async def test_calls_do_not_wait_on_a_stopped_or_dead_collector(suite: Suite, stub) -> None:
    """Loose bounds on purpose (a shared machine): a call that waited on an exporter would lose
    seconds (Envoy's export timeout is 1 s, the services' 10 s) where the overhead is milliseconds."""
    await _timed_calls(stub, 2, 0)  # warm
    running = await _timed_calls(stub)
    suite.collector.process.send_signal(signal.SIGSTOP)
    await asyncio.sleep(1.0)  # exporters now find a collector that accepts and never answers
    before = _otlp_export_stats(suite.admin)
    stopped = await _timed_calls(stub)
    after_stopped = _otlp_export_stats(suite.admin)
    suite.collector.process.send_signal(signal.SIGKILL)
    suite.collector.process.wait(10)
    await asyncio.sleep(1.0)
    dead = await _timed_calls(stub)
    after_dead = _otlp_export_stats(suite.admin)
    # The faults were real: the collector answered Envoy's exports while it ran, Envoy sent more to
    # the frozen collector and none was answered, then it found the port closed.
    assert after_stopped["upstream_rq_total"] > before["upstream_rq_total"], (before, after_stopped)
    # (2xx: answered; "completed" would also count an export that timed out or was reset.)
    assert before.get("upstream_rq_2xx", 0) > 0, before
    assert after_stopped.get("upstream_rq_2xx", 0) == before.get("upstream_rq_2xx", 0), (before, after_stopped)
    assert after_dead["upstream_cx_connect_fail"] > after_stopped["upstream_cx_connect_fail"], after_dead
    baseline = statistics.median(c.overhead_s for c in running)
    for name, calls in (("stopped", stopped), ("dead", dead)):
        overheads = [c.overhead_s for c in calls]
        assert statistics.median(overheads) < 3 * baseline + 0.2, (name, baseline, overheads)
        assert max(overheads) < EXPORTER_TIMEOUT_S / 2, (name, overheads)
    for child in (suite.redaction, suite.inference, suite.envoy):
        assert child.process.poll() is None, child.log()[-3000:]
