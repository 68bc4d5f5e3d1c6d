"""Replays suffix decoding over recorded greedy answers: how its settings would draft, without a model.

For greedy decoding the replay is exact: a verification accepts the draft's longest prefix that
matches the answer, then the target's own next token. So the mean acceptance length of any
`num_speculative_tokens`, `suffix_max_spec_factor` and `min_token_prob` follows from the answers
alone, through arctic-inference's own tree (the one vLLM drafts with), in seconds.

The answers are the speculator trainer's cache (`ztgate models train-speculator` writes
`speculator-data/<hash>.safetensors`: prompt+answer token ids of the target, on its training prompts),
which is a tuning corpus apart from the bench's reported prompt sets: settings chosen here are then
measured on those (docs/benchmarks.md). `--copy-like` keeps the answers that mostly repeat their
prompt (half their 4-grams in it), the case suffix decoding is for.

    python -m ztgate_bench.suffix_replay --data ~/.cache/ztgate/models/speculator-data/HASH.safetensors
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

ANSWER_HEADER = "<|im_start|>assistant\n"  # SmolLM2's chat template: where the prompt ends
MAX_TREE_DEPTH = 24  # vLLM's suffix_decoding_max_tree_depth default
COPY_NGRAM = 4
COPY_SHARE = 0.5


@dataclass(frozen=True)
class Replay:
    mean_acceptance_length: float  # tokens per verification step
    drafted_per_step: float
    modelled_speedup: float  # tokens per unit time with a step costing 1 + cost * drafted tokens


def split_sequences(input_ids: Sequence[int], offsets: Sequence[int], header: Sequence[int]
                    ) -> list[tuple[list[int], list[int]]]:
    """(prompt, answer) token ids per recorded sample: each sample is cut after its last answer header.
    (The cache stores each sequence without its first token, which no draft ever sees as an answer.)"""
    out = []
    h = list(header)
    for s in range(len(offsets) - 1):
        seq = list(input_ids[offsets[s]:offsets[s + 1]])
        starts = [i for i in range(len(seq) - len(h) + 1) if seq[i:i + len(h)] == h]
        if starts and starts[-1] + len(h) < len(seq):
            cut = starts[-1] + len(h)
            out.append((seq[:cut], seq[cut:]))
    return out


def copy_like(pairs: Iterable[tuple[list[int], list[int]]], n: int = COPY_NGRAM, share: float = COPY_SHARE
              ) -> list[tuple[list[int], list[int]]]:
    """The samples whose answer takes at least `share` of its n-grams from its prompt."""
    out = []
    for prompt, answer in pairs:
        grams = {tuple(prompt[i:i + n]) for i in range(len(prompt) - n + 1)}
        own = [tuple(answer[i:i + n]) for i in range(len(answer) - n + 1)]
        if own and sum(g in grams for g in own) / len(own) >= share:
            out.append((prompt, answer))
    return out


def replay(pairs: Sequence[tuple[list[int], list[int]]], num_speculative_tokens: int, max_spec_factor: float,
           min_token_prob: float, draft_token_cost: float = 0.06, max_tree_depth: int = MAX_TREE_DEPTH) -> Replay:
    """Greedy decoding of every answer with suffix decoding as vLLM's proposer runs it (a tree per
    prompt, the answer so far added after each step, no cross-request cache)."""
    import numpy as np
    from arctic_inference.suffix_decoding import SuffixDecodingCache

    steps = tokens = drafted = 0
    cost = 0.0
    for n, (prompt, answer) in enumerate(pairs):
        if not answer:
            continue
        cache = SuffixDecodingCache(max_tree_depth=max_tree_depth, max_cached_requests=0)
        rid = f"r{n}"
        cache.start_request(rid, np.array(prompt, dtype=np.int32))
        context = [*prompt, answer[0]]  # the first answer token comes from the prefill
        cache.add_active_response(rid, [answer[0]])
        i = 1
        while i < len(answer):
            pattern = np.array(context[-max_tree_depth:], dtype=np.int32)
            draft = cache.speculate(rid, pattern, max_spec_tokens=num_speculative_tokens,
                                    max_spec_factor=max_spec_factor, min_token_prob=min_token_prob).token_ids
            accepted = 0
            while accepted < len(draft) and i + accepted < len(answer) and draft[accepted] == answer[i + accepted]:
                accepted += 1
            new = answer[i:i + accepted + 1]
            cache.add_active_response(rid, new)
            context.extend(new)
            i += len(new)
            steps += 1
            tokens += len(new)
            drafted += len(draft)
            cost += 1.0 + draft_token_cost * len(draft)
        cache.stop_request(rid)
    if not steps:
        return Replay(0.0, 0.0, 0.0)
    return Replay(tokens / steps, drafted / steps, tokens / cost)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ztgate_bench.suffix_replay", description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, required=True, help="a speculator-data/<hash>.safetensors cache")
    parser.add_argument("--model-dir", type=Path, help="the target model (its tokenizer; default: the prepared one)")
    parser.add_argument("--tokens", type=int, nargs="+", default=[8, 16], help="num_speculative_tokens to try")
    parser.add_argument("--factors", type=float, nargs="+", default=[1.0, 2.0, 4.0], help="suffix_max_spec_factor")
    parser.add_argument("--min-probs", type=float, nargs="+", default=[0.1], help="suffix_decoding_min_token_prob")
    parser.add_argument("--cost", type=float, default=0.06,
                        help="draft-token cost of the modelled speedup (a fraction of a one-token step)")
    parser.add_argument("--copy-like", action="store_true", help="only answers that mostly repeat their prompt")
    args = parser.parse_args(argv)
    if not args.data.is_file():
        print(f"suffix_replay: no cache at {args.data}: run `ztgate models train-speculator` first", file=sys.stderr)
        return 2
    from safetensors.torch import load_file
    from transformers import AutoTokenizer

    from ztgate.inference import models

    tokenizer = AutoTokenizer.from_pretrained(args.model_dir or models.model_dir())
    tensors = load_file(str(args.data))
    pairs = split_sequences(tensors["input_ids"].tolist(), tensors["offsets"].tolist(),
                            tokenizer.encode(ANSWER_HEADER, add_special_tokens=False))
    if args.copy_like:
        pairs = copy_like(pairs)
    print(f"{len(pairs)} answers{' (copy-like)' if args.copy_like else ''} from {args.data.name}")
    print("| tokens | factor | min prob | mean acceptance length | drafted per step | modelled speedup |")
    print("|---:|---:|---:|---:|---:|---:|")
    for k, factor, prob in itertools.product(args.tokens, args.factors, args.min_probs):
        r = replay(pairs, k, factor, prob, args.cost)
        print(f"| {k} | {factor:g} | {prob:g} | {r.mean_acceptance_length:.2f} | {r.drafted_per_step:.2f} | "
              f"{r.modelled_speedup:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
