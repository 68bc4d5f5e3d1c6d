"""The inference service's domain: admission, one engine, metrics, scores off the request path.

The primary holds each try to its first-token budget (ztgate/common/first_token.py), counted in
the prompt's real tokens, which only this service knows (it tokenises the prompt): a first token
not there by then ends the try with UNAVAILABLE, which Envoy retries on the fallback, and is
reported as a miss with its tenant, as is a try it refuses at its admission limit. The gateway's per-try timeout, from bytes, is only an outer
bound. The fallback, the last resort, leaves its tries to that bound."""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import AsyncIterator
from typing import Any
from pathlib import Path

from ztgate.common.errors import Unavailable
from ztgate.common.first_token import SCORE_WAIT_MAX_S, FirstTokenBudget
from ztgate.inference import accelerator, models, vllm_compat
from ztgate.inference.admission import AdmissionLimiter, Overloaded
from ztgate.inference.config import InferenceSettings, InstanceSettings
from ztgate.inference.engines.base import Engine
from ztgate.inference.engines.engine_config import EngineConfig
from ztgate.inference.engines.outputs import Delta
from ztgate.inference.engines.request import GenerationRequest, engine_request_id
from ztgate.inference.hallucination import HallucinationScorer, sampled
from ztgate.inference.limits import RequestLimits
from ztgate.inference.metrics import InferenceMetrics
from ztgate.inference.spec_decode.section import speculative_settings

log = logging.getLogger(__name__)


def engine_config(settings: InferenceSettings, instance: InstanceSettings) -> EngineConfig:
    model_dir = Path(settings.model_dir or models.model_dir())
    return EngineConfig(
        model_dir=model_dir,
        model_name=settings.model_name, parity=instance.parity,
        speculative=speculative_settings(instance.speculative, model_dir),
        max_model_len=instance.max_model_len, max_num_seqs=instance.max_num_seqs,
        kv_cache_gib=instance.kv_cache_gib, reserved_cpus=instance.reserved_cpus,
        enforce_eager=instance.enforce_eager,
        accelerator_args=tuple(accelerator.engine_kwargs(instance.accelerator).items()))


class FirstTokenLate(Unavailable):
    """No first token within the prompt's first-token budget (UNAVAILABLE: Envoy retries the call
    on the other instance)."""


def build_engine(config: EngineConfig, kind: str) -> Engine:
    """Imports only the stack that runs: a vLLM failure cannot stop the transformers instance."""
    config.check()
    if kind == "vllm":
        from ztgate.inference.engines.vllm_engine import VllmEngine

        return VllmEngine(config)
    from ztgate.inference.engines.transformers_engine import TransformersEngine

    return TransformersEngine(config)


class InferenceService:
    def __init__(self, engine: Engine, instance: InstanceSettings, *,
                 scorer: HallucinationScorer | None = None,
                 metrics: InferenceMetrics | None = None, model_dir: Path | None = None,
                 limits: RequestLimits | None = None,
                 budget: FirstTokenBudget | None = None, hold_budget: bool = False,
                 max_tenants: int | None = None) -> None:
        """`budget`: the first-token budget, for the excess the SLO judges; `hold_budget`: end each
        try past the budget of its prompt's real tokens (the primary); `max_tenants`: tenants
        named in the metrics' tenant label (InferenceSettings.metrics_max_tenants)."""
        self.engine = engine
        self.instance = instance
        self.limits = limits or RequestLimits()
        self.limiter = AdmissionLimiter(instance.max_inflight)
        self.scorer = scorer
        self.metrics = metrics or InferenceMetrics(engine.model_name, instance.name, budget=budget,
                                                   max_tenants=max_tenants)
        self.budget = budget if budget is not None else self.metrics.budget
        self.hold_budget = hold_budget and self.budget is not None
        self._model_dir = model_dir

    @classmethod
    def from_settings(cls, settings: InferenceSettings, instance: InstanceSettings,
                      limits: RequestLimits,
                      budget: FirstTokenBudget | None = None) -> InferenceService:
        """`budget`: the first-token budget (gateway settings), which the primary holds its tries to."""
        config = engine_config(settings, instance)
        if instance.engine == "vllm":
            # Before any weight is loaded: a vLLM release our patches were not written for, or a
            # setting the installed vLLM build cannot honour, stops the start naming it
            # (EngineConfigError).
            vllm_compat.require_supported()
            key = next((k for k in ("primary", "fallback") if getattr(settings, k) == instance), instance.name)
            accelerator.check(instance.accelerator, f"inference.{key}.accelerator")
        return cls(build_engine(config, instance.engine), instance, model_dir=config.model_dir,
                   limits=limits, budget=budget, hold_budget=instance == settings.primary,
                   max_tenants=settings.metrics_max_tenants)

    @property
    def served_by(self) -> str:
        return self.instance.name

    async def start(self) -> None:
        """Loads and warms the engine (health stays NOT_SERVING until this returns)."""
        if not self.engine.ready:
            await self.engine.start()
        if self.instance.background_scoring and self.scorer is None and self._model_dir:
            self.scorer = await asyncio.to_thread(HallucinationScorer.from_model_dir, self._model_dir)
            self.scorer.start()
        log.info("engine ready", extra={"served_by": self.served_by})

    async def close(self) -> None:
        if self.scorer is not None:
            await asyncio.to_thread(self.scorer.close)
        await self.engine.close()

    async def generate(self, request: GenerationRequest) -> AsyncIterator[Delta]:
        """Streams deltas; RESOURCE_EXHAUSTED at once past the in-flight limit, and a request past
        the shape limits refused before it takes a slot. Cancelling the consumer aborts the request
        inside the engine (Engine.generate's contract)."""
        self.limits.check(prompt=request.prompt, contents=[m.content for m in request.messages],
                          stops=request.sampling.stop, max_tokens=request.sampling.max_tokens)
        if not self.limiter.try_acquire():
            if self.hold_budget:  # Envoy retries it elsewhere: a miss of this caller's (issue #28)
                self.metrics.first_token_missed(request.tenant)
            raise Overloaded(f"{self.limiter.limit} requests are in flight on {self.served_by}; "
                             "retry later or elsewhere")
        started = time.perf_counter()
        completion: list[int] = []
        try:
            stream = self._held(request, started) if self.hold_budget else self.engine.generate(request)
            async for delta in stream:
                if not completion and delta.token_ids:
                    self.metrics.first_token(time.perf_counter() - started, request.tenant,
                                             delta.prompt_tokens)
                completion.extend(delta.token_ids)
                final = delta.final
                if final is not None:
                    self.metrics.finished(final, request.tenant)
                    if final.hallucination_score is None:
                        self.submit_score(request.engine_id, final.prompt_token_ids,
                                          tuple(completion), request.tenant)
                yield delta
        finally:
            self.limiter.release()

    async def _held(self, request: GenerationRequest, started: float) -> AsyncIterator[Delta]:
        """The engine's stream, ended (FirstTokenLate) when its first token is not there within the
        budget of the prompt's real token count, which the engine reports once it has tokenised it."""
        assert self.budget is not None
        budget = self.budget
        loop = asyncio.get_running_loop()
        held: dict[str, Any] = {}

        def arm(prompt_tokens: int) -> None:
            held["budget_s"] = budget.budget_s(prompt_tokens)
            held["tokens"] = prompt_tokens
            held["scope"].reschedule(loop.time() + held["budget_s"] - (time.perf_counter() - started))

        stream = self.engine.generate(request, on_prompt=arm)
        early: list[Delta] = []
        try:
            try:
                async with asyncio.timeout(None) as scope:
                    held["scope"] = scope
                    async for delta in stream:
                        early.append(delta)
                        if delta.token_ids or delta.final is not None:
                            break
            except TimeoutError:
                if not scope.expired():
                    raise
                self.metrics.first_token_missed(request.tenant)
                raise FirstTokenLate(
                    f"no first token within this prompt's first-token budget ({held['budget_s']:.1f} s for "
                    f"{held['tokens']} prompt tokens) on {self.served_by}: the try ends here, and through the "
                    "gateway the call is retried on the other instance") from None
            for delta in early:
                yield delta
            async for delta in stream:
                yield delta
        finally:
            await stream.aclose()

    def submit_score(self, engine_id: str, prompt_ids: tuple[int, ...],
                     completion_ids: tuple[int, ...], tenant: str) -> None:
        """Queues a finished answer for the background scorer (never blocks; drops when full),
        under its `engine_id`: a tenant asks for its own request's score, never another's."""
        if self.scorer is None or not sampled(engine_id, self.instance.score_sample_percent):
            return
        if self.scorer.submit(engine_id, prompt_ids, completion_ids):
            asyncio.get_running_loop().create_task(self._report_score(engine_id, tenant))

    async def _report_score(self, engine_id: str, tenant: str) -> None:
        assert self.scorer is not None
        result = await self.scorer.wait(engine_id, timeout=120)
        if result is not None:
            self.metrics.score(result.score, tenant)

    async def score(self, tenant: str, request_id: str, wait_s: float) -> tuple[float | None, str]:
        """(score, state) of the tenant's finished request; state is scored, pending or unknown
        (another tenant's request of the same id is unknown here). Waits up to `wait_s`, clamped
        to 0..SCORE_WAIT_MAX_S (NaN: no wait)."""
        if self.scorer is None:
            return None, "unknown"
        key = engine_request_id(tenant, request_id)
        wait_s = 0.0 if math.isnan(wait_s) else min(max(wait_s, 0.0), SCORE_WAIT_MAX_S)
        result = (await self.scorer.wait(key, wait_s) if wait_s > 0 else self.scorer.result(key))
        if result is not None:
            return result.score, "scored"
        return None, "pending" if self.scorer.is_pending(key) else "unknown"
