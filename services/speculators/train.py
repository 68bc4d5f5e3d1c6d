"""`ztgate models train-speculator`: an EAGLE-3 head for the default model, self-distilled on CPU.

Steps: prompts (services/speculators/prompts.py) -> the target's answers and hidden states
(distill.py, cached in `<out>/.train/`) -> the draft vocabulary (vocab.py) -> training (fit.py,
resumable) -> the checkpoint vLLM loads with `method: eagle3` (checkpoint.py). Why our own code and
not the `speculators` library: docs/speculator.md.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from services.inference import models
from services.speculators import checkpoint, prompts
from services.speculators.distill import Features, collect, default_aux_layers
from services.speculators.fit import FitOptions, fit, loss_on, make_batch
from services.speculators.head import Eagle3Head
from services.speculators.vocab import build_draft_vocab

SPECULATOR_NAME = f"{models.DEFAULT_MODEL}-eagle3"
WORK = ".train"  # features and resumable state, beside the checkpoint


def default_out_dir() -> Path:
    """`<cache_dir>/models/SmolLM2-135M-Instruct-eagle3`."""
    return models.default_cache_dir() / SPECULATOR_NAME


@dataclass(frozen=True)
class TrainSettings:
    samples: int = 256  # training prompts
    steps: int = 600  # optimizer steps
    seed: int = 0
    draft_vocab: int = 8192  # K: the draft head's vocabulary (the target has 49,152)
    max_new_tokens: int = 128  # length of each target answer
    batch_size: int = 8  # samples per step
    lr: float = 1e-3
    ttt_steps: int = 3  # draft positions trained by test-time-training unroll (1: none)
    save_every: int = 50  # steps between saves of the resumable state
    # torch CPU threads. 1 by default: on this shared 2-vCPU machine a target forward pass took 0.9 s
    # on 1 thread and 6.5 s on 2 (OpenMP threads spin-waiting for a core). Part of the fingerprint:
    # the thread count can change float summation order, so the weights.
    threads: int = 1


def _features(model_dir: Path, settings: TrainSettings, work: Path, log: Callable[[str], None]
              ) -> tuple[Features, dict[str, Any], Any, Any]:
    """The distillation data (reused from `work` when made from the same prompts and settings)."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    torch.manual_seed(settings.seed)
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    target = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32).eval()
    texts = prompts.training_prompts(settings.samples, settings.seed)
    aux_layers = default_aux_layers(target.config.num_hidden_layers)
    fingerprint = {"data_sha256": prompts.data_hash(texts), "max_new_tokens": settings.max_new_tokens,
                   "aux_layers": list(aux_layers), "model": _model_id(model_dir)}
    path, meta = work / "features.safetensors", work / "features.json"
    if path.is_file() and meta.is_file() and json.loads(meta.read_text()) == fingerprint:
        log(f"reusing the target's answers and hidden states from {path}")
        return Features.load(path), fingerprint, target, tokenizer
    log(f"answering {len(texts)} prompts with the target and recording its hidden states")
    features = collect(target, tokenizer, texts, aux_layers, settings.max_new_tokens)
    work.mkdir(parents=True, exist_ok=True)
    features.save(path)
    meta.write_text(json.dumps(fingerprint, indent=2) + "\n")
    return features, fingerprint, target, tokenizer


def _model_id(model_dir: Path) -> str:
    """The prepared model's marker (its source hash), else a hash of its config."""
    marker = model_dir / models.MARKER
    source = marker if marker.is_file() else model_dir / "config.json"
    return hashlib.sha256(source.read_bytes()).hexdigest()


def train_speculator(settings: TrainSettings, out: Path | None = None, model_dir: Path | None = None,
                     resume: bool = False, log: Callable[[str], None] = print) -> Path:
    """Trains the head and writes the checkpoint into `out`; returns `out`."""
    import torch

    for name in ("samples", "steps", "draft_vocab", "max_new_tokens", "batch_size", "ttt_steps", "save_every",
                 "threads"):
        if getattr(settings, name) < 1:
            raise ValueError(f"--{name.replace('_', '-')} must be at least 1; got {getattr(settings, name)}")
    previous = torch.get_num_threads()
    torch.set_num_threads(settings.threads)
    try:
        return _train(settings, out, model_dir, resume, log)
    finally:
        torch.set_num_threads(previous)  # the caller's process keeps its own setting


def _train(settings: TrainSettings, out: Path | None, model_dir: Path | None, resume: bool,
           log: Callable[[str], None]) -> Path:
    import torch

    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    out = Path(out) if out is not None else default_out_dir()
    model_dir = Path(model_dir) if model_dir is not None else models.model_dir()
    if not (model_dir / "config.json").is_file():
        raise FileNotFoundError(f"no model at {model_dir}: run `ztgate models prepare` first")
    work = out / WORK
    t0 = time.perf_counter()
    features, data_fp, target, _ = _features(model_dir, settings, work, log)
    collect_s = time.perf_counter() - t0

    vocab_size = target.config.vocab_size
    vocab = build_draft_vocab(torch.bincount(features.labels, minlength=vocab_size), settings.draft_vocab)
    draft_labels = vocab.target_to_draft(features.labels)
    torch.manual_seed(settings.seed)
    head = Eagle3Head(target.config, vocab.size)
    with torch.no_grad():  # start from the target's own output layer, cut to the draft vocabulary
        head.lm_head.weight.copy_(target.get_output_embeddings().weight[vocab.draft_to_target])
        head.norm.weight.copy_(target.model.norm.weight)
    embed = target.get_input_embeddings().weight.detach()
    options = FitOptions(steps=settings.steps, seed=settings.seed, batch_size=settings.batch_size,
                         lr=settings.lr, ttt_steps=settings.ttt_steps, save_every=settings.save_every)
    fingerprint = {**data_fp, **asdict(settings), "steps": None}  # more steps may follow a resume
    result = fit(head, features, draft_labels, embed, options, work / "state.pt", fingerprint, resume)
    if resume and result.resumed_from:
        log(f"resumed at step {result.resumed_from}")

    head.eval()
    with torch.no_grad():  # top-1 agreement with the target on (up to) 64 training samples
        n = min(64, features.num_samples)
        _, correct, counted = loss_on(head, make_batch(features, draft_labels, embed, torch.arange(n)),
                                      settings.ttt_steps)
    coverage = float((draft_labels != -100).float().mean())
    record = {
        "target": models.DEFAULT_MODEL, "target_model_id": data_fp["model"], "seed": settings.seed,
        "settings": asdict(settings), "versions": checkpoint.versions(), "data_source": prompts.SOURCE,
        "data_sha256": data_fp["data_sha256"], "tokens": int(features.labels.numel()),
        "samples": features.num_samples, "aux_layers": data_fp["aux_layers"], "steps": result.step,
        "resumed_from": result.resumed_from, "final_loss": result.final_loss,
        "train_top1_agreement_per_position": [round(c / max(1, n), 4) for c, n in zip(correct, counted)],
        "draft_vocab_coverage": coverage,
        "seconds_collecting": round(collect_s, 1), "seconds_per_step": result.seconds_per_step,
    }
    config = checkpoint.speculator_config(target.config.to_dict(), vocab, tuple(data_fp["aux_layers"]),
                                          norm_before_residual=True, verifier=models.DEFAULT_MODEL)
    checkpoint.write(out, head.weights(), vocab, config, record)
    log(f"speculator written to {out}: {result.step} steps, loss {result.final_loss}, "
        f"top-1 agreement per draft position {record['train_top1_agreement_per_position']}")
    return out
