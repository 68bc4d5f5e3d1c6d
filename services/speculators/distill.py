"""Self-distillation data: the target's own greedy answers and its hidden states, from transformers.

For each prompt the target answers greedily; then one teacher-forced pass over prompt+answer gives,
at every position t, the residual stream entering layers `aux_layers` (vLLM's EAGLE-3 aux hidden
states: index i is the output of layer i-1, i.e. Hugging Face's `hidden_states[i]`) and the target's
own greedy next token. The draft at position t sees (hidden_t, token_{t+1}) and must predict the
target's greedy choice after token_{t+1}, exactly what vLLM verifies. All positions train, the
prompt's included: vLLM drafts from them too.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file
from tqdm import tqdm


def default_aux_layers(num_layers: int) -> tuple[int, int, int]:
    """Low, mid and high layers, as vLLM picks by default for EAGLE-3 (2, L//2, L-3)."""
    return (2, num_layers // 2, num_layers - 3)


@dataclass
class Features:
    aux: torch.Tensor  # float32 [N, 3H]: the target's aux hidden states at positions 0..T-2 of each sample
    input_ids: torch.Tensor  # long [N]: the token after each of those positions
    labels: torch.Tensor  # long [N]: the target's greedy next token after input_ids (target ids)
    offsets: torch.Tensor  # long [S+1]: sample s is rows offsets[s]:offsets[s+1]
    # float32 [N, H]: the target's last hidden state (after its final norm) at the same positions: what
    # vLLM hands a Medusa head
    final: torch.Tensor

    @property
    def num_samples(self) -> int:
        return int(self.offsets.numel()) - 1

    def save(self, path: Path) -> None:
        tmp = path.with_suffix(".partial")
        save_file({"aux": self.aux, "input_ids": self.input_ids, "labels": self.labels,
                   "offsets": self.offsets, "final": self.final}, str(tmp))
        tmp.rename(path)

    @classmethod
    def load(cls, path: Path) -> Features:
        t = load_file(str(path))
        return cls(t["aux"], t["input_ids"], t["labels"], t["offsets"], t["final"])


def _answers(model, tokenizer, prompts: list[str], max_new_tokens: int, batch_size: int) -> list[list[int]]:
    """prompt+answer token ids for each prompt (greedy, left-padded batches)."""
    tokenizer.padding_side = "left"
    out: list[list[int]] = []
    for start in tqdm(range(0, len(prompts), batch_size), desc="target answers", unit="batch"):
        chunk = prompts[start:start + batch_size]
        texts = [tokenizer.apply_chat_template([{"role": "user", "content": p}], tokenize=False,
                                               add_generation_prompt=True) for p in chunk]
        enc = tokenizer(texts, return_tensors="pt", padding=True, add_special_tokens=False)
        with torch.inference_mode():
            gen = model.generate(**enc, do_sample=False, max_new_tokens=max_new_tokens,
                                 pad_token_id=tokenizer.pad_token_id)
        width = enc["input_ids"].shape[1]
        for row, mask in zip(gen, enc["attention_mask"]):
            answer = row[width:].tolist()
            if tokenizer.eos_token_id in answer:  # rows that ended early are padded after their end
                answer = answer[:answer.index(tokenizer.eos_token_id) + 1]
            out.append(row[width - int(mask.sum()):width].tolist() + answer)  # no left padding
    return out


def collect(model, tokenizer, prompts: list[str], aux_layers: tuple[int, ...], max_new_tokens: int,
            batch_size: int = 8) -> Features:
    """Answers every prompt with the target, then records its aux hidden states and greedy labels."""
    sequences = _answers(model, tokenizer, prompts, max_new_tokens, batch_size)
    aux, inputs, labels, final, offsets = [], [], [], [], [0]
    for ids in tqdm(sequences, desc="target hidden states", unit="sample"):
        x = torch.tensor([ids])
        with torch.inference_mode():
            res = model(input_ids=x, output_hidden_states=True)
        greedy = res.logits[0].argmax(-1)  # the target's choice after each position
        aux.append(torch.cat([res.hidden_states[i][0, :-1] for i in aux_layers], dim=-1).float())
        final.append(res.hidden_states[-1][0, :-1].float())
        inputs.append(x[0, 1:])
        labels.append(greedy[1:])
        offsets.append(offsets[-1] + len(ids) - 1)
    return Features(torch.cat(aux), torch.cat(inputs), torch.cat(labels), torch.tensor(offsets), torch.cat(final))
