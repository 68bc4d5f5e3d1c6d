"""The inference gRPC service over real gRPC on loopback, around the session's real transformers
engine (the fallback's stack; the servicer is the same for vLLM)."""

from __future__ import annotations

import asyncio
import time

import grpc
import pytest

from ztgate.common.server import Runtime
from ztgate.common.settings import OtelSettings, ServerSettings
from ztgate.gen.inference.v1 import inference_pb2 as pb
from ztgate.gen.inference.v1 import inference_pb2_grpc
from ztgate.inference.config import InstanceSettings
from ztgate.inference.engines.errors import InvalidRequest
from ztgate.inference.engines.request import GenerationRequest, SamplingParams
from ztgate.inference.hallucination import HallucinationScorer
from ztgate.inference.limits import RequestLimits
from ztgate.inference.server import build_spec
from ztgate.inference.service import InferenceService

GREEDY = pb.SamplingParams(temperature=0, max_tokens=12)
CHAT = [pb.ChatMessage(role="user", content="Name three colors.")]


@pytest.fixture(scope="module")
async def server(hf_engine):
    instance = InstanceSettings(name="fallback", server=ServerSettings(listen="127.0.0.1:0"),
                                engine="transformers", max_inflight=2)
    scorer = HallucinationScorer(hf_engine.model, max_len=hf_engine.max_model_len)
    scorer.start()
    service = InferenceService(hf_engine, instance, scorer=scorer)
    spec = build_spec(service, instance.server.tls)
    spec.stop = None  # the session fixture owns the engine
    runtime = Runtime(spec, instance.server, OtelSettings())
    port = await runtime.start()
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}")
    yield inference_pb2_grpc.InferenceStub(channel), service
    await channel.close()
    await runtime.stop()
    scorer.close()


async def test_unary_answer_carries_usage_timings_and_served_by(server) -> None:
    stub, _ = server
    reply = await stub.Generate(pb.GenerateRequest(messages=CHAT, sampling=GREEDY, request_id="r-1"))
    assert reply.text and len(reply.token_ids) == reply.usage.completion_tokens <= 12
    assert reply.finish_reason in ("stop", "length")
    assert reply.served_by == "fallback" and reply.request_id == "r-1"
    assert reply.timings.ttft_ms > 0 and reply.timings.total_ms >= reply.timings.ttft_ms
    assert not reply.HasField("hallucination_score")  # not asked for, not invented


async def test_stream_equals_unary_token_for_token(server) -> None:
    stub, _ = server
    unary = await stub.Generate(pb.GenerateRequest(messages=CHAT, sampling=GREEDY))
    chunks = [c async for c in stub.GenerateStream(pb.GenerateRequest(messages=CHAT, sampling=GREEDY))]
    assert [t for c in chunks for t in c.token_ids] == list(unary.token_ids)
    assert "".join(c.text for c in chunks) == unary.text
    assert chunks[-1].finish_reason and chunks[-1].usage.completion_tokens == len(unary.token_ids)


async def test_unary_headers_arrive_at_the_first_token_before_the_answer(server) -> None:
    stub, _ = server
    call = stub.Generate(pb.GenerateRequest(prompt="Count: one, two,",
                                            sampling=pb.SamplingParams(temperature=0, max_tokens=48)))
    started = time.perf_counter()
    headers = dict(await call.initial_metadata())
    at_headers = time.perf_counter() - started
    reply = await call
    total = time.perf_counter() - started
    assert headers.get("x-ztgate-served-by") == "fallback"
    assert at_headers < total  # headers did not wait for the whole answer
    assert reply.timings.ttft_ms < reply.timings.total_ms


@pytest.mark.parametrize("request_kwargs, fragment", [
    ({"prompt": ""}, "exactly one of prompt and messages"),
    ({"prompt": "x", "messages": CHAT}, "not both"),
    ({"messages": [pb.ChatMessage(role="wizard", content="hi")]}, "role"),
    ({"prompt": "x", "sampling": pb.SamplingParams(max_tokens=-1)}, "max_tokens"),
    ({"prompt": "x", "sampling": pb.SamplingParams(temperature=-0.5)}, "temperature"),
    # 16,000 tokens in 16,000 bytes: within limits.max_prompt_bytes, past the model's context.
    ({"prompt": "7 " * 8000}, "context"),
])
async def test_bad_requests_get_invalid_argument(server, request_kwargs, fragment) -> None:
    stub, _ = server
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await stub.Generate(pb.GenerateRequest(**request_kwargs))
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert fragment in info.value.details()


@pytest.mark.parametrize("request_kwargs, code, fragment", [
    ({"messages": [pb.ChatMessage(role="user", content="hi")] * 20_000}, grpc.StatusCode.RESOURCE_EXHAUSTED,
     "the request has 20000 messages; the limit is 256 (limits.max_messages)"),
    ({"prompt": "x" * (1 << 20)}, grpc.StatusCode.RESOURCE_EXHAUSTED,
     "the prompt is 1048576 bytes (UTF-8); the limit is 65536 bytes (limits.max_prompt_bytes)"),
    ({"prompt": "hi", "sampling": pb.SamplingParams(max_tokens=10**9)}, grpc.StatusCode.INVALID_ARGUMENT,
     "max_tokens is 1000000000; the limit is 4096 (limits.max_output_tokens)"),
    ({"prompt": "hi", "sampling": pb.SamplingParams(stop=[str(i) for i in range(9)])},
     grpc.StatusCode.INVALID_ARGUMENT, "(limits.max_stop_sequences)"),
])
async def test_a_direct_caller_past_the_request_limits_is_refused_before_the_engine(
        server, request_kwargs, code, fragment) -> None:
    stub, service = server
    admitted = service.limiter.admitted
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await stub.Generate(pb.GenerateRequest(**request_kwargs))
    assert info.value.code() == code and fragment in info.value.details()
    assert service.limiter.admitted == admitted  # refused before it took a slot or reached the engine


async def test_an_explicit_max_tokens_beyond_the_context_is_refused_and_the_default_is_clamped(hf_engine) -> None:
    instance = InstanceSettings(name="wide", server=ServerSettings(listen="127.0.0.1:0"), engine="transformers")
    service = InferenceService(hf_engine, instance, limits=RequestLimits(max_output_tokens=10**6))
    context = hf_engine.max_model_len
    with pytest.raises(InvalidRequest, match=f"the model's context is {context} tokens"):
        async for _ in service.generate(GenerationRequest(
                prompt="hi", sampling=SamplingParams(temperature=0, max_tokens=context + 1))):
            pass
    assert service.limiter.in_flight == 0


async def test_past_the_inflight_limit_calls_are_refused_at_once(server) -> None:
    stub, service = server
    long = pb.GenerateRequest(prompt="Count from 1 to 400: 1, 2, 3, 4, 5,",
                              sampling=pb.SamplingParams(temperature=0, max_tokens=300))
    calls = [stub.GenerateStream(long) for _ in range(2)]
    first = await calls[0].read()  # generating; the second waits its turn inside the engine
    assert first.token_ids and not first.finish_reason
    for _ in range(200):
        if service.limiter.in_flight == 2:
            break
        await asyncio.sleep(0.02)
    assert service.limiter.in_flight == 2
    started = time.perf_counter()
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await stub.Generate(pb.GenerateRequest(prompt="hi", sampling=GREEDY))
    assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert time.perf_counter() - started < 5
    for call in calls:
        call.cancel()
    for _ in range(100):
        if service.limiter.in_flight == 0:
            break
        await asyncio.sleep(0.05)
    assert service.limiter.in_flight == 0


async def test_client_cancel_aborts_generation_in_the_engine(server) -> None:
    stub, service = server
    call = stub.GenerateStream(pb.GenerateRequest(prompt="Write a very long essay.", sampling=pb.SamplingParams(
        temperature=0, max_tokens=400)))
    await call.read()
    call.cancel()
    for _ in range(100):
        if service.engine.inflight == 0 and service.limiter.in_flight == 0:
            break
        await asyncio.sleep(0.05)
    assert service.engine.inflight == 0 and service.limiter.in_flight == 0


async def test_a_score_is_found_only_by_the_tenant_whose_request_it_was(server) -> None:
    stub, _ = server
    await stub.Generate(pb.GenerateRequest(prompt="The capital of France is", sampling=GREEDY,
                                           request_id="scored-1", tenant="acme"))
    own = await stub.GetScore(pb.ScoreRequest(request_id="scored-1", tenant="acme", wait_s=60))
    assert own.state == "scored" and 0 <= own.hallucination_score <= 1
    for tenant in ("globex", ""):  # same request id, another tenant: nothing to see
        other = await stub.GetScore(pb.ScoreRequest(request_id="scored-1", tenant=tenant, wait_s=0.2))
        assert other.state == "unknown" and not other.HasField("hallucination_score")


@pytest.mark.parametrize("percent, scored", [(100, True), (0, False)])
async def test_the_fallbacks_answers_are_scored_and_labelled_by_instance(hf_engine, percent: int,
                                                                          scored: bool) -> None:
    """Issue #31: an answer the fallback served is scored like the primary's, and its score is
    recorded as the fallback's (`ztgate.instance`); score_sample_percent bounds how many."""
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import InMemoryMetricReader

    from ztgate.common.semconv import HALLUCINATION_SCORE, INSTANCE
    from ztgate.inference.metrics import InferenceMetrics

    reader = InMemoryMetricReader()
    meter = MeterProvider(metric_readers=[reader]).get_meter("test")
    instance = InstanceSettings(name="fallback", server=ServerSettings(listen="127.0.0.1:0"),
                                engine="transformers", background_scoring=True,
                                score_sample_percent=percent)
    scorer = HallucinationScorer(hf_engine.model, max_len=hf_engine.max_model_len)
    scorer.start()
    service = InferenceService(hf_engine, instance, scorer=scorer,
                               metrics=InferenceMetrics(hf_engine.model_name, "fallback", meter=meter))
    try:
        request = GenerationRequest(prompt="The capital of France is",
                                    sampling=SamplingParams(temperature=0, max_tokens=6),
                                    request_id=f"fb-{percent}", tenant="acme")
        async for _ in service.generate(request):
            pass
        result = await scorer.wait(request.engine_id, 60)
        await asyncio.sleep(0.1)  # the service records the score once the scorer has it
    finally:
        scorer.close()
    points = [p for m in reader.get_metrics_data().resource_metrics[0].scope_metrics[0].metrics
              if m.name == HALLUCINATION_SCORE for p in m.data.data_points]
    assert (result is not None) == scored
    if scored:
        [point] = points
        assert point.count == 1 and point.attributes[INSTANCE] == "fallback"
        assert 0 <= point.sum <= 1
    else:
        assert points == []
