"""`ztgate models train-speculator`: an EAGLE-3 head or Medusa heads for the default model, self-distilled
on CPU.

Steps: prompts (ztgate/speculators/prompts.py: templates, and user turns the target writes
itself) -> the target's answers and hidden states
(distill.py, cached in `<out's parent>/speculator-data/`, shared by both methods) -> the draft
vocabulary (vocab.py) -> training (fit.py, resumable from `<out>/.train/`) -> the checkpoint vLLM
loads with `method: eagle3` (checkpoint.py) or `method: medusa` (medusa.py). Why our own code and
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
from typing import Any, Literal

from ztgate.inference import models
from ztgate.inference import speculator_lookup as shipped
from ztgate.speculators import checkpoint, prompts
from ztgate.speculators.distill import Features, answers, collect, default_aux_layers
from ztgate.speculators.fit import FitOptions, FitResult, eagle3_step_loss, fit
from ztgate.speculators.head import Eagle3Head
from ztgate.speculators.medusa import MedusaHeads, head_labels, medusa_config, medusa_step_loss
from ztgate.speculators.vocab import build_draft_vocab

WORK = ".train"  # resumable state, beside the checkpoint
DATA = "speculator-data"  # the target's answers and hidden states, beside the checkpoints of both methods


def default_out_dir(method: str = "eagle3") -> Path:
    """`<cache_dir>/models/SmolLM2-135M-Instruct-eagle3` (or `-medusa`): where a primary with no
    `draft_model` looks first (ztgate/inference/speculator_lookup.py)."""
    return models.default_cache_dir() / shipped.checkpoint_name(method)


@dataclass(frozen=True)
class TrainSettings:
    method: Literal["eagle3", "medusa"] = "eagle3"
    samples: int = 256  # training prompts from the templates
    self_prompts: int = 0  # more training prompts, written by the target itself (prompts.py, "self")
    steps: int = 600  # optimizer steps
    seed: int = 0
    draft_vocab: int = 8192  # K: the draft head's vocabulary (the target has 49,152)
    max_new_tokens: int = 128  # length of each target answer
    batch_size: int = 8  # samples per step
    lr: float = 1e-3
    ttt_steps: int = 3  # eagle3: draft positions trained by test-time-training unroll (1: none)
    heads: int = 3  # medusa: heads, i.e. the most draft tokens it can propose
    head_layers: int = 1  # medusa: residual blocks per head
    save_every: int = 50  # steps between saves of the resumable state
    # torch CPU threads. 1 by default: on this shared 2-vCPU machine a target forward pass took 0.9 s
    # on 1 thread and 6.5 s on 2 (OpenMP threads spin-waiting for a core). Part of the fingerprint:
    # the thread count can change float summation order, so the weights.
    threads: int = 1


def _features(model_dir: Path, settings: TrainSettings, data_dir: Path, log: Callable[[str], None]
              ) -> tuple[Features, dict[str, Any], Any]:
    """The distillation data (reused from `data_dir` when made from the same prompts and settings)."""
    import torch
    from transformers import AutoModelForCausalLM

    torch.manual_seed(settings.seed)
    target = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32).eval()
    texts = prompts.training_prompts(settings.samples, settings.seed)
    aux_layers = default_aux_layers(target.config.num_hidden_layers)
    # The recipe of the data: the template prompts' hash, and how many the target writes itself (their
    # own hash is known once written; it is recorded beside the cache and in training.json).
    fingerprint: dict[str, Any] = {
        "data_sha256": prompts.data_hash(texts), "max_new_tokens": settings.max_new_tokens,
        "aux_layers": list(aux_layers), "model": _model_id(model_dir),
        "final_hidden": True,  # caches from before Medusa lack the last hidden state
        "answers": "vllm"}  # caches from before answered with transformers' generate
    if settings.self_prompts:
        fingerprint["self_prompts"] = {"count": settings.self_prompts, "seed": settings.seed,
                                       "temperature": prompts.SELF_TEMPERATURE, "top_p": prompts.SELF_TOP_P,
                                       "max_tokens": prompts.SELF_MAX_TOKENS, "min_chars": prompts.SELF_MIN_CHARS}
    key = hashlib.sha256(json.dumps(fingerprint, sort_keys=True).encode()).hexdigest()[:16]
    path, meta = data_dir / f"{key}.safetensors", data_dir / f"{key}.json"
    if path.is_file() and meta.is_file():
        recorded = json.loads(meta.read_text())
        if {k: v for k, v in recorded.items() if k != "prompts_sha256"} == fingerprint:
            log(f"reusing the target's answers and hidden states from {path}")
            return Features.load(path), _data_record(fingerprint, recorded.get("prompts_sha256")), target
    log(f"answering {len(texts) + settings.self_prompts} prompts with the target "
        f"({settings.self_prompts} written by the target itself) and recording its hidden states")
    all_texts, sequences = answers(model_dir, texts, settings.max_new_tokens,
                                   self_prompt_count=settings.self_prompts, seed=settings.seed)
    features = collect(target, sequences, aux_layers)
    data_dir.mkdir(parents=True, exist_ok=True)
    features.save(path)
    all_hash = prompts.data_hash(all_texts)
    meta.write_text(json.dumps({**fingerprint, "prompts_sha256": all_hash}, indent=2) + "\n")
    return features, _data_record(fingerprint, all_hash), target


def _data_record(fingerprint: dict[str, Any], prompts_sha256: str | None) -> dict[str, Any]:
    """The data's fingerprint as the checkpoint records it: `data_sha256` is every prompt's hash (the
    template prompts' alone when the target wrote none), `template_sha256` the templates'."""
    record = {**fingerprint, "template_sha256": fingerprint["data_sha256"]}
    if "self_prompts" in fingerprint and prompts_sha256 is not None:
        record["data_sha256"] = prompts_sha256
    return record


def _model_id(model_dir: Path) -> str:
    """The prepared model's marker (its source hash), else a hash of its config."""
    marker = model_dir / models.MARKER
    source = marker if marker.is_file() else model_dir / "config.json"
    return hashlib.sha256(source.read_bytes()).hexdigest()


def train_speculator(settings: TrainSettings, out: Path | None = None, model_dir: Path | None = None,
                     resume: bool = False, log: Callable[[str], None] = print) -> Path:
    """Trains the speculator and writes the checkpoint into `out`; returns `out`."""
    import torch

    if settings.method not in shipped.TRAINED_METHODS:
        raise ValueError(f"--method must be one of {', '.join(shipped.TRAINED_METHODS)}; got {settings.method!r}")
    if settings.self_prompts < 0:
        raise ValueError(f"--self-prompts must be 0 or more; got {settings.self_prompts}")
    for name in ("samples", "steps", "draft_vocab", "max_new_tokens", "batch_size", "ttt_steps", "heads",
                 "head_layers", "save_every", "threads"):
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
    out = Path(out) if out is not None else default_out_dir(settings.method)
    model_dir = Path(model_dir) if model_dir is not None else models.model_dir()
    if not (model_dir / "config.json").is_file():
        raise FileNotFoundError(f"no model at {model_dir}: run `ztgate models prepare` first")
    t0 = time.perf_counter()
    features, data_fp, target = _features(model_dir, settings, out.parent / DATA, log)
    collect_s = time.perf_counter() - t0

    vocab = build_draft_vocab(torch.bincount(features.labels, minlength=target.config.vocab_size),
                              settings.draft_vocab)
    draft_labels = vocab.target_to_draft(features.labels)
    options = FitOptions(steps=settings.steps, seed=settings.seed, batch_size=settings.batch_size,
                         lr=settings.lr, save_every=settings.save_every)
    fingerprint = _state_fingerprint(data_fp, settings)
    state = out / WORK / "state.pt"
    lm_head = target.get_output_embeddings().weight.detach()[vocab.draft_to_target]
    torch.manual_seed(settings.seed)
    if settings.method == "eagle3":
        head = Eagle3Head(target.config, vocab.size)
        with torch.no_grad():  # start from the target's own output layer, cut to the draft vocabulary
            head.lm_head.weight.copy_(lm_head)
            head.norm.weight.copy_(target.model.norm.weight)
        embed = target.get_input_embeddings().weight.detach()
        step_loss = eagle3_step_loss(head, features, draft_labels, embed, settings.ttt_steps)
    else:
        head = MedusaHeads(target.config.hidden_size, settings.heads, settings.head_layers, lm_head)
        step_loss = medusa_step_loss(head, features, head_labels(features, draft_labels, settings.heads))
    result = fit(head, step_loss, features.num_samples, options, state, fingerprint, resume)
    if resume and result.resumed_from:
        log(f"resumed at step {result.resumed_from}")

    head.eval()
    with torch.no_grad():  # top-1 agreement with the target on (up to) 64 training samples
        _, correct, counted = step_loss(torch.arange(min(64, features.num_samples)))
    record = _record(settings, data_fp, features, result, correct, counted,
                     coverage=float((draft_labels != -100).float().mean()), collect_s=collect_s)
    target_config = target.config.to_dict()
    if settings.method == "eagle3":
        config = checkpoint.speculator_config(target_config, vocab, tuple(data_fp["aux_layers"]),
                                              norm_before_residual=True, verifier=models.DEFAULT_MODEL)
        tensors = checkpoint.eagle3_tensors(head.weights(), vocab)
    else:
        config = medusa_config(target_config, vocab, settings.heads, settings.head_layers)
        tensors = checkpoint.medusa_tensors(head.weights(), vocab)
    checkpoint.write(out, tensors, config, record)
    log(f"{settings.method} speculator written to {out}: {result.step} steps, loss {result.final_loss}, "
        f"top-1 agreement per draft position {record['train_top1_agreement_per_position']}")
    return out


# Settings that do not shape a method's training, left out of its resumable state's fingerprint (so
# that an EAGLE-3 state saved before Medusa existed still resumes).
_NOT_OF = {"eagle3": ("method", "heads", "head_layers"), "medusa": ("ttt_steps",)}


def _state_fingerprint(data_fp: dict[str, Any], settings: TrainSettings) -> dict[str, Any]:
    """What a saved state must have been made from to be resumed: the data and the method's settings,
    all but the step count (more steps may follow a resume)."""
    own = {k: v for k, v in asdict(settings).items() if k not in _NOT_OF[settings.method]}
    return {**data_fp, **own, "steps": None}


def _record(settings: TrainSettings, data_fp: dict[str, Any], features: Features, result: FitResult,
            correct: list[int], counted: list[int], coverage: float, collect_s: float) -> dict[str, Any]:
    """training.json: how the checkpoint was made (never the prompts themselves)."""
    return {
        "method": settings.method, "target": models.DEFAULT_MODEL, "target_model_id": data_fp["model"],
        "seed": settings.seed, "settings": asdict(settings), "versions": checkpoint.versions(),
        "data_source": prompts.SOURCE + (f"; {prompts.SELF_SOURCE}" if settings.self_prompts else ""),
        "data_sha256": data_fp["data_sha256"], "template_sha256": data_fp["template_sha256"],
        "tokens": int(features.labels.numel()), "samples": features.num_samples,
        "aux_layers": data_fp["aux_layers"], "steps": result.step, "resumed_from": result.resumed_from,
        "final_loss": result.final_loss,
        "train_top1_agreement_per_position": [round(c / max(1, n), 4) for c, n in zip(correct, counted)],
        "draft_vocab_coverage": coverage,
        "seconds_collecting": round(collect_s, 1), "seconds_per_step": result.seconds_per_step,
    }
