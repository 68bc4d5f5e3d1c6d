"""What one forward pass costs for n new tokens, against one: the ceiling on speculative speedup.

Speculation turns k sequential decode steps into one verification pass over the k drafted tokens
plus one, so its speedup is at most (tokens emitted per step) x T(1) / T(k+1). On a GPU T(k+1) is
close to T(1) for small k; on a CPU core it is not, and this probe says by how much on the machine
at hand. It times the model's forward pass alone (Hugging Face, float32, a warm KV cache of
`context` tokens, one thread as vLLM's CPU worker uses), the fastest of `repeats` runs per n.

`--path vllm-gemm` times instead what dominates a step of vLLM's CPU worker (about 80% of it,
profiled): the model's matrix products through vLLM's own CPU kernel (oneDNN with weights
prepacked once, as vLLM does at load), with the layers fused as vLLM fuses them (q/k/v, gate/up)
and the LM head, on the model's real weights. Torch's own `linear` (the Hugging Face path) repacks
weights on every call once a pass has more than one token, so it overstates T(k+1) for vLLM.

    python -m ztgate_bench.verify_cost [--path hf|vllm-gemm] [--tokens 1 2 5 9 13]
        [--context 200] [--repeats 15]
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


def measure_vllm_gemm(model_dir: Path, tokens: Sequence[int] = (1, 2, 5, 9, 13), repeats: int = 15,
                      threads: int = 1) -> list[PassCost]:
    """Time of every matrix product of one step through vLLM's CPU kernel, per number of tokens."""
    import torch
    from transformers import AutoModelForCausalLM
    from vllm import _custom_ops as ops

    if not tokens or min(tokens) < 1 or repeats < 1:
        raise ValueError("tokens and repeats must be >= 1")
    torch.set_num_threads(threads)
    model = AutoModelForCausalLM.from_pretrained(str(model_dir), dtype=torch.float32).eval()
    weights: list[torch.Tensor] = []
    for layer in model.model.layers:
        attn, mlp = layer.self_attn, layer.mlp
        weights += [torch.cat([attn.q_proj.weight, attn.k_proj.weight, attn.v_proj.weight]),
                    attn.o_proj.weight, torch.cat([mlp.gate_proj.weight, mlp.up_proj.weight]),
                    mlp.down_proj.weight]
    weights.append(model.lm_head.weight)
    # Prepacked once, like vLLM's dispatch_cpu_unquantized_gemm at load.
    handlers = [(ops.create_onednn_mm(w.detach().t(), 32), w.shape[1]) for w in weights]
    generator = torch.Generator().manual_seed(0)
    with torch.inference_mode():
        def best_ms(n: int) -> float:
            inputs = {k: torch.randn(n, k, generator=generator) for k in {k for _, k in handlers}}
            best = float("inf")
            for _ in range(repeats):
                started = time.perf_counter()
                for handler, k in handlers:
                    ops.onednn_mm(handler, inputs[k], None)
                best = min(best, time.perf_counter() - started)
            return best * 1000

        best_ms(1)  # oneDNN builds a kernel per shape on first use
        one = best_ms(1)
        return [PassCost(n, ms, ms / one) for n, ms in ((n, one if n == 1 else best_ms(n)) for n in tokens)]


def draft_token_cost(costs: Sequence[PassCost]) -> float:
    """What one more token adds to a pass, as a fraction of a one-token pass: the least-squares
    slope of the relative costs through (1, 1). The figure `speculative.draft_token_cost` takes."""
    pairs = [(c.tokens - 1, c.relative - 1.0) for c in costs if c.tokens > 1]
    if not pairs:
        raise ValueError("need a pass of more than one token")
    return max(0.0, sum(x * y for x, y in pairs) / sum(x * x for x, _ in pairs))


def render(costs: Sequence[PassCost], threads: int, path: str = "hf") -> str:
    """A Markdown table of the costs."""
    what = ("Matrix products of one step through vLLM's CPU kernel (oneDNN, prepacked)" if path == "vllm-gemm"
            else "Forward pass")
    lines = [f"{what}, float32, {threads} thread(s), fastest of the repeats:", "",
             "| new tokens | ms | relative to 1 | speedup ceiling |", "|---:|---:|---:|---:|"]
    lines += [f"| {c.tokens} | {c.ms:.1f} | {c.relative:.2f} | {c.ceiling:.2f}x |" for c in costs]
    if any(c.tokens > 1 for c in costs):
        lines += ["", f"Each more token costs {draft_token_cost(costs):.3f} of a one-token pass "
                      "(speculative.draft_token_cost)."]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    from ztgate.inference import models

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model-dir", type=Path, help="a Hugging Face model folder (default: the prepared model)")
    parser.add_argument("--tokens", type=int, nargs="+", default=[1, 2, 5, 9, 13])
    parser.add_argument("--context", type=int, default=200, help="tokens already in the KV cache")
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--path", choices=["hf", "vllm-gemm"], default="hf",
                        help="hf: the Hugging Face forward pass; vllm-gemm: vLLM's CPU matrix products")
    args = parser.parse_args(argv)
    model_dir = args.model_dir or models.model_dir()
    if not (model_dir / "config.json").exists():
        print(f"no model at {model_dir}: run `ztgate models prepare` first", file=sys.stderr)
        return 2
    if args.path == "vllm-gemm":
        costs = measure_vllm_gemm(model_dir, args.tokens, args.repeats, args.threads)
    else:
        costs = measure(model_dir, args.tokens, args.context, args.repeats, args.threads)
    print(render(costs, args.threads, args.path), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
