"""`ztgate bench telemetry`: data points per second the collector ingests on one core, and what
telemetry adds to an inference call (`telemetry_overhead.py`: the real inference server with OTel
export on vs off, interleaved; `--calls` per series, 0 skips it; `--engine` as for inference).

Ingestion, two figures, each under a bounded load:
- aggregation alone: pre-built OTLP exports folded into the aggregation, one thread;
- end to end: a load generator in another process (pinned to another core when there is
  one) sends pre-serialized exports over OTLP/gRPC on loopback with a bounded number in flight;
  the collector (receivers, queue, pipeline thread), pinned to one core, ingests them. The rate
  is points aggregated per second from the first export to the drained queue; refusals
  (RESOURCE_EXHAUSTED) are counted, not retried.
The exposition's render time over the resulting series is reported too.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import queue
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

# Upper bound on the end-to-end run, seconds.
MAX_RUN_S = 120.0


@dataclass
class BenchReport:
    points_per_export: int
    exports: int
    inflight: int
    fold_points_per_s: float
    e2e_points_per_s: float
    accepted_points: int
    refused_points: int
    elapsed_s: float
    series: int
    render_ms: float
    cores: str

    def markdown(self) -> str:
        return "\n".join([
            "# ztgate bench telemetry",
            "",
            f"Load: {self.exports} OTLP metric exports of {self.points_per_export} data points "
            f"(TTFT and token-usage histograms, speculative-decoding counters), "
            f"{self.inflight} in flight; {self.cores}.",
            "",
            "| figure | value |",
            "| --- | --- |",
            f"| aggregation alone, one thread | {self.fold_points_per_s:,.0f} points/s |",
            f"| end to end over OTLP/gRPC, collector on one core | "
            f"{self.e2e_points_per_s:,.0f} points/s |",
            f"| accepted / refused (RESOURCE_EXHAUSTED) points | {self.accepted_points:,} / "
            f"{self.refused_points:,} |",
            f"| end-to-end wall time | {self.elapsed_s:.2f} s |",
            f"| /metrics render ({self.series:,} series) | {self.render_ms:.1f} ms |",
            "",
        ])


def _pin(cpu: int | None) -> None:
    if cpu is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {cpu})


def _cpus() -> tuple[int | None, int | None]:
    if not hasattr(os, "sched_getaffinity"):
        return None, None
    cpus = sorted(os.sched_getaffinity(0))
    return cpus[0], (cpus[1] if len(cpus) > 1 else None)


def _load(endpoint: str, payload: bytes, exports: int, inflight: int, cpu: int | None,
          out: "multiprocessing.Queue[tuple[int, int]]") -> None:
    """Load generator (another process): sends `exports` copies, `inflight` at a time."""
    import grpc

    _pin(cpu)
    ok = refused = 0
    with grpc.insecure_channel(endpoint) as channel:
        export = channel.unary_unary(
            "/opentelemetry.proto.collector.metrics.v1.MetricsService/Export")
        pending = []
        sent = 0
        deadline = time.monotonic() + MAX_RUN_S
        while (sent < exports or pending) and time.monotonic() < deadline:
            while sent < exports and len(pending) < inflight:
                pending.append(export.future(payload, timeout=30))
                sent += 1
            future = pending.pop(0)
            try:
                future.result()
                ok += 1
            except grpc.RpcError as exc:
                if exc.code() is not grpc.StatusCode.RESOURCE_EXHAUSTED:
                    raise
                refused += 1
    out.put((ok, refused))


def fold_rate(points_per_export: int, exports: int, seed: int) -> float:
    from ztgate.telemetry.aggregate import Aggregator
    from ztgate.telemetry.otlp_metrics import fold
    from ztgate_bench.otlp_synthetic import inference_load

    request = inference_load(points_per_export, seed)
    agg = Aggregator(2_000, 1_000, 900.0)
    started = time.perf_counter()
    for _ in range(exports):
        fold(request, agg)
    return exports * points_per_export / (time.perf_counter() - started)


# Exports sent, and how many in flight at once, unless --samples and --clients say otherwise.
DEFAULT_EXPORTS = 400
DEFAULT_INFLIGHT = 16


async def e2e(points_per_export: int, exports: int, inflight: int, seed: int
              ) -> tuple[float, int, int, float, int, float, str]:
    from prometheus_client import generate_latest

    from ztgate.common.server import Runtime
    from ztgate.common.settings import OtelSettings, ServerSettings
    from ztgate.telemetry.config import SloSettings, TelemetrySettings
    from ztgate.telemetry.server import build_collector, build_spec
    from ztgate_bench.otlp_synthetic import inference_load

    server_cpu, load_cpu = _cpus()
    settings = TelemetrySettings(server=ServerSettings(listen="127.0.0.1:0", shutdown_grace_s=1),
                                 metrics={"listen": "127.0.0.1:0"}, slo=SloSettings(enabled=False))
    collector = build_collector(settings)
    runtime = Runtime(build_spec(collector), settings.server, OtelSettings())
    port = await runtime.start()
    payload = inference_load(points_per_export, seed).SerializeToString()
    ctx = multiprocessing.get_context("spawn")
    results: multiprocessing.Queue[tuple[int, int]] = ctx.Queue()
    proc = ctx.Process(target=_load, args=(f"127.0.0.1:{port}", payload, exports, inflight,
                                           load_cpu, results), daemon=True)
    previous = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    try:
        proc.start()
        _pin(server_cpu)
        first = None
        outcome: tuple[int, int] | None = None
        deadline = time.monotonic() + MAX_RUN_S
        while time.monotonic() < deadline:
            if first is None and collector.queue.total_accepted:
                first = time.perf_counter()
            if outcome is None:
                try:
                    outcome = results.get_nowait()
                except queue.Empty:
                    pass
            if outcome is not None and \
                    collector.pipeline.processed >= collector.queue.total_accepted:
                break
            await asyncio.sleep(0.005)
        elapsed = time.perf_counter() - (first or time.perf_counter())
        if outcome is None:
            raise RuntimeError(f"the load did not finish within {MAX_RUN_S:.0f} s")
        ok, refused = outcome
        proc.join(timeout=10)
        started = time.perf_counter()
        generate_latest(collector.exposition.registry)
        render_ms = (time.perf_counter() - started) * 1000
        series = collector.aggregator.series_count()
        processed = collector.pipeline.processed
    finally:
        if previous is not None:
            os.sched_setaffinity(0, previous)
        if proc.is_alive():
            proc.terminate()
        await runtime.stop()
    cores = (f"collector pinned to CPU {server_cpu}, load generator to CPU {load_cpu}"
             if load_cpu is not None else "one CPU shared by collector and load generator")
    return (processed / elapsed if elapsed > 0 else 0.0, ok * points_per_export,
            refused * points_per_export, elapsed, series, render_ms, cores)


def run_bench(points_per_export: int = 1_000, exports: int = DEFAULT_EXPORTS, inflight: int = DEFAULT_INFLIGHT,
              seed: int = 7) -> BenchReport:
    fold = fold_rate(points_per_export, max(10, exports // 4), seed)
    rate, accepted, refused, elapsed, series, render_ms, cores = asyncio.run(
        e2e(points_per_export, exports, inflight, seed))
    return BenchReport(points_per_export, exports, inflight, fold, rate, accepted, refused,
                       elapsed, series, render_ms, cores)


# Inference calls per series in the on-vs-off part: ~2 s each on 2 CPU cores, so a few minutes in all.
DEFAULT_OVERHEAD_CALLS = 60


def main(args: argparse.Namespace) -> int:
    """Entry of `ztgate bench telemetry` (--samples: exports, --clients: in flight; --calls: calls
    per series of the inference-call part, 0 skips it; --engine: that part's engine)."""
    # The CLI leaves --clients unset (None) for each bench to take its own default.
    report = run_bench(exports=getattr(args, "samples", None) or DEFAULT_EXPORTS,
                       inflight=getattr(args, "clients", None) or DEFAULT_INFLIGHT,
                       seed=7 if getattr(args, "seed", None) is None else args.seed)
    text = report.markdown()
    calls = getattr(args, "calls", None)
    calls = DEFAULT_OVERHEAD_CALLS if calls is None else calls
    if calls:
        from ztgate_bench.telemetry_overhead import run_overhead

        logs = Path(tempfile.mkdtemp(prefix="ztgate-bench-telemetry-"))
        text += "\n" + run_overhead(getattr(args, "engine", None), calls, logs,
                                    getattr(args, "config", None)).markdown()
    sys.stdout.write(text)
    out: Path | None = getattr(args, "out", None)
    if out:
        Path(out).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(argparse.Namespace(samples=DEFAULT_EXPORTS, clients=DEFAULT_INFLIGHT, seed=7, out=None, calls=0)))
