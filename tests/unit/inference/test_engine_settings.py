"""Speculative settings, parity modes and their mapping onto vLLM and transformers arguments."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from ztgate.inference.engines import create_engine
from ztgate.inference.engines.engine_config import EngineConfig
from ztgate.inference.spec_decode.settings import SUFFIX_MAX_SPEC_FACTOR, SpeculativeSettings
from ztgate.inference.engines.errors import EngineConfigError
from ztgate.inference.engines.request import GenerationRequest, SamplingParams
from ztgate.inference.engines.transformers_engine import TransformersEngine
from ztgate.inference.engines.vllm_engine import (
    SpeculativeTotals,
    emulated_bfloat16_speculation,
    speculative_config,
    vllm_sampling_kwargs,
)


@pytest.mark.parametrize("parity, dtype", [("strict", "float32"), ("fast", "bfloat16")])
def test_parity_mode_chooses_the_dtype(parity, dtype):
    assert EngineConfig(model_dir=Path("/m"), parity=parity).dtype == dtype


@pytest.mark.parametrize("settings, fragment", [
    (SpeculativeSettings(method="lookahead"), "speculative method 'lookahead' is unknown"),
    (SpeculativeSettings(method="ngram", num_speculative_tokens=0), "num_speculative_tokens must be >= 1"),
    (SpeculativeSettings(method="ngram", prompt_lookup_min=5, prompt_lookup_max=3), "prompt_lookup_min <= prompt_lookup_max"),
    (SpeculativeSettings(method="eagle"), "needs draft_model"),
    (SpeculativeSettings(method="draft_model", draft_model="/nowhere/model"), "does not exist"),
    # vLLM 0.32's Medusa proposer asserts a fixed draft count (measured: the engine core died), and so
    # does its suffix decoding proposer.
    (SpeculativeSettings(method="medusa", num_speculative_tokens=3, draft_model="/m",
                         batch_schedule=((1, 1, 3), (2, 1024, 0))), "medusa drafts num_speculative_tokens (3)"),
    (SpeculativeSettings(method="suffix", batch_schedule=((1, 1, 8), (2, 1024, 0))),
     "suffix drafts num_speculative_tokens (8)"),
    (SpeculativeSettings(method="suffix", suffix_cached_requests=-1), "suffix_cached_requests must be 0 or more"),
    (SpeculativeSettings(method="suffix", suffix_max_spec_factor=0), "suffix_max_spec_factor must be above 0"),
    (SpeculativeSettings(method="suffix", suffix_max_spec_factor=65), "at most 64"),
])
def test_bad_speculative_settings_name_what_to_fix(settings, fragment):
    with pytest.raises(EngineConfigError) as e:
        settings.check()
    assert fragment in str(e.value)


def test_a_missing_model_folder_points_at_models_prepare(tmp_path):
    with pytest.raises(EngineConfigError, match="ztgate models prepare"):
        EngineConfig(model_dir=tmp_path).check()


def test_ngram_maps_to_vllm_speculative_config():
    c = EngineConfig(model_dir=Path("/m"), speculative=SpeculativeSettings(
        method="ngram", num_speculative_tokens=5, prompt_lookup_min=1, prompt_lookup_max=3))
    assert speculative_config(c) == {"method": "ngram", "num_speculative_tokens": 5,
                                     "prompt_lookup_min": 1, "prompt_lookup_max": 3}
    assert speculative_config(EngineConfig(model_dir=Path("/m"))) is None
    eagle = EngineConfig(model_dir=Path("/m"), speculative=SpeculativeSettings(
        method="eagle3", num_speculative_tokens=3, draft_model="/heads/eagle3"))
    assert speculative_config(eagle) == {"method": "eagle3", "num_speculative_tokens": 3, "model": "/heads/eagle3"}


def test_sampling_maps_to_vllm_with_greedy_logprobs_and_stops():
    req = GenerationRequest(prompt="x", sampling=SamplingParams(
        temperature=0, top_p=0.9, top_k=0, max_tokens=99, seed=7, stop=("\n",), score_inline=True))
    assert vllm_sampling_kwargs(req, 40) == {"temperature": 0, "top_p": 0.9, "top_k": 0, "max_tokens": 40,
                                             "seed": 7, "stop": ["\n"], "logprobs": 0}
    plain = vllm_sampling_kwargs(GenerationRequest(prompt="x"), 10)
    assert plain["stop"] is None and plain["logprobs"] is None


def _hf_engine(spec: SpeculativeSettings) -> TransformersEngine:
    engine = TransformersEngine(EngineConfig(model_dir=Path("/m"), speculative=spec))
    engine._renderer = SimpleNamespace(tokenizer="TOKENIZER", max_model_len=100)  # no model needed
    return engine


def test_greedy_maps_to_transformers_without_sampling_knobs():
    kw = _hf_engine(SpeculativeSettings(method="none"))._generate_kwargs(
        GenerationRequest(prompt="x", sampling=SamplingParams(temperature=0)), 12)
    assert kw == {"max_new_tokens": 12, "do_sample": False, "temperature": None, "top_p": None, "top_k": None}


def test_sampling_ngram_and_stops_map_to_transformers_generate():
    kw = _hf_engine(SpeculativeSettings(method="ngram", num_speculative_tokens=6, prompt_lookup_max=3))._generate_kwargs(
        GenerationRequest(prompt="x", sampling=SamplingParams(temperature=0.5, top_p=0.8, top_k=20, stop=("END",),
                                                              score_inline=True)), 5)
    assert kw == {"max_new_tokens": 5, "do_sample": True, "temperature": 0.5, "top_p": 0.8, "top_k": 20,
                  "stop_strings": ["END"], "tokenizer": "TOKENIZER", "output_logits": True,
                  "return_dict_in_generate": True, "prompt_lookup_num_tokens": 6, "max_matching_ngram_size": 3}


def test_unknown_engine_kind_is_a_config_error():
    with pytest.raises(EngineConfigError, match="use vllm or transformers"):
        create_engine("llamacpp", EngineConfig(model_dir=Path("/m")))  # type: ignore[arg-type]


def _step(running, drafts=0, draft_tokens=0, accepted=0, per_pos=None):
    spec = None if per_pos is None else SimpleNamespace(
        num_drafts=drafts, num_draft_tokens=draft_tokens, num_accepted_tokens=accepted,
        num_accepted_tokens_per_pos=per_pos)
    return SimpleNamespace(num_running_reqs=running, num_waiting_reqs=0, spec_decoding_stats=spec)


def test_speculative_totals_add_up_the_scheduler_steps():
    t = SpeculativeTotals()
    t.add(_step(1, 2, 8, 5, [2, 2, 1, 0]))
    t.add(_step(1))  # a step without speculation stats
    t.add(_step(0, 1, 4, 4, [1, 1, 1, 1]))
    assert (t.num_drafts, t.num_draft_tokens, t.num_accepted_tokens) == (3, 12, 9)
    assert t.num_accepted_tokens_per_pos == [3, 3, 2, 1]
    assert t.num_running_reqs == 0


def test_compilation_is_a_per_instance_setting_that_reaches_the_engine():
    from ztgate.common.config import load_settings
    from ztgate.config import ZtgateConfig
    from ztgate.inference.service import engine_config

    config = load_settings(ZtgateConfig, None, environ={
        "ZTGATE_INFERENCE__MODEL_DIR": "/m", "ZTGATE_INFERENCE__PRIMARY__ENFORCE_EAGER": "false"})
    inference = config.inference
    assert engine_config(inference, inference.primary).enforce_eager is False
    assert engine_config(inference, inference.fallback).enforce_eager is True  # the default


def test_suffix_decoding_passes_no_model_and_keeps_no_answers_across_requests_by_default():
    config = EngineConfig(model_dir=Path("/m"), speculative=SpeculativeSettings(method="suffix", num_speculative_tokens=8))
    assert speculative_config(config) == {"method": "suffix", "num_speculative_tokens": 8,
                                          "suffix_decoding_max_cached_requests": 0,
                                          "suffix_decoding_max_spec_factor": SUFFIX_MAX_SPEC_FACTOR}
    shared = SpeculativeSettings(method="suffix", num_speculative_tokens=8, suffix_cached_requests=500)
    assert speculative_config(EngineConfig(model_dir=Path("/m"), speculative=shared))[
        "suffix_decoding_max_cached_requests"] == 500


def test_suffix_decoding_is_installed_by_make_install():
    SpeculativeSettings(method="suffix").check()  # arctic-inference's tree, from requirements/suffix.txt
    from arctic_inference.suffix_decoding import SuffixDecodingCache

    cache = SuffixDecodingCache(max_tree_depth=8, max_cached_requests=0)
    cache.start_request("r", np.array([5, 6, 7, 5, 6], dtype=np.int32))
    cache.add_active_response("r", [7])
    assert cache.speculate("r", np.array([5, 6, 7], dtype=np.int32), max_spec_tokens=2).token_ids == [5, 6]


def test_suffix_without_arctic_inference_is_refused_naming_the_package(monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    # Fault injected: the package is made to look absent.
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "arctic_inference" else real(name, *a))
    with pytest.raises(EngineConfigError, match="arctic-inference package .* requirements/suffix.txt"):
        SpeculativeSettings(method="suffix").check()


@pytest.mark.parametrize("parity, method, cpu, native, off", [
    ("fast", "suffix", True, False, True),  # emulated bfloat16: verifying drafts costs more than they save
    ("fast", "ngram", True, False, True),
    ("fast", "none", True, False, False),  # nothing to turn off
    ("fast", "suffix", True, True, False),  # AVX-512 BF16 / AMX: bfloat16 is native
    ("fast", "suffix", False, False, False),  # a GPU
    ("strict", "suffix", True, False, False),  # float32 speculates on every CPU
])
def test_speculation_is_off_only_for_emulated_bfloat16_on_a_cpu(parity, method, cpu, native, off):
    config = EngineConfig(model_dir=Path("/m"), parity=parity, speculative=SpeculativeSettings(method=method))
    reason = emulated_bfloat16_speculation(config, cpu=cpu, native_bfloat16=native)
    assert (reason is not None) == off
    if off:
        assert f"speculative method {method!r} is off" in reason and "parity strict" in reason


def test_reserved_cpus_reach_the_vllm_engine_and_must_leave_the_model_a_core(tmp_path):
    import os

    from ztgate.common.config import ConfigError, load_settings
    from ztgate.config import ZtgateConfig
    from ztgate.inference.service import engine_config

    config = load_settings(ZtgateConfig, None, environ={
        "ZTGATE_INFERENCE__MODEL_DIR": "/m", "ZTGATE_INFERENCE__PRIMARY__RESERVED_CPUS": "0"})
    assert engine_config(config.inference, config.inference.primary).reserved_cpus == 0
    assert engine_config(config.inference, config.inference.fallback).reserved_cpus is None  # vLLM's default
    with pytest.raises(ConfigError, match="reserved_cpus applies to engine vllm"):
        load_settings(ZtgateConfig, None, environ={"ZTGATE_INFERENCE__FALLBACK__RESERVED_CPUS": "0"})

    (tmp_path / "config.json").write_text("{}")
    allowed = len(os.sched_getaffinity(0))
    EngineConfig(model_dir=tmp_path, reserved_cpus=allowed - 1).check()
    with pytest.raises(EngineConfigError, match=f"reserved_cpus {allowed} leaves the model no core"):
        EngineConfig(model_dir=tmp_path, reserved_cpus=allowed).check()


def test_the_spec_factor_lets_a_fresh_match_draft_past_its_own_length():
    """Why suffix_max_spec_factor defaults to 2 (vLLM's default is 1): on arctic-inference's real tree,
    a copy that has just begun (the tree reports a match of length 1) drafts one token at factor 1
    and two at factor 2, of a prompt that would have given six."""
    from arctic_inference.suffix_decoding import SuffixDecodingCache

    prompt = np.array([9, 10, 11, 12, 13, 14, 15, 16], dtype=np.int32)

    def draft(factor: float) -> list[int]:
        cache = SuffixDecodingCache(max_tree_depth=8, max_cached_requests=0)
        cache.start_request("r", prompt)
        cache.add_active_response("r", [9, 10])
        return cache.speculate("r", np.array([9, 10], dtype=np.int32), max_spec_tokens=8,
                               max_spec_factor=factor).token_ids

    assert draft(1.0) == [11]
    assert draft(SUFFIX_MAX_SPEC_FACTOR) == [11, 12]


def test_the_instance_section_carries_the_spec_factor_to_the_engine():
    from ztgate.inference.spec_decode.section import SpeculativeSection, speculative_settings

    assert speculative_settings(SpeculativeSection(method="suffix")).suffix_max_spec_factor == SUFFIX_MAX_SPEC_FACTOR
    assert speculative_settings(SpeculativeSection(method="suffix", suffix_max_spec_factor=1)).suffix_max_spec_factor == 1
    with pytest.raises(ValueError, match="suffix_max_spec_factor"):
        SpeculativeSection(method="suffix", suffix_max_spec_factor=0)
