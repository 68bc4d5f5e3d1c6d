"""The served model a speculator is trained for (`--model DIR`), checked before anything is loaded,
and the torch device it runs on (`--device`)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

# The head is one Llama decoder layer over the target's hidden states (head.py), and vLLM's
# EAGLE-3 reads the target's aux states from its Llama model: other families need their own head
# (vLLM's speculators library, docs/speculator.md).
SUPPORTED_MODEL_TYPES = ("llama",)
# vLLM's default aux layers (2, L//2, L-3) must be distinct layers past the embedding.
MIN_LAYERS = 4
DEVICES = ("cpu", "cuda")
DEFAULT_DRAFT_VOCAB = 8192


def read_config(model_dir: Path) -> dict[str, Any]:
    """The model's config.json, refused with a message naming what to fix when the trainer cannot
    make a head for it."""
    path = model_dir / "config.json"
    if not path.is_file():
        raise FileNotFoundError(f"no model at {model_dir} (config.json missing): give --model a Hugging Face "
                                f"model folder, or run `ztgate models prepare` for the default model")
    try:
        config = json.loads(path.read_text())
    except ValueError as exc:
        raise ValueError(f"--model {model_dir}: config.json is not JSON ({exc})") from None
    model_type = config.get("model_type")
    if model_type not in SUPPORTED_MODEL_TYPES:
        raise ValueError(f"--model {model_dir}: model_type {model_type!r} is not Llama-family; this trainer makes "
                         f"heads for {', '.join(SUPPORTED_MODEL_TYPES)} models (for others use vLLM's speculators "
                         f"library, docs/speculator.md)")
    layers = config.get("num_hidden_layers")
    if not isinstance(layers, int) or layers < MIN_LAYERS:
        raise ValueError(f"--model {model_dir}: an EAGLE-3 head reads three of the target's layers, which needs at "
                         f"least {MIN_LAYERS} hidden layers; this model has {layers}")
    return config


def draft_vocab_size(requested: int | None, vocab_size: int) -> int:
    """--draft-vocab, else 8,192 or the whole vocabulary of a model that has fewer tokens."""
    size = min(DEFAULT_DRAFT_VOCAB, vocab_size) if requested is None else requested
    if not 1 <= size <= vocab_size:
        raise ValueError(f"--draft-vocab must be between 1 and the model's vocabulary of {vocab_size}; got {size}")
    return size


def check_device(device: str) -> Any:
    """The torch device, refused when absent (before any model is loaded)."""
    import torch

    if device not in DEVICES:
        raise ValueError(f"--device must be one of {', '.join(DEVICES)}; got {device!r}")
    if device == "cuda" and not torch.cuda.is_available():
        raise ValueError("--device cuda: torch sees no CUDA device here (torch.cuda.is_available() is False); "
                         "install a CUDA build of torch on a machine with a GPU, or use --device cpu")
    return torch.device(device)


def deterministic(device: Any) -> None:
    """Same seed, same weights on a GPU too: deterministic kernels (cuBLAS needs its workspace
    setting before its first call; ops without a deterministic kernel warn rather than fail)."""
    import torch

    if device.type == "cuda":
        os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
        torch.use_deterministic_algorithms(True, warn_only=True)
