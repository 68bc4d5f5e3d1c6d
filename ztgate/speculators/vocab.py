"""The draft's reduced vocabulary: the K target tokens the target emits most often.

vLLM's EAGLE-3 head (model_executor/models/llama_eagle3.py, `compute_logits`) scatters draft logit
`i` to target token `i + d2t[i]`; tokens outside the draft vocabulary get -inf and are never
proposed. `t2d` is the boolean mask over the target vocabulary of the tokens the draft can propose
(vLLM skips it on load; the speculators format ships it). Draft ids are assigned in ascending target
id order, so `d2t` is non-decreasing, as in the EAGLE-3 reference checkpoints.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class DraftVocab:
    draft_to_target: torch.Tensor  # long [K]: the target id of each draft id, ascending
    d2t: torch.Tensor  # long [K]: target_id - draft_id (what vLLM loads)
    t2d: torch.Tensor  # bool [V]: target ids inside the draft vocabulary

    @property
    def size(self) -> int:
        return int(self.draft_to_target.numel())

    def target_to_draft(self, target_ids: torch.Tensor, ignore_index: int = -100) -> torch.Tensor:
        """Draft ids of `target_ids`; tokens outside the draft vocabulary become `ignore_index`."""
        lookup = torch.full((self.t2d.numel(),), ignore_index, dtype=torch.long)
        lookup[self.draft_to_target] = torch.arange(self.size)
        return lookup[target_ids]


def build_draft_vocab(counts: torch.Tensor, k: int) -> DraftVocab:
    """The `k` most frequent tokens of `counts` (a count per target id); ties go to the lower id.

    With fewer than `k` tokens ever seen the rest are unseen tokens, lowest ids first: vLLM needs
    exactly `draft_vocab_size` entries.
    """
    vocab_size = int(counts.numel())
    if not 1 <= k <= vocab_size:
        raise ValueError(f"draft vocabulary size must be between 1 and the target's {vocab_size}; got {k}")
    ids = torch.arange(vocab_size)
    # Stable sort by descending count keeps ascending id order among equal counts.
    order = torch.sort(-counts.to(torch.long), stable=True).indices
    chosen = torch.sort(ids[order[:k]]).values
    t2d = torch.zeros(vocab_size, dtype=torch.bool)
    t2d[chosen] = True
    return DraftVocab(draft_to_target=chosen, d2t=chosen - torch.arange(k), t2d=t2d)
