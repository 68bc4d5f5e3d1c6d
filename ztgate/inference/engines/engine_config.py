"""What an engine is started with: the model, the parity (dtype), speculative decoding (its settings
in ztgate/inference/spec_decode/settings.py) and vLLM's sizes, checked before anything loads so that
a bad setting stops start-up with its name."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ztgate.inference.engines.errors import EngineConfigError
from ztgate.inference.spec_decode.settings import SpeculativeSettings

Parity = Literal["strict", "fast"]
# strict: float32 everywhere, so speculative and plain decoding (and both engines) give the same
# greedy tokens; fast: bfloat16, faster, and greedy output may then differ with speculation.
PARITY_DTYPES: dict[str, str] = {"strict": "float32", "fast": "bfloat16"}


@dataclass(frozen=True, slots=True)
class EngineConfig:
    model_dir: Path  # a Hugging Face model folder (see ztgate.inference.models.prepare)
    model_name: str = "SmolLM2-135M-Instruct"  # reported in responses
    parity: Parity = "strict"
    speculative: SpeculativeSettings = field(default_factory=lambda: SpeculativeSettings(method="none"))
    max_model_len: int | None = None  # None: the model's own context length
    max_num_seqs: int = 8  # requests batched together by vLLM
    kv_cache_gib: int = 1  # CPU only: KV cache GiB; the vLLM engine sets VLLM_CPU_KVCACHE_SPACE from it
    reserved_cpus: int | None = None  # vLLM on a CPU: cores without a model thread; None: vLLM's default
    # vLLM engine arguments of the accelerator settings (accelerator.engine_kwargs), and where they
    # are set, for the check against the installed build.
    accelerator_args: tuple[tuple[str, Any], ...] = ()
    enforce_eager: bool = True  # no compilation or graph capture: a start in seconds, not minutes

    @property
    def dtype(self) -> str:
        return PARITY_DTYPES[self.parity]

    def check(self) -> None:
        if self.parity not in PARITY_DTYPES:
            raise EngineConfigError(f"parity {self.parity!r} is unknown; use strict or fast")
        if not (Path(self.model_dir) / "config.json").is_file():
            raise EngineConfigError(
                f"no model at {self.model_dir} (config.json missing); run `ztgate models prepare` first")
        allowed = len(os.sched_getaffinity(0))
        if self.reserved_cpus is not None and not 0 <= self.reserved_cpus < allowed:
            raise EngineConfigError(
                f"reserved_cpus {self.reserved_cpus} leaves the model no core: this process may use {allowed} "
                f"CPU(s); set at most {allowed - 1}, or unset it for vLLM's default (one)")
        if self.max_model_len is not None and self.max_model_len < 16:
            raise EngineConfigError(f"max_model_len {self.max_model_len} is too small; use at least 16 or unset it")
        self.speculative.check()
