"""Shared pieces of the collector's integration tests (a helper module with a unique name, not a
conftest, so it never collides with another folder's): a started collector, scraping, SDK export.

Everything listens on loopback with ports the OS picks; every wait is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import time
import urllib.request
from collections.abc import AsyncIterator, Callable

import pytest
from opentelemetry.exporter.otlp.proto.grpc.metric_exporter import OTLPMetricExporter
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import PeriodicExportingMetricReader
from opentelemetry.sdk.resources import Resource

from ztgate.common.process import free_port  # noqa: F401 - the collector tests import it from here
from ztgate.common.server import Runtime
from ztgate.common.settings import OtelSettings, ServerSettings
from ztgate.telemetry.collector import TelemetryCollector
from ztgate.telemetry.config import SloSettings, TelemetrySettings
from ztgate.telemetry.server import build_collector, build_spec


def require_tool(name: str) -> str:
    """The tool's path; a missing tool fails the test (CI installs it), it never skips."""
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"`{name}` is not installed: run `apt-get install -y prometheus` "
                    "(make test does it as root); this test does not skip without it")
    return path


def settings(**overrides) -> TelemetrySettings:
    base = dict(server=ServerSettings(listen="127.0.0.1:0", shutdown_grace_s=1),
                metrics={"listen": "127.0.0.1:0"}, slo=SloSettings(enabled=False))
    base.update(overrides)
    return TelemetrySettings(**base)


class Started:
    def __init__(self, runtime: Runtime, collector: TelemetryCollector, port: int) -> None:
        self.runtime = runtime
        self.collector = collector
        self.port = port
        self.endpoint = f"127.0.0.1:{port}"
        self.metrics_url = f"http://127.0.0.1:{collector.exposition.port}/metrics"

    async def scrape(self) -> str:
        def get() -> str:
            with urllib.request.urlopen(self.metrics_url, timeout=5) as r:
                return r.read().decode()
        return await asyncio.to_thread(get)

    async def wait_for_text(self, predicate: Callable[[str], bool], timeout_s: float = 15) -> str:
        deadline = time.monotonic() + timeout_s
        text = ""
        while time.monotonic() < deadline:
            text = await self.scrape()
            if predicate(text):
                return text
            await asyncio.sleep(0.1)
        raise AssertionError(f"/metrics did not reach the expected state in {timeout_s} s:\n"
                             + text[-3000:])


@contextlib.asynccontextmanager
async def running_collector(telemetry: TelemetrySettings) -> AsyncIterator[Started]:
    collector = build_collector(telemetry)
    runtime = Runtime(build_spec(collector), telemetry.server, OtelSettings())
    port = await runtime.start()
    try:
        yield Started(runtime, collector, port)
    finally:
        await runtime.stop()


class SdkExporter:
    """A real OpenTelemetry SDK MeterProvider exporting over OTLP/gRPC to the collector."""

    def __init__(self, endpoint: str, service: str, temporality_delta: bool = False) -> None:
        kwargs = {}
        if temporality_delta:
            from opentelemetry.sdk.metrics import Histogram as H
            from opentelemetry.sdk.metrics.export import AggregationTemporality as T
            kwargs["preferred_temporality"] = {H: T.DELTA}
        self.reader = PeriodicExportingMetricReader(
            OTLPMetricExporter(endpoint=endpoint, insecure=True, timeout=5, **kwargs),
            export_interval_millis=3_600_000)
        self.provider = MeterProvider(resource=Resource.create({"service.name": service}),
                                      metric_readers=[self.reader])
        self.meter = self.provider.get_meter("ztgate.test")

    async def flush(self) -> None:
        # The exporter blocks; off the event loop, which also serves the collector.
        ok = await asyncio.to_thread(self.reader.force_flush, 10_000)
        assert ok, "the SDK exporter could not deliver to the collector"

    async def close(self) -> None:
        await asyncio.to_thread(self.provider.shutdown, 5_000)
