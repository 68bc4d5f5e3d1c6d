"""The SLO controller against a real Envoy.

Envoy routes /ztgate.inference.v1.Inference/* to the primary with a runtime_fraction on
`ztgate.inference.primary_percent` (default 100) and to the fallback otherwise. The two
upstreams are small gRPC servers written here (test doubles of the inference service) that
answer with their name after a delay the test sets, and record their time to first token
through the OpenTelemetry SDK with `ztgate.instance`, exported over OTLP to the collector as
the inference service does. A primary whose P99 TTFT exceeds 1,200 ms moves traffic to the
fallback; a primary that is fast again moves it back.
"""

from __future__ import annotations

import asyncio
import subprocess
import time
import urllib.request
from pathlib import Path

import grpc
import pytest

from services.gateway.envoy_process import envoy_argv
from services.gen.ztgate.inference.v1 import inference_pb2, inference_pb2_grpc
from services.common import semconv
from services.telemetry.config import SloSettings
from services.telemetry.envoy_admin import EnvoyRuntime

from telemetry_harness import (SdkExporter, free_port, require_tool, running_collector,
                               settings)

pytestmark = pytest.mark.slow
RUNTIME_KEY = "ztgate.inference.primary_percent"
# Seconds any one phase may take before the test fails (never a bound on how fast it must be).
WAIT_S = 45.0

BOOTSTRAP = """
admin:
  address: {{socket_address: {{address: 127.0.0.1, port_value: {admin}}}}}
layered_runtime:
  layers:
  - name: static
    static_layer: {{}}
  - name: admin
    admin_layer: {{}}
static_resources:
  listeners:
  - name: ingress
    address: {{socket_address: {{address: 127.0.0.1, port_value: {listen}}}}}
    filter_chains:
    - filters:
      - name: envoy.filters.network.http_connection_manager
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager
          stat_prefix: ingress
          codec_type: AUTO
          route_config:
            virtual_hosts:
            - name: ztgate
              domains: ["*"]
              routes:
              - match:
                  prefix: "/ztgate.inference.v1.Inference/"
                  runtime_fraction:
                    default_value:
                      numerator: 100
                      denominator: HUNDRED
                    runtime_key: {key}
                route: {{cluster: inference_primary, timeout: 20s}}
              - match: {{prefix: "/ztgate.inference.v1.Inference/"}}
                route: {{cluster: inference_fallback, timeout: 20s}}
          http_filters:
          - name: envoy.filters.http.router
            typed_config:
              "@type": type.googleapis.com/envoy.extensions.filters.http.router.v3.Router
  clusters:
{clusters}
"""

CLUSTER = """  - name: {name}
    type: STATIC
    connect_timeout: 1s
    typed_extension_protocol_options:
      envoy.extensions.upstreams.http.v3.HttpProtocolOptions:
        "@type": type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions
        explicit_http_config: {{http2_protocol_options: {{}}}}
    load_assignment:
      cluster_name: {name}
      endpoints:
      - lb_endpoints:
        - endpoint: {{address: {{socket_address: {{address: 127.0.0.1, port_value: {port}}}}}}}
"""


class InferenceDouble(inference_pb2_grpc.InferenceServicer):
    """Answers Generate with its name after `delay_s`, and records that wait as its TTFT."""

    def __init__(self, name: str, collector_endpoint: str) -> None:
        self.name = name
        self.delay_s = 0.02
        self.sdk = SdkExporter(collector_endpoint, f"ztgate-inference-{name}")
        self.ttft = self.sdk.meter.create_histogram(
            semconv.TIME_TO_FIRST_TOKEN, unit="s",
            explicit_bucket_boundaries_advisory=semconv.LATENCY_BUCKETS_S)
        self.server = grpc.aio.server()
        inference_pb2_grpc.add_InferenceServicer_to_server(self, self.server)
        self.port = self.server.add_insecure_port("127.0.0.1:0")

    async def Generate(self, request, context):
        started = time.perf_counter()
        await asyncio.sleep(self.delay_s)
        self.ttft.record(time.perf_counter() - started, {
            semconv.INSTANCE: self.name, semconv.REQUEST_MODEL: "double",
            semconv.OPERATION_NAME: "text_completion"})
        return inference_pb2.GenerateResponse(text="ok", served_by=self.name)


async def _generate(channel: grpc.aio.Channel, count: int) -> list[str]:
    stub = inference_pb2_grpc.InferenceStub(channel)
    responses = await asyncio.gather(*(
        stub.Generate(inference_pb2.GenerateRequest(prompt="hi"), timeout=30)
        for _ in range(count)))
    return [r.served_by for r in responses]


async def _until(predicate, what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if await predicate():
            return
        await asyncio.sleep(0.2)
    raise AssertionError(f"{what} did not happen within {WAIT_S} s")


def _admin_ready(admin: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{admin}/ready", timeout=1) as r:
            return r.status == 200
    except OSError:
        return False


async def test_slow_primary_moves_traffic_to_fallback_and_recovery_moves_it_back(
        tmp_path: Path) -> None:
    admin, listen = free_port(), free_port()
    slo = SloSettings(envoy_admin=f"127.0.0.1:{admin}", runtime_key=RUNTIME_KEY, min_samples=20,
                      window_s=60, evaluate_interval_s=0.2, min_hold_s=0.5)
    async with running_collector(settings(slo=slo)) as collector:
        primary = InferenceDouble("primary", collector.endpoint)
        fallback = InferenceDouble("fallback", collector.endpoint)
        await primary.server.start()
        await fallback.server.start()
        config = tmp_path / "envoy.yaml"
        config.write_text(BOOTSTRAP.format(admin=admin, listen=listen, key=RUNTIME_KEY, clusters=(
            CLUSTER.format(name="inference_primary", port=primary.port)
            + CLUSTER.format(name="inference_fallback", port=fallback.port))))
        envoy_log = (tmp_path / "envoy.log").open("w")
        envoy = subprocess.Popen(envoy_argv(config, "warning"), stdout=envoy_log,
                                 stderr=subprocess.STDOUT)
        runtime = EnvoyRuntime(f"127.0.0.1:{admin}", 2.0)
        controller = collector.collector.slo
        try:
            async def admin_up() -> bool:
                assert envoy.poll() is None, (tmp_path / "envoy.log").read_text()[-3000:]
                return await asyncio.to_thread(_admin_ready, admin)

            await _until(admin_up, "Envoy admin ready")
            # The controller reconciles Envoy to the primary's share at start.
            await _until(lambda: _is(runtime, "100"), f"{RUNTIME_KEY}=100 set by the controller")

            async with grpc.aio.insecure_channel(f"127.0.0.1:{listen}") as gateway:
                # Healthy: everything is served by the primary.
                assert set(await _generate(gateway, 10)) == {"primary"}
                await primary.sdk.flush()

                # Slow primary: 1.5 s to first token, above the 1,200 ms P99 threshold.
                primary.delay_s = 1.5
                assert set(await _generate(gateway, 30)) == {"primary"}
                await primary.sdk.flush()
                await _until(lambda: _is(runtime, "0"), f"{RUNTIME_KEY}=0 (fallback)")
                assert controller.status.fallback_active
                assert controller.status.ttft_p99_s is not None
                assert set(await _generate(gateway, 10)) == {"fallback"}
                text = await collector.scrape()
                assert 'ztgate_slo_transitions_total{to="fallback"} 1.0' in text
                assert "ztgate_slo_fallback_active 1.0" in text
                assert "ztgate_slo_primary_percent 0.0" in text

                # Recovery: the primary is fast again; probes reach it directly (no traffic is
                # routed to it while the key is 0) and its TTFT reaches the collector.
                primary.delay_s = 0.02
                async with grpc.aio.insecure_channel(f"127.0.0.1:{primary.port}") as direct:
                    assert set(await _generate(direct, 30)) == {"primary"}
                await primary.sdk.flush()
                await _until(lambda: _is(runtime, "100"), f"{RUNTIME_KEY}=100 (recovered)")
                assert not controller.status.fallback_active
                assert set(await _generate(gateway, 10)) == {"primary"}
                text = await collector.scrape()
                assert 'ztgate_slo_transitions_total{to="primary"} 1.0' in text
                assert "ztgate_slo_fallback_active 0.0" in text
                assert "ztgate_slo_ttft_p99_seconds " in text
                # The exposition with the controller's metrics is valid too.
                check = subprocess.run([require_tool("promtool"), "check", "metrics"],
                                       input=text, capture_output=True, text=True, timeout=30)
                assert check.returncode == 0, check.stdout + check.stderr
        finally:
            envoy.terminate()
            try:
                envoy.wait(timeout=15)
            except subprocess.TimeoutExpired:
                envoy.kill()
                envoy.wait(timeout=5)
            envoy_log.close()
            for double in (primary, fallback):
                await double.sdk.close()
                await double.server.stop(0)


async def _is(runtime: EnvoyRuntime, value: str) -> bool:
    return await runtime.get(RUNTIME_KEY) == value
