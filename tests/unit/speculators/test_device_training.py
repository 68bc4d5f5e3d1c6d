"""The device path of `ztgate models train-speculator` (--device cuda|cpu: the same code), run here on
the CPU with a second, tiny Llama model (tiny_llama.py) as a user's `--model DIR`: the batched
collection computes what the one-sample-at-a-time collection computes, the checkpoint follows that
model, a seed fixes the weights, a time budget stops and --resume finishes the same run, and held-out
agreement is recorded."""

from __future__ import annotations

import json

import pytest
import torch
from safetensors.torch import load_file
from tiny_llama import LAYERS, write_tiny_llama
from transformers import AutoModelForCausalLM, AutoTokenizer

from ztgate import cli
from ztgate.speculators import device_collect
from ztgate.speculators.distill import collect, default_aux_layers
from ztgate.speculators.train import TrainSettings, split_heldout, train_speculator

CPU = torch.device("cpu")
TINY = TrainSettings(samples=8, steps=6, seed=0, max_new_tokens=8, batch_size=3, collect_batch=4, save_every=2,
                     device="cpu", collector="transformers")


@pytest.fixture(scope="module")
def tiny_model_dir(tmp_path_factory):
    return write_tiny_llama(tmp_path_factory.mktemp("served") / "my-llama")


@pytest.fixture(scope="module")
def tiny_target(tiny_model_dir):
    return (AutoModelForCausalLM.from_pretrained(tiny_model_dir, dtype=torch.float32).eval(),
            AutoTokenizer.from_pretrained(tiny_model_dir))


def _train(settings, root, model_dir, **kwargs):
    return train_speculator(settings, out=root / settings.method, model_dir=model_dir, log=lambda _: None, **kwargs)


def test_batched_greedy_answers_are_the_unbatched_ones(tiny_target):
    """Left padding under the attention mask changes nothing the target chooses."""
    model, tokenizer = tiny_target
    texts = ["What does a teacher do?", "Repeat: the quick brown fox jumps over the lazy dog.", "Hi", "List four things"]
    batched = device_collect.greedy_answers(model, tokenizer, texts, 8, CPU, batch_size=4)
    alone = device_collect.greedy_answers(model, tokenizer, texts, 8, CPU, batch_size=1)
    assert batched == alone
    stops = device_collect.stop_ids(model, tokenizer)
    for text, ids in zip(texts, batched):
        prompt = device_collect.chat_prompt_ids(tokenizer, text)
        answer = ids[len(prompt):]
        assert ids[:len(prompt)] == prompt and 1 <= len(answer) <= 8
        assert len(answer) == 8 or answer[-1] in stops  # cut by the limit, or ended on its own
        assert not any(t in stops for t in answer[:-1])


def test_batched_teacher_forcing_gives_the_rows_of_one_sample_at_a_time(tiny_target):
    """Right padding is never seen by a real position: the batched rows are distill.collect's."""
    model, tokenizer = tiny_target
    sequences = device_collect.greedy_answers(model, tokenizer, ["a cat", "the quick brown fox jumps", "why"], 6,
                                              CPU, batch_size=3)
    aux = default_aux_layers(LAYERS)
    batched = device_collect.teacher_forced(model, sequences, aux, CPU, batch_size=3)
    alone = collect(model, sequences, aux)
    assert torch.equal(batched.offsets, alone.offsets)
    assert torch.equal(batched.input_ids, alone.input_ids) and torch.equal(batched.labels, alone.labels)
    assert torch.allclose(batched.aux, alone.aux, atol=1e-5) and torch.allclose(batched.final, alone.final, atol=1e-5)


def test_the_target_writes_the_same_prompts_from_the_same_seed(tiny_target):
    from ztgate.speculators import prompts

    model, tokenizer = tiny_target
    prefix = prompts.user_turn_prefix(lambda m: tokenizer.apply_chat_template(m, tokenize=False))
    first, second = (device_collect.self_prompts(model, tokenizer, prefix, 2, 0, CPU, batch_size=4) for _ in range(2))
    assert first == second and len(set(first)) == 2
    assert all(text == text.strip() and len(text) >= prompts.SELF_MIN_CHARS for text in first)


@pytest.fixture(scope="module")
def trained(tiny_model_dir, tmp_path_factory):
    root = tmp_path_factory.mktemp("heads")
    return _train(TINY, root, tiny_model_dir)


def test_the_head_follows_the_served_model(trained, tiny_model_dir):
    """Draft vocabulary, aux layers and layer config come from --model's config, not the default model's."""
    served = json.loads((tiny_model_dir / "config.json").read_text())
    config = json.loads((trained / "config.json").read_text())
    layer = config["transformer_layer_config"]
    assert config["draft_vocab_size"] == served["vocab_size"] == 320  # smaller than 8,192: all of it
    assert config["eagle_aux_hidden_state_layer_ids"] == list(default_aux_layers(LAYERS)) == [2, 2, 1]
    assert (layer["hidden_size"], layer["num_hidden_layers"], layer["vocab_size"]) == (64, 1, 320)
    assert config["target_hidden_size"] == 64 and config["speculators_config"]["verifier"]["name_or_path"] == "my-llama"
    tensors = load_file(str(trained / "model.safetensors"))
    assert tensors["fc.weight"].shape == (64, 3 * 64) and tensors["lm_head.weight"].shape == (320, 64)
    assert tensors["d2t"].shape == (320,) and tensors["t2d"].shape == (320,) and "embed_tokens.weight" not in tensors


def test_the_record_holds_device_collector_and_held_out_agreement(trained):
    record = json.loads((trained / "training.json").read_text())
    assert (record["target"], record["device"], record["collector"], record["steps"]) == ("my-llama", "cpu",
                                                                                         "transformers", 6)
    assert record["samples"] == 8 and record["heldout_samples"] == 1 and not record["stopped_by_time_budget"]
    agreement = record["heldout_top1_agreement_per_position"]
    assert len(agreement) == TINY.ttt_steps and all(0 <= a <= 1 for a in agreement)


def test_the_same_seed_gives_the_same_weights_and_a_budget_stopped_run_resumes_to_them(trained, tiny_model_dir,
                                                                                         tmp_path):
    """Deterministic for a seed; a run cut by --time-budget-s writes what it has, and --resume ends with
    the uninterrupted run's weights."""
    again = _train(TINY, tmp_path / "again", tiny_model_dir)
    assert load_file(str(again / "model.safetensors")).keys() == load_file(str(trained / "model.safetensors")).keys()
    assert all(torch.equal(a, b) for a, b in zip(load_file(str(again / "model.safetensors")).values(),
                                                 load_file(str(trained / "model.safetensors")).values()))
    cut = _train(TrainSettings(**{**TINY.__dict__, "time_budget_s": 1e-6}), tmp_path / "cut", tiny_model_dir)
    record = json.loads((cut / "training.json").read_text())
    assert record["stopped_by_time_budget"] and record["steps"] < TINY.steps
    resumed = _train(TINY, tmp_path / "cut", tiny_model_dir, resume=True)
    assert json.loads((resumed / "training.json").read_text())["steps"] == TINY.steps
    assert all(torch.equal(a, b) for a, b in zip(load_file(str(resumed / "model.safetensors")).values(),
                                                 load_file(str(trained / "model.safetensors")).values()))


def test_medusa_heads_follow_the_served_model_too(tiny_model_dir, tmp_path):
    out = _train(TrainSettings(**{**TINY.__dict__, "method": "medusa", "steps": 2}), tmp_path, tiny_model_dir)
    config = json.loads((out / "config.json").read_text())
    assert (config["hidden_size"], config["vocab_size"], config["truncated_vocab_size"]) == (64, 320, 320)


def test_the_command_trains_for_model_dir(tiny_model_dir, tmp_path, capsys):
    code = cli.main(["models", "train-speculator", "--model", str(tiny_model_dir), "--device", "cpu",
                     "--collector", "transformers", "--samples", "4", "--steps", "2", "--max-new-tokens", "4",
                     "--batch-size", "2", "--out", str(tmp_path / "head")])
    assert code == 0
    assert f"draft_model: {tmp_path / 'head'}" in capsys.readouterr().out
    assert (tmp_path / "head" / "model.safetensors").is_file()


def test_held_out_samples_are_a_seeded_slice_no_step_trains_on():
    train, held = split_heldout(100, 0.05, seed=3)
    assert len(held) == 5 and len(train) == 95
    assert sorted(train.tolist() + held.tolist()) == list(range(100))
    assert torch.equal(held, split_heldout(100, 0.05, seed=3)[1])
    assert len(split_heldout(20_000, 0.05, 0)[1]) == 400 and len(split_heldout(3, 0.05, 0)[1]) == 1
    with pytest.raises(ValueError, match="at least 2"):
        split_heldout(1, 0.05, 0)


def _refused(argv, tmp_path, capsys) -> str:
    code = cli.main(["models", "train-speculator", "--out", str(tmp_path / "out"), *argv])
    assert code == 2 and not (tmp_path / "out").exists()
    return capsys.readouterr().err


def test_cuda_without_a_gpu_is_refused_before_any_model_loads(tiny_model_dir, tmp_path, capsys, monkeypatch):
    # A fault injected: the machine's CUDA made absent, so the refusal is checked on GPU machines too.
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    err = _refused(["--model", str(tiny_model_dir), "--device", "cuda"], tmp_path, capsys)
    assert "--device cuda: torch sees no CUDA device" in err


@pytest.mark.parametrize(("change", "message"), [
    ({"model_type": "qwen2"}, "model_type 'qwen2' is not Llama-family"),
    ({"num_hidden_layers": 3}, "needs at least 4 hidden layers; this model has 3"),
])
def test_a_model_the_head_cannot_serve_is_refused(change, message, tiny_model_dir, tmp_path, capsys):
    other = tmp_path / "other"
    other.mkdir()
    config = json.loads((tiny_model_dir / "config.json").read_text())
    (other / "config.json").write_text(json.dumps({**config, **change}))
    assert message in _refused(["--model", str(other)], tmp_path, capsys)


@pytest.mark.parametrize(("argv", "message"), [
    (["--draft-vocab", "321"], "--draft-vocab must be between 1 and the model's vocabulary of 320; got 321"),
    (["--collector", "vllm", "--device", "cuda"], "--collector vllm runs the CPU engine"),
    (["--heldout", "0"], "--heldout must be a share between 0 and 1; got 0.0"),
    (["--time-budget-s", "0"], "--time-budget-s must be more than 0; got 0.0"),
    (["--collect-batch", "0"], "--collect-batch must be at least 1; got 0"),
])
def test_bad_device_path_flags_are_refused_naming_the_flag(argv, message, tiny_model_dir, tmp_path, capsys):
    assert message in _refused(["--model", str(tiny_model_dir), *argv], tmp_path, capsys)


def test_a_missing_model_folder_is_refused(tmp_path, capsys):
    assert "no model at" in _refused(["--model", str(tmp_path / "nowhere")], tmp_path, capsys)
