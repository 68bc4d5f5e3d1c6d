"""The engine interface: the Engine base class both engines (vLLM, transformers) extend, and
`collect`, which gathers a stream into one answer.

`Engine.generate` validates, renders (PromptRenderer) and times every request the same way whichever
engine serves it; the engines only turn prompt token ids into streamed output tokens.
"""

from __future__ import annotations

import dataclasses
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from typing import Any, ClassVar

from ztgate.inference import hallucination
from ztgate.inference.engines.engine_config import EngineConfig
from ztgate.inference.engines.errors import EngineNotReady, InvalidRequest
from ztgate.inference.engines.outputs import Completion, Delta, FinalStats, Timings
from ztgate.inference.engines.prompt import PromptRenderer
from ztgate.inference.engines.request import GenerationRequest, SamplingParams, engine_request_id

# Warms an engine up at start: repetitive, so that speculation has drafts to propose and verify.
WARMUP_PROMPT = "one two three four, one two three four, one two three four, one two"


class Engine(ABC):
    """Loads a model, warms it up and streams generations.

    Subclasses implement `_start`, `_stream`, `_abort` and `_close`; `generate` wraps `_stream`
    with validation, prompt rendering, request-id bookkeeping and timings.
    """

    kind: ClassVar[str]

    def __init__(self, config: EngineConfig) -> None:
        self.config = config
        self._renderer: PromptRenderer | None = None
        self._ready = False
        self._inflight: set[str] = set()

    @property
    def ready(self) -> bool:
        return self._ready

    @property
    def model_name(self) -> str:
        return self.config.model_name

    @property
    def speculative_method(self) -> str:
        return self.config.speculative.method

    @property
    def max_model_len(self) -> int:
        if self._renderer is None:
            raise EngineNotReady("the engine has not started")
        return self._renderer.max_model_len

    @property
    def tokenizer(self) -> Any:
        if self._renderer is None:
            raise EngineNotReady("the engine has not started")
        return self._renderer.tokenizer

    @property
    def inflight(self) -> int:
        """Requests in flight on this engine (streams not yet finished or closed)."""
        return len(self._inflight)

    async def start(self) -> None:
        """Loads the model and runs a warm-up generation; `ready` is True afterwards."""
        self.config.check()
        self._renderer = await self._start()
        try:
            # A repetitive prompt and a few tokens, so that speculation proposes and verifies drafts
            # (vLLM compiles its n-gram proposer on first use: that belongs to start, not to a request).
            async for _ in self.generate(GenerationRequest(
                    prompt=WARMUP_PROMPT, sampling=SamplingParams(temperature=0, max_tokens=8)), _warmup=True):
                pass
        except BaseException:
            await self._close()
            raise
        self._ready = True

    async def generate(self, request: GenerationRequest, *, on_prompt: Callable[[int], None] | None = None,
                       _warmup: bool = False) -> AsyncGenerator[Delta, None]:
        """Streams the answer. Raises InvalidRequest before the first delta when the request cannot
        be served. Closing or cancelling the iteration aborts the request inside the engine.
        `on_prompt` is told the prompt's token count as soon as it is tokenised, before the model
        runs (the service's first-token budget)."""
        if not (self._ready or _warmup) or self._renderer is None:
            raise EngineNotReady("the engine is not ready (starting or closed)")
        key = request.engine_id
        if key in self._inflight:
            raise InvalidRequest(
                f"request_id {request.request_id!r} is already in flight here for this tenant; send a "
                "unique id or none")
        prompt_ids, max_tokens = self._renderer.render(request)
        self._refuse(request)  # after validation: a bad request is INVALID_ARGUMENT wherever it goes
        if on_prompt is not None:
            on_prompt(len(prompt_ids))
        self._inflight.add(key)
        t0 = time.perf_counter()
        t_first: float | None = None
        n_out = 0
        finished = False
        try:
            async for delta in self._stream(request, prompt_ids, max_tokens):
                if delta.token_ids and t_first is None:
                    t_first = time.perf_counter()
                    delta = dataclasses.replace(delta, prompt_tokens=len(prompt_ids))
                n_out += len(delta.token_ids)
                if delta.final is not None:
                    finished = True
                    self._inflight.discard(key)  # done, whether or not the consumer reads on
                    delta = dataclasses.replace(delta, final=self._finish(delta.final, prompt_ids, t0, t_first, n_out))
                yield delta
        finally:
            self._inflight.discard(key)
            if not finished:
                await self._abort(key)

    def _finish(self, final: FinalStats, prompt_ids: list[int], t0: float, t_first: float | None,
                n_out: int) -> FinalStats:
        now = time.perf_counter()
        ttft = ((t_first or now) - t0) * 1e3
        total = (now - t0) * 1e3
        tpot = (total - ttft) / (n_out - 1) if n_out > 1 else 0.0
        score = final.hallucination_score
        if score is None and final.token_logprobs:
            try:
                score = hallucination.score_from_logprobs(final.token_logprobs).score
            except ValueError:  # e.g. a NaN from the engine: no score rather than a wrong one
                score = None
        return dataclasses.replace(final, timings=Timings(ttft, total, tpot), hallucination_score=score,
                                   model=self.model_name, prompt_token_ids=tuple(prompt_ids))

    async def abort(self, request_id: str, tenant: str = "") -> bool:
        """Aborts the tenant's in-flight request; False when it has no such request in flight here."""
        key = engine_request_id(tenant, request_id)
        if key not in self._inflight:
            return False
        await self._abort(key)
        return True

    async def close(self) -> None:
        self._ready = False
        await self._close()

    def _refuse(self, request: GenerationRequest) -> None:
        """Raises when this engine cannot serve `request` as asked (before anything starts)."""

    @abstractmethod
    async def _start(self) -> PromptRenderer: ...

    @abstractmethod
    def _stream(self, request: GenerationRequest, prompt_ids: list[int], max_tokens: int) -> AsyncIterator[Delta]:
        """Yields deltas; the last one has finish_reason and final (usage, speculative stats and,
        for score_inline, token_logprobs) set. The engine knows the request as `request.engine_id`."""

    @abstractmethod
    async def _abort(self, engine_id: str) -> None: ...

    @abstractmethod
    async def _close(self) -> None: ...


async def collect(stream: AsyncIterator[Delta], request_id: str) -> Completion:
    """Consumes a stream into one Completion (the unary Generate)."""
    texts: list[str] = []
    ids: list[int] = []
    last: Delta | None = None
    async for d in stream:
        texts.append(d.text)
        ids.extend(d.token_ids)
        last = d
    if last is None or last.final is None:
        raise RuntimeError("the engine stream ended without a final delta")
    return Completion(request_id, "".join(texts), tuple(ids), last.finish_reason or "stop", last.final)
