"""Medusa heads: each head's label is the target's token k steps further in the same sample, the heads
compute what vLLM's Medusa computes with the same weights, the checkpoint is one vLLM's MedusaConfig
and loader read, and training lowers the loss and resumes exactly."""

from __future__ import annotations

import json
from types import SimpleNamespace

import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from safetensors.torch import load_file
from speculator_fixtures import HIDDEN, K, VOCAB, synthetic_features, tiny_config
from vllm.model_executor.models.medusa import ResidualBlock
from vllm.transformers_utils.configs.medusa import MedusaConfig

from ztgate.speculators import checkpoint
from ztgate.speculators.distill import Features
from ztgate.speculators.fit import IGNORE, FitOptions, fit
from ztgate.speculators.medusa import MedusaHeads, head_labels, medusa_config, medusa_step_loss
from ztgate.speculators.vocab import build_draft_vocab


def _heads(num_heads: int = 3, num_layers: int = 1, seed: int = 0) -> MedusaHeads:
    torch.manual_seed(seed)
    return MedusaHeads(HIDDEN, num_heads, num_layers, torch.randn(K, HIDDEN))


@settings(max_examples=60, deadline=None)
@given(lengths=st.lists(st.integers(1, 9), min_size=1, max_size=6), num_heads=st.integers(1, 4),
       seed=st.integers(0, 1000))
def test_head_k_learns_the_token_k_steps_further_in_the_same_sample(lengths, num_heads, seed):
    offsets = torch.tensor([0, *torch.tensor(lengths).cumsum(0).tolist()])
    n = int(offsets[-1])
    draft = torch.randint(-1, K, (n,), generator=torch.Generator().manual_seed(seed))
    draft[draft < 0] = IGNORE  # some tokens outside the draft vocabulary
    features = Features(torch.zeros(n, 3), torch.zeros(n, dtype=torch.long), torch.zeros(n, dtype=torch.long),
                        offsets, torch.zeros(n, 2))
    labels = head_labels(features, draft, num_heads)
    for s in range(len(lengths)):
        for r in range(int(offsets[s]), int(offsets[s + 1])):
            for k in range(num_heads):
                expected = int(draft[r + k]) if r + k < int(offsets[s + 1]) else IGNORE
                assert int(labels[r, k]) == expected


def test_the_heads_compute_what_vllms_medusa_computes_with_the_same_weights():
    heads = _heads(num_heads=2, num_layers=2)
    with torch.no_grad():
        for p in heads.blocks.parameters():
            p.normal_(0, 0.2)
    x = torch.randn(5, HIDDEN)
    ours = heads(x)
    weights = heads.weights()
    for i in range(2):
        block = ResidualBlock(SimpleNamespace(), HIDDEN, 2)  # medusa_fc_bias unset: no bias, as ours
        block.load_state_dict({f"layers.{j}.weight": weights[f"blocks.{i}.layers.{j}.weight"] for j in range(2)})
        with torch.no_grad():
            theirs = block(x) @ weights["lm_head.weight"].T
        torch.testing.assert_close(ours[i], theirs)


def test_the_checkpoint_is_read_by_vllms_medusa_config_with_a_shared_reduced_head(tmp_path):
    vocab = build_draft_vocab(torch.arange(VOCAB), K)
    heads = _heads()
    checkpoint.write(tmp_path, checkpoint.medusa_tensors(heads.weights(), vocab),
                     medusa_config(tiny_config().to_dict(), vocab, 3, 1), {"seed": 0})
    config = MedusaConfig.from_pretrained(str(tmp_path))
    assert (config.num_heads, config.num_hidden_layers, config.hidden_size) == (3, 1, HIDDEN)
    assert (config.vocab_size, config.truncated_vocab_size) == (VOCAB, K)
    assert json.loads((tmp_path / "config.json").read_text())["original_lm_head"] is True
    tensors = load_file(str(tmp_path / "model.safetensors"))
    assert {n: tuple(t.shape) for n, t in tensors.items()} == {
        **{f"blocks.{i}.layers.0.weight": (HIDDEN, HIDDEN) for i in range(3)},
        "lm_head.weight": (K, HIDDEN), "token_map": (K,)}
    assert torch.equal(tensors["token_map"], vocab.draft_to_target)


def _train(path, steps, resume):
    features = synthetic_features()
    features.final = torch.nn.functional.one_hot(features.input_ids, VOCAB).float()[:, :HIDDEN] * 3
    vocab = build_draft_vocab(torch.bincount(features.labels, minlength=VOCAB), K)
    labels = head_labels(features, vocab.target_to_draft(features.labels), 3)
    heads = _heads()
    result = fit(heads, medusa_step_loss(heads, features, labels), features.num_samples,
                 FitOptions(steps=steps, seed=1, batch_size=3, save_every=2), path, {"data": "synthetic"}, resume)
    return heads, medusa_step_loss(heads, features, labels), result


def test_training_lowers_the_loss_leaves_the_output_layer_alone_and_resumes_exactly(tmp_path):
    untrained, loss_before, _ = _train(tmp_path / "none" / "state.pt", 0, False)
    straight, loss_after, _ = _train(tmp_path / "a" / "state.pt", 8, False)
    _train(tmp_path / "b" / "state.pt", 4, False)
    resumed, _, result = _train(tmp_path / "b" / "state.pt", 8, True)
    everything = torch.arange(6)
    with torch.no_grad():
        assert float(loss_after(everything)[0]) < float(loss_before(everything)[0])
    assert torch.equal(straight.lm_head.weight, untrained.lm_head.weight)  # frozen: the target's rows
    assert result.resumed_from == 4
    assert all(torch.equal(a, b) for a, b in zip(straight.state_dict().values(), resumed.state_dict().values()))
