"""Single-stream decoding speed, plain vs speculative, on a mixed chat set and a copy-heavy set.

One request at a time, greedy, after the engine's warm-up. tokens/s is completion tokens over the
summed request wall time (TTFT included), per prompt set. Speedup is against the plain engine of
the same parity. Every configuration gets its own engine (vLLM fixes speculation at start).

    python -m services.inference.speedbench [--parity strict fast] [--configs none ngram:8:1:4]
        [--max-tokens 96] [--repeat 2] [--out FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from services.inference import models
from services.inference.engines import EngineKind, create_engine
from services.inference.engines.base import (
    ChatMessage,
    EngineConfig,
    GenerationRequest,
    SamplingParams,
    SpeculativeSettings,
    collect,
)

_PASSAGE = ("The city council approved the new budget on Monday after a long debate. The plan adds two "
            "bus lines, repairs the old bridge on Mill Street, and hires twelve new teachers for the "
            "public schools. Council member Ana Ruiz said the bridge repairs were overdue and that "
            "work will start in April. The budget also sets aside money for a new public library "
            "branch in the north district, which is expected to open next year.")

MIXED: tuple[str, ...] = (
    "What is the capital of Japan, and what is it known for?",
    "Give me three tips for sleeping better.",
    "Explain what photosynthesis is in simple words.",
    "Write a short poem about the sea.",
    "What are the benefits of regular exercise?",
    "How do I make a cup of green tea?",
    "Describe a typical day of a software engineer.",
    "Why is the sky blue?",
)

COPY_HEAVY: tuple[str, ...] = (
    f"Repeat the following text exactly, word for word:\n\n{_PASSAGE}",
    f"Correct any spelling mistakes in this text and return the whole corrected text:\n\n"
    f"{_PASSAGE.replace('approved', 'aproved').replace('teachers', 'teachrs')}",
    f"Rewrite the following text in the past tense, keeping everything else the same:\n\n"
    "The team meets every Monday. They review the open tickets, assign new work and plan the next "
    "release. After the meeting, the lead writes a short summary and sends it to the whole company.",
    f"Copy the sentences of this text that mention the bridge:\n\n{_PASSAGE}",
    "Return this Python code unchanged, but rename the function compute_total to total_price:\n\n"
    "def compute_total(items, tax_rate):\n    subtotal = 0\n    for item in items:\n"
    "        subtotal += item.price * item.quantity\n    tax = subtotal * tax_rate\n"
    "    return subtotal + tax\n",
    "Convert this list into a numbered list, keeping each line as it is:\n\n"
    "- buy milk and eggs at the store\n- call the dentist to book a cleaning\n"
    "- send the quarterly report to Maria\n- water the plants on the balcony\n"
    "- pick up the dry cleaning before six",
)


@dataclass
class SetResult:
    prompts: int
    completion_tokens: int
    seconds: float
    tokens_per_s: float
    draft_tokens: int
    accepted_tokens: int
    acceptance_rate: float
    mean_acceptance_length: float


@dataclass
class ConfigResult:
    engine: str
    parity: str
    method: str
    num_speculative_tokens: int
    prompt_lookup_min: int
    prompt_lookup_max: int
    start_s: float
    sets: dict[str, SetResult]


async def _run_set(engine, prompts: tuple[str, ...], max_tokens: int, repeat: int = 1) -> SetResult:
    """Each prompt `repeat` times, keeping its fastest run (a shared machine adds noise, never speed)."""
    tokens = drafts = accepted = num_drafts = 0
    seconds = 0.0
    for p in prompts:
        best = float("inf")
        for _ in range(repeat):
            req = GenerationRequest(messages=[ChatMessage("user", p)],
                                    sampling=SamplingParams(temperature=0, max_tokens=max_tokens))
            t0 = time.perf_counter()
            r = await collect(engine.generate(req), req.request_id)
            best = min(best, time.perf_counter() - t0)
        seconds += best
        tokens += len(r.token_ids)
        s = r.final.speculative
        drafts += s.draft_tokens
        accepted += s.accepted_tokens
        num_drafts += s.num_drafts
    return SetResult(len(prompts), tokens, seconds, tokens / seconds, drafts, accepted,
                     accepted / drafts if drafts else 0.0, 1 + accepted / num_drafts if num_drafts else 0.0)


async def measure(model_dir: Path, parity: str, spec: SpeculativeSettings, max_tokens: int,
                  kind: EngineKind = "vllm", repeat: int = 1) -> ConfigResult:
    engine = create_engine(kind, EngineConfig(model_dir=model_dir, parity=parity, speculative=spec))  # type: ignore[arg-type]
    t0 = time.perf_counter()
    await engine.start()
    start_s = time.perf_counter() - t0
    try:
        sets = {"mixed": await _run_set(engine, MIXED, max_tokens, repeat),
                "copy_heavy": await _run_set(engine, COPY_HEAVY, max_tokens, repeat)}
    finally:
        await engine.close()
    return ConfigResult(kind, parity, spec.method, spec.num_speculative_tokens if spec.method != "none" else 0,
                        spec.prompt_lookup_min, spec.prompt_lookup_max, start_s, sets)


def _parse_spec(text: str) -> SpeculativeSettings:
    """'none' or 'ngram:K:MIN:MAX'."""
    if text == "none":
        return SpeculativeSettings(method="none")
    method, k, lo, hi = text.split(":")
    return SpeculativeSettings(method=method, num_speculative_tokens=int(k), prompt_lookup_min=int(lo),  # type: ignore[arg-type]
                               prompt_lookup_max=int(hi))


async def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--parity", nargs="+", default=["strict", "fast"])
    ap.add_argument("--configs", nargs="+", default=["none", "ngram:4:2:4", "ngram:8:2:4", "ngram:8:1:4"],
                    help="'none' or ngram:K:MIN:MAX (num_speculative_tokens, prompt_lookup_min/max)")
    ap.add_argument("--engine", default="vllm", choices=["vllm", "transformers"])
    ap.add_argument("--max-tokens", type=int, default=96)
    ap.add_argument("--repeat", type=int, default=1, help="runs per prompt; the fastest counts")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    model_dir = models.model_dir()
    results: list[ConfigResult] = []
    for parity in args.parity:
        base: ConfigResult | None = None
        for cfg in args.configs:
            r = await measure(model_dir, parity, _parse_spec(cfg), args.max_tokens, args.engine, args.repeat)
            results.append(r)
            base = r if r.method == "none" else base
            line = [f"{parity:6} {cfg:12} start {r.start_s:5.0f}s"]
            for name, s in r.sets.items():
                speed = f" x{s.tokens_per_s / base.sets[name].tokens_per_s:.2f}" if base and base is not r else ""
                line.append(f"{name} {s.tokens_per_s:6.1f} tok/s{speed} (accept {s.acceptance_rate:.2f}, "
                            f"mean len {s.mean_acceptance_length:.2f})")
            print(" | ".join(line), flush=True)
            if args.out:
                args.out.write_text(json.dumps([asdict(x) for x in results], indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
