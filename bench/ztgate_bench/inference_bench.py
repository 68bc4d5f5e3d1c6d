"""`ztgate bench inference`: plain vs speculative decoding, one request at a time and N in flight.

For each parity (strict, fast) it starts the plain engine, then each speculative configuration
(default: the configured primary's, plus `--configs`), one engine at a time (vLLM fixes speculation
at start), and runs a mixed chat set and a copy-heavy set, greedy, at each `--concurrency` (the
set's requests submitted through a semaphore of that size). Per request it records latency and the
engine's own draft/accept counts; ztgate_bench.inference_report turns them into tokens/s,
speedup, P95, acceptance and identical-output figures and the Markdown table.

    python -m ztgate_bench.inference_bench [--parity strict fast] [--configs ngram:4:1:3]
        [--concurrency 1 4] [--max-tokens 64] [--repeat 1] [--out FILE.json] [--markdown FILE.md]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ztgate_bench.inference_report import (
    PLAIN,
    BenchHeader,
    ConfigRun,
    RequestRecord,
    SetRun,
    faster_of,
    render_report,
    targets_met,
    to_json,
)

from ztgate_bench.registry import (
    add_inference_arguments,
)

if TYPE_CHECKING:  # the engines are imported when a run starts, not when the CLI builds its parser
    from ztgate.inference.engines.base import Engine
    from ztgate.inference.spec_decode.settings import SpeculativeSettings


_PASSAGE = ("The city council approved the new budget on Monday after a long debate. The plan adds two "
            "bus lines, repairs the old bridge on Mill Street, and hires twelve new teachers for the "
            "public schools. Council member Ana Ruiz said the bridge repairs were overdue and that "
            "work will start in April. The budget also sets aside money for a new public library "
            "branch in the north district, which is expected to open next year.")

_EMAIL = ("Hi team, the database migration planned for Friday is moved to Saturday at 9 am because "
          "the vendor needs one more day to test the backup restore. The website will be read-only for "
          "about two hours during the switch. Please do not deploy anything after Thursday noon, and tell "
          "your customers about the short outage. Thanks, Priya")

_ORDER = ("Hello, I ordered a blue rain jacket in size medium last week, order number 58213. The "
          "tracking page says it was delivered on Tuesday, but nothing arrived at my door. Could you "
          "check where the parcel is, or send a new one? Best regards, Tom")

_CODE = ("def moving_average(values, window):\n    if window <= 0:\n        raise ValueError('window must be "
         "positive')\n    out = []\n    total = 0\n    for i, v in enumerate(values):\n        total += v\n"
         "        if i >= window:\n            total -= values[i - window]\n        if i >= window - 1:\n"
         "            out.append(total / window)\n    return out\n")

# Chat traffic as a gateway sees it: open questions, and requests about a text the user pasted
# (summaries, questions over a passage, code explanations, replies): half each. Open questions alone
# give prompt lookup little to match; docs/benchmarks.md reports both halves.
OPEN_ENDED: tuple[str, ...] = (
    "What is the capital of Japan, and what is it known for?",
    "Give me three tips for sleeping better.",
    "Explain what photosynthesis is in simple words.",
    "How do I make a cup of green tea?",
)

GROUNDED: tuple[str, ...] = (
    f"Summarize this email for my manager in two sentences:\n\n{_EMAIL}",
    f"Read the text and answer: when will the bridge work start, and who said the repairs were "
    f"overdue?\n\n{_PASSAGE}",
    f"Explain what this Python function does, step by step:\n\n{_CODE}",
    f"Write a short, polite reply to this customer that repeats the order number and the product:\n\n{_ORDER}",
)

MIXED: tuple[str, ...] = OPEN_ENDED + GROUNDED

COPY_HEAVY: tuple[str, ...] = (
    f"Repeat the following text exactly, word for word:\n\n{_PASSAGE}",
    f"Correct any spelling mistakes in this text and return the whole corrected text:\n\n"
    f"{_PASSAGE.replace('approved', 'aproved').replace('teachers', 'teachrs')}",
    "Rewrite the following text in the past tense, keeping everything else the same:\n\n"
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

PROMPT_SETS: dict[str, tuple[str, ...]] = {"mixed": MIXED, "copy_heavy": COPY_HEAVY}
# Sets `--sets` can add: the two halves of the mixed set, to see where the speedup comes from.
ALL_SETS: dict[str, tuple[str, ...]] = {**PROMPT_SETS, "open_ended": OPEN_ENDED, "grounded": GROUNDED}


def parse_config(text: str) -> SpeculativeSettings:
    """'none', 'ngram:K:MIN:MAX', 'suffix:K[:CACHED[:FACTOR]]', 'draft_model:PATH:K', 'eagle3:PATH:K' or 'medusa:PATH:K'
    (speculators from `ztgate models train-speculator`), each optionally followed by '~COST' (verify only the
    drafts that pay at that draft-token cost: draft_policy.py; without it every draft is verified) and by a
    batch-size schedule '@FIRST-LAST:TOKENS,...' (vLLM's dynamic speculation), as engine settings;
    ValueError naming the form."""
    from dataclasses import replace

    from ztgate.inference.spec_decode.settings import (
        MAX_DRAFT_TOKEN_COST,
        SUFFIX_MAX_SPEC_FACTOR,
        SpeculativeSettings,
    )

    body, at, schedule_text = text.partition("@")
    body, tilde, cost_text = body.partition("~")
    method, _, rest = body.partition(":")
    spec: SpeculativeSettings | None = None
    try:
        if method in ("none", "plain") and not rest:
            spec = SpeculativeSettings(method="none")
        elif method == "suffix":
            k, _, more = rest.partition(":")
            cached, _, factor = more.partition(":")
            spec = SpeculativeSettings(method="suffix", num_speculative_tokens=int(k),
                                       suffix_cached_requests=int(cached or 0),
                                       suffix_max_spec_factor=float(factor or SUFFIX_MAX_SPEC_FACTOR))
        elif method == "ngram":
            k, lo, hi = (int(x) for x in rest.split(":"))
            spec = SpeculativeSettings(method="ngram", num_speculative_tokens=k, prompt_lookup_min=lo,
                                       prompt_lookup_max=hi)
        elif method in ("draft_model", "eagle3", "medusa"):
            path, _, k = rest.rpartition(":")
            if path:
                spec = SpeculativeSettings(method=method, num_speculative_tokens=int(k), draft_model=path)
        if spec is not None and at:
            entries = []
            for part in schedule_text.split(","):
                span, _, tokens = part.partition(":")
                first, _, last = span.partition("-")
                entries.append((int(first), int(last or first), int(tokens)))
            spec = replace(spec, batch_schedule=tuple(entries))
        if spec is not None and tilde:
            cost = float(cost_text)
            spec = replace(spec, draft_token_cost=cost) if 0 <= cost <= MAX_DRAFT_TOKEN_COST else None
    except ValueError:
        spec = None
    if spec is None or ((at or tilde) and spec.method == "none"):
        raise ValueError(f"speculative config {text!r}: use none, ngram:K:MIN:MAX, draft_model:PATH:K, "
                         "eagle3:PATH:K, medusa:PATH:K or suffix:K[:CACHED[:FACTOR]], optionally with ~COST (draft-token cost, 0 to "
                         "10) and @FIRST-LAST:TOKENS,... (tokens per batch-size range)")
    return spec


def config_name(spec: SpeculativeSettings) -> str:
    """The inverse of parse_config: the name a configuration has in the table and the JSON."""
    from ztgate.inference.spec_decode.settings import SUFFIX_MAX_SPEC_FACTOR

    if spec.method == "none":
        return PLAIN
    if spec.method == "ngram":
        name = f"ngram:{spec.num_speculative_tokens}:{spec.prompt_lookup_min}:{spec.prompt_lookup_max}"
    elif spec.method == "suffix":
        name = f"suffix:{spec.num_speculative_tokens}"
        if spec.suffix_cached_requests or spec.suffix_max_spec_factor != SUFFIX_MAX_SPEC_FACTOR:
            name += f":{spec.suffix_cached_requests}"
        if spec.suffix_max_spec_factor != SUFFIX_MAX_SPEC_FACTOR:
            name += f":{spec.suffix_max_spec_factor:g}"
    else:
        name = f"{spec.method}:{spec.draft_model}:{spec.num_speculative_tokens}"
    if spec.draft_token_cost:
        name += f"~{spec.draft_token_cost:g}"
    if spec.batch_schedule is not None:
        name += "@" + ",".join(f"{a}-{b}:{k}" for a, b, k in spec.batch_schedule)
    return name


def config_names(primary: SpeculativeSettings, extra: Sequence[str]) -> list[str]:
    """Plain first, then the primary's speculation, then `extra`, each once (normalised through
    parse_config, so 'ngram:08:1:4' and 'ngram:8:1:4' are one config)."""
    names = [PLAIN, config_name(primary), *(config_name(parse_config(x)) for x in extra)]
    return list(dict.fromkeys(names))


def run_note(prompt_sets: dict[str, tuple[str, ...]], kind: str, repeat: int, reserved_cpus: int | None) -> str:
    """The report's line on how the run was made, with what changes its speed that the command line
    does not show (vLLM's CPU model threads: `inference.primary.reserved_cpus`)."""
    note = ("Prompts: " + ", ".join(f"{len(p)} {name}" for name, p in prompt_sets.items())
            + f"; engine {kind}; {repeat} pass(es) per set, the fastest kept; plain runs first and again last, "
            "and each set's anchor is its faster measurement")
    if kind == "vllm":
        note += "; reserved_cpus " + ("unset (vLLM's default)" if reserved_cpus is None else str(reserved_cpus))
    return note + "."


def progress(message: str) -> None:
    print(f"[bench inference {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


async def _request(engine: Engine, index: int, prompt: str, max_tokens: int) -> RequestRecord:
    from ztgate.inference.engines.base import collect
    from ztgate.inference.engines.request import ChatMessage, GenerationRequest, SamplingParams

    req = GenerationRequest(messages=[ChatMessage("user", prompt)],
                            sampling=SamplingParams(temperature=0, max_tokens=max_tokens))
    t0 = time.perf_counter()
    done = await collect(engine.generate(req), req.request_id)
    latency_ms = (time.perf_counter() - t0) * 1e3
    s, timings = done.final.speculative, done.final.timings
    return RequestRecord(index, done.token_ids, latency_ms, timings.ttft_ms if timings else 0.0,
                         s.num_drafts, s.draft_tokens, s.accepted_tokens, s.counted)


async def run_pass(engine: Engine, name: str, prompts: Sequence[str], max_tokens: int,
                   concurrency: int) -> SetRun:
    """Every prompt once, at most `concurrency` in flight; wall time from first submission to last answer."""
    gate = asyncio.Semaphore(concurrency)

    async def one(index: int, prompt: str) -> RequestRecord:
        async with gate:
            return await _request(engine, index, prompt, max_tokens)

    t0 = time.perf_counter()
    records = await asyncio.gather(*(one(i, p) for i, p in enumerate(prompts)))
    return SetRun(name, concurrency, time.perf_counter() - t0, tuple(records))


async def run_set(engine: Engine, name: str, prompts: Sequence[str], max_tokens: int, concurrency: int,
                  repeat: int = 1) -> SetRun:
    """The fastest of `repeat` passes (a shared machine adds noise, never speed)."""
    return min([await run_pass(engine, name, prompts, max_tokens, concurrency) for _ in range(max(1, repeat))],
               key=lambda s: s.wall_s)


async def measure(kind: str, engine_config: Any, name: str, max_tokens: int, concurrency: Sequence[int],
                  repeat: int = 1, prompt_sets: dict[str, tuple[str, ...]] = PROMPT_SETS) -> ConfigRun:
    """Starts one engine, runs every set at every concurrency, closes it."""
    from ztgate.inference.engines import create_engine

    engine = create_engine(kind, engine_config)  # type: ignore[arg-type]
    progress(f"{engine_config.parity} {name}: starting the {kind} engine")
    t0 = time.perf_counter()
    await engine.start()
    start_s = time.perf_counter() - t0
    progress(f"{engine_config.parity} {name}: engine up in {start_s:.0f}s")
    sets: list[SetRun] = []
    try:
        for conc in concurrency:
            for set_name, prompts in prompt_sets.items():
                s = await run_set(engine, set_name, prompts, max_tokens, conc, repeat)
                sets.append(s)
                progress(f"{engine_config.parity} {name} conc {conc} {set_name}: {s.tokens_per_s:.1f} tok/s, "
                         f"P95 {s.p95_ms:.0f} ms, {s.completion_tokens} tokens in {s.wall_s:.1f}s")
    finally:
        await engine.close()
    return ConfigRun(engine_config.parity, name, kind, start_s, tuple(sets))


add_arguments = add_inference_arguments  # the flags live in the light registry the CLI reads


def _command(args: argparse.Namespace, configs: Sequence[str], kind: str) -> str:
    parts = ["ztgate bench inference", "--parity", *args.parity, "--configs", *configs[1:],
             "--concurrency", *map(str, args.concurrency), "--max-tokens", str(args.max_tokens),
             "--repeat", str(args.repeat), "--engine", kind,
             "--sets", *(getattr(args, "sets", None) or PROMPT_SETS)]
    return " ".join(parts)


async def run(args: argparse.Namespace, prompt_sets: dict[str, tuple[str, ...]] | None = None) -> int:
    """Runs the bench that `args` (see add_arguments) describe; prints the report, writes the files."""
    if prompt_sets is None:
        prompt_sets = {name: ALL_SETS[name] for name in getattr(args, "sets", None) or PROMPT_SETS}
    from dataclasses import replace

    from ztgate.config import load_config
    from ztgate.inference import accelerator, models
    from ztgate.inference.engines.engine_config import EngineConfig
    from ztgate.inference.engines.errors import EngineConfigError
    from ztgate.inference.spec_decode.section import speculative_settings

    if any(c < 1 for c in args.concurrency) or args.max_tokens < 1 or args.repeat < 1:
        print("ztgate bench inference: --concurrency, --max-tokens and --repeat must be >= 1", file=sys.stderr)
        return 2
    inference = load_config(getattr(args, "config", None)).inference
    primary = inference.primary
    try:
        configs = config_names(speculative_settings(primary.speculative), args.configs)
    except ValueError as e:
        print(f"ztgate bench inference: {e}", file=sys.stderr)
        return 2
    kind = args.engine or primary.engine
    model_dir = inference.model_dir or models.model_dir()
    base = EngineConfig(model_dir=Path(model_dir), model_name=inference.model_name,
                        max_model_len=primary.max_model_len, max_num_seqs=max(primary.max_num_seqs,
                                                                              *args.concurrency),
                        kv_cache_gib=primary.kv_cache_gib, reserved_cpus=primary.reserved_cpus,
                        enforce_eager=primary.enforce_eager,
                        accelerator_args=tuple(accelerator.engine_kwargs(primary.accelerator).items()))
    if kind == "vllm":
        try:
            # The GPU settings of the primary (scripts/gpu_bench.sh sets them), checked as the
            # service checks them, before an engine starts.
            accelerator.check(primary.accelerator, "inference.primary.accelerator")
        except EngineConfigError as e:
            print(f"ztgate bench inference: {e}", file=sys.stderr)
            return 2
    total = len(args.parity) * (len(configs) + (len(configs) > 1))  # plain twice when there is more
    progress(f"{total} engine starts ({', '.join(args.parity)} x {', '.join(configs)}), sets "
             f"{', '.join(prompt_sets)} at concurrency {', '.join(map(str, args.concurrency))}, "
             f"max_tokens {args.max_tokens}")
    header = BenchHeader(
        command=_command(args, configs, kind),
        machine=platform.node(), arch=platform.machine(), cpus=len(os.sched_getaffinity(0)),
        date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), model=inference.model_name,
        max_tokens=args.max_tokens,
        notes=(run_note(prompt_sets, kind, args.repeat, primary.reserved_cpus),))
    runs: list[ConfigRun] = []
    for parity in args.parity:
        for name in configs:
            config = replace(base, parity=parity, speculative=parse_config(name))
            runs.append(await measure(kind, config, name, args.max_tokens, args.concurrency, args.repeat,
                                      prompt_sets))
            _write(args, runs, header)
        if len(configs) > 1:  # plain again, last: the anchor keeps its faster measurement per set
            anchor = len(runs) - len(configs)
            config = replace(base, parity=parity, speculative=parse_config(PLAIN))
            again = await measure(kind, config, PLAIN, args.max_tokens, args.concurrency, args.repeat, prompt_sets)
            runs[anchor] = faster_of(runs[anchor], again)
            _write(args, runs, header)
    print(render_report(runs, header), end="")
    return 0 if targets_met(runs) else 1


def _write(args: argparse.Namespace, runs: Sequence[ConfigRun], header: BenchHeader) -> None:
    """Writes the files after every engine, so an interrupted run keeps what it measured."""
    out = getattr(args, "out", None)
    if out:
        Path(out).write_text(json.dumps(to_json(runs, header), indent=1) + "\n")
    if args.markdown:
        Path(args.markdown).write_text(render_report(runs, header))


def main(args: argparse.Namespace) -> int:
    """`ztgate bench inference` (args as add_arguments defines them, plus --config and --out); exit 1 when
    a target is missed (identical greedy outputs, the single-stream speedups), 2 on bad flags."""
    # vLLM logs to stdout by default (its engine process too, which inherits this): stdout is the report's.
    os.environ.setdefault("VLLM_LOGGING_STREAM", "ext://sys.stderr")
    return asyncio.run(run(args))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", type=Path, help="ztgate.yaml (default: $ZTGATE_CONFIG or built-in defaults)")
    parser.add_argument("--out", type=Path, help="write the results as JSON here")
    add_arguments(parser)
    sys.exit(main(parser.parse_args()))
