"""`ztgate models prepare` and `ztgate models train-speculator`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ztgate.cli.common import config_from, with_config


def cmd_models(args: argparse.Namespace) -> int:
    from ztgate.inference.models import prepare
    from ztgate.redaction.detection.names import gazetteer
    from ztgate.redaction.detection.patterns.scanner import PatternScanner

    path = prepare(args.cache_dir, force=args.force)
    print(f"model ready: {path}")
    # The redaction service's compiled caches too (a minute of Hyperscan compiling and seconds of
    # town parsing on a small machine), so that its first start is as quick as every later one.
    cache_dir = config_from(args).redaction.cache_dir
    scanner = PatternScanner(cache_dir=cache_dir)
    print(f"redaction patterns ready: {scanner.cache_path} ({scanner.database_source})")
    print(f"redaction place table ready: {gazetteer.warm_place_cache(cache_dir)}")
    return 0


def cmd_train_speculator(args: argparse.Namespace) -> int:
    try:
        from ztgate.speculators.train import TrainSettings, train_speculator
    except ImportError as exc:  # Faker (the dev extra) fills the prompts; torch/transformers: inference
        print(f"ztgate models train-speculator needs the dev and inference extras: {exc}", file=sys.stderr)
        return 2

    defaults = TrainSettings()
    settings = TrainSettings(
        method=args.method, samples=defaults.samples if args.samples is None else args.samples,
        steps=defaults.steps if args.steps is None else args.steps, seed=args.seed,
        draft_vocab=args.draft_vocab, max_new_tokens=args.max_new_tokens, batch_size=args.batch_size,
        ttt_steps=args.ttt_steps, heads=args.heads, head_layers=args.head_layers, threads=args.threads,
        self_prompts=args.self_prompts, device=args.device, collector=args.collector,
        collect_batch=args.collect_batch, heldout=args.heldout, time_budget_s=args.time_budget_s)
    try:
        out = train_speculator(settings, out=args.out, model_dir=args.model, resume=args.resume)
    except (FileNotFoundError, ValueError) as exc:
        print(f"ztgate models train-speculator: {exc}", file=sys.stderr)
        return 2
    print(f"speculator ready: {out} (serve it with inference.primary.speculative.method: {args.method}, "
          f"draft_model: {out})")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("models", help="prepare the default model offline")
    models = p.add_subparsers(dest="action", required=True)
    p = with_config(models.add_parser(
        "prepare", help="convert the packaged SmolLM2 GGUF to a Hugging Face folder; build the redaction caches"))
    p.add_argument("--cache-dir", type=Path, help="default: $ZTGATE_CACHE_DIR/models, else ~/.cache/ztgate/models")
    p.add_argument("--force", action="store_true", help="convert again even if prepared")
    p.set_defaults(func=cmd_models)
    p = models.add_parser(
        "train-speculator", help="train an EAGLE-3 head or Medusa heads for the default model, or the Llama-family "
                                 "model in --model DIR, on the CPU or a GPU (self-distillation; docs/speculator.md)")
    p.add_argument("--method", choices=("eagle3", "medusa"), default="eagle3",
                   help="the speculator to train (default eagle3); both share the target's answers and "
                        "hidden states, cached in speculator-data/ beside the checkpoint folder")
    p.add_argument("--samples", type=int, help="training prompts from the templates (default 256)")
    p.add_argument("--self-prompts", type=int, default=0,
                   help="more training prompts, written by the target itself from a seed (Magpie; "
                        "broader than the templates, docs/speculator.md; default 0)")
    p.add_argument("--steps", type=int, help="optimizer steps (default 600)")
    p.add_argument("--seed", type=int, default=0, help="seed of the prompts, the initial weights and the batches")
    p.add_argument("--out", type=Path,
                   help="checkpoint folder (default: $ZTGATE_CACHE_DIR/models/<model folder name>-<method>, where "
                        "a primary serving that model finds it)")
    p.add_argument("--model", "--model-dir", dest="model", type=Path, metavar="DIR",
                   help="the served Llama-family model (a Hugging Face folder) to train for (default: the one "
                        "`models prepare` made)")
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                   help="where the target answers and the head trains (default cpu; the same code on both)")
    p.add_argument("--collector", choices=("auto", "vllm", "transformers"), default="auto",
                   help="who answers: vllm (the CPU engine), transformers (batched, on the device); default auto: "
                        "vllm on cpu where installed, else transformers")
    p.add_argument("--collect-batch", type=int, default=32,
                   help="transformers collector: prompts per batch (default 32)")
    p.add_argument("--heldout", type=float, default=0.05,
                   help="share of the samples held out of training for the agreement figures (default 0.05, "
                        "at most 400 samples)")
    p.add_argument("--time-budget-s", type=float,
                   help="seconds the command may run, collection included: training stops there, saves its state "
                        "and writes the checkpoint (continue with --resume); default: no limit")
    p.add_argument("--draft-vocab", type=int,
                   help="draft vocabulary size K (default 8192, or the model's vocabulary if smaller)")
    p.add_argument("--max-new-tokens", type=int, default=128, help="length of each target answer (default 128)")
    p.add_argument("--batch-size", type=int, default=8, help="samples per step (default 8)")
    p.add_argument("--ttt-steps", type=int, default=3,
                   help="eagle3: draft positions trained by test-time-training unroll (default 3; 1: none)")
    p.add_argument("--heads", type=int, default=3,
                   help="medusa: heads, the most draft tokens it proposes (default 3)")
    p.add_argument("--head-layers", type=int, default=1, help="medusa: residual blocks per head (default 1)")
    p.add_argument("--threads", type=int, default=1,
                   help="torch CPU threads (default 1: fastest on a shared 2-vCPU machine)")
    p.add_argument("--resume", action="store_true",
                   help="continue from the saved state in <out>/.train (same samples, seed and settings)")
    p.set_defaults(func=cmd_train_speculator)
