"""A primary whose eagle3 or medusa section leaves `draft_model` unset serves the speculator trained
into the model cache, else the one shipped with ztgate; the shipped ones are complete checkpoints."""

from __future__ import annotations

import json

import pytest
from safetensors import safe_open

from ztgate.inference import models
from ztgate.inference.spec_decode import speculator_lookup as shipped
from ztgate.inference.spec_decode.section import SpeculativeSection, speculative_settings


@pytest.mark.parametrize("method", shipped.TRAINED_METHODS)
def test_the_shipped_checkpoint_is_complete_and_says_how_it_was_made(method):
    folder = shipped.CHECKPOINTS / shipped.checkpoint_name(method)
    config = json.loads((folder / "config.json").read_text())
    record = json.loads((folder / "training.json").read_text())
    assert record["method"] == method and record["target"] == "SmolLM2-135M-Instruct"
    assert {"seed", "settings", "versions", "data_sha256", "steps", "data_source"} <= record.keys()
    with safe_open(str(folder / "model.safetensors"), "pt") as f:
        names = set(f.keys())
    if method == "eagle3":
        assert config["speculators_model_type"] == "eagle3" and {"fc.weight", "d2t", "t2d"} <= names
    else:
        assert config["model_type"] == "medusa" and {"token_map", "lm_head.weight"} <= names


@pytest.mark.parametrize("method", shipped.TRAINED_METHODS)
def test_the_command_would_train_the_shipped_checkpoint_on_the_same_prompts(method):
    """The README's rebuild command makes the shipped checkpoint's data: a change to the prompt
    templates must come with a retrained checkpoint. (Prompts the target wrote itself need the engine
    to rebuild; their hash is recorded as part of data_sha256, the templates' as template_sha256.)"""
    from ztgate.speculators.prompts import data_hash, training_prompts

    record = json.loads((shipped.CHECKPOINTS / shipped.checkpoint_name(method) / "training.json").read_text())
    settings = record["settings"]
    templates = data_hash(training_prompts(settings["samples"], settings["seed"]))
    if settings.get("self_prompts"):
        assert templates == record["template_sha256"] and record["data_sha256"] != templates
    else:
        assert templates == record["data_sha256"]


@pytest.mark.parametrize("method", shipped.TRAINED_METHODS)
def test_the_cache_wins_over_the_shipped_checkpoint(method, tmp_path):
    assert shipped.default_speculator(method, tmp_path) == shipped.CHECKPOINTS / shipped.checkpoint_name(method)
    trained = tmp_path / shipped.checkpoint_name(method)
    trained.mkdir()
    (trained / "config.json").write_text("{}")
    assert shipped.default_speculator(method, tmp_path) == shipped.CHECKPOINTS / shipped.checkpoint_name(method)
    (trained / "model.safetensors").write_bytes(b"")  # complete only with its weights
    assert shipped.default_speculator(method, tmp_path) == trained


def test_an_unset_draft_model_resolves_and_a_set_one_is_kept(monkeypatch, tmp_path):
    monkeypatch.setenv("ZTGATE_CACHE_DIR", str(tmp_path))  # an empty cache: the shipped one serves
    resolved = speculative_settings(SpeculativeSection(method="eagle3", num_speculative_tokens=3))
    assert resolved.draft_model == str(shipped.CHECKPOINTS / shipped.checkpoint_name("eagle3"))
    kept = speculative_settings(SpeculativeSection(method="medusa", draft_model="/elsewhere"))
    assert kept.draft_model == "/elsewhere"
    assert speculative_settings(SpeculativeSection(method="ngram")).draft_model is None
    assert shipped.default_speculator("draft_model") is None


@pytest.mark.parametrize("method", shipped.TRAINED_METHODS)
def test_another_models_primary_gets_its_own_head_and_never_the_shipped_one(method, monkeypatch, tmp_path):
    """A head trained for SmolLM2 drafts nonsense for another model: the shipped one serves only the
    default model, and a model served from its own folder gets the head trained for it (`--model DIR`)."""
    monkeypatch.setenv("ZTGATE_CACHE_DIR", str(tmp_path))
    other = tmp_path / "my-llama"
    assert shipped.default_speculator(method, model="my-llama") is None
    assert speculative_settings(SpeculativeSection(method=method), other).draft_model is None
    trained = shipped.default_speculator(method, model=models.DEFAULT_MODEL).parent  # the shipped folder's parent
    assert trained == shipped.CHECKPOINTS
    own = models.default_cache_dir() / shipped.checkpoint_name(method, "my-llama")
    own.mkdir(parents=True)
    (own / "config.json").write_text("{}")
    (own / "model.safetensors").write_bytes(b"")
    assert speculative_settings(SpeculativeSection(method=method), other).draft_model == str(own)
