"""How the first token's wait grows with the prompt, on a running suite, against the first-token budget.

The gateway gives each call a per-try timeout of `base + per_1k x prompt tokens / 1000` (ztgate/common/
first_token.py). Those two numbers are configuration; this probe measures what they stand for. Through
Envoy, one greedy Generate of one token per prompt size, each prompt new text (so no prefix cache helps),
it records the engine's own time to first token (`timings.ttft_ms`), the prompt's true token count
(`usage.prompt_tokens`), which instance answered, and the budget the gateway gave the call; then it fits
a line through the primary's times: its slope is the measured prefill rate per 1,000 tokens, to set
`gateway.inference.per_try_timeout_per_1k_tokens_s` by. Runs before any load, one call at a time.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import grpc

from ztgate_bench.attack_load import CHANNEL_OPTIONS, detail_of
from ztgate.common.first_token import FirstTokenBudget
from ztgate.common.identity import bearer
from ztgate.gen.inference.v1 import inference_pb2_grpc
from ztgate.inference.client import build_request

# Prompt sizes probed, in tokens as the gateway estimates them (bytes / bytes_per_token), from a chat
# line to a long document: the words below run about 4.5 bytes a model token, so the largest is about
# 6,300 of the model's tokens, the top of issue #11's range (10 to 6,000).
SIZES = (10, 500, 2000, 6000, 12000)
# Words the prompts are drawn from: plain lower-case English, nothing a redaction rule would touch.
_WORDS = ("the of and to in is that for it as with was on be at by this had not are but from or have an they "
          "which one you were all we when there can more if out so said what up its about into than them "
          "only other new some could time these two may first then do any like my now over such our man me "
          "even most made after also did many before must through back years where much your way well down "
          "should because each just those people how too little state good very make world still own see "
          "work long get here between both life being under never day same another know while last might us "
          "great old year off come since against go came right used take three").split()
# Each call's deadline: a 6,000-token prefill on a 2-core CPU takes over two minutes; below the
# gateway's whole-call limit (gateway.inference.timeout_s, 300 s).
CALL_TIMEOUT_S = 290.0


@dataclass(frozen=True, slots=True)
class PrefillPoint:
    """One probed prompt: its size, who answered, how long the first token took, and its budget."""

    size: int  # tokens as the gateway estimates them
    prompt_tokens: int  # tokens as the model counted them (0: the call failed)
    served_by: str
    ttft_ms: float  # the engine's time to first token (nan: failed)
    budget_ms: int  # the per-try timeout the gateway gave the call
    code: str = "OK"
    detail: str = ""


def prompt_of(size: int, budget: FirstTokenBudget, seed: int = 0) -> str:
    """A summarising request of about `size` estimated tokens, its words drawn afresh for each size."""
    rng = random.Random(f"{seed}:{size}")
    head = "Summarize in one sentence: "
    want = max(0, int(size * budget.bytes_per_token) - len(head))
    words: list[str] = []
    length = 0
    while length < want:
        word = rng.choice(_WORDS)
        words.append(word)
        length += len(word) + 1
    return (head + " ".join(words))[: len(head) + want] if want else head.strip()


async def probe(gateway: str, token: str, budget: FirstTokenBudget, sizes: Sequence[int] = SIZES,
                seed: int = 0) -> list[PrefillPoint]:
    """One call per size through the gateway, in order, one at a time."""
    points = []
    async with grpc.aio.insecure_channel(gateway, options=CHANNEL_OPTIONS) as channel:
        stub = inference_pb2_grpc.InferenceStub(channel)
        for size in sizes:
            prompt = prompt_of(size, budget, seed)
            request = build_request(prompt, chat=True, max_tokens=1, temperature=0)
            budget_ms = budget.budget_ms_for_bytes(len(prompt.encode("utf-8")))
            try:
                reply = await stub.Generate(request, timeout=CALL_TIMEOUT_S, metadata=bearer(token))
            except grpc.aio.AioRpcError as exc:
                points.append(PrefillPoint(size, 0, "", float("nan"), budget_ms, exc.code().name, detail_of(exc)))
                continue
            points.append(PrefillPoint(size, reply.usage.prompt_tokens, reply.served_by, reply.timings.ttft_ms,
                                       budget_ms))
    return points


def fit(points: Sequence[PrefillPoint], served_by: str = "primary") -> tuple[float, float] | None:
    """Least-squares line through one instance's (prompt tokens, ttft): (intercept ms, ms per 1,000 tokens);
    None with fewer than two distinct sizes."""
    xs = [p.prompt_tokens for p in points if p.code == "OK" and p.served_by == served_by]
    ys = [p.ttft_ms for p in points if p.code == "OK" and p.served_by == served_by]
    if len(set(xs)) < 2:
        return None
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return my - slope * mx, slope * 1000


def needed_per_1k_s(points: Sequence[PrefillPoint], budget: FirstTokenBudget,
                    served_by: str = "primary") -> float | None:
    """The least `per_1k_tokens_s` (the setting's unit: 1,000 estimated tokens) under which every size
    this instance answered was within its budget: prefill grows faster than the prompt (attention),
    so the largest size usually sets it. None when no size beyond the shortest was answered."""
    rates = [(p.ttft_ms / 1000 - budget.base_s) / (p.size / 1000) for p in points
             if p.code == "OK" and p.served_by == served_by and p.size >= 100]
    return max(0.0, *rates) if rates else None


def render(points: Sequence[PrefillPoint], budget: FirstTokenBudget) -> list[str]:
    """The Markdown lines of the probe: a table, the fitted line and the configured one."""
    lines = ["Long prompts on the healthy suite, before any load (one greedy token each, through Envoy):", "",
             "| prompt (estimated tokens) | prompt tokens | served by | first token (ms) | budget (ms) | "
             "budget / first token |", "|---:|---:|---|---:|---:|---:|"]
    for p in points:
        if p.code != "OK":
            lines.append(f"| {p.size:,} | - | {p.code}: {p.detail[:60]} | - | {p.budget_ms:,} | - |")
            continue
        ratio = p.budget_ms / p.ttft_ms if p.ttft_ms > 0 else float("inf")
        lines.append(f"| {p.size:,} | {p.prompt_tokens:,} | {p.served_by or '?'} | {p.ttft_ms:,.0f} | "
                     f"{p.budget_ms:,} | {ratio:.1f}x |")
    line = fit(points)
    configured = (f"configured: {budget.base_s * 1000:,.0f} ms + {budget.per_1k_tokens_s * 1000:,.0f} ms per "
                  f"1,000 estimated tokens ({budget.bytes_per_token:g} bytes each), at most {budget.max_s:g} s")
    if line is None:
        lines += ["", f"Too few answers from the primary to fit a line; {configured}."]
    else:
        lines += ["", f"Measured on the primary: {line[0]:,.0f} ms + {line[1]:,.0f} ms per 1,000 prompt tokens "
                      f"(least squares); {configured}."]
    needed = needed_per_1k_s(points, budget)
    if needed is not None:
        verdict = ("covers it" if budget.per_1k_tokens_s >= needed else
                   "is below it: long prompts on a healthy primary are hedged onto the fallback")
        lines += ["", f"Every size the primary answered fits its budget with "
                      f"`gateway.inference.per_try_timeout_per_1k_tokens_s` of at least {needed:.1f} s; the "
                      f"configured {budget.per_1k_tokens_s:g} s {verdict}."]
    return lines


def all_answered(points: Sequence[PrefillPoint]) -> bool:
    """Every probed size got its answer."""
    return bool(points) and all(p.code == "OK" for p in points)
