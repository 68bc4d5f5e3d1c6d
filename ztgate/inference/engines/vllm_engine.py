"""The primary engine: vLLM's AsyncLLM (v1) with speculative decoding.

Per-request speculation figures come from vLLM itself (`per_request_spec_decode_metrics`, which
puts the scheduler's own draft/accept counts on the finished CompletionOutput); the instance-wide
totals come from a vLLM stat logger fed by the scheduler's SpecDecodingStats. Nothing is
re-derived from token counts.

vLLM starts its engine core in a child process: a script that starts this engine must do so under
`if __name__ == "__main__":`.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from typing import Any

from ztgate.inference import openmp, vllm_compat
from ztgate.inference.engines.base import Engine
from ztgate.inference.engines.engine_config import EngineConfig
from ztgate.inference.engines.errors import EngineConfigError, SamplingUnsupported
from ztgate.inference.engines.outputs import Delta, FinalStats, SpeculativeStats, Usage
from ztgate.inference.engines.prompt import PromptRenderer
from ztgate.inference.engines.request import GenerationRequest
from ztgate.inference.spec_decode.settings import SpeculativeSettings
from ztgate.inference.vllm_compat import cpu_fixes
from ztgate.inference.vllm_compat.engine_core import bind_engine_core_to_server

logger = logging.getLogger(__name__)


@dataclass
class SpeculativeTotals:
    """Instance-wide speculation counters since start (the scheduler's SpecDecodingStats summed).

    Ratios are left to the reader: acceptance rate = num_accepted_tokens / num_draft_tokens; mean
    acceptance length = 1 + num_accepted_tokens / num_drafts.
    """

    num_drafts: int = 0
    num_draft_tokens: int = 0
    num_accepted_tokens: int = 0
    num_accepted_tokens_per_pos: list[int] = field(default_factory=list)
    # Scheduler snapshot from the latest step: requests running and waiting inside the engine core.
    num_running_reqs: int = 0
    num_waiting_reqs: int = 0

    def add(self, scheduler_stats: Any) -> None:
        """Adds one scheduler step (vLLM's SchedulerStats)."""
        self.num_running_reqs = scheduler_stats.num_running_reqs
        self.num_waiting_reqs = scheduler_stats.num_waiting_reqs
        spec = scheduler_stats.spec_decoding_stats
        if spec is None:
            return
        self.num_drafts += spec.num_drafts
        self.num_draft_tokens += spec.num_draft_tokens
        self.num_accepted_tokens += spec.num_accepted_tokens
        per_pos = self.num_accepted_tokens_per_pos
        if len(per_pos) < len(spec.num_accepted_tokens_per_pos):
            per_pos.extend([0] * (len(spec.num_accepted_tokens_per_pos) - len(per_pos)))
        for i, n in enumerate(spec.num_accepted_tokens_per_pos):
            per_pos[i] += n


def _stat_logger_factory(totals: SpeculativeTotals, lock: threading.Lock) -> Any:
    """A vLLM per-engine stat logger class that adds each step's stats into `totals`."""
    from vllm.v1.metrics.loggers import StatLoggerBase

    class _TotalsLogger(StatLoggerBase):
        def __init__(self, vllm_config: Any, engine_index: int = 0) -> None:
            self.engine_index = engine_index

        def record(self, scheduler_stats: Any, iteration_stats: Any, mm_cache_stats: Any = None,
                   engine_idx: int = 0) -> None:
            if scheduler_stats is not None:
                with lock:
                    totals.add(scheduler_stats)

        def log_engine_initialized(self) -> None:
            pass

    return _TotalsLogger


def speculative_config(config: EngineConfig) -> dict[str, Any] | None:
    """vLLM's `speculative_config` dict for our settings (None: no speculation)."""
    spec = config.speculative
    if spec.method == "none":
        return None
    out: dict[str, Any] = {"method": spec.method, "num_speculative_tokens": spec.num_speculative_tokens}
    if spec.batch_schedule is not None:
        out["num_speculative_tokens_per_batch_size"] = [list(entry) for entry in spec.batch_schedule]
    if spec.method == "ngram":
        out["prompt_lookup_min"] = spec.prompt_lookup_min
        out["prompt_lookup_max"] = spec.prompt_lookup_max
    elif spec.method == "suffix":  # suffix decoding builds its trees from the tokens alone
        out["suffix_decoding_max_cached_requests"] = spec.suffix_cached_requests
        out["suffix_decoding_max_spec_factor"] = spec.suffix_max_spec_factor
    else:
        out["model"] = spec.draft_model
    return out


def emulated_bfloat16_speculation(config: EngineConfig, cpu: bool, native_bfloat16: bool) -> str | None:
    """Why this engine should run without its speculation, or None. In fast parity (bfloat16) on a
    CPU without native bfloat16 (AVX-512 BF16 or AMX) every multiply is emulated, so verifying K
    drafts costs close to K plain steps, and speculation lost to plain decoding in the bench on such
    a CPU (0.65x n-gram, 0.88x suffix decoding: docs/benchmarks.md) while in strict parity (float32)
    it wins. So there it is off, and the engine reports method none."""
    if not cpu or native_bfloat16 or config.parity != "fast" or config.speculative.method == "none":
        return None
    return (f"speculative method {config.speculative.method!r} is off: parity fast (bfloat16) on a CPU "
            "without native bfloat16 (AVX-512 BF16 or AMX), where verifying drafts costs more than they "
            "save; parity strict (float32) speculates, and is faster here")


def _medusa_load_workaround(config: EngineConfig) -> dict[str, Any]:
    """vLLM 0.32's Medusa makes its reduced-vocabulary `token_map` a parameter while loading but leaves
    it out of the names it reports loaded, so the loader's completeness check refuses every Medusa
    checkpoint that has one ("Following weights were not initialized from checkpoint: {'token_map'}").
    Without a token_map each head scores all 49,152 tokens, which on this CPU costs most of a target
    step. So a Medusa engine turns that check off; vLLM still fails on a missing or misshapen tensor
    when it copies it, and our integration test checks the served drafts."""
    if config.speculative.method != "medusa":
        return {}
    return {"model_loader_extra_config": {"enable_weights_track": False}}


def adaptive_drafting_args(config: EngineConfig) -> dict[str, Any]:
    """vLLM engine arguments that load our acceptance-following scheduler (spec_decode/adaptive_scheduler.py)
    when this engine speculates with a draft-token cost; none otherwise (vLLM's own scheduler)."""
    spec = config.speculative
    if spec.method == "none" or spec.draft_token_cost <= 0:
        return {}
    from ztgate.inference.spec_decode.adaptive_scheduler import COST_KEY, QUALNAME

    return {"scheduler_cls": QUALNAME, "additional_config": {COST_KEY: spec.draft_token_cost}}


def vllm_sampling_kwargs(request: GenerationRequest, max_tokens: int) -> dict[str, Any]:
    """Our sampling parameters as keyword arguments of vLLM's SamplingParams (output kind aside)."""
    s = request.sampling
    return {
        "temperature": s.temperature,  # vLLM treats 0 as greedy
        "top_p": s.top_p,
        "top_k": s.top_k,  # 0 disables top-k in vLLM too
        "max_tokens": max_tokens,
        "seed": s.seed,
        "stop": list(s.stop) or None,
        # Only the chosen token's log-probability, raw (the model's own distribution: vLLM's
        # default logprobs_mode), for the inline hallucination score.
        "logprobs": 0 if s.score_inline else None,
    }


class VllmEngine(Engine):
    kind = "vllm"

    def __init__(self, config: EngineConfig) -> None:
        super().__init__(config)
        self._llm: Any = None
        self._totals = SpeculativeTotals()
        self._totals_lock = threading.Lock()
        # vLLM's CPU build (0.32) with speculation samples garbage at temperature > 0 (greedy is exact)
        # unless our fix (ztgate/inference/vllm_compat/cpu_fixes.py) loads into its processes; set at start,
        # when the platform is known.
        self._sampling_broken = False

    def speculative_totals(self) -> SpeculativeTotals:
        """A copy of the instance-wide speculation counters."""
        with self._totals_lock:
            t = self._totals
            return SpeculativeTotals(t.num_drafts, t.num_draft_tokens, t.num_accepted_tokens,
                                     list(t.num_accepted_tokens_per_pos), t.num_running_reqs, t.num_waiting_reqs)

    def engine_unfinished_requests(self) -> int:
        """Requests the frontend still tracks (0 once every request finished or was aborted)."""
        return 0 if self._llm is None else self._llm.get_num_unfinished_requests()

    def engine_args(self) -> Any:
        from vllm.engine.arg_utils import AsyncEngineArgs

        c = self.config
        return AsyncEngineArgs(
            model=str(c.model_dir),
            tokenizer=str(c.model_dir),
            served_model_name=c.model_name,
            dtype=c.dtype,
            max_model_len=c.max_model_len,
            max_num_seqs=c.max_num_seqs,
            enforce_eager=c.enforce_eager,
            # The accelerator settings, one engine argument each (ztgate/inference/accelerator.py).
            **dict(c.accelerator_args),
            speculative_config=speculative_config(c),
            # Per-request draft/accept counts on the finished output (vLLM refuses it without speculation).
            per_request_spec_decode_metrics="none" if c.speculative.method == "none" else "summary",
            disable_log_stats=True,  # no periodic log lines; our stat logger still gets the stats
            enable_log_requests=False,
            **_medusa_load_workaround(c),
            **adaptive_drafting_args(c),
        )

    async def _start(self) -> PromptRenderer:
        # Our patches (vllm_compat) are for one vLLM release: on another, refuse before any is applied.
        vllm_compat.require_supported()
        from vllm.platforms import current_platform
        from vllm.v1.engine.async_llm import AsyncLLM

        if current_platform.is_cpu():
            os.environ["VLLM_CPU_KVCACHE_SPACE"] = str(max(1, self.config.kv_cache_gib))
        import torch

        native_bfloat16 = torch.cpu._is_avx512_bf16_supported() or torch.cpu._is_amx_tile_supported()
        if reason := emulated_bfloat16_speculation(self.config, current_platform.is_cpu(), native_bfloat16):
            logger.warning("%s", reason)
            self.config = replace(self.config, speculative=SpeculativeSettings(method="none"))
        self._sampling_broken = (current_platform.is_cpu() and self.config.speculative.method != "none"
                                 and not cpu_fixes.loaded_by_vllm())
        if self._sampling_broken:
            logger.warning("speculative sampling on vLLM CPU needs the %s plugin (reinstall this project, or "
                           "add it to VLLM_PLUGINS): sampled requests are refused here", cpu_fixes.PLUGIN)
        args = self.engine_args()
        bind_engine_core_to_server()  # its EngineCore process dies with this server, even on SIGKILL
        # Around both steps: vLLM's CPU platform picks the OpenMP its processes preload while it
        # checks the configuration (GNU OpenMP, unless one is preloaded already).
        with openmp.for_engine_processes(current_platform.is_cpu(), self.config.reserved_cpus):
            try:
                vllm_config = args.create_engine_config()
            except Exception as e:  # vLLM raises ValueError, pydantic ValidationError, TypeError, ...
                raise EngineConfigError(self._config_hint(e)) from e
            try:
                self._llm = AsyncLLM.from_vllm_config(
                    vllm_config, stat_loggers=[_stat_logger_factory(self._totals, self._totals_lock)],
                    disable_log_stats=True)
            except Exception as e:
                raise EngineConfigError(self._config_hint(e)) from e
        tokenizer = self._llm.get_tokenizer()
        logger.info("vLLM engine up: model %s, dtype %s, speculative %s, max_model_len %d",
                    self.config.model_name, self.config.dtype, self.config.speculative.method,
                    vllm_config.model_config.max_model_len)
        return PromptRenderer(tokenizer, vllm_config.model_config.max_model_len)

    def _refuse(self, request: GenerationRequest) -> None:
        # Without the fix, "What is the capital of France?" at temperature 0.7 gives "The capital of
        # France is Paris." without speculation and word salad with ngram speculation, on vLLM CPU 0.32.
        # A wrong answer is worse than a refusal that the gateway turns into the fallback's right one.
        if self._sampling_broken and not request.sampling.greedy:
            raise SamplingUnsupported(
                "this instance (vLLM CPU build with speculative decoding, without the "
                f"{cpu_fixes.PLUGIN} plugin) cannot sample correctly at temperature "
                f"{request.sampling.temperature:g}: send temperature 0 (greedy), call through the gateway, "
                "which retries on the fallback instance, or reinstall this project so vLLM loads the fix")

    def _config_hint(self, e: BaseException) -> str:
        spec = self.config.speculative
        detail = {"ngram": f", prompt_lookup_min={spec.prompt_lookup_min}, prompt_lookup_max={spec.prompt_lookup_max}",
                  "suffix": f", suffix_cached_requests={spec.suffix_cached_requests}, "
                            f"suffix_max_spec_factor={spec.suffix_max_spec_factor:g}"}.get(spec.method, f", draft_model={spec.draft_model!r}")
        where = (f"speculative method {spec.method!r} (num_speculative_tokens={spec.num_speculative_tokens}{detail})"
                 if spec.method != "none" else "no speculation")
        return (f"vLLM refused the engine configuration (model {self.config.model_dir}, dtype {self.config.dtype}, "
                f"{where}): {type(e).__name__}: {e}. Fix the setting it names, or start with "
                "--speculative none to check that the model itself loads")

    async def _stream(self, request: GenerationRequest, prompt_ids: list[int], max_tokens: int) -> AsyncIterator[Delta]:
        from vllm import SamplingParams
        from vllm.inputs.engine import tokens_input
        from vllm.sampling_params import RequestOutputKind

        params = SamplingParams(**vllm_sampling_kwargs(request, max_tokens), output_kind=RequestOutputKind.DELTA)
        spec = self.config.speculative
        n_out = 0
        logprobs: list[float] | None = [] if request.sampling.score_inline else None
        stream = self._llm.generate(tokens_input(prompt_ids), params, request.engine_id)
        try:
            async for out in stream:
                comp = out.outputs[0]
                ids = tuple(comp.token_ids)
                n_out += len(ids)
                if logprobs is not None and comp.logprobs:
                    for tok, entry in zip(ids, comp.logprobs):
                        logprobs.append(entry[tok].logprob)
                if not out.finished:
                    yield Delta(ids, comp.text)
                    continue
                m = comp.spec_decode_metrics
                stats = SpeculativeStats(method=spec.method)
                if m is not None:
                    num_accepted = sum(j * c for j, c in enumerate(m.histogram))
                    stats = SpeculativeStats(method=spec.method, num_speculative_tokens=m.num_spec_tokens,
                                             num_drafts=sum(m.histogram), draft_tokens=m.num_draft_tokens,
                                             accepted_tokens=num_accepted)
                elif spec.method != "none":  # aborted: vLLM attaches the counts to finished requests only
                    stats = SpeculativeStats(method=spec.method, num_speculative_tokens=spec.num_speculative_tokens,
                                             counted=False)
                final = FinalStats(
                    usage=Usage(len(prompt_ids), n_out), speculative=stats,
                    token_logprobs=tuple(logprobs) if logprobs else None)
                yield Delta(ids, comp.text, finish_reason=_finish_reason(comp.finish_reason), final=final)
                return
        finally:
            await stream.aclose()  # on cancellation or early close, vLLM aborts the request

    async def _abort(self, engine_id: str) -> None:
        if self._llm is not None:
            await self._llm.abort(engine_id)

    async def _close(self) -> None:
        if self._llm is not None:
            from vllm.v1.metrics.prometheus import unregister_vllm_metrics

            self._llm.shutdown()
            self._llm = None
            # vLLM registers its vllm:* collectors in prometheus_client's default registry; take
            # them out so that nothing of a closed engine lingers in this process.
            unregister_vllm_metrics()


def _finish_reason(reason: str | None) -> Any:
    if reason in ("stop", "length", "abort"):
        return reason
    return "stop" if reason is None else "abort"
