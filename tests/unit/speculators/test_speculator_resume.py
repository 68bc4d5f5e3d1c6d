"""Training is deterministic with its seed and resumable: a run stopped and resumed from its state
file ends with the same weights as one that never stopped."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from speculator_fixtures import VOCAB, synthetic_features, tiny_head

from ztgate.speculators.fit import FitOptions, batch_indices, eagle3_step_loss, fit, loss_on, make_batch
from ztgate.speculators.vocab import build_draft_vocab

FINGERPRINT = {"data_sha256": "synthetic", "batch_size": 3}


def _data():
    features = synthetic_features()
    vocab = build_draft_vocab(torch.bincount(features.labels, minlength=VOCAB), 50)
    embed = torch.randn(VOCAB, 32, generator=torch.Generator().manual_seed(1))
    return features, vocab.target_to_draft(features.labels), embed


def _train(state_path, steps, resume, fingerprint=FINGERPRINT):
    features, labels, embed = _data()
    head = tiny_head()
    result = fit(head, eagle3_step_loss(head, features, labels, embed, 1), features.num_samples,
                 FitOptions(steps=steps, seed=3, batch_size=3, save_every=2), state_path, fingerprint, resume)
    return head, result


def _same(a, b) -> bool:
    sa, sb = a.state_dict(), b.state_dict()
    return sa.keys() == sb.keys() and all(torch.equal(sa[k], sb[k]) for k in sa)


def test_resume_continues_from_the_saved_step_and_matches_an_uninterrupted_run(tmp_path):
    straight, _ = _train(tmp_path / "a" / "state.pt", 6, resume=False)
    _, first = _train(tmp_path / "b" / "state.pt", 4, resume=False)
    resumed, second = _train(tmp_path / "b" / "state.pt", 6, resume=True)
    assert first.resumed_from == 0 and first.step == 4
    assert second.resumed_from == 4 and second.step == 6
    assert _same(straight, resumed)


def test_a_state_from_other_data_or_settings_is_not_resumed(tmp_path):
    path = tmp_path / "state.pt"
    _train(path, 4, resume=False)
    _, result = _train(path, 4, resume=True, fingerprint={**FINGERPRINT, "data_sha256": "other"})
    assert result.resumed_from == 0


def test_the_same_seed_gives_the_same_weights_and_training_lowers_the_loss(tmp_path):
    a, _ = _train(tmp_path / "a" / "state.pt", 6, resume=False)
    b, _ = _train(tmp_path / "b" / "state.pt", 6, resume=False)
    assert _same(a, b)
    features, labels, embed = _data()
    batch = make_batch(features, labels, embed, torch.arange(features.num_samples))
    with torch.no_grad():
        assert float(loss_on(a, batch)[0]) < float(loss_on(tiny_head(), batch)[0])


def test_a_steps_batch_depends_only_on_seed_and_step():
    assert torch.equal(batch_indices(10, 4, 3, 7), batch_indices(10, 4, 3, 7))
    assert not torch.equal(batch_indices(100, 8, 3, 7), batch_indices(100, 8, 3, 8))


def test_padding_is_never_a_label():
    features, labels, embed = _data()
    embeds, aux, positions, batch_labels = make_batch(features, labels, embed, torch.tensor([0, 1, 2]))
    lengths = (features.offsets[1:4] - features.offsets[0:3]).tolist()
    for row, n in enumerate(lengths):
        assert bool((batch_labels[row, n:] == -100).all())
        ids = features.input_ids[features.offsets[row]:features.offsets[row + 1]]
        assert torch.equal(embeds[row, :n], F.embedding(ids, embed))


def test_a_state_saved_by_one_method_is_not_resumed_by_the_other():
    from ztgate.speculators.train import TrainSettings, _state_fingerprint

    data = {"data_sha256": "synthetic"}
    eagle3, medusa = (_state_fingerprint(data, TrainSettings(method=m)) for m in ("eagle3", "medusa"))
    assert eagle3 != medusa
    assert "heads" not in eagle3 and "ttt_steps" not in medusa  # each keeps only its own settings
    assert _state_fingerprint(data, TrainSettings(steps=5)) == eagle3  # more steps still resume


def test_a_training_step_makes_no_tensor_off_its_datas_device():
    """On a GPU, a tensor made on the default device beside the CUDA data fails the step (a causal mask
    made on the CPU did). Checked without a GPU: the default device is made `meta` (a fault injected),
    so a tensor the step creates without naming its device lands there, and mixing it with the real
    data raises."""
    from ztgate.speculators.medusa import MedusaHeads, head_labels, medusa_step_loss

    features, labels, embed = _data()
    head = tiny_head()
    medusa = MedusaHeads(32, 2, 1, torch.randn(50, 32))
    steps = [eagle3_step_loss(head, features, labels, embed, 3),
             medusa_step_loss(medusa, features, head_labels(features, labels, 2))]
    with torch.device("meta"):
        for step in steps:
            loss, _, counted = step(batch_indices(features.num_samples, 3, 0, 0))
            loss.backward()
            assert loss.device.type == "cpu" and counted[0] > 0
