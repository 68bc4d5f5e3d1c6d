"""The Engine template around any engine: readiness, request ids (per tenant), timings, inline
score, abort. `_ScriptedEngine` is a TEST DOUBLE of an engine (no model) that records the ids it is
handed."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ztgate.common.errors import PermissionDenied
from ztgate.common.identity import TENANT_HEADER, TenantAccess
from ztgate.common.semconv import PROBE_TENANT
from ztgate.common.settings import ServerSettings, TlsSettings
from ztgate.gen.inference.v1 import inference_pb2 as pb
from ztgate.inference.config import InstanceSettings
from ztgate.inference.engines.base import Engine, collect
from ztgate.inference.engines.engine_config import EngineConfig
from ztgate.inference.engines.errors import EngineNotReady, InvalidRequest
from ztgate.inference.engines.outputs import Delta, FinalStats, SpeculativeStats, Usage
from ztgate.inference.engines.prompt import PromptRenderer
from ztgate.inference.engines.request import GenerationRequest, SamplingParams, engine_request_id
from ztgate.inference.server import InferenceServicer, tenant_access
from ztgate.inference.service import InferenceService
from tests.fake_context import FakeContext


class _Tokenizer:
    def __call__(self, text, add_special_tokens=True):
        return {"input_ids": [len(w) for w in text.split()]}


class _ScriptedEngine(Engine):
    """Emits one token per step, `n` tokens, optionally with log-probabilities."""

    kind = "scripted"

    def __init__(self, n: int = 4, logprob: float | None = None) -> None:
        super().__init__(EngineConfig(model_dir=Path("/unused")))
        self.n, self.logprob = n, logprob
        self.aborted: list[str] = []
        self.started: list[str] = []  # engine ids handed to _stream

    async def start(self) -> None:  # no model folder to check
        self._renderer = await self._start()
        self._ready = True

    async def _start(self) -> PromptRenderer:
        return PromptRenderer(_Tokenizer(), max_model_len=50)

    async def _stream(self, request, prompt_ids, max_tokens):
        self.started.append(request.engine_id)
        n = min(self.n, max_tokens)
        for i in range(n - 1):
            await asyncio.sleep(0.001)
            yield Delta((i,), f"t{i} ")
        lps = (self.logprob,) * n if request.sampling.score_inline and self.logprob is not None else None
        yield Delta((n - 1,), "end", finish_reason="length" if n == max_tokens else "stop",
                    final=FinalStats(Usage(len(prompt_ids), n), SpeculativeStats(), token_logprobs=lps))

    async def _abort(self, request_id):
        self.aborted.append(request_id)

    async def _close(self):
        pass


async def test_generate_before_start_is_unavailable():
    with pytest.raises(EngineNotReady):
        await collect(_ScriptedEngine().generate(GenerationRequest(prompt="hi")), "x")


async def test_a_finished_stream_carries_usage_timings_model_and_prompt_ids():
    engine = _ScriptedEngine(n=4)
    await engine.start()
    r = await collect(engine.generate(GenerationRequest(prompt="aa bbb")), "x")
    assert r.text == "t0 t1 t2 end" and r.token_ids == (0, 1, 2, 3) and r.finish_reason == "stop"
    assert r.final.usage == Usage(2, 4) and r.final.prompt_token_ids == (2, 3)
    t = r.final.timings
    assert 0 < t.ttft_ms <= t.total_ms and t.tpot_ms > 0
    assert r.final.model == "SmolLM2-135M-Instruct" and r.final.hallucination_score is None
    assert engine.inflight == 0 and engine.aborted == []


async def test_inline_score_is_computed_from_the_engine_logprobs_only_when_asked():
    engine = _ScriptedEngine(n=3, logprob=math.log(0.5))
    await engine.start()
    asked = GenerationRequest(prompt="a", sampling=SamplingParams(score_inline=True))
    r = await collect(engine.generate(asked), "x")
    assert r.final.hallucination_score == pytest.approx(0.5)
    r = await collect(engine.generate(GenerationRequest(prompt="a")), "y")
    assert r.final.hallucination_score is None


async def test_a_nan_logprob_yields_no_score_rather_than_a_wrong_one():
    engine = _ScriptedEngine(n=2, logprob=math.nan)
    await engine.start()
    r = await collect(engine.generate(GenerationRequest(prompt="a", sampling=SamplingParams(score_inline=True))), "x")
    assert r.final.hallucination_score is None


async def test_max_tokens_is_clamped_by_the_context_before_the_engine_sees_it():
    engine = _ScriptedEngine(n=100)
    await engine.start()
    r = await collect(engine.generate(GenerationRequest(prompt="w " * 47)), "x")  # 47 of 50 tokens used
    assert len(r.token_ids) == 3 and r.finish_reason == "length"


async def test_closing_a_stream_early_aborts_the_request_and_frees_its_id():
    engine = _ScriptedEngine(n=10)
    await engine.start()
    req = GenerationRequest(prompt="a", request_id="r1")
    stream = engine.generate(req)
    await stream.__anext__()
    assert engine.inflight == 1
    with pytest.raises(InvalidRequest, match="already in flight"):
        await collect(engine.generate(GenerationRequest(prompt="b", request_id="r1")), "r1")
    await stream.aclose()
    assert engine.aborted == [req.engine_id] and engine.inflight == 0
    assert not await engine.abort("r1")


async def test_a_cancelled_consumer_aborts_the_request():
    engine = _ScriptedEngine(n=10_000)
    await engine.start()
    got = asyncio.Event()

    async def consume():
        async for _ in engine.generate(GenerationRequest(prompt="a", request_id="c1")):
            got.set()

    task = asyncio.create_task(consume())
    await got.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert engine.aborted == [engine_request_id("", "c1")] and engine.inflight == 0


# --- request ids are per tenant ---------------------------------------------------------------------------

async def test_one_tenant_reusing_anothers_request_id_never_touches_it():
    engine = _ScriptedEngine(n=10)
    await engine.start()
    acme = engine.generate(GenerationRequest(prompt="a", request_id="same", tenant="acme"))
    await acme.__anext__()
    # mallory sends acme's in-flight id: served as its own request, acme's is not refused or aborted
    other = await collect(engine.generate(GenerationRequest(prompt="b", request_id="same", tenant="mallory")), "same")
    assert other.finish_reason == "stop" and other.request_id == "same"
    assert not await engine.abort("same", tenant="mallory")  # mallory's finished; acme's is not its to abort
    assert engine.aborted == [] and engine.inflight == 1
    rest = [d async for d in acme]
    assert rest[-1].finish_reason == "stop"
    assert engine.started == [engine_request_id("acme", "same"), engine_request_id("mallory", "same")]
    assert len(set(engine.started)) == 2


async def test_the_same_tenant_reusing_its_own_in_flight_id_is_refused():
    engine = _ScriptedEngine(n=10)
    await engine.start()
    first = engine.generate(GenerationRequest(prompt="a", request_id="r", tenant="acme"))
    await first.__anext__()
    with pytest.raises(InvalidRequest, match="already in flight here for this tenant"):
        await collect(engine.generate(GenerationRequest(prompt="b", request_id="r", tenant="acme")), "r")
    assert await engine.abort("r", tenant="acme")
    await first.aclose()


@given(st.tuples(st.text(max_size=20), st.text(max_size=20)), st.tuples(st.text(max_size=20), st.text(max_size=20)))
def test_engine_ids_of_different_tenant_and_id_pairs_never_collide(a, b):
    assert (engine_request_id(*a) == engine_request_id(*b)) == (a == b)



class _RecordingScorer:
    """TEST DOUBLE of the background scorer: scores every submission at once, keyed as given."""

    def __init__(self) -> None:
        self.scores: dict[str, object] = {}

    def submit(self, key, prompt_ids, completion_ids) -> bool:
        self.scores[key] = type("Score", (), {"score": 0.25 if "acme" in key else 0.75})()
        return True

    def result(self, key):
        return self.scores.get(key)

    async def wait(self, key, timeout):
        return self.scores.get(key)

    def is_pending(self, key) -> bool:
        return False


async def test_through_the_servicer_request_ids_and_scores_belong_to_the_callers_tenant():
    """The InferenceServicer with the scripted engine, called as Envoy (FakeContext, TEST DOUBLE:
    Envoy's certificate and the tenant header it sets): the reply carries the client's request_id,
    the engine a per-tenant id, and GetScore answers only the caller's own request."""
    engine = _ScriptedEngine(n=3)
    await engine.start()
    scorer = _RecordingScorer()
    instance = InstanceSettings(name="primary", server=ServerSettings(listen="127.0.0.1:0"), engine="transformers")
    servicer = InferenceServicer(InferenceService(engine, instance, scorer=scorer), TenantAccess(None))

    def as_tenant(tenant: str) -> FakeContext:
        return FakeContext("envoy", ((TENANT_HEADER, tenant),))

    for tenant in ("acme", "mallory"):
        reply = await servicer.Generate(pb.GenerateRequest(prompt="a", request_id="same", tenant="acme"),
                                        as_tenant(tenant))
        assert reply.request_id == "same"
    assert engine.started == [engine_request_id("acme", "same"), engine_request_id("mallory", "same")]
    await asyncio.sleep(0)  # let the score reports run
    scores = {t: await servicer.GetScore(pb.ScoreRequest(request_id="same"), as_tenant(t))
              for t in ("acme", "mallory", "globex")}
    assert (scores["acme"].state, scores["acme"].hallucination_score) == ("scored", 0.25)
    assert (scores["mallory"].state, scores["mallory"].hallucination_score) == ("scored", 0.75)
    assert scores["globex"].state == "unknown" and not scores["globex"].HasField("hallucination_score")
    # The request's own tenant field is not Envoy's to pass on: the header decides.
    named = await servicer.GetScore(pb.ScoreRequest(request_id="same", tenant="acme"), as_tenant("globex"))
    assert named.state == "unknown" and not named.HasField("hallucination_score")


@pytest.mark.parametrize("tenant, allowed", [(PROBE_TENANT, True), ("acme", False), ("", False)])
def test_the_collector_may_probe_an_instance_as_the_probe_tenant_only(tenant: str, allowed: bool) -> None:
    """The collector's SLO probes reach the primary with its `telemetry` certificate (FakeContext,
    TEST DOUBLE for the handshake): an instance lets it act for the probes' tenant, with the
    default `server.tls.tenants`, and for no other."""
    access = tenant_access(TlsSettings(cert=Path("/c"), key=Path("/k"), client_ca=Path("/ca")))
    if allowed:
        assert access.caller_tenant(FakeContext("telemetry"), tenant) == tenant
    else:
        with pytest.raises(PermissionDenied, match="telemetry may not act for tenant"):
            access.caller_tenant(FakeContext("telemetry"), tenant)
    assert access.caller_tenant(FakeContext("operator"), "acme") == "acme"  # the settings still hold
