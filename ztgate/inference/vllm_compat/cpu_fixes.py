"""A fix for vLLM CPU 0.32.0 (vllm_compat.SUPPORTED_VLLM), loaded into every vLLM process as a `vllm.general_plugins` entry point.

vLLM CPU replaces the Triton kernels of speculative decoding with C++ fallbacks
(`vllm.utils.cpu_triton_utils`, registered by `CpuPlatform.register_triton_kernel_overrides` right
after general plugins load). Its `expand_kernel` fallback, which spreads each request's temperature,
top-k and top-p over its draft positions (`rejection_sampler.expand_batch_to_tokens`), converts the
output tensor to int64 and writes into that converted copy: the real output, a float32 or int32
tensor from `new_empty`, keeps whatever memory it had, and the float input is truncated to an
integer besides. Every sampled (temperature > 0) request served with speculation then divides its
logits by garbage and samples word salad; greedy requests never read it. This module swaps in a
torch implementation with the kernel's semantics (ztgate/inference tests check the sampled
distribution against plain decoding). On any other vLLM release it patches nothing (the engine
refuses to start there: ztgate/inference/vllm_compat/__init__.py).
"""

from __future__ import annotations

import os
from importlib.metadata import entry_points

import torch

from ztgate.inference import vllm_compat

PLUGIN = "ztgate_cpu_fixes"  # the entry point's name in pyproject.toml


def expand_kernel_impl(output: torch.Tensor, input_val: torch.Tensor, cu_num_tokens: torch.Tensor,
                       replace_from: float, replace_to: float, MAX_NUM_TOKENS: int | None = None) -> None:  # noqa: N803
    """Writes input_val[i] (replace_from -> replace_to) into output over request i's token span,
    spans ending at cu_num_tokens[i], in the output's own dtype."""
    counts = torch.diff(cu_num_tokens.to(torch.long), prepend=cu_num_tokens.new_zeros(1, dtype=torch.long))
    values = torch.where(input_val == replace_from, torch.as_tensor(replace_to, dtype=input_val.dtype), input_val)
    total = int(counts.sum())
    output[:total] = torch.repeat_interleave(values, counts).to(output.dtype)


def register() -> None:
    """The plugin's entry point: idempotent, and a no-op off CPU, on another vLLM release, or where
    the module moved."""
    if not vllm_compat.is_supported(vllm_compat.installed_version() or ""):
        return
    from vllm.platforms import current_platform

    if not current_platform.is_cpu():
        return
    try:
        from vllm.utils import cpu_triton_utils
    except ImportError:
        return
    if hasattr(cpu_triton_utils, "_expand_kernel_impl"):
        cpu_triton_utils._expand_kernel_impl = expand_kernel_impl


def loaded_by_vllm() -> bool:
    """Whether vLLM's processes will load this fix: the entry point is installed (pip install of this
    project) and VLLM_PLUGINS, vLLM's allowlist, does not leave it out."""
    installed = any(ep.name == PLUGIN and ep.value.startswith(__name__ + ":")
                    for ep in entry_points(group="vllm.general_plugins"))
    allowed = os.environ.get("VLLM_PLUGINS")
    return installed and (allowed is None or PLUGIN in allowed.split(","))
