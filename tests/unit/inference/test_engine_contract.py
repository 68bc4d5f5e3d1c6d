"""The Engine template around any engine: readiness, request ids, timings, inline score, abort."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path

import pytest

from services.inference.engines.base import (
    Delta,
    Engine,
    EngineConfig,
    EngineNotReady,
    FinalStats,
    GenerationRequest,
    InvalidRequest,
    PromptRenderer,
    SamplingParams,
    SpeculativeStats,
    Usage,
    collect,
)


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

    async def start(self) -> None:  # no model folder to check
        self._renderer = await self._start()
        self._ready = True

    async def _start(self) -> PromptRenderer:
        return PromptRenderer(_Tokenizer(), max_model_len=50)

    async def _stream(self, request, prompt_ids, max_tokens):
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
    assert engine.aborted == ["r1"] and engine.inflight == 0
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
    assert engine.aborted == ["c1"] and engine.inflight == 0
