"""vLLM's scheduler, verifying only the drafts that pay (draft_policy.py beside it).

vLLM 0.32 can change the draft count by batch size only. This subclass, loaded through vLLM's
`scheduler_cls` into the engine-core process, also follows each request's acceptance: it records what
was accepted, keeps only the drafts worth verifying, and asks model drafters for no more tokens than
any request will keep. The cost figure comes in through `additional_config` under COST_KEY. Details:
docs/architecture.md ("Module notes").
"""

from __future__ import annotations

from typing import Any

from vllm.v1.core.sched.scheduler import Scheduler

from ztgate.inference.spec_decode.draft_policy import AcceptanceEstimate, draft_limit
from ztgate.inference.spec_decode.settings import FIXED_DRAFT_COUNT

COST_KEY = "ztgate_draft_token_cost"
QUALNAME = f"{__name__}.AdaptiveDraftScheduler"


class AdaptiveDraftScheduler(Scheduler):
    def __init__(self, vllm_config: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(vllm_config, *args, **kwargs)
        extra = vllm_config.additional_config if isinstance(vllm_config.additional_config, dict) else {}
        self._cost = float(extra.get(COST_KEY, 0.0))
        spec = vllm_config.speculative_config
        self._count_per_step = spec is not None and spec.method not in FIXED_DRAFT_COUNT
        self._estimates: dict[str, AcceptanceEstimate] = {}

    def _limit(self, request_id: str, batch: int) -> int:
        estimate = self._estimates.get(request_id)
        rate = estimate.rate if estimate is not None else AcceptanceEstimate().rate
        return draft_limit(rate, self._cost, batch, self.num_spec_tokens)

    def schedule(self, *args: Any, **kwargs: Any) -> Any:
        out = super().schedule(*args, **kwargs)
        if self._count_per_step and out.num_spec_tokens_to_schedule > 0 and out.num_scheduled_tokens:
            batch = len(out.num_scheduled_tokens)
            wanted = max(self._limit(rid, batch) for rid in out.num_scheduled_tokens)
            out.num_spec_tokens_to_schedule = min(out.num_spec_tokens_to_schedule, wanted)
        return out

    def update_from_output(self, scheduler_output: Any, model_runner_output: Any) -> Any:
        self._observe(scheduler_output, model_runner_output)
        return super().update_from_output(scheduler_output, model_runner_output)

    def update_draft_token_ids(self, draft_token_ids: Any) -> None:
        super().update_draft_token_ids(draft_token_ids)
        batch = max(1, len(self.running))
        for rid in draft_token_ids.req_ids:
            request = self.requests.get(rid)
            if request is None or not request.spec_token_ids:
                continue
            keep = self._limit(rid, batch)
            if len(request.spec_token_ids) > keep:
                request.spec_token_ids = list(request.spec_token_ids[:keep])

    def _observe(self, scheduler_output: Any, model_runner_output: Any) -> None:
        """Fades every estimate by a step, drops finished requests', and adds this step's outcomes."""
        for rid in list(self._estimates):
            if rid in self.requests:
                self._estimates[rid].fade()
            else:
                del self._estimates[rid]
        verified = scheduler_output.scheduled_spec_decode_tokens
        sampled = model_runner_output.sampled_token_ids if model_runner_output is not None else None
        if not verified or not sampled:
            return
        index = model_runner_output.req_id_to_index
        for rid, drafts in verified.items():
            i = index.get(rid)
            if i is None or i >= len(sampled) or not len(sampled[i]) or rid not in self.requests:
                continue
            drafted = sum(1 for token in drafts if token >= 0)  # -1: a draft the grammar refused
            self._estimates.setdefault(rid, AcceptanceEstimate()).record(drafted, len(sampled[i]) - 1)
