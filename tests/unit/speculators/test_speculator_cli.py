"""`ztgate models train-speculator`: its flags reach the training settings, and a bad value is refused
with a message naming the flag before any model is loaded."""

from __future__ import annotations

import pytest

from ztgate import cli


def test_the_flags_parse_into_the_train_speculator_command(tmp_path):
    args = cli.build_parser().parse_args(
        ["models", "train-speculator", "--samples", "4", "--steps", "20", "--seed", "7", "--out", str(tmp_path),
         "--draft-vocab", "1024", "--ttt-steps", "2", "--threads", "2", "--resume"])
    assert args.func is cli.cmd_train_speculator
    assert (args.samples, args.steps, args.seed, args.out, args.draft_vocab, args.ttt_steps, args.threads,
            args.resume) == (4, 20, 7, tmp_path, 1024, 2, 2, True)


def test_medusa_flags_parse(tmp_path):
    args = cli.build_parser().parse_args(
        ["models", "train-speculator", "--method", "medusa", "--heads", "4", "--head-layers", "2"])
    assert (args.method, args.heads, args.head_layers) == ("medusa", 4, 2)


def test_an_unknown_method_is_refused_by_the_parser(capsys):
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["models", "train-speculator", "--method", "hydra"])
    assert "invalid choice: 'hydra'" in capsys.readouterr().err


@pytest.mark.parametrize("flag", ["--samples", "--steps", "--draft-vocab", "--batch-size", "--ttt-steps", "--heads",
                                  "--head-layers", "--threads"])
def test_a_value_below_one_is_refused_naming_the_flag(flag, tmp_path, capsys):
    code = cli.main(["models", "train-speculator", "--out", str(tmp_path / "out"), flag, "0"])
    assert code == 2
    assert f"{flag} must be at least 1; got 0" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_the_device_path_flags_parse(tmp_path):
    args = cli.build_parser().parse_args(
        ["models", "train-speculator", "--device", "cuda", "--model", str(tmp_path), "--collector", "transformers",
         "--collect-batch", "64", "--heldout", "0.1", "--time-budget-s", "600"])
    assert (args.device, args.model, args.collector, args.collect_batch, args.heldout, args.time_budget_s) == (
        "cuda", tmp_path, "transformers", 64, 0.1, 600.0)
    # --model-dir, the flag's earlier name, still names the model; by default: cpu, auto, no budget
    old = cli.build_parser().parse_args(["models", "train-speculator", "--model-dir", str(tmp_path)])
    assert (old.model, old.device, old.collector, old.time_budget_s, old.draft_vocab) == (tmp_path, "cpu", "auto",
                                                                                         None, None)


def test_an_unknown_device_is_refused_by_the_parser(capsys):
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["models", "train-speculator", "--device", "tpu"])
    assert "invalid choice: 'tpu'" in capsys.readouterr().err
