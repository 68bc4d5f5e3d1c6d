"""`ztgate models train-speculator`: an EAGLE-3 head or Medusa heads for the default model, or for
any Llama-family model the user serves (`--model DIR`), self-distilled on the CPU or a GPU
(`--device`).

Steps: prompts (ztgate/speculators/prompts.py: templates, and user turns the target writes
itself) -> the target's answers and hidden states (distill.py with vLLM, the CPU default, or
device_collect.py with batched transformers on the device; cached in `<out's parent>/speculator-data/`,
shared by both methods) -> the draft vocabulary (vocab.py) -> training on the device (fit.py,
resumable from `<out>/.train/`, within an optional time budget) -> held-out agreement on a slice of
the data no step trained on -> the checkpoint vLLM loads with `method: eagle3` (checkpoint.py) or
`method: medusa` (medusa.py). Why our own code and not the `speculators` library: docs/speculator.md.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

from ztgate.inference import models
from ztgate.inference.spec_decode import speculator_lookup as shipped
from ztgate.speculators import checkpoint, device_collect, prompts, target
from ztgate.speculators.distill import Features, answers, collect, default_aux_layers
from ztgate.speculators.fit import FitOptions, FitResult, StepLoss, eagle3_step_loss, fit
from ztgate.speculators.head import Eagle3Head
from ztgate.speculators.medusa import MedusaHeads, head_labels, medusa_config, medusa_step_loss
from ztgate.speculators.vocab import build_draft_vocab

WORK = ".train"  # resumable state, beside the checkpoint
DATA = "speculator-data"  # the target's answers and hidden states, beside the checkpoints of both methods
COLLECTORS = ("auto", "vllm", "transformers")
MAX_HELDOUT = 400  # held-out samples at most: enough for agreement to two decimals


def default_out_dir(method: str = "eagle3", model: str = models.DEFAULT_MODEL) -> Path:
    """`<cache_dir>/models/<model>-eagle3` (or `-medusa`): where a primary serving `model` with no
    `draft_model` looks first (ztgate/inference/spec_decode/speculator_lookup.py)."""
    return models.default_cache_dir() / shipped.checkpoint_name(method, model)


@dataclass(frozen=True)
class TrainSettings:
    method: Literal["eagle3", "medusa"] = "eagle3"
    samples: int = 256  # training prompts from the templates
    self_prompts: int = 0  # more training prompts, written by the target itself (prompts.py, "self")
    steps: int = 600  # optimizer steps
    seed: int = 0
    draft_vocab: int | None = None  # K: the draft head's vocabulary (None: 8,192, or the model's if smaller)
    max_new_tokens: int = 128  # length of each target answer
    batch_size: int = 8  # samples per step
    lr: float = 1e-3
    ttt_steps: int = 3  # eagle3: draft positions trained by test-time-training unroll (1: none)
    heads: int = 3  # medusa: heads, i.e. the most draft tokens it can propose
    head_layers: int = 1  # medusa: residual blocks per head
    save_every: int = 50  # steps between saves of the resumable state
    # torch CPU threads. 1 by default: on a shared 2-vCPU machine 2 threads made a target forward pass
    # several times slower (OpenMP threads spin-waiting for a core; docs/speculator.md). Fingerprinted:
    # the thread count can change float summation order, so the weights.
    threads: int = 1
    # Where the target runs and the head trains: cpu or cuda (the same code). Part of the fingerprint.
    device: str = "cpu"
    # Who answers: vllm (the primary's engine: several times transformers' rate on a CPU), transformers
    # (batched, on the device: a GPU without vLLM), auto (vllm on cpu where installed, else transformers).
    collector: Literal["auto", "vllm", "transformers"] = "auto"
    collect_batch: int = 32  # transformers collector: prompts per batch (answers, hidden states)
    heldout: float = 0.05  # share of samples no step trains on, for the agreement figures (<= MAX_HELDOUT)
    # Seconds the whole command may run (collection included): training stops at it, saves its state
    # and writes the checkpoint; --resume continues. None: no limit. Not part of the fingerprint.
    time_budget_s: float | None = None


def resolve_collector(settings: TrainSettings) -> str:
    """auto: vLLM where it runs and is faster (the CPU, when installed), batched transformers elsewhere."""
    if settings.collector != "auto":
        return settings.collector
    return "vllm" if settings.device == "cpu" and importlib.util.find_spec("vllm") is not None else "transformers"


def _features(model_dir: Path, settings: TrainSettings, collector: str, data_dir: Path, device: Any,
              log: Callable[[str], None]) -> tuple[Features, dict[str, Any], Any]:
    """The distillation data (reused from `data_dir` when made from the same prompts and settings)."""
    import torch
    from transformers import AutoModelForCausalLM

    torch.manual_seed(settings.seed)
    device_collect.exact_float32(device)
    model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32).to(device).eval()
    texts = prompts.training_prompts(settings.samples, settings.seed)
    aux_layers = default_aux_layers(model.config.num_hidden_layers)
    # The recipe of the data: the template prompts' hash, and how many the target writes itself (their
    # own hash is known once written; it is recorded beside the cache and in training.json).
    fingerprint: dict[str, Any] = {
        "data_sha256": prompts.data_hash(texts), "max_new_tokens": settings.max_new_tokens,
        "aux_layers": list(aux_layers), "model": _model_id(model_dir),
        "final_hidden": True,  # caches from before Medusa lack the last hidden state
        "answers": "vllm"}  # caches from before answered with transformers' generate
    if collector == "transformers":  # batching and the device shape the numbers, and the sampled prompts
        fingerprint.update(answers="transformers", device=settings.device, collect_batch=settings.collect_batch)
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
            return Features.load(path), _data_record(fingerprint, recorded.get("prompts_sha256")), model
    log(f"answering {len(texts) + settings.self_prompts} prompts with the target on {collector} "
        f"({settings.self_prompts} written by the target itself) and recording its hidden states")
    if collector == "vllm":
        all_texts, sequences = answers(model_dir, texts, settings.max_new_tokens,
                                       self_prompt_count=settings.self_prompts, seed=settings.seed)
        features = collect(model, sequences, aux_layers)
    else:
        all_texts, features = _device_features(model, model_dir, texts, settings, aux_layers, device)
    data_dir.mkdir(parents=True, exist_ok=True)
    features.save(path)
    all_hash = prompts.data_hash(all_texts)
    meta.write_text(json.dumps({**fingerprint, "prompts_sha256": all_hash}, indent=2) + "\n")
    return features, _data_record(fingerprint, all_hash), model


def _device_features(model: Any, model_dir: Path, texts: list[str], settings: TrainSettings,
                     aux_layers: tuple[int, ...], device: Any) -> tuple[list[str], Features]:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    all_texts = list(texts)
    if settings.self_prompts:
        prefix = prompts.user_turn_prefix(lambda messages: str(tokenizer.apply_chat_template(messages, tokenize=False)))
        all_texts += device_collect.self_prompts(model, tokenizer, prefix, settings.self_prompts, settings.seed,
                                                 device, settings.collect_batch)
    sequences = device_collect.greedy_answers(model, tokenizer, all_texts, settings.max_new_tokens, device,
                                              settings.collect_batch)
    return all_texts, device_collect.teacher_forced(model, sequences, aux_layers, device, settings.collect_batch)


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


def split_heldout(num_samples: int, share: float, seed: int) -> tuple[Any, Any]:
    """(train ids, held-out ids), a seeded split: at least one sample on each side."""
    import torch

    if num_samples < 2:
        raise ValueError(f"the data has {num_samples} sample; held-out agreement needs at least 2 (raise --samples)")
    held = min(MAX_HELDOUT, num_samples - 1, max(1, round(num_samples * share)))
    order = torch.randperm(num_samples, generator=torch.Generator().manual_seed(seed))
    return order[held:].sort().values, order[:held].sort().values


def agreement(step_loss: StepLoss, ids: Any, batch_size: int) -> list[float]:
    """Top-1 agreement with the target per draft position over the samples `ids` (no gradients)."""
    import torch

    correct: list[int] = []
    counted: list[int] = []
    with torch.no_grad():
        for start in range(0, len(ids), batch_size):
            _, c, n = step_loss(ids[start:start + batch_size])
            for j, (cj, nj) in enumerate(zip(c, n)):
                if j == len(correct):
                    correct.append(0)
                    counted.append(0)
                correct[j] += cj
                counted[j] += nj
    return [round(c / max(1, n), 4) for c, n in zip(correct, counted)]


def check_settings(settings: TrainSettings) -> None:
    """Refuses bad settings naming the flag, before any model is loaded."""
    if settings.method not in shipped.TRAINED_METHODS:
        raise ValueError(f"--method must be one of {', '.join(shipped.TRAINED_METHODS)}; got {settings.method!r}")
    if settings.collector not in COLLECTORS:
        raise ValueError(f"--collector must be one of {', '.join(COLLECTORS)}; got {settings.collector!r}")
    if settings.self_prompts < 0:
        raise ValueError(f"--self-prompts must be 0 or more; got {settings.self_prompts}")
    for name in ("samples", "steps", "max_new_tokens", "batch_size", "ttt_steps", "heads",
                 "head_layers", "save_every", "threads", "collect_batch"):
        if getattr(settings, name) < 1:
            raise ValueError(f"--{name.replace('_', '-')} must be at least 1; got {getattr(settings, name)}")
    if settings.draft_vocab is not None and settings.draft_vocab < 1:
        raise ValueError(f"--draft-vocab must be at least 1; got {settings.draft_vocab}")
    if not 0 < settings.heldout < 1:
        raise ValueError(f"--heldout must be a share between 0 and 1; got {settings.heldout}")
    if settings.time_budget_s is not None and settings.time_budget_s <= 0:
        raise ValueError(f"--time-budget-s must be more than 0; got {settings.time_budget_s}")
    if resolve_collector(settings) == "vllm" and settings.device != "cpu":
        raise ValueError("--collector vllm runs the CPU engine the primary runs: use it with --device cpu "
                         "(on a GPU the transformers collector answers on the device)")


def train_speculator(settings: TrainSettings, out: Path | None = None, model_dir: Path | None = None,
                     resume: bool = False, log: Callable[[str], None] = print) -> Path:
    """Trains the speculator and writes the checkpoint into `out`; returns `out`."""
    import torch

    started = time.perf_counter()
    check_settings(settings)
    model_dir = Path(model_dir) if model_dir is not None else models.model_dir()
    config = target.read_config(model_dir)
    target.draft_vocab_size(settings.draft_vocab, int(config["vocab_size"]))
    device = target.check_device(settings.device)
    previous = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    torch.set_num_threads(settings.threads)
    target.deterministic(device)
    try:
        return _train(settings, out, model_dir, resume, log, device, started)
    finally:  # the caller's process keeps its own settings
        torch.set_num_threads(previous[0])
        torch.use_deterministic_algorithms(previous[1])


def _train(settings: TrainSettings, out: Path | None, model_dir: Path, resume: bool,
           log: Callable[[str], None], device: Any, started: float) -> Path:
    import torch

    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    model_name = model_dir.name
    out = Path(out) if out is not None else default_out_dir(settings.method, model_name)
    collector = resolve_collector(settings)
    t0 = time.perf_counter()
    features, data_fp, model = _features(model_dir, settings, collector, out.parent / DATA, device, log)
    collect_s = time.perf_counter() - t0

    vocab = build_draft_vocab(torch.bincount(features.labels, minlength=model.config.vocab_size),
                              target.draft_vocab_size(settings.draft_vocab, model.config.vocab_size))
    draft_labels = vocab.target_to_draft(features.labels)
    train_ids, heldout_ids = split_heldout(features.num_samples, settings.heldout, settings.seed)
    budget = None if settings.time_budget_s is None else max(0.0, settings.time_budget_s
                                                             - (time.perf_counter() - started))
    options = FitOptions(steps=settings.steps, seed=settings.seed, batch_size=settings.batch_size,
                         lr=settings.lr, save_every=settings.save_every, time_budget_s=budget)
    fingerprint = _state_fingerprint(data_fp, settings)
    state = out / WORK / "state.pt"
    lm_head = model.get_output_embeddings().weight.detach()[vocab.draft_to_target.to(device)]
    torch.manual_seed(settings.seed)
    head: Eagle3Head | MedusaHeads
    if settings.method == "eagle3":
        head = eagle = Eagle3Head(model.config, vocab.size)
        with torch.no_grad():  # start from the target's own output layer, cut to the draft vocabulary
            eagle.lm_head.weight.copy_(lm_head.cpu())
            eagle.norm.weight.copy_(model.model.norm.weight.cpu())
        eagle.to(device)
        embed = model.get_input_embeddings().weight.detach()
        step_loss = eagle3_step_loss(eagle, features, draft_labels, embed, settings.ttt_steps)
    else:
        head = MedusaHeads(model.config.hidden_size, settings.heads, settings.head_layers, lm_head.cpu()).to(device)
        step_loss = medusa_step_loss(head, features, head_labels(features, draft_labels, settings.heads))
    result = fit(head, lambda idx: step_loss(train_ids[idx]), len(train_ids), options, state, fingerprint, resume)
    if resume and result.resumed_from:
        log(f"resumed at step {result.resumed_from}")
    if result.stopped_by_time_budget:
        log(f"--time-budget-s {settings.time_budget_s:g} reached at step {result.step} of {settings.steps}: "
            f"the checkpoint holds that step; run again with --resume to continue")

    head.eval()
    train_agreement = agreement(step_loss, train_ids[:64], settings.batch_size)
    heldout_agreement = agreement(step_loss, heldout_ids, settings.batch_size)
    record = _record(settings, data_fp, features, result, model_name, collector,
                     train_agreement=train_agreement, heldout_agreement=heldout_agreement,
                     heldout_samples=len(heldout_ids),
                     coverage=float((draft_labels != -100).float().mean()), collect_s=collect_s)
    model_config = model.config.to_dict()
    if settings.method == "eagle3":
        config = checkpoint.speculator_config(model_config, vocab, tuple(data_fp["aux_layers"]),
                                              norm_before_residual=True, verifier=model_name)
        tensors = checkpoint.eagle3_tensors({k: v.cpu() for k, v in head.weights().items()}, vocab)
    else:
        config = medusa_config(model_config, vocab, settings.heads, settings.head_layers)
        tensors = checkpoint.medusa_tensors({k: v.cpu() for k, v in head.weights().items()}, vocab)
    checkpoint.write(out, tensors, config, record)
    log(f"{settings.method} speculator for {model_name} written to {out}: {result.step} steps on {settings.device}, "
        f"loss {result.final_loss}; top-1 agreement with the target per draft position on "
        f"{len(heldout_ids)} held-out samples {heldout_agreement} (training samples {train_agreement})")
    return out


# Settings that do not shape a method's training, left out of its resumable state's fingerprint (so
# that an EAGLE-3 state saved before Medusa existed still resumes); a time budget never does.
_NOT_OF = {"eagle3": ("method", "heads", "head_layers"), "medusa": ("ttt_steps",)}
_NEVER = ("time_budget_s",)


def _state_fingerprint(data_fp: dict[str, Any], settings: TrainSettings) -> dict[str, Any]:
    """What a saved state must have been made from to be resumed: the data and the method's settings,
    all but the step count (more steps may follow a resume) and the time budget."""
    own = {k: v for k, v in asdict(settings).items() if k not in _NOT_OF[settings.method] + _NEVER}
    return {**data_fp, **own, "steps": None}


def _record(settings: TrainSettings, data_fp: dict[str, Any], features: Features, result: FitResult,
            model_name: str, collector: str, train_agreement: list[float], heldout_agreement: list[float],
            heldout_samples: int, coverage: float, collect_s: float) -> dict[str, Any]:
    """training.json: how the checkpoint was made (never the prompts themselves)."""
    return {
        "method": settings.method, "target": model_name, "target_model_id": data_fp["model"],
        "seed": settings.seed, "settings": asdict(settings), "versions": checkpoint.versions(),
        "device": settings.device, "collector": collector,
        "data_source": prompts.SOURCE + (f"; {prompts.SELF_SOURCE}" if settings.self_prompts else ""),
        "data_sha256": data_fp["data_sha256"], "template_sha256": data_fp["template_sha256"],
        "tokens": int(features.labels.numel()), "samples": features.num_samples,
        "aux_layers": data_fp["aux_layers"], "steps": result.step, "resumed_from": result.resumed_from,
        "stopped_by_time_budget": result.stopped_by_time_budget, "final_loss": result.final_loss,
        "train_top1_agreement_per_position": train_agreement,
        "heldout_samples": heldout_samples, "heldout_top1_agreement_per_position": heldout_agreement,
        "draft_vocab_coverage": coverage,
        "seconds_collecting": round(collect_s, 1), "seconds_per_step": result.seconds_per_step,
    }
