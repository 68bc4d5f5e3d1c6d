"""`ztgate bench redaction`: ztgate over gRPC and Presidio's default pipeline, same corpus, one run.

The ztgate side is a real `ztgate serve redaction` process on a free loopback port (unless
`--address` names a running one); the anchor runs in this process, after ztgate, so the two
never compete for the CPUs. Errors are counted: a benchmark that hides failed calls is wrong.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import grpc

from ztgate_bench import corpus_file, redaction_corpus, redaction_metrics
from ztgate_bench.presidio_baseline import SYSTEM_NAME, build_presidio
from ztgate_bench.runner import arun_concurrent, arun_sequential, run_concurrent, run_sequential
from ztgate.common.process import free_address, is_serving, spawn, stop, wait_until
from ztgate.gen.redaction.v1 import redaction_pb2, redaction_pb2_grpc


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def start_server(config: Path | None) -> tuple[subprocess.Popen, str]:
    """A `ztgate serve redaction` child on a free loopback port, once it reports SERVING."""
    address = free_address()
    argv = [sys.executable, "-m", "ztgate.cli", "serve", "redaction", "--listen", address]
    if config:
        argv += ["--config", str(config)]
    log = Path(tempfile.gettempdir()) / "ztgate-bench-redaction.log"
    process = spawn(argv, log)
    try:
        wait_until(lambda: is_serving(address), "the redaction service SERVING", [process], log, 300.0)
    except RuntimeError:
        process.kill()
        raise
    return process, address


async def run_ztgate(address: str, texts: list[str], clients: int):
    """Sequential pass (latency, outputs) then a concurrent pass (throughput); counts errors."""
    errors = 0
    channel = grpc.aio.insecure_channel(address)
    stub = redaction_pb2_grpc.RedactionStub(channel)

    async def call(text: str) -> str:
        nonlocal errors
        try:
            reply = await stub.Redact(redaction_pb2.RedactRequest(text=text), timeout=30)
        except grpc.aio.AioRpcError:
            errors += 1
            return "\x00error"
        return reply.text

    try:
        sequential = await arun_sequential(call, texts, warmup=10)
        concurrent = await arun_concurrent(call, texts, clients=clients, count=max(len(texts), 400))
    finally:
        await channel.close()
    return sequential, concurrent, errors


# Concurrent clients of the throughput series, unless --clients says otherwise.
DEFAULT_CLIENTS = 16


def main(args: argparse.Namespace) -> int:
    args.clients = args.clients or DEFAULT_CLIENTS
    corpus = getattr(args, "corpus", None)
    if corpus:
        samples = corpus_file.load(corpus)
        _say(f"corpus: {len(samples)} documents from {corpus}")
        command = f"`ztgate bench redaction --corpus {corpus} --clients {args.clients}`"
    else:
        samples = redaction_corpus.generate(args.samples, args.seed)
        _say(f"corpus: {len(samples)} samples (seed {args.seed})")
        command = f"`ztgate bench redaction --samples {args.samples} --seed {args.seed} --clients {args.clients}`"
    texts = [s.text for s in samples]
    process = None
    address = getattr(args, "address", None)
    try:
        if not address:
            _say("starting ztgate redaction service ...")
            process, address = start_server(getattr(args, "config", None))
        _say(f"ztgate over gRPC at {address}: sequential, then {args.clients} clients ...")
        sequential, concurrent, errors = asyncio.run(run_ztgate(address, texts, args.clients))
    finally:
        if process is not None:
            stop(process, 30.0)
    ztgate = redaction_metrics.score("ztgate (gRPC)", samples, sequential.outputs,
                                     sequential.durations_s, concurrent.throughput_rps, args.clients)
    _say("Presidio default analyzer + anonymizer (same spaCy model): sequential, then threads ...")
    baseline = build_presidio()
    p_seq = run_sequential(baseline.redact, texts)
    p_conc = run_concurrent(baseline.redact, texts, clients=args.clients,
                            count=max(len(texts), 200))
    presidio = redaction_metrics.score(SYSTEM_NAME, samples, p_seq.outputs, p_seq.durations_s,
                                       p_conc.throughput_rps, args.clients)
    report = [
        f"{command} on {platform.node()} ({platform.machine()}, {len(os.sched_getaffinity(0))} CPUs),"
        f" {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        "",
        redaction_metrics.render_comparison([ztgate, presidio]),
        f"ztgate call errors: {errors}. Ratios (ztgate / Presidio): p50 {ztgate.p50_ms / presidio.p50_ms:.2f}, "
        f"p99 {ztgate.p99_ms / presidio.p99_ms:.2f}, throughput {ztgate.throughput_rps / presidio.throughput_rps:.2f}x.",
    ]
    text = "\n".join(report) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text)
        _say(f"wrote {args.out}")
    return 0 if errors == 0 else 1
