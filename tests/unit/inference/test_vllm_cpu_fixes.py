"""The vLLM CPU speculative-sampling fix: our expand kernel spreads each request's value over its
token span in the output's own dtype, as vLLM's Triton `expand_kernel` does, where vLLM CPU 0.32's
C++ fallback leaves a float output unwritten; and the engine knows whether vLLM will load the fix."""

from __future__ import annotations

import importlib.util

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from vllm.platforms import current_platform

from ztgate.inference.vllm_compat import cpu_fixes
from ztgate.inference.vllm_compat.cpu_fixes import expand_kernel_impl

_DTYPES = {"float32": torch.float32, "int32": torch.int32, "int64": torch.int64}


def _reference(values: list[float], counts: list[int], replace_from: float, replace_to: float) -> list[float]:
    out: list[float] = []
    for v, n in zip(values, counts):
        out += [replace_to if v == replace_from else v] * n
    return out


@settings(max_examples=80, deadline=None)
@given(data=st.data(), dtype=st.sampled_from(sorted(_DTYPES)))
def test_each_requests_value_fills_its_span_in_the_outputs_dtype(data, dtype):
    counts = data.draw(st.lists(st.integers(0, 5), min_size=1, max_size=8), label="draft tokens per request")
    torch_dtype = _DTYPES[dtype]
    if dtype == "float32":
        pool = st.sampled_from([-1.0, 0.0, 0.25, 0.7, 1.0, 1.5])  # -1 and 0: vLLM's greedy markers
    else:
        pool = st.integers(-1, 100)
    values = data.draw(st.lists(pool, min_size=len(counts), max_size=len(counts)), label="values")
    replace_from, replace_to = data.draw(st.sampled_from([(0, 0), (-1, 1), (0, 1)]), label="replace")
    total = sum(counts)
    output = torch.full((total + 2,), 99, dtype=torch_dtype)  # + 2: rows past the spans stay untouched
    expand_kernel_impl(output, torch.tensor(values, dtype=torch_dtype),
                       torch.tensor(counts, dtype=torch.int32).cumsum(0).to(torch.int32), replace_from,
                       replace_to, MAX_NUM_TOKENS=8)
    expected = _reference([float(v) for v in values], counts, replace_from, replace_to)
    assert output[:total].tolist() == pytest.approx(expected)
    assert output[total:].tolist() == [99, 99]


def test_vllms_own_cpu_fallback_leaves_a_float_output_unwritten():
    """Why the plugin exists. If a vLLM upgrade fixes its fallback, this fails: drop the plugin then."""
    current_platform.register_triton_kernel_overrides()  # loads vLLM's C++ ops
    from vllm.utils import cpu_triton_utils

    # A fresh copy of vLLM's module, whatever this process's plugin did to the imported one.
    spec = importlib.util.spec_from_file_location("vllm_cpu_triton_utils_original", cpu_triton_utils.__file__)
    original = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(original)
    broken = original._expand_kernel_impl
    output = torch.full((3,), -7.0)
    broken(output, torch.tensor([0.7]), torch.tensor([3], dtype=torch.int32), 0, 1, MAX_NUM_TOKENS=8)
    assert output.tolist() != pytest.approx([0.7, 0.7, 0.7])


def test_the_plugin_replaces_vllms_fallback_and_is_idempotent(monkeypatch):
    from vllm.utils import cpu_triton_utils

    monkeypatch.setattr(cpu_triton_utils, "_expand_kernel_impl", cpu_triton_utils._expand_kernel_impl)
    cpu_fixes.register()
    cpu_fixes.register()
    assert cpu_triton_utils._expand_kernel_impl is expand_kernel_impl


@pytest.mark.parametrize("allowlist, loads", [(None, True), ("ztgate_cpu_fixes", True),
                                              ("other,ztgate_cpu_fixes", True), ("other", False), ("", False)])
def test_the_engine_knows_whether_vllm_will_load_the_fix(monkeypatch, allowlist, loads):
    if allowlist is None:
        monkeypatch.delenv("VLLM_PLUGINS", raising=False)
    else:
        monkeypatch.setenv("VLLM_PLUGINS", allowlist)
    assert cpu_fixes.loaded_by_vllm() is loads  # the project is installed with its entry point
