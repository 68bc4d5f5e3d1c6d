"""The speculator a primary serves when its `draft_model` is unset: the one `ztgate models
train-speculator` wrote to the model cache for the served model, else (for the default model only)
the checkpoint shipped with ztgate.

Serving owns this lookup and the shipped checkpoints (ztgate/inference/speculator_checkpoints/,
package data of ztgate.inference, left where they are beside this subpackage), so that the trainer (ztgate/speculators/) depends on inference and never the
reverse. Each shipped folder's training.json says how it was made (seed, settings, versions, data
hash, steps). Retraining writes to the cache, which then takes precedence.
"""

from __future__ import annotations

from pathlib import Path

from ztgate.inference import models

CHECKPOINTS = Path(__file__).parents[1] / "speculator_checkpoints"
TRAINED_METHODS = ("eagle3", "medusa")


def checkpoint_name(method: str, model: str = models.DEFAULT_MODEL) -> str:
    """`SmolLM2-135M-Instruct-eagle3`: the folder name in the cache (and, for the default model,
    among the shipped ones) of `model`'s speculator; `model` is the served model folder's name."""
    return f"{model}-{method}"


def is_complete(folder: Path) -> bool:
    return (folder / "config.json").is_file() and (folder / "model.safetensors").is_file()


def default_speculator(method: str, cache_dir: Path | None = None,
                       model: str = models.DEFAULT_MODEL) -> Path | None:
    """The checkpoint trained into the cache for `model` if complete, else the shipped one when
    `model` is the default model, else None: a head trained for one model never serves another."""
    if method not in TRAINED_METHODS:
        return None
    name = checkpoint_name(method, model)
    folders = [(cache_dir or models.default_cache_dir()) / name]
    if model == models.DEFAULT_MODEL:
        folders.append(CHECKPOINTS / name)
    return next((folder for folder in folders if is_complete(folder)), None)
