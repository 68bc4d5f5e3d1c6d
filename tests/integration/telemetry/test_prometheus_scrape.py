"""A real Prometheus server scrapes the collector; PromQL over the scraped latency histogram
gives the latency the service recorded (to its order of magnitude)."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from ztgate.common import semconv

from telemetry_harness import SdkExporter, free_port, require_tool, running_collector, settings

pytestmark = pytest.mark.slow
# Seconds Prometheus gets to start and to have scraped what a query needs.
WAIT_S = 60.0


def _query(port: int, promql: str) -> list[dict]:
    url = f"http://127.0.0.1:{port}/api/v1/query?" + urllib.parse.urlencode({"query": promql})
    with urllib.request.urlopen(url, timeout=5) as response:
        body = json.load(response)
    assert body["status"] == "success", body
    return body["data"]["result"]


async def _wait_value(port: int, promql: str, proc: subprocess.Popen) -> float:
    deadline = time.monotonic() + WAIT_S
    last: object = None
    while time.monotonic() < deadline:
        assert proc.poll() is None, "prometheus exited"
        try:
            result = await asyncio.to_thread(_query, port, promql)
        except OSError as exc:  # not listening yet
            last = exc
        else:
            last = result
            if result and result[0]["value"][1] not in ("NaN", "+Inf", "-Inf"):
                return float(result[0]["value"][1])
        await asyncio.sleep(0.5)
    raise AssertionError(f"no value for {promql!r} within {WAIT_S} s; last answer: {last}")


@pytest.fixture
def prometheus_binary() -> str:
    return require_tool("prometheus")


async def test_promql_histogram_quantile_over_scraped_ttft_matches_recorded_latency(
        prometheus_binary: str, tmp_path: Path) -> None:
    rng = random.Random(3)
    async with running_collector(settings()) as c:
        config = tmp_path / "prometheus.yml"
        config.write_text(
            "global: {scrape_interval: 1s, evaluation_interval: 1s}\n"
            "scrape_configs:\n"
            "- job_name: ztgate-telemetry\n"
            f"  static_configs: [{{targets: ['127.0.0.1:{c.collector.exposition.port}']}}]\n")
        port = free_port()
        log = (tmp_path / "prometheus.log").open("w")
        proc = subprocess.Popen(
            [prometheus_binary, f"--config.file={config}",
             f"--storage.tsdb.path={tmp_path / 'data'}", f"--web.listen-address=127.0.0.1:{port}",
             "--storage.tsdb.retention.time=1h"],
            stdout=log, stderr=subprocess.STDOUT)
        try:
            sdk = SdkExporter(c.endpoint, "ztgate-inference")
            ttft = sdk.meter.create_histogram(
                semconv.TIME_TO_FIRST_TOKEN, unit="s",
                explicit_bucket_boundaries_advisory=semconv.LATENCY_BUCKETS_S)
            attrs = {semconv.INSTANCE: "primary", semconv.REQUEST_MODEL: "m"}
            for _ in range(200):
                ttft.record(rng.uniform(0.2, 0.45), attrs)
            await sdk.flush()
            name = "gen_ai_server_time_to_first_token_seconds"
            # Over the scraped cumulative buckets.
            p50 = await _wait_value(
                port, f"histogram_quantile(0.5, sum by (le) ({name}_bucket))", proc)
            assert 0.1 < p50 < 1.0
            # Over a rate of increase, as a dashboard computes it: needs a second export
            # scraped after the first.
            for _ in range(200):
                ttft.record(rng.uniform(0.2, 0.45), attrs)
            await asyncio.sleep(2.5)
            await sdk.flush()
            p99 = await _wait_value(port, "histogram_quantile(0.99, sum by (le) "
                                          f"(rate({name}_bucket[1m])))", proc)
            assert 0.25 < p99 <= 0.5
            up = await asyncio.to_thread(_query, port, 'up{job="ztgate-telemetry"}')
            assert up[0]["value"][1] == "1"
            await sdk.close()
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)
            log.close()
