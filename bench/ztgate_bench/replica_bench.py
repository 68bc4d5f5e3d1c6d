"""`ztgate bench gateway --replicas`: throughput through the gateway with 1 and with N redaction
replicas, side by side.

Each run starts redaction (as many replicas as the run says, each an endpoint of Envoy's redaction
cluster, as under `ztgate up --replicas redaction=N`), the echo upstream and Envoy
(gateway_bench.running_suite), warms up, then has `clients` concurrent clients send the bench's
support-desk prompt as fast as answers come, `calls` calls in all. The echo upstream answers at
once, so the redaction work (both tiers, on the prompt and on the echoed answer) decides the rate:
what another replica buys is what this machine's cores give a second process.
"""

from __future__ import annotations

import asyncio
import os
import platform
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import grpc

from ztgate_bench.gateway_bench import PROMPT, Latencies, running_suite
from ztgate.common.identity import bearer
from ztgate.config import ZtgateConfig
from ztgate.gen.inference.v1 import inference_pb2, inference_pb2_grpc

# Replica counts compared by default (`--replicas` without a value).
DEFAULT_REPLICAS = (1, 2)
DEFAULT_CLIENTS = 8
DEFAULT_CALLS = 200
# Calls before measuring, per run (each replica's first NER calls are slower).
WARMUP_CALLS = 20


@dataclass(frozen=True, slots=True)
class ReplicaRun(Latencies):
    replicas: int
    clients: int
    durations_ms: list[float]
    errors: int
    wall_s: float

    @property
    def throughput(self) -> float:
        """Answered calls per second over the measured wall time."""
        return len(self.durations_ms) / self.wall_s if self.wall_s > 0 else 0.0


def parse_counts(text: str, max_replicas: int) -> tuple[int, ...]:
    """`--replicas 1,2` as (1, 2); ValueError naming the value and the bound."""
    try:
        counts = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise ValueError(f"--replicas {text!r}: give replica counts, e.g. 1,2") from None
    if not counts or any(n < 1 or n > max_replicas for n in counts):
        raise ValueError(f"--replicas {text!r}: each count must be from 1 to {max_replicas} "
                         "(supervisor.max_replicas)")
    if len(set(counts)) != len(counts):
        raise ValueError(f"--replicas {text!r}: a count is given twice")
    return counts


async def throughput(gateway: str, *, clients: int, calls: int, warmup: int = WARMUP_CALLS,
                     token: str = "", timeout_s: float = 60.0) -> tuple[list[float], int, float]:
    """(durations of the answered calls in ms, failed calls, wall seconds) of `calls` Generate
    calls through `gateway` from `clients` concurrent clients, after `warmup` calls."""
    if clients < 1 or calls < 1 or warmup < 0:
        raise ValueError("clients and calls must be >= 1, warmup >= 0")
    request = inference_pb2.GenerateRequest(prompt=PROMPT)
    metadata = bearer(token)
    durations: list[float] = []
    errors = 0
    left = 0

    async def client(channel: grpc.aio.Channel) -> None:
        nonlocal errors, left
        stub = inference_pb2_grpc.InferenceStub(channel)
        while left > 0:
            left -= 1
            started = time.perf_counter()
            try:
                await stub.Generate(request, timeout=timeout_s, metadata=metadata)
            except grpc.aio.AioRpcError:
                errors += 1
                continue
            durations.append((time.perf_counter() - started) * 1000)

    channels = [grpc.aio.insecure_channel(gateway) for _ in range(clients)]
    try:
        left = warmup
        await asyncio.gather(*(client(c) for c in channels))
        durations.clear()
        errors = 0
        left = calls
        started = time.perf_counter()
        await asyncio.gather(*(client(c) for c in channels))
        wall = time.perf_counter() - started
    finally:
        for channel in channels:
            await channel.close()
    return durations, errors, wall


def run(config: ZtgateConfig, counts: Sequence[int] = DEFAULT_REPLICAS, *, clients: int = DEFAULT_CLIENTS,
        calls: int = DEFAULT_CALLS, logs: Path | None = None) -> list[ReplicaRun]:
    """One run per replica count, each on a suite of its own started and stopped around it."""
    logs = logs or Path(tempfile.mkdtemp(prefix="ztgate-bench-replicas-"))
    runs = []
    for count in counts:
        folder = logs / f"replicas-{count}"
        folder.mkdir(parents=True, exist_ok=True)
        with running_suite(config, folder, redaction_replicas=count) as parts:
            durations, errors, wall = asyncio.run(throughput(parts.gateway, clients=clients, calls=calls))
        runs.append(ReplicaRun(count, clients, durations, errors, wall))
    return runs


def render(runs: Sequence[ReplicaRun], config: ZtgateConfig, command: str) -> str:
    """The Markdown report: one row per replica count, and each row's rate against the first."""
    workers = config.redaction.workers or os.cpu_count() or 1
    base = runs[0].throughput if runs else 0.0
    lines = [
        f"`{command}` on {platform.node()} ({platform.machine()}, {len(os.sched_getaffinity(0))} CPUs), "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: {runs[0].clients if runs else 0} "
        f"concurrent clients, unary Generate through Envoy to the echo upstream, the prompt and the "
        f"answer scrubbed by redaction; {workers} analysis worker(s) per replica; "
        f"{'mTLS' if config.mesh.mtls else 'plaintext'} behind Envoy.",
        "",
        "| redaction replicas | calls | errors | calls/s | vs first row | p50 (ms) | p99 (ms) |",
        "|---:|---:|---:|---:|---:|---:|---:|",
        *(f"| {r.replicas} | {len(r.durations_ms)} | {r.errors} | {r.throughput:.2f} | "
          f"{(r.throughput / base if base else float('nan')):.2f}x | {r.p50_ms:.1f} | {r.p99_ms:.1f} |"
          for r in runs),
    ]
    return "\n".join(lines) + "\n"


def main(args, config: ZtgateConfig) -> int:
    """`ztgate bench gateway --replicas [1,2] [--clients N] [--calls N] [--out FILE]`; exit 1 if
    any call failed."""
    import sys

    try:
        counts = parse_counts(args.replicas, config.supervisor.max_replicas)
    except ValueError as exc:
        print(f"ztgate bench gateway: {exc}", file=sys.stderr)
        return 2
    clients = getattr(args, "clients", None) or DEFAULT_CLIENTS
    calls = getattr(args, "calls", None) or DEFAULT_CALLS
    print(f"throughput with {', '.join(map(str, counts))} redaction replica(s): {clients} clients, "
          f"{calls} calls each ...", file=sys.stderr, flush=True)
    runs = run(config, counts, clients=clients, calls=calls)
    text = render(runs, config, f"ztgate bench gateway --replicas {','.join(map(str, counts))} "
                                f"--clients {clients} --calls {calls}")
    print(text)
    if getattr(args, "out", None):
        Path(args.out).write_text(text)
    return 0 if not any(r.errors for r in runs) else 1
