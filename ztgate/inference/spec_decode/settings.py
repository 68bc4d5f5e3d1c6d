"""Speculative decoding's methods, their limits and the engine's speculative settings, checked
before anything loads so that a bad setting stops start-up with its name."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ztgate.inference.engines.errors import EngineConfigError

SpeculativeMethod = Literal["none", "ngram", "suffix", "draft_model", "eagle", "eagle3", "medusa"]
SPECULATIVE_METHODS: tuple[str, ...] = ("none", "ngram", "suffix", "draft_model", "eagle", "eagle3", "medusa")
# Methods that need a second set of weights (a draft model or a speculator head).
METHODS_WITH_WEIGHTS: tuple[str, ...] = ("draft_model", "eagle", "eagle3", "medusa")
# Methods whose vLLM 0.32 proposer asserts that every step drafts num_speculative_tokens
# (MedusaProposer, SuffixDecodingProposer): a batch schedule that changes the count kills the
# engine core at the first such batch, so the configuration check refuses one.
FIXED_DRAFT_COUNT: tuple[str, ...] = ("medusa", "suffix")
# draft_token_cost's upper bound: verifying one token at ten times a whole step is no machine's.
MAX_DRAFT_TOKEN_COST = 10.0
# draft_token_cost where the setting is unset: measured on this project's 2-core CPU (docs/benchmarks.md).
DEFAULT_DRAFT_TOKEN_COST = 0.05
# Methods whose proposer already drafts only what it judges likely (suffix decoding: its trees'
# counts against suffix_decoding_min_token_prob): adaptive drafting is off for them unless set,
# since it did not pay on top (docs/operations/deploying.md has the runs).
SELF_GATING: tuple[str, ...] = ("suffix",)
# suffix_max_spec_factor where unset. vLLM's default is 1.0: a draft no longer than the context it
# matched, so a copy that has just begun drafts one or two tokens. 2.0 drafts further along a fresh
# match; chosen on the speculator's training answers, not the bench's (docs/benchmarks.md).
SUFFIX_MAX_SPEC_FACTOR = 2.0
MAX_SUFFIX_SPEC_FACTOR = 64.0  # a bound for the setting: beyond it every draft is num_speculative_tokens long


@dataclass(frozen=True, slots=True)
class SpeculativeSettings:
    """Speculative decoding. ngram (prompt lookup) and suffix (suffix trees) need no extra weights;
    the other methods need `draft_model`, a path to the draft model or speculator head."""

    # Defaults: the best of the single-stream sweep on the CPU build in strict parity
    # (python -m ztgate_bench.inference_bench; the speedups: docs/results/inference.md).
    method: SpeculativeMethod = "ngram"
    num_speculative_tokens: int = 8
    prompt_lookup_min: int = 1  # ngram: shortest n-gram matched against the context
    prompt_lookup_max: int = 4  # ngram: longest n-gram matched against the context
    draft_model: str | None = None
    # vLLM's dynamic speculation (`num_speculative_tokens_per_batch_size`): (first, last, tokens)
    # for inclusive ranges of the running batch size, the first from 1, sorted, not overlapping;
    # 0 tokens: none; more than num_speculative_tokens: that many. None: num_speculative_tokens at
    # every batch size.
    batch_schedule: tuple[tuple[int, int, int], ...] | None = None
    # suffix: finished answers kept in vLLM's global suffix tree (suffix_decoding_max_cached_requests);
    # 0 keeps only each request's own prompt tree, so no request's speed depends on another's answer.
    suffix_cached_requests: int = 0
    # suffix: a draft is at most this many times as long as the context it matched (vLLM's
    # suffix_decoding_max_spec_factor), and at most num_speculative_tokens.
    suffix_max_spec_factor: float = SUFFIX_MAX_SPEC_FACTOR
    # Verify only the drafts whose estimated acceptance pays for them: the cost of one more token in
    # a step as a fraction of a one-token step (draft_policy.py; vLLM engines). 0: verify every draft.
    draft_token_cost: float = 0.0

    def check(self) -> None:
        """Raises EngineConfigError naming the setting to change."""
        if self.method not in SPECULATIVE_METHODS:
            raise EngineConfigError(
                f"speculative method {self.method!r} is unknown; use one of {', '.join(SPECULATIVE_METHODS)}")
        if self.method == "none":
            return
        if self.num_speculative_tokens < 1:
            raise EngineConfigError(
                f"num_speculative_tokens must be >= 1 with method {self.method!r}; "
                f"got {self.num_speculative_tokens} (or set the method to none)")
        self._check_schedule()
        if not 0 <= self.draft_token_cost <= MAX_DRAFT_TOKEN_COST:
            raise EngineConfigError(
                f"draft_token_cost must be between 0 and {MAX_DRAFT_TOKEN_COST:g} (a fraction of a one-token step); "
                f"got {self.draft_token_cost}")
        if not 0 < self.suffix_max_spec_factor <= MAX_SUFFIX_SPEC_FACTOR:
            raise EngineConfigError(
                f"suffix_max_spec_factor must be above 0 and at most {MAX_SUFFIX_SPEC_FACTOR:g}; "
                f"got {self.suffix_max_spec_factor}")
        if self.suffix_cached_requests < 0:
            raise EngineConfigError(
                f"suffix_cached_requests must be 0 or more; got {self.suffix_cached_requests}")
        if self.method == "suffix":
            import importlib.util

            if importlib.util.find_spec("arctic_inference") is None:
                raise EngineConfigError(
                    "speculative method 'suffix' needs the arctic-inference package (its suffix tree), which "
                    "`make install` builds from requirements/suffix.txt; install it, or use method ngram")
        elif self.method == "ngram":
            if not 1 <= self.prompt_lookup_min <= self.prompt_lookup_max:
                raise EngineConfigError(
                    "ngram speculation needs 1 <= prompt_lookup_min <= prompt_lookup_max; got "
                    f"prompt_lookup_min={self.prompt_lookup_min}, prompt_lookup_max={self.prompt_lookup_max}")
        elif not self.draft_model:
            raise EngineConfigError(
                f"speculative method {self.method!r} needs draft_model (the path to its draft model or "
                "speculator weights); set it, or use method ngram, which needs none")
        elif not Path(self.draft_model).exists():
            raise EngineConfigError(
                f"draft_model {self.draft_model!r} for speculative method {self.method!r} does not exist; "
                "prepare it (eagle3: `ztgate models train-speculator`) or fix the path")

    def _check_schedule(self) -> None:
        if self.batch_schedule is None:
            return
        where = "num_speculative_tokens_per_batch_size"
        if not self.batch_schedule:
            raise EngineConfigError(f"{where} is empty; leave it unset to speculate at every batch size")
        previous = 0
        for entry in self.batch_schedule:
            if len(entry) != 3:
                raise EngineConfigError(f"{where}: each entry is [first, last, tokens]; got {list(entry)}")
            first, last, tokens = entry
            if (first != 1) if previous == 0 else (first <= previous):
                raise EngineConfigError(
                    f"{where}: ranges start at batch size 1, sorted and not overlapping; got {list(entry)} "
                    f"after a range ending at {previous}")
            if last < first:
                raise EngineConfigError(f"{where}: range {list(entry)} ends before it starts")
            if tokens < 0:
                raise EngineConfigError(f"{where}: tokens must be 0 or more; got {list(entry)}")
            if self.method in FIXED_DRAFT_COUNT and tokens != self.num_speculative_tokens:
                raise EngineConfigError(
                    f"{where}: {self.method} drafts num_speculative_tokens ({self.num_speculative_tokens}) at "
                    f"every batch size in vLLM 0.32; got {list(entry)}. Set it to null for {self.method}")
            previous = last
