"""The training loop of a speculator (EAGLE-3 head or Medusa heads): deterministic batches, resumable
state, a progress bar; and the EAGLE-3 head's batches and loss.

A step's batch depends only on (seed, step), so a run stopped and resumed from its state file takes
the same batches, and ends with the same weights, as one that never stopped. The state file (head,
optimizer, step, fingerprint of the data and settings) is written atomically every `save_every`
steps and at the end.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from tqdm import tqdm

from ztgate.speculators.distill import Features
from ztgate.speculators.head import Eagle3Head

IGNORE = -100
# One step's (loss, correct top-1 per draft position, labels counted per draft position).
StepLoss = Callable[[torch.Tensor], tuple[torch.Tensor, list[int], list[int]]]


@dataclass(frozen=True)
class FitOptions:
    steps: int
    seed: int
    batch_size: int = 8
    lr: float = 1e-3
    warmup: int = 10
    save_every: int = 50
    # Wall-clock seconds this call may train for: past it, the state is saved and training stops
    # before the next step (None: no limit). A later resume continues with the very same batches.
    time_budget_s: float | None = None


@dataclass
class FitResult:
    step: int
    final_loss: float | None
    seconds_per_step: float | None
    resumed_from: int
    stopped_by_time_budget: bool = False


def batch_indices(num_samples: int, batch_size: int, seed: int, step: int) -> torch.Tensor:
    """The samples of one step: a function of (seed, step) only."""
    g = torch.Generator().manual_seed(seed * 1_000_003 + step)
    return torch.randperm(num_samples, generator=g, device="cpu")[:batch_size]


def make_batch(features: Features, draft_labels: torch.Tensor, embed: torch.Tensor,
               indices: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """Right-padded (embeds, aux, positions, labels) for `indices`; padding is never a label and, the
    attention being causal, never seen by a real position."""
    spans = [(int(features.offsets[i]), int(features.offsets[i + 1])) for i in indices]
    t = max(b - a for a, b in spans)
    n, h3 = len(spans), features.aux.shape[1]
    host = torch.device("cpu")  # staged on the host, where the data is, then moved once
    aux = torch.zeros(n, t, h3, device=host)
    ids = torch.zeros(n, t, dtype=torch.long, device=host)
    labels = torch.full((n, t), IGNORE, dtype=torch.long, device=host)
    for row, (a, b) in enumerate(spans):
        aux[row, :b - a] = features.aux[a:b]
        ids[row, :b - a] = features.input_ids[a:b]
        labels[row, :b - a] = draft_labels[a:b]
    positions = torch.arange(t, device=host).expand(n, t)
    device = embed.device  # the training device
    return (F.embedding(ids.to(device), embed), aux.to(device), positions.to(device), labels.to(device))


def loss_on(head: Eagle3Head, batch: tuple[torch.Tensor, ...], ttt_steps: int = 1
            ) -> tuple[torch.Tensor, list[int], list[int]]:
    """Mean over unroll steps of the cross-entropy to the target's greedy token (draft ids), and per
    step (correct top-1, counted) for the agreement figures."""
    embeds, aux, positions, labels = batch
    losses, correct, counted = [], [], []
    for j, logits in enumerate(head.unroll(embeds, aux, positions, ttt_steps)):
        step_labels = labels if j == 0 else F.pad(labels[:, j:], (0, j), value=IGNORE)
        mask = step_labels != IGNORE
        if not bool(mask.any()):
            break
        losses.append(F.cross_entropy(logits.reshape(-1, logits.shape[-1]), step_labels.reshape(-1),
                                      ignore_index=IGNORE))
        correct.append(int(((logits.argmax(-1) == step_labels) & mask).sum()))
        counted.append(int(mask.sum()))
    return torch.stack(losses).mean(), correct, counted


def eagle3_step_loss(head: Eagle3Head, features: Features, draft_labels: torch.Tensor, embed: torch.Tensor,
                     ttt_steps: int) -> StepLoss:
    """The EAGLE-3 head's loss on the samples of a step."""
    return lambda idx: loss_on(head, make_batch(features, draft_labels, embed, idx), ttt_steps)


def _save(path: Path, head: torch.nn.Module, optimizer: torch.optim.Optimizer, step: int, loss: float | None,
          fingerprint: dict[str, Any]) -> None:
    tmp = path.with_suffix(".partial")
    torch.save({"step": step, "loss": loss, "head": head.state_dict(), "optimizer": optimizer.state_dict(),
                "fingerprint": fingerprint}, tmp)
    tmp.replace(path)


def load_state(path: Path, fingerprint: dict[str, Any]) -> dict[str, Any] | None:
    """The saved state if it exists and was made from the same data and settings; else None."""
    if not path.is_file():
        return None
    state = torch.load(path, map_location="cpu", weights_only=False)
    return state if state.get("fingerprint") == fingerprint else None


def make_optimizer(head: torch.nn.Module, options: FitOptions) -> torch.optim.Optimizer:
    return torch.optim.AdamW([p for p in head.parameters() if p.requires_grad], lr=options.lr,
                             betas=(0.9, 0.95), weight_decay=0.0)


def fit(head: torch.nn.Module, step_loss: StepLoss, num_samples: int, options: FitOptions, state_path: Path,
        fingerprint: dict[str, Any], resume: bool) -> FitResult:
    """Trains `head` up to `options.steps` (from the saved state when `resume` and it matches); a step
    minimises `step_loss` on the samples `batch_indices` picks from `num_samples`."""
    optimizer = make_optimizer(head, options)
    start, loss_value = 0, None
    if resume:
        state = load_state(state_path, fingerprint)
        if state is not None:
            head.load_state_dict(state["head"])
            optimizer.load_state_dict(state["optimizer"])
            start, loss_value = state["step"], state["loss"]
    resumed_from = start
    state_path.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    bar = tqdm(range(start, options.steps), initial=start, total=options.steps, desc="speculator", unit="step")
    stopped = False
    for step in bar:
        if options.time_budget_s is not None and time.perf_counter() - t0 >= options.time_budget_s:
            stopped = True
            _save(state_path, head, optimizer, step, loss_value, fingerprint)
            break
        for group in optimizer.param_groups:
            group["lr"] = options.lr * min(1.0, (step + 1) / max(1, options.warmup))
        loss, correct, counted = step_loss(batch_indices(num_samples, options.batch_size, options.seed, step))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(head.parameters(), 1.0)
        optimizer.step()
        loss_value = float(loss.detach())
        bar.set_postfix(loss=f"{loss_value:.3f}", top1=f"{correct[0] / max(1, counted[0]):.2f}")
        if (step + 1) % options.save_every == 0 or step + 1 == options.steps:
            _save(state_path, head, optimizer, step + 1, loss_value, fingerprint)
    bar.close()
    end = step if stopped else max(start, options.steps)
    done = end - start
    return FitResult(step=end, final_loss=loss_value,
                     seconds_per_step=(time.perf_counter() - t0) / done if done > 0 else None,
                     resumed_from=resumed_from, stopped_by_time_budget=stopped)
