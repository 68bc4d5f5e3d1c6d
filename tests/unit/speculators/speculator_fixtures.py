"""A tiny Llama config, head and synthetic distillation data for the speculator unit tests (a plain
module, not conftest, so it imports unambiguously)."""

from __future__ import annotations

import torch
from transformers import LlamaConfig

from ztgate.speculators.distill import Features
from ztgate.speculators.head import Eagle3Head

VOCAB, HIDDEN, K = 200, 32, 50


def tiny_config() -> LlamaConfig:
    return LlamaConfig(vocab_size=VOCAB, hidden_size=HIDDEN, intermediate_size=64, num_hidden_layers=6,
                       num_attention_heads=4, num_key_value_heads=2, head_dim=8, rms_norm_eps=1e-5,
                       max_position_embeddings=256, tie_word_embeddings=True)


def tiny_head(seed: int = 0) -> Eagle3Head:
    torch.manual_seed(seed)
    return Eagle3Head(tiny_config(), K)


def synthetic_features(samples: int = 6, seed: int = 0) -> Features:
    """Random hidden states; labels a fixed function of the input token, so there is something to learn."""
    g = torch.Generator().manual_seed(seed)
    lengths = torch.randint(5, 12, (samples,), generator=g)
    offsets = torch.cat([torch.zeros(1, dtype=torch.long), lengths.cumsum(0)])
    n = int(offsets[-1])
    ids = torch.randint(0, VOCAB, (n,), generator=g)
    return Features(aux=torch.randn(n, 3 * HIDDEN, generator=g), input_ids=ids, labels=(ids * 7) % VOCAB,
                    offsets=offsets, final=torch.randn(n, HIDDEN, generator=g))
