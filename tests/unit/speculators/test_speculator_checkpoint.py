"""The checkpoint: vLLM's own speculators adapter accepts its config, and its tensors carry the names
and shapes vLLM's Eagle3LlamaForCausalLM loader maps (model_executor/models/llama_eagle3.py)."""

from __future__ import annotations

import json

import torch
from safetensors.torch import load_file
from speculator_fixtures import HIDDEN, K, VOCAB, tiny_config, tiny_head
from vllm.transformers_utils.configs.speculators.base import SpeculatorsConfig

from ztgate.speculators import checkpoint
from ztgate.speculators.vocab import build_draft_vocab

AUX = (2, 3, 3)


def _written(tmp_path):
    vocab = build_draft_vocab(torch.arange(VOCAB), K)
    config = checkpoint.speculator_config(tiny_config().to_dict(), vocab, AUX, norm_before_residual=True,
                                          verifier="SmolLM2-135M-Instruct")
    checkpoint.write(tmp_path, checkpoint.eagle3_tensors(tiny_head().weights(), vocab), config, {"seed": 0})
    return vocab, json.loads((tmp_path / "config.json").read_text()), load_file(str(tmp_path / "model.safetensors"))


def test_vllms_speculators_adapter_reads_the_config_as_an_eagle3_llama_head(tmp_path):
    _, config, _ = _written(tmp_path)
    SpeculatorsConfig.validate_speculators_config(config)  # raises on a malformed config
    hf = SpeculatorsConfig.extract_transformers_pre_trained_config(json.loads(json.dumps(config)))
    assert hf["architectures"] == ["Eagle3LlamaForCausalLM"]
    assert hf["draft_vocab_size"] == K and hf["target_hidden_size"] == HIDDEN
    assert hf["eagle_aux_hidden_state_layer_ids"] == list(AUX) and hf["norm_before_residual"] is True
    assert hf["num_hidden_layers"] == 1 and hf["vocab_size"] == VOCAB and hf["model_type"] == "llama"
    assert SpeculatorsConfig.build_vllm_speculative_config(config)["method"] == "eagle3"


def test_the_tensors_have_the_names_and_shapes_vllm_loads(tmp_path):
    vocab, _, tensors = _written(tmp_path)
    q, kv, inter = 4 * 8, 2 * 8, 64
    expected = {
        "fc.weight": (HIDDEN, 3 * HIDDEN),
        "layers.0.input_layernorm.weight": (HIDDEN,),
        "layers.0.hidden_norm.weight": (HIDDEN,),
        "layers.0.post_attention_layernorm.weight": (HIDDEN,),
        "layers.0.self_attn.q_proj.weight": (q, 2 * HIDDEN),  # attention reads concat(embeds, hidden)
        "layers.0.self_attn.k_proj.weight": (kv, 2 * HIDDEN),
        "layers.0.self_attn.v_proj.weight": (kv, 2 * HIDDEN),
        "layers.0.self_attn.o_proj.weight": (HIDDEN, q),
        "layers.0.mlp.gate_proj.weight": (inter, HIDDEN),
        "layers.0.mlp.up_proj.weight": (inter, HIDDEN),
        "layers.0.mlp.down_proj.weight": (HIDDEN, inter),
        "norm.weight": (HIDDEN,),
        "lm_head.weight": (K, HIDDEN),
        "d2t": (K,),
        "t2d": (VOCAB,),
    }
    # No embed_tokens: vLLM shares the target's.
    assert {name: tuple(t.shape) for name, t in tensors.items()} == expected
    assert tensors["d2t"].dtype == torch.long and tensors["t2d"].dtype == torch.bool
    assert torch.equal(tensors["d2t"], vocab.d2t) and torch.equal(tensors["t2d"], vocab.t2d)
    assert all(t.dtype == checkpoint.STORED_DTYPE for n, t in tensors.items() if n not in ("d2t", "t2d"))


def test_the_head_feeds_back_a_hidden_state_of_the_targets_width():
    head = tiny_head()
    logits, prenorm = head(torch.randn(2, 5, HIDDEN), torch.randn(2, 5, 3 * HIDDEN),
                           torch.arange(5).expand(2, 5))
    assert logits.shape == (2, 5, K) and prenorm.shape == (2, 5, HIDDEN)


def test_the_head_is_causal_a_later_position_never_changes_an_earlier_one():
    head = tiny_head()
    embeds, aux, pos = torch.randn(1, 6, HIDDEN), torch.randn(1, 6, 3 * HIDDEN), torch.arange(6)[None]
    full, _ = head(embeds, aux, pos)
    embeds[0, 4:], aux[0, 4:] = 9.0, -9.0
    changed, _ = head(embeds, aux, pos)
    assert torch.allclose(full[0, :4], changed[0, :4], atol=1e-6) and not torch.allclose(full[0, 4:], changed[0, 4:])


def _as_vllm_drafts(head, embeds, aux, t, steps):
    """What vLLM computes for a draft chain anchored at index t: step 0 over positions 0..t, then each
    draft step one more position of the same causal sequence, fed its token and the previous step's
    pre-norm hidden state (llm_base_proposer: the draft KV cache grows by one entry per step)."""
    layer = head.layers[0]
    hiddens = [head.fc(aux[:, :t + 1])]
    tokens = [embeds[:, :t + 1]]
    out = []
    for j in range(steps):
        seq_h, seq_e = torch.cat(hiddens, 1), torch.cat(tokens, 1)
        positions = torch.arange(seq_h.shape[1])[None]
        cos, sin = head.rotary(seq_h, positions)
        x, residual = layer(seq_e, seq_h, cos, sin)
        last = (x + residual)[:, -1:]
        out.append(head.lm_head(head.norm(last))[:, 0])
        hiddens.append(last)
        tokens.append(embeds[:, t + 1 + j:t + 2 + j])
    return out


def test_the_training_unroll_computes_what_vllms_draft_chain_computes():
    head = tiny_head()
    embeds, aux = torch.randn(1, 9, HIDDEN), torch.randn(1, 9, 3 * HIDDEN)
    with torch.no_grad():
        unrolled = head.unroll(embeds, aux, torch.arange(9)[None], 3)
        first, _ = head(embeds, aux, torch.arange(9)[None])
        assert torch.allclose(unrolled[0], first, atol=1e-5)
        for t in (0, 3, 6):
            for j, ref in enumerate(_as_vllm_drafts(head, embeds, aux, t, 3)):
                assert torch.allclose(unrolled[j][:, t], ref, atol=1e-5), (t, j)
