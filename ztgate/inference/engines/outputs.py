"""What an engine streams back: deltas of an answer, and on the last one the usage, speculation
counts and timings of the request (a Completion when the stream is collected whole)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

FinishReason = Literal["stop", "length", "abort"]


@dataclass(frozen=True, slots=True)
class Usage:
    prompt_tokens: int
    completion_tokens: int


@dataclass(frozen=True, slots=True)
class SpeculativeStats:
    """Per-request speculation figures, as the engine counted them.

    acceptance_rate = accepted_tokens / draft_tokens; mean_acceptance_length = 1 + accepted_tokens /
    num_drafts (tokens emitted per verification step, the bonus token included), vLLM's conventions.
    """

    method: str = "none"
    num_speculative_tokens: int = 0
    num_drafts: int = 0
    draft_tokens: int = 0
    accepted_tokens: int = 0
    # False when the engine does not expose draft/accept counts (transformers): the counts and
    # ratios are then not known, and must not be reported as zeros.
    counted: bool = True

    @property
    def acceptance_rate(self) -> float:
        return self.accepted_tokens / self.draft_tokens if self.draft_tokens else 0.0

    @property
    def mean_acceptance_length(self) -> float:
        return 1.0 + self.accepted_tokens / self.num_drafts if self.num_drafts else 0.0


@dataclass(frozen=True, slots=True)
class Timings:
    ttft_ms: float
    total_ms: float
    tpot_ms: float  # mean time per output token after the first


@dataclass(frozen=True, slots=True)
class FinalStats:
    """Carried by the last delta of a stream."""

    usage: Usage
    speculative: SpeculativeStats
    timings: Timings | None = None  # filled by Engine.generate
    # Natural-log probability of each generated token under the unmodified model distribution;
    # only when the request asked for score_inline.
    token_logprobs: tuple[float, ...] | None = None
    hallucination_score: float | None = None  # only when computed (score_inline)
    model: str = ""
    # The prompt as the model saw it (chat template applied), for the background scorer.
    prompt_token_ids: tuple[int, ...] = field(default=(), repr=False)


@dataclass(frozen=True, slots=True)
class Delta:
    """A piece of a streamed answer: new tokens and the text they complete. The last delta has
    finish_reason and final set."""

    token_ids: tuple[int, ...]
    text: str
    finish_reason: FinishReason | None = None
    final: FinalStats | None = None
    # Tokens of the rendered prompt, set by Engine.generate on the first delta with tokens (the
    # work before the first token, for the comparable TTFT the SLO judges); else 0.
    prompt_tokens: int = 0


@dataclass(frozen=True, slots=True)
class Completion:
    """A whole answer, as `collect` assembles it from a stream."""

    request_id: str
    text: str
    token_ids: tuple[int, ...]
    finish_reason: FinishReason
    final: FinalStats
