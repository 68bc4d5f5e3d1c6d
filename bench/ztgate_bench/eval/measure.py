"""Runs the goldens' inputs against a suite and records what it answered (no judgement here: that is
bench/ztgate_bench/eval/compare.py), so that a test can judge a modified set of observations cheaply.

Inference requests leave sampling unset but for max_tokens: the service's defaults (greedy) are
part of what the goldens pin down.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import grpc

from ztgate_bench.eval.schema import AnswerCase, Finding, Goldens, RedactionAnswer
from ztgate_bench.eval.suite import Target
from ztgate.common.tls import open_channel
from ztgate.gen.inference.v1 import inference_pb2 as ipb
from ztgate.gen.inference.v1 import inference_pb2_grpc
from ztgate.gen.redaction.v1 import redaction_pb2, redaction_pb2_grpc

# Deadline of one call (a slow machine decoding 64 tokens on CPU, behind the gateway).
CALL_TIMEOUT_S = 300.0
# Redaction cases in flight at once through the gateway.
REDACTION_CONCURRENCY = 4
ENGINES = ("primary", "fallback")
# Rounds over the speculation prompts for the speed check, speculation on and off taking turns.
SPEED_ROUNDS = 3


@dataclass(slots=True)
class AnswerObservation:
    engines: dict[str, dict] = field(default_factory=dict)   # engine -> {"token_ids", "text"}
    gateway: str | None = None
    # stream: the chunks joined, and the unary answer of the same request through the gateway.
    stream: str | None = None
    error: str = ""


@dataclass(slots=True)
class Observations:
    """What one run saw: per case, per method, and the latencies of the same run (ms)."""

    redaction: dict[str, RedactionAnswer] = field(default_factory=dict)
    answers: dict[str, AnswerObservation] = field(default_factory=dict)
    # method -> mean acceptance length over the prompt set (None: the suite does not run it).
    speculation: dict[str, float | None] = field(default_factory=dict)
    latency_ms: dict[str, list[float]] = field(default_factory=lambda: {
        "gateway": [], "direct primary": [], "direct fallback": [],
        "speculation on": [], "speculation off": []})
    configuration: dict[str, str] = field(default_factory=dict)
    # The speed check's prompts whose greedy tokens differ with speculation on and off (None: not run).
    speculation_mismatch: list[str] | None = None


def selected(cases: list, full: bool) -> list:
    return [case for case in cases if full or case.quick]


async def _redact(stub, target: Target, case_id: str, text: str, policy: str) -> tuple[str, RedactionAnswer]:
    try:
        reply = await stub.Redact(redaction_pb2.RedactRequest(text=text, policy=policy),
                                  timeout=CALL_TIMEOUT_S, metadata=target.metadata())
    except grpc.aio.AioRpcError as exc:
        return case_id, RedactionAnswer(text=None, findings=[], status=exc.code().name)
    findings = sorted((Finding(type=f.entity_type, start=f.start, end=f.end, recognizer=f.recognizer)
                       for f in reply.findings),
                      key=lambda f: (f.start, f.end, f.type))
    return case_id, RedactionAnswer(text=reply.text, findings=findings, status="OK")


async def measure_redaction(target: Target, goldens: Goldens, full: bool, obs: Observations) -> None:
    cases = [(c.id, c.text, c.policy) for g in goldens.redaction.values() for c in selected(g.cases, full)]
    gate = asyncio.Semaphore(REDACTION_CONCURRENCY)
    async with target.gateway_channel() as channel:
        stub = redaction_pb2_grpc.RedactionStub(channel)

        async def one(item: tuple[str, str, str]) -> tuple[str, RedactionAnswer]:
            async with gate:
                return await _redact(stub, target, *item)

        for case_id, answer in await asyncio.gather(*(one(item) for item in cases)):
            obs.redaction[case_id] = answer


def _request(case: AnswerCase | str, max_tokens: int) -> ipb.GenerateRequest:
    prompt = case if isinstance(case, str) else case.prompt
    return ipb.GenerateRequest(messages=[ipb.ChatMessage(role="user", content=prompt)],
                               sampling=ipb.SamplingParams(max_tokens=max_tokens))


async def _timed(call: Callable[[], Awaitable], series: list[float]):
    started = time.perf_counter()
    reply = await call()
    series.append((time.perf_counter() - started) * 1000)
    return reply


async def measure_answers(target: Target, goldens: Goldens, full: bool, obs: Observations) -> None:
    """One case at a time (latencies are compared within the run): direct on each engine, then
    through the gateway; a streamed case also streams through the gateway."""
    channels = {"gateway": target.gateway_channel(), "primary": open_channel(target.primary, target.tls),
                "fallback": open_channel(target.fallback, target.tls)}
    stubs = {name: inference_pb2_grpc.InferenceStub(channel) for name, channel in channels.items()}
    try:
        for case in selected(goldens.answers.cases, full):
            seen = obs.answers.setdefault(case.id, AnswerObservation())
            request = _request(case, case.max_tokens)
            try:
                if case.kind == "greedy":
                    for engine in ENGINES:
                        reply = await _timed(lambda e=engine: stubs[e].Generate(request, timeout=CALL_TIMEOUT_S),
                                             obs.latency_ms[f"direct {engine}"])
                        seen.engines[engine] = {"token_ids": list(reply.token_ids), "text": reply.text}
                # Gateway latency is compared with the direct calls of the same (greedy) cases only.
                reply = await _timed(lambda: stubs["gateway"].Generate(
                    request, timeout=CALL_TIMEOUT_S, metadata=target.metadata()),
                    obs.latency_ms["gateway"] if case.kind == "greedy" else [])
                seen.gateway = reply.text
                if case.kind == "stream":
                    chunks = [chunk.text async for chunk in stubs["gateway"].GenerateStream(
                        request, timeout=CALL_TIMEOUT_S, metadata=target.metadata())]
                    seen.stream = "".join(chunks)
            except grpc.aio.AioRpcError as exc:
                seen.error = f"{exc.code().name}: {exc.details()}"
    finally:
        for channel in channels.values():
            await channel.close()


async def measure_speculation(target: Target, goldens: Goldens, obs: Observations) -> None:
    """The primary's mean acceptance length, the mean over the prompt set of each greedy answer's (the
    method it runs); methods it does not run are recorded as None."""
    spec = goldens.speculation
    lengths: list[float] = []
    method = ""
    async with open_channel(target.primary, target.tls) as channel:
        stub = inference_pb2_grpc.InferenceStub(channel)
        for prompt in spec.prompts:
            reply = await stub.Generate(_request(prompt, spec.max_tokens), timeout=CALL_TIMEOUT_S)
            method = reply.speculative.method or "none"
            obs.configuration["primary num_speculative_tokens"] = str(reply.speculative.num_speculative_tokens)
            if reply.speculative.mean_acceptance_length > 0:
                lengths.append(reply.speculative.mean_acceptance_length)
    obs.configuration["primary speculative method"] = method
    for name in spec.methods:
        obs.speculation[name] = (round(sum(lengths) / len(lengths), 3) if lengths else None) if name == method else None


async def measure_speculation_speed(target: Target, goldens: Goldens, obs: Observations) -> None:
    """The primary with speculation on and the same engine with it off (`target.plain`), on the speculation
    prompts, greedy, one call at a time, SPEED_ROUNDS rounds taking turns (which goes first alternates):
    the latency of each, and the prompts whose tokens differ between the two."""
    if target.plain is None:
        return
    spec = goldens.speculation
    channels = {"on": open_channel(target.primary, target.tls), "off": open_channel(target.plain, target.tls)}
    stubs = {name: inference_pb2_grpc.InferenceStub(channel) for name, channel in channels.items()}
    mismatch: set[str] = set()
    try:
        for round_ in range(SPEED_ROUNDS):
            for index, prompt in enumerate(spec.prompts):
                order = ("on", "off") if (round_ + index) % 2 == 0 else ("off", "on")
                tokens = {}
                for name in order:
                    reply = await _timed(lambda n=name: stubs[n].Generate(_request(prompt, spec.max_tokens),
                                                                          timeout=CALL_TIMEOUT_S),
                                         obs.latency_ms[f"speculation {name}"])
                    tokens[name] = list(reply.token_ids)
                if tokens["on"] != tokens["off"]:
                    mismatch.add(f"prompt {index + 1}")
    finally:
        for channel in channels.values():
            await channel.close()
    obs.speculation_mismatch = sorted(mismatch)


async def measure(target: Target, goldens: Goldens, full: bool) -> Observations:
    obs = Observations()
    await measure_redaction(target, goldens, full, obs)
    await measure_answers(target, goldens, full, obs)
    await measure_speculation(target, goldens, obs)
    await measure_speculation_speed(target, goldens, obs)
    return obs
