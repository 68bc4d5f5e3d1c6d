"""What one forward pass costs for n new tokens, against one: the ceiling on speculative speedup.

Speculation turns k sequential decode steps into one verification pass over the k drafted tokens
plus one, so its speedup is at most (tokens emitted per step) x T(1) / T(k+1). On a GPU T(k+1) is
close to T(1) for small k; on a CPU core it is not, and this probe says by how much on the machine
at hand. It times the model's forward pass alone (Hugging Face, float32, a warm KV cache of
`context` tokens, one thread as vLLM's CPU worker uses), the fastest of `repeats` runs per n.

    python -m services.inference.verify_cost [--tokens 1 2 5 9 13] [--context 200] [--repeats 15]
"""

from __future__ import annotations

import argparse
import copy
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class PassCost:
    tokens: int
    ms: float
    relative: float  # ms / ms of a one-token pass

    @property
    def ceiling(self) -> float:
        """Best speedup a verification pass of this many tokens can give (all drafts accepted)."""
        return self.tokens / self.relative


def measure(model_dir: Path, tokens: Sequence[int] = (1, 2, 5, 9, 13), context: int = 200,
            repeats: int = 15, threads: int = 1) -> list[PassCost]:
    """Forward-pass time per number of new tokens, relative to one token."""
    import torch
    from transformers import AutoModelForCausalLM

    if not tokens or min(tokens) < 1 or context < 1 or repeats < 1:
        raise ValueError("tokens, context and repeats must be >= 1")
    torch.set_num_threads(threads)
    model = AutoModelForCausalLM.from_pretrained(str(model_dir), dtype=torch.float32).eval()
    generator = torch.Generator().manual_seed(0)
    vocab = model.config.vocab_size
    with torch.inference_mode():
        prefix = torch.randint(0, vocab, (1, context), generator=generator)
        past = model(prefix, use_cache=True).past_key_values

        def best_ms(n: int) -> float:
            new = torch.randint(0, vocab, (1, n), generator=generator)
            best = float("inf")
            for _ in range(repeats):
                cache = copy.deepcopy(past)  # each pass starts from the same cache
                started = time.perf_counter()
                model(new, past_key_values=cache, use_cache=True)
                best = min(best, time.perf_counter() - started)
            return best * 1000

        one = best_ms(1)
        return [PassCost(n, ms, ms / one) for n, ms in ((n, one if n == 1 else best_ms(n)) for n in tokens)]


def render(costs: Sequence[PassCost], threads: int) -> str:
    """A Markdown table of the costs."""
    lines = [f"Forward pass, float32, {threads} thread(s), fastest of the repeats:", "",
             "| new tokens | ms | relative to 1 | speedup ceiling |", "|---:|---:|---:|---:|"]
    lines += [f"| {c.tokens} | {c.ms:.1f} | {c.relative:.2f} | {c.ceiling:.2f}x |" for c in costs]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    from services.inference import models

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model-dir", type=Path, help="a Hugging Face model folder (default: the prepared model)")
    parser.add_argument("--tokens", type=int, nargs="+", default=[1, 2, 5, 9, 13])
    parser.add_argument("--context", type=int, default=200, help="tokens already in the KV cache")
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    model_dir = args.model_dir or models.model_dir()
    if not (model_dir / "config.json").exists():
        print(f"no model at {model_dir}: run `ztgate models prepare` first", file=sys.stderr)
        return 2
    costs = measure(model_dir, args.tokens, args.context, args.repeats, args.threads)
    print(render(costs, args.threads), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
