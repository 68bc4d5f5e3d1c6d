"""The `speculative:` section of an inference instance (ztgate.yaml), and the engine's speculative
settings it resolves to (`speculative_settings`: what `auto` stands for, the default draft-token
cost, and the trained speculator a section without `draft_model` serves)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field

from ztgate.common.settings import Strict
from ztgate.inference import models
from ztgate.inference.spec_decode.settings import (
    DEFAULT_DRAFT_TOKEN_COST,
    FIXED_DRAFT_COUNT,
    MAX_DRAFT_TOKEN_COST,
    MAX_SUFFIX_SPEC_FACTOR,
    SELF_GATING,
    SUFFIX_MAX_SPEC_FACTOR,
    SpeculativeSettings,
)
from ztgate.inference.spec_decode.speculator_lookup import default_speculator

# `auto` schedules' last batch size: past any max_num_seqs this project sets.
AUTO_SCHEDULE_LAST_BATCH = 1024


class SpeculativeSection(Strict):
    # none, ngram (prompt lookup; no extra weights), suffix (suffix trees over the prompt and the
    # answer so far, from arctic-inference, which `make install` builds), draft_model, eagle, eagle3,
    # medusa.
    method: Literal["none", "ngram", "suffix", "draft_model", "eagle", "eagle3", "medusa"] = "ngram"
    # Tokens proposed per verification step.
    num_speculative_tokens: int = Field(default=8, ge=1)
    # ngram: shortest and longest n-gram matched against the context.
    prompt_lookup_min: int = Field(default=1, ge=1)
    prompt_lookup_max: int = Field(default=4, ge=1)
    # draft_model / eagle / eagle3 / medusa: path of the draft model or speculator weights (eagle3,
    # medusa: the folder `ztgate models train-speculator` writes; unset: the one it wrote to the model
    # cache for the served model, else, for the default model, the checkpoint shipped in
    # ztgate/inference/speculator_checkpoints/; docs/speculator.md).
    draft_model: str | None = None
    # vLLM's dynamic speculation: [first, last, tokens] per inclusive range of the running batch
    # size (from 1, sorted); past the last range its tokens hold. null: num_speculative_tokens at
    # every batch size. auto: null while draft_token_cost drafts by acceptance (which weighs the
    # batch size itself); with draft_token_cost 0, speculate alone and run a batch plain
    # ([[1, 1, K], [2, 1024, 0]]). For medusa and suffix auto is always null: vLLM 0.32 cannot
    # change their draft count per step.
    num_speculative_tokens_per_batch_size: Literal["auto"] | list[tuple[int, int, int]] | None = "auto"
    # vLLM engines: what verifying one more token in a step costs, as a fraction of a one-token
    # step. Each request then verifies only the drafts whose estimated acceptance pays for them at
    # the current batch size, and none while its drafts keep failing (ztgate/inference/
    # spec_decode/draft_policy.py). The default is measured on this project's 2-core CPU; on a GPU,
    # where verifying a few tokens costs about one step, set ~0. 0 verifies every draft proposed.
    # null (the default): 0.05, except 0 for suffix decoding, whose trees already
    # draft only what their counts make likely (why, with the figures: docs/operations/deploying.md).
    draft_token_cost: float | None = Field(default=None, ge=0, le=MAX_DRAFT_TOKEN_COST)
    # suffix: finished answers kept in the global suffix tree for later requests to draft from. 0 (the
    # default): each request drafts from its own prompt and answer only. More makes repeated answers
    # faster, and makes a request's speed depend on other requests' answers, other tenants' included
    # (a timing side channel, like a shared prefix cache's): raise it only where all callers share a
    # trust domain (docs/security.md).
    suffix_cached_requests: int = Field(default=0, ge=0)
    # suffix: a draft is at most this many times as long as the context it matched (vLLM's
    # suffix_decoding_max_spec_factor; its default is 1.0). 2.0 drafts further into a copy that has
    # just begun; measured in docs/benchmarks.md.
    suffix_max_spec_factor: float = Field(default=SUFFIX_MAX_SPEC_FACTOR, gt=0, le=MAX_SUFFIX_SPEC_FACTOR)

    def token_cost(self) -> float:
        """draft_token_cost, or this method's default where it is unset."""
        if self.draft_token_cost is not None:
            return self.draft_token_cost
        return 0.0 if self.method in SELF_GATING else DEFAULT_DRAFT_TOKEN_COST

    def batch_schedule(self) -> tuple[tuple[int, int, int], ...] | None:
        """The engine's schedule: what `auto` stands for with this method, else the one set."""
        schedule = self.num_speculative_tokens_per_batch_size
        if schedule == "auto":
            if self.method in FIXED_DRAFT_COUNT or self.token_cost() > 0:
                return None
            return ((1, 1, self.num_speculative_tokens), (2, AUTO_SCHEDULE_LAST_BATCH, 0))
        return None if schedule is None else tuple((first, last, tokens) for first, last, tokens in schedule)


def speculative_settings(spec: SpeculativeSection, model_dir: Path | None = None) -> SpeculativeSettings:
    """The engine's speculative settings from an instance's `speculative:` section; an eagle3 or
    medusa section without `draft_model` gets the speculator trained for the served model (the
    folder `model_dir` names; default: the default model), or the shipped one for the default model."""
    draft_model = spec.draft_model
    model = model_dir.name if model_dir is not None else models.DEFAULT_MODEL
    if draft_model is None and (found := default_speculator(spec.method, model=model)) is not None:
        draft_model = str(found)
    return SpeculativeSettings(
        method=spec.method, num_speculative_tokens=spec.num_speculative_tokens,
        prompt_lookup_min=spec.prompt_lookup_min, prompt_lookup_max=spec.prompt_lookup_max,
        draft_model=draft_model, suffix_cached_requests=spec.suffix_cached_requests,
        suffix_max_spec_factor=spec.suffix_max_spec_factor,
        batch_schedule=spec.batch_schedule(), draft_token_cost=spec.token_cost())
