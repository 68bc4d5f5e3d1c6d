"""Where ztgate keeps what it builds once and reuses: declared here, read nowhere else.

`ZTGATE_CACHE_DIR` (default `~/.cache/ztgate`) holds the compiled Hyperscan database, the
parsed place table and, under `models/`, the prepared default model. A different model for one
inference instance is that instance's `model_dir` setting, not another variable.
"""

from __future__ import annotations

import os
from pathlib import Path

# The one variable that moves every cache (an image sets it to a folder it owns).
CACHE_DIR_ENV = "ZTGATE_CACHE_DIR"
MODELS_SUBDIR = "models"


def cache_dir() -> Path:
    """`$ZTGATE_CACHE_DIR`, else `~/.cache/ztgate`."""
    configured = os.environ.get(CACHE_DIR_ENV)
    return Path(configured).expanduser() if configured else Path.home() / ".cache" / "ztgate"


def models_dir() -> Path:
    """Where `ztgate models prepare` puts the default model: `<cache_dir>/models`."""
    return cache_dir() / MODELS_SUBDIR
