"""Self-distillation data with batched transformers on a torch device (`cuda`, or `cpu`: the same code).

What distill.py does with vLLM, done where vLLM is absent or slower (a GPU machine without vLLM, as
issue #33's probe had): the target writes its own user turns (sampled, a seed per batch), answers
every prompt greedily in float32 with TF32 off (left-padded batches, shortest prompts together),
and one teacher-forced pass over each right-padded prompt+answer gives the aux hidden states, the
last hidden state and the target's greedy labels at every position (distill.collect's rows,
batched). Padding never reaches a real position: answers are left-padded under an attention mask,
and the teacher-forced pass is causal with the padding on the right.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import torch
from tqdm import tqdm

from ztgate.speculators import prompts
from ztgate.speculators.distill import Features


def exact_float32(device: torch.device) -> None:
    """float32 matmuls in full precision on CUDA (TF32 off): the answers are the target's greedy
    float32 choices, not TF32's, whose rounding flips near-ties."""
    if device.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False


def stop_ids(model: Any, tokenizer: Any) -> set[int]:
    """The tokens that end an answer: the tokenizer's end-of-sequence and the generation config's."""
    found = model.generation_config.eos_token_id
    ids = set(found if isinstance(found, list) else [] if found is None else [found])
    if tokenizer.eos_token_id is not None:
        ids.add(int(tokenizer.eos_token_id))
    if not ids:
        raise ValueError("the model names no end-of-sequence token (tokenizer or generation_config.json)")
    return ids


def _pad_id(tokenizer: Any, stops: set[int]) -> int:
    return int(tokenizer.pad_token_id) if tokenizer.pad_token_id is not None else min(stops)


def _left_padded(rows: Sequence[list[int]], pad: int, device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    width = max(len(r) for r in rows)
    ids = torch.full((len(rows), width), pad, dtype=torch.long)
    mask = torch.zeros((len(rows), width), dtype=torch.long)
    for i, r in enumerate(rows):
        ids[i, width - len(r):] = torch.tensor(r, dtype=torch.long)
        mask[i, width - len(r):] = 1
    return ids.to(device), mask.to(device)


def _cut(new_tokens: list[int], stops: set[int]) -> tuple[list[int], bool]:
    """An answer up to and including its first stop token, and whether it ended on its own."""
    for i, token in enumerate(new_tokens):
        if token in stops:
            return new_tokens[:i + 1], True
    return new_tokens, False


def _generate(model: Any, rows: Sequence[list[int]], pad: int, stops: set[int], device: torch.device,
              **sampling: Any) -> list[tuple[list[int], bool]]:
    from transformers import GenerationConfig

    ids, mask = _left_padded(rows, pad, device)
    # A fresh config: nothing of the model's own generation_config.json (repetition penalty, top-k)
    # changes what the target's plain decoding would choose.
    config = GenerationConfig(pad_token_id=pad, eos_token_id=sorted(stops), **sampling)
    with torch.inference_mode():
        out = model.generate(input_ids=ids, attention_mask=mask, generation_config=config)
    return [_cut(row.tolist(), stops) for row in out[:, ids.shape[1]:].cpu()]


def _batches(order: Sequence[int], size: int) -> Iterator[list[int]]:
    for start in range(0, len(order), size):
        yield list(order[start:start + size])


def chat_prompt_ids(tokenizer: Any, text: str) -> list[int]:
    """A user turn rendered by the model's chat template, ready for the assistant's answer."""
    rendered = tokenizer.apply_chat_template([{"role": "user", "content": text}], tokenize=False,
                                             add_generation_prompt=True)
    return list(tokenizer(rendered, add_special_tokens=False)["input_ids"])


def self_prompts(model: Any, tokenizer: Any, prefix: str, count: int, seed: int, device: torch.device,
                 batch_size: int) -> list[str]:
    """`count` user turns the target writes itself, as distill.self_prompts does with vLLM: batch b
    of draws is sampled under torch seed prompts.self_prompt_seed(seed, b), and draws are judged in
    order by prompts.accept_self_prompt; the same seed, batch size and device give the same prompts."""
    stops = stop_ids(model, tokenizer)
    prefix_ids = list(tokenizer(prefix, add_special_tokens=False)["input_ids"])
    limit = count * prompts.SELF_ATTEMPTS_PER_PROMPT
    kept: list[str] = []
    seen: set[str] = set()
    drawn = 0
    with tqdm(total=count, desc="target-written prompts", unit="prompt") as bar:
        while len(kept) < count:
            if drawn >= limit:
                raise ValueError(f"the target wrote {len(kept)} usable prompts of {count} in {limit} draws "
                                 f"(prompts.SELF_ATTEMPTS_PER_PROMPT); lower --self-prompts")
            size = min(batch_size, limit - drawn)
            torch.manual_seed(prompts.self_prompt_seed(seed, drawn // batch_size))
            draws = _generate(model, [prefix_ids] * size, _pad_id(tokenizer, stops), stops, device,
                              do_sample=True, temperature=prompts.SELF_TEMPERATURE, top_p=prompts.SELF_TOP_P,
                              top_k=0, max_new_tokens=prompts.SELF_MAX_TOKENS)
            drawn += size
            for tokens, finished in draws:
                text = tokenizer.decode(tokens, skip_special_tokens=True)
                accepted = prompts.accept_self_prompt(text, finished, seen) if len(kept) < count else None
                if accepted is not None:
                    kept.append(accepted)
                    seen.add(accepted)
                    bar.update()
    return kept


def greedy_answers(model: Any, tokenizer: Any, texts: Sequence[str], max_new_tokens: int, device: torch.device,
                   batch_size: int) -> list[list[int]]:
    """prompt+answer token ids for each text, in order: the target's greedy answer of up to
    `max_new_tokens`, ending with its stop token when it ended on its own (as distill.answers keeps)."""
    stops = stop_ids(model, tokenizer)
    pad = _pad_id(tokenizer, stops)
    rendered = [chat_prompt_ids(tokenizer, text) for text in texts]
    order = sorted(range(len(rendered)), key=lambda i: (len(rendered[i]), i))  # little padding per batch
    out: list[list[int]] = [[] for _ in rendered]
    with tqdm(total=len(rendered), desc="target answers", unit="prompt") as bar:
        for batch in _batches(order, batch_size):
            done = _generate(model, [rendered[i] for i in batch], pad, stops, device, do_sample=False,
                             max_new_tokens=max_new_tokens)
            for i, (tokens, _) in zip(batch, done):
                out[i] = [*rendered[i], *tokens]
            bar.update(len(batch))
    return out


def teacher_forced(model: Any, sequences: Sequence[list[int]], aux_layers: tuple[int, ...], device: torch.device,
                   batch_size: int) -> Features:
    """distill.collect's rows from right-padded batches on `device`: aux hidden states, last hidden
    state and greedy labels at every position but the last of each sequence, in sequence order.
    The rows are written into tensors sized up front, so host memory peaks at the data's size (about
    9 KB a position for the default model), not twice it."""
    lengths = [len(r) - 1 for r in sequences]
    offsets = torch.tensor([0, *lengths], dtype=torch.long).cumsum(0)
    total, hidden = int(offsets[-1]), int(model.config.hidden_size)
    aux = torch.empty((total, len(aux_layers) * hidden), dtype=torch.float32, device="cpu")
    final = torch.empty((total, hidden), dtype=torch.float32, device="cpu")
    inputs = torch.empty(total, dtype=torch.long, device="cpu")
    labels = torch.empty(total, dtype=torch.long, device="cpu")
    with tqdm(total=len(sequences), desc="target hidden states", unit="sample") as bar:
        for batch in _batches(range(len(sequences)), batch_size):
            rows = [sequences[i] for i in batch]
            width = max(len(r) for r in rows)
            ids = torch.zeros((len(rows), width), dtype=torch.long, device="cpu")
            mask = torch.zeros((len(rows), width), dtype=torch.long, device="cpu")
            for i, r in enumerate(rows):
                ids[i, :len(r)] = torch.tensor(r, dtype=torch.long)
                mask[i, :len(r)] = 1
            with torch.inference_mode():
                res = model(input_ids=ids.to(device), attention_mask=mask.to(device), output_hidden_states=True)
                greedy = res.logits.argmax(-1).cpu()
                states = torch.cat([res.hidden_states[i] for i in aux_layers], dim=-1).float().cpu()
                last = res.hidden_states[-1].float().cpu()
            for i, sample in enumerate(batch):
                a, n = int(offsets[sample]), lengths[sample]
                aux[a:a + n] = states[i, :n]
                final[a:a + n] = last[i, :n]
                inputs[a:a + n] = ids[i, 1:n + 1]
                labels[a:a + n] = greedy[i, 1:n + 1]
            bar.update(len(rows))
    return Features(aux, inputs, labels, offsets, final)
