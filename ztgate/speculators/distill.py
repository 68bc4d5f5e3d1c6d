"""Self-distillation data: the target's own greedy answers (from vLLM) and its hidden states (from
transformers).

For each prompt the target answers greedily (vLLM, the primary's engine, batched); then one
teacher-forced pass of the transformers model over prompt+answer gives, at every position t, the residual stream entering layers `aux_layers` (vLLM's EAGLE-3 aux hidden
states: index i is the output of layer i-1, i.e. Hugging Face's `hidden_states[i]`) and the target's
own greedy next token. The draft at position t sees (hidden_t, token_{t+1}) and must predict the
target's greedy choice after token_{t+1}, exactly what vLLM verifies. All positions train, the
prompt's included: vLLM drafts from them too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from safetensors.torch import load_file, save_file
from tqdm import tqdm

from ztgate.speculators import prompts


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


async def self_prompts(engine: Any, prefix: str, count: int, seed: int, concurrency: int = 32,
                       on_prompt: Callable[[], None] | None = None) -> list[str]:
    """`count` user turns the target writes itself (prompts.py, "self"): each draw continues `prefix`
    with its own seed; a draw that prompts.accept_self_prompt refuses is replaced by the next seed's.
    Deterministic for a seed: draws are taken in seed order, whatever order they finish in."""
    from ztgate.inference.engines.base import collect as collect_answer
    from ztgate.inference.engines.request import GenerationRequest, SamplingParams

    gate = asyncio.Semaphore(concurrency)

    async def draw(i: int) -> tuple[str, bool]:
        request = GenerationRequest(prompt=prefix, sampling=SamplingParams(
            temperature=prompts.SELF_TEMPERATURE, top_p=prompts.SELF_TOP_P, max_tokens=prompts.SELF_MAX_TOKENS,
            seed=prompts.self_prompt_seed(seed, i)))
        async with gate:
            done = await collect_answer(engine.generate(request), request.request_id)
        return done.text, done.finish_reason == "stop"

    kept: list[str] = []
    seen: set[str] = set()
    finished: dict[int, tuple[str, bool]] = {}
    decided = 0  # draws before this one are decided, in seed order

    def decide_in_order() -> None:
        """Judges finished draws in seed order as far as they are contiguous: the same prompts whatever
        order draws finish in, and progress as they do."""
        nonlocal decided
        while decided in finished:
            text, complete = finished.pop(decided)
            decided += 1
            accepted = prompts.accept_self_prompt(text, complete, seen) if len(kept) < count else None
            if accepted is not None:
                kept.append(accepted)
                seen.add(accepted)
                if on_prompt is not None:
                    on_prompt()

    async def judged(i: int) -> None:
        finished[i] = await draw(i)
        decide_in_order()

    limit = count * prompts.SELF_ATTEMPTS_PER_PROMPT
    while len(kept) < count:
        if decided >= limit:
            raise ValueError(f"the target wrote {len(kept)} usable prompts of {count} in {limit} draws "
                             f"(prompts.SELF_ATTEMPTS_PER_PROMPT); lower --self-prompts")
        await asyncio.gather(*(judged(i) for i in range(decided, min(limit, decided + count - len(kept)))))
    return kept


def answers(model_dir: Path, texts: list[str], max_new_tokens: int, concurrency: int = 32,
            self_prompt_count: int = 0, seed: int = 0) -> tuple[list[str], list[list[int]]]:
    """The training prompts (`texts`, then `self_prompt_count` the target writes itself) and, for each,
    prompt+answer token ids: the target's greedy answers from the engine the primary runs (vLLM,
    plain, strict parity), `concurrency` in flight. The prompt is as vLLM rendered it (chat template
    applied); an answer that ended on its own keeps the end-of-sequence token. Several times the rate
    of transformers' batched `generate` on this CPU, and the very tokens vLLM verifies."""
    from ztgate.inference.engines.base import collect as collect_answer
    from ztgate.inference.engines.engine_config import EngineConfig
    from ztgate.inference.spec_decode.settings import SpeculativeSettings
    from ztgate.inference.engines.request import ChatMessage, GenerationRequest, SamplingParams
    from ztgate.inference.engines.vllm_engine import VllmEngine

    async def run() -> tuple[list[str], list[list[int]]]:
        engine = VllmEngine(EngineConfig(model_dir=model_dir, parity="strict", max_num_seqs=concurrency,
                                         speculative=SpeculativeSettings(method="none")))
        await engine.start()
        try:
            eos = int(engine.tokenizer.eos_token_id)
            all_texts = list(texts)
            if self_prompt_count:
                prefix = prompts.user_turn_prefix(
                    lambda messages: engine.tokenizer.apply_chat_template(messages, tokenize=False))
                with tqdm(total=self_prompt_count, desc="target-written prompts", unit="prompt") as bar:
                    all_texts += await self_prompts(engine, prefix, self_prompt_count, seed, concurrency,
                                                    on_prompt=bar.update)
            gate = asyncio.Semaphore(concurrency)
            bar = tqdm(total=len(all_texts), desc="target answers", unit="prompt")

            async def one(text: str) -> list[int]:
                async with gate:
                    request = GenerationRequest(messages=[ChatMessage("user", text)],
                                                sampling=SamplingParams(temperature=0, max_tokens=max_new_tokens))
                    done = await collect_answer(engine.generate(request), request.request_id)
                bar.update()
                ids = [*done.final.prompt_token_ids, *done.token_ids]
                if done.finish_reason == "stop" and ids[-1] != eos:
                    ids.append(eos)
                return ids

            try:
                return all_texts, list(await asyncio.gather(*(one(text) for text in all_texts)))
            finally:
                bar.close()
        finally:
            await engine.close()

    return asyncio.run(run())


def collect(model, sequences: list[list[int]], aux_layers: tuple[int, ...]) -> Features:
    """One teacher-forced pass of the target over each prompt+answer: its aux hidden states, last
    hidden state and greedy labels at every position."""
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
