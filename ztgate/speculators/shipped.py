"""The speculators a primary serves when its `draft_model` is unset: the one `ztgate models
train-speculator` wrote to the model cache, else the checkpoint shipped with ztgate.

The shipped checkpoints (ztgate/speculators/checkpoints/, package data) were made by that command
on the project's development machine; each folder's training.json says how (seed, settings,
versions, data hash, steps). Retraining writes to the cache, which then takes precedence.
"""

from __future__ import annotations

from pathlib import Path

from ztgate.inference import models

CHECKPOINTS = Path(__file__).parent / "checkpoints"
TRAINED_METHODS = ("eagle3", "medusa")


def checkpoint_name(method: str) -> str:
    """`SmolLM2-135M-Instruct-eagle3`: the folder name in the cache and among the shipped ones."""
    return f"{models.DEFAULT_MODEL}-{method}"


def default_speculator(method: str, cache_dir: Path | None = None) -> Path | None:
    """The trained checkpoint in the cache if complete, else the shipped one, else None."""
    if method not in TRAINED_METHODS:
        return None
    name = checkpoint_name(method)
    for folder in ((cache_dir or models.default_cache_dir()) / name, CHECKPOINTS / name):
        if (folder / "config.json").is_file() and (folder / "model.safetensors").is_file():
            return folder
    return None
