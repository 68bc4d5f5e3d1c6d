"""Medusa heads for the default model, as vLLM's `Medusa` (model_executor/models/medusa.py) computes them.

Head k maps the target's last hidden state at position t (after its final norm: what vLLM's runner
hands the proposer) through `num_layers` residual SiLU blocks, `x + silu(W x)`, to a guess of the
token at t+2+k: the target's own sample gives t+1, head 0 drafts the token after it. All heads share
one output layer over the reduced draft vocabulary (vLLM's `original_lm_head` with a `token_map`),
the target's own rows, frozen: the blocks learn to move the hidden state to where the target's head
reads the later token. A Medusa draft costs a few 576x576 products per head and one 8,192-row head,
against the EAGLE-3 head's Llama layer per draft token, but each head guesses blind of the tokens
before it, so it is accepted less often.
"""

from __future__ import annotations

from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from ztgate.speculators.distill import Features
from ztgate.speculators.fit import IGNORE, StepLoss
from ztgate.speculators.vocab import DraftVocab


class _ResidualBlock(nn.Module):
    def __init__(self, hidden: int, num_layers: int) -> None:
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(hidden, hidden, bias=False) for _ in range(num_layers)])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in self.layers:
            x = x + F.silu(layer(x))
        return x


class MedusaHeads(nn.Module):
    """forward(final hidden [N, H]) -> draft logits per head, each [N, K]."""

    def __init__(self, hidden: int, num_heads: int, num_layers: int, lm_head: torch.Tensor) -> None:
        super().__init__()
        self.blocks = nn.ModuleList([_ResidualBlock(hidden, num_layers) for _ in range(num_heads)])
        for block in self.blocks:  # start as the identity map (vLLM's blocks add to their input)
            for layer in block.layers:
                nn.init.zeros_(layer.weight)
        self.lm_head = nn.Linear(hidden, lm_head.shape[0], bias=False)
        with torch.no_grad():
            self.lm_head.weight.copy_(lm_head)
        self.lm_head.weight.requires_grad_(False)

    def forward(self, hidden: torch.Tensor) -> list[torch.Tensor]:
        return [self.lm_head(block(hidden)) for block in self.blocks]

    def weights(self) -> dict[str, torch.Tensor]:
        """Checkpoint tensors under vLLM's names (`blocks.i.layers.j.weight`, `lm_head.weight`)."""
        return {name: p.detach().contiguous() for name, p in self.named_parameters()}


def head_labels(features: Features, draft_labels: torch.Tensor, num_heads: int) -> torch.Tensor:
    """[N, num_heads]: head k's label at row r is the target's greedy token k positions after row r's
    own label, within the same sample (IGNORE past its end or outside the draft vocabulary).

    Row r holds position t; `draft_labels[r]` is the target's choice at t+1, i.e. the token at t+2."""
    n = draft_labels.numel()
    sample_end = torch.repeat_interleave(features.offsets[1:], features.offsets[1:] - features.offsets[:-1])
    rows = torch.arange(n)
    out = torch.full((n, num_heads), IGNORE, dtype=torch.long)
    for k in range(num_heads):
        ahead = rows + k
        inside = ahead < sample_end
        out[inside, k] = draft_labels[ahead[inside]]
    return out


def medusa_step_loss(heads: MedusaHeads, features: Features, labels: torch.Tensor) -> StepLoss:
    """Mean over heads of the cross-entropy on every position of a step's samples."""
    def step_loss(idx: torch.Tensor) -> tuple[torch.Tensor, list[int], list[int]]:
        rows = torch.cat([torch.arange(int(features.offsets[i]), int(features.offsets[i + 1]), device="cpu")
                          for i in idx])
        device = heads.lm_head.weight.device  # the training device; the data stays on the host
        losses, correct, counted = [], [], []
        for k, logits in enumerate(heads(features.final[rows].to(device))):
            target = labels[rows, k].to(device)
            mask = target != IGNORE
            if not bool(mask.any()):
                break
            losses.append(F.cross_entropy(logits, target, ignore_index=IGNORE))
            correct.append(int(((logits.argmax(-1) == target) & mask).sum()))
            counted.append(int(mask.sum()))
        return torch.stack(losses).mean(), correct, counted
    return step_loss


def medusa_config(target_config: dict[str, Any], vocab: DraftVocab, num_heads: int, num_layers: int
                  ) -> dict[str, Any]:
    """config.json as vLLM's MedusaConfig reads it: one shared output layer over `token_map`."""
    return {
        "architectures": ["MedusaModel"],
        "model_type": "medusa",
        "hidden_size": target_config["hidden_size"],
        "vocab_size": target_config["vocab_size"],
        "num_heads": num_heads,
        "num_hidden_layers": num_layers,
        "truncated_vocab_size": vocab.size,
        "original_lm_head": True,
        "medusa_fc_bias": False,
        "dtype": "float32",
    }
