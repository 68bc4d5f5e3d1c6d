"""`ztgate bench utility --facts`: do answers through the gateway pass their fact checks as often as direct calls
to the same model (issue #29's target)?

Every prompt of the utility corpora that lists `facts` (reviewed strings a correct answer must contain; an entry
that is a list is met by any one of its strings; compared case-insensitively; bench/corpora/README.md) is sent
greedy (temperature 0, `--max-tokens`, default MAX_TOKENS) through a suite of its own (the eval's: `ztgate up` on
free loopback ports with tokens on, bench/ztgate_bench/eval/suite.py), both the clean prompt and its variant with
a private person's details:

- **direct**: to the primary (vLLM) over mTLS as the operator, no redaction: what the model does with the text;
- **gateway**: through Envoy with the eval tenant's bearer token (the `default` policy: redaction with chat's
  stand-ins, ADR 0007, the primary, restore), the answer as the caller gets it;
- **direct, redacted prompt**: the gateway's own Redact of the prompt (the Redaction API: placeholders), sent
  directly to the primary: what the model does with what it saw through the placeholders tenant;
- **gateway, placeholders**: through Envoy as a second tenant whose policy is `default` with
  `chat_pseudonyms: placeholder` (numbered placeholders, as before ADR 0007). When its answer differs from the
  direct answer on the redacted prompt, the difference lies after the model (restore) or in routing.

Where the gateway fails facts that direct passes, the cause is classed from the redacted prompt and the answers:
`public name removed` (a name the corpus lists as public did not reach the model), `placeholder in prompt` (only
private values were replaced: the model read a placeholder), `placeholder left in answer` (restore),
`served by another instance`, `answer differs with the prompt unchanged` (no redaction at all: the engine is not
deterministic across calls). Only counts and case ids are reported, never a prompt's or an answer's text.
"""

from __future__ import annotations

import asyncio
import itertools
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ztgate_bench.utility_bench import TUNING_CORPUS, SECOND_TUNING_CORPUS, UtilityCase, load_cases

# The corpora whose prompts carry reviewed facts (the tuning files; a held-out file is scored only by name).
FACT_CORPORA = (TUNING_CORPUS, SECOND_TUNING_CORPUS)
MAX_TOKENS = 48
CALL_TIMEOUT_S = 120.0
# Seconds of asking after which no new prompt is started (the suite's start is not counted).
BUDGET_S = 420.0
SYSTEMS = ("direct", "gateway", "direct, redacted prompt", "gateway, placeholders")
# A second tenant under the `default` policy with `chat_pseudonyms: placeholder` (`<PERSON_1>` rather than the
# chat default's stand-ins): whether the stand-ins close a gap that placeholders open.
PLACEHOLDER_TENANT = "utility-facts-placeholders"
VARIANTS = ("clean", "private")


def passes(facts: Sequence[str | Sequence[str]], answer: str) -> bool:
    """Whether answer holds every fact (an entry that is a list: any one of its strings), case-insensitively."""
    folded = answer.casefold()
    return all((fact.casefold() in folded) if isinstance(fact, str) else any(f.casefold() in folded for f in fact)
               for fact in facts)


def cause(case: UtilityCase, variant: str, redacted: str, gateway: str, served_by: str) -> str:
    """The class of cause of a gateway answer that fails facts its direct answer passes."""
    from ztgate.redaction.vault import PLACEHOLDER_RE

    prompt = case.prompt if variant == "clean" else case.private_prompt
    if served_by and served_by != "primary":
        return "served by another instance"
    if any(name not in redacted for name in case.public):
        return "public name removed"
    if PLACEHOLDER_RE.search(gateway):
        return "placeholder left in answer"
    if redacted != prompt:
        return "placeholder in prompt"
    return "answer differs with the prompt unchanged"


@dataclass(slots=True)
class Tally:
    """Passes per system and variant, and the classed gateway-only failures (case ids)."""

    asked: Counter[tuple[str, str]] = field(default_factory=Counter)
    passed: Counter[tuple[str, str]] = field(default_factory=Counter)
    errors: Counter[tuple[str, str]] = field(default_factory=Counter)
    # gateway fails, direct passes: (variant, cause, case id)
    gateway_only: list[tuple[str, str, str]] = field(default_factory=list)
    # gateway passes, direct fails
    direct_only: list[tuple[str, str]] = field(default_factory=list)
    # surrogates pass where placeholders fail, and the reverse: (variant, case id)
    surrogates_only: list[tuple[str, str]] = field(default_factory=list)
    placeholders_only: list[tuple[str, str]] = field(default_factory=list)
    # For --examples only (corpus text, never in the report): (case id, variant, redacted prompt, direct
    # answer, gateway answer, placeholders' answer) of each gateway-only failure.
    examples: list[tuple[str, ...]] = field(default_factory=list)
    # the gateway's answer differs from the direct call on the redacted prompt although that answer holds no
    # placeholder to restore: (variant, case id)
    restore_or_routing: list[tuple[str, str]] = field(default_factory=list)
    cases: int = 0
    max_tokens: int = MAX_TOKENS
    # Cases chosen, and whether the time budget stopped the run before all were asked.
    planned: int = 0
    stopped_early: bool = False


def markdown(tally: Tally, corpora: Sequence[Path]) -> str:
    names = ", ".join(f"`{c.name}`" for c in corpora)
    stopped = (f" (the time budget stopped the run after {tally.cases} of {tally.planned})"
               if tally.stopped_early else "")
    lines = [f"{tally.cases} prompts with reviewed facts ({names}){stopped}, each clean and with a private "
             f"person's details; greedy, max_tokens {tally.max_tokens}; the default model through the gateway "
             "(tokens on, `default` policy) and called directly.", "",
             "| system | " + " | ".join(f"{v} prompts: facts passed" for v in VARIANTS) + " | errors |",
             "|---|" + "---|" * (len(VARIANTS) + 1)]
    for system in SYSTEMS:
        cells = []
        for variant in VARIANTS:
            n, k = tally.asked[(system, variant)], tally.passed[(system, variant)]
            cells.append(f"{k}/{n} ({100 * k / n:.0f}%)" if n else "-")
        errors = sum(tally.errors[(system, v)] for v in VARIANTS)
        lines.append(f"| {system} | " + " | ".join(cells) + f" | {errors} |")
    lines += ["", f"Gateway fails, direct passes: {len(tally.gateway_only)}; gateway passes, direct fails: "
              f"{len(tally.direct_only)}."]
    by_cause = Counter((variant, why) for variant, why, _ in tally.gateway_only)
    for (variant, why), count in sorted(by_cause.items()):
        ids = ", ".join(i for v, w, i in tally.gateway_only if (v, w) == (variant, why))
        lines.append(f"- {variant}, {why}: {count} ({ids})")
    if tally.direct_only:
        lines.append("- gateway passes, direct fails: " + ", ".join(f"{i} ({v})" for v, i in tally.direct_only))
    lines.append(f"\nSurrogates pass, placeholders fail: {len(tally.surrogates_only)}"
                 + "".join(f"; {i} ({v})" for v, i in tally.surrogates_only)
                 + f". Placeholders pass, surrogates fail: {len(tally.placeholders_only)}"
                 + "".join(f"; {i} ({v})" for v, i in tally.placeholders_only) + ".")
    lines.append(f"\nGateway answer differs from the direct answer on the redacted prompt (restore or routing): "
                 f"{len(tally.restore_or_routing)}" + (" (" + ", ".join(f"{i} ({v})" for v, i in
                                                                 tally.restore_or_routing) + ")"
                                                        if tally.restore_or_routing else ""))
    return "\n".join(lines)


async def _ask(target, cases: Sequence[UtilityCase], tally: Tally, budget_s: float) -> None:
    from ztgate.common.identity import bearer
    from ztgate.common.tls import open_channel
    from ztgate.gen.inference.v1 import inference_pb2 as ipb
    from ztgate.gen.inference.v1 import inference_pb2_grpc
    from ztgate.gen.redaction.v1 import redaction_pb2, redaction_pb2_grpc
    from ztgate.redaction.vault import PLACEHOLDER_RE

    gateway = target.gateway_channel()
    direct = open_channel(target.primary, target.tls)
    metadata = target.metadata()
    via_gateway = inference_pb2_grpc.InferenceStub(gateway)
    redactor = redaction_pb2_grpc.RedactionStub(gateway)
    via_direct = inference_pb2_grpc.InferenceStub(direct)
    placeholder_md = tuple(bearer(target.tokens[PLACEHOLDER_TENANT]))

    def request(text: str) -> ipb.GenerateRequest:
        return ipb.GenerateRequest(messages=[ipb.ChatMessage(role="user", content=text)],
                                   sampling=ipb.SamplingParams(temperature=0.0, max_tokens=tally.max_tokens))

    async def generate(system: str, variant: str, stub, text: str, md=()) -> tuple[str, str] | None:
        tally.asked[(system, variant)] += 1
        try:
            reply = await stub.Generate(request(text), timeout=CALL_TIMEOUT_S, metadata=md)
        except Exception:  # noqa: BLE001 - counted, the run goes on
            tally.errors[(system, variant)] += 1
            return None
        return reply.text, reply.served_by

    deadline = time.monotonic() + budget_s
    try:
        for number, case in enumerate(cases, 1):
            if time.monotonic() > deadline:
                tally.stopped_early = True
                break
            tally.cases += 1
            for variant, prompt in (("clean", case.prompt), ("private", case.private_prompt)):
                redacted = (await redactor.Redact(redaction_pb2.RedactRequest(text=prompt), timeout=CALL_TIMEOUT_S,
                                                  metadata=metadata)).text
                direct_answer = await generate("direct", variant, via_direct, prompt)
                answers = {"direct": direct_answer,
                           "gateway": await generate("gateway", variant, via_gateway, prompt, metadata),
                           "gateway, placeholders": await generate("gateway, placeholders", variant, via_gateway,
                                                                   prompt, placeholder_md)}
                if redacted == prompt:  # the model saw what the direct call sent: greedy, the same answer
                    tally.asked[("direct, redacted prompt", variant)] += 1
                    answers["direct, redacted prompt"] = direct_answer
                else:
                    answers["direct, redacted prompt"] = await generate("direct, redacted prompt", variant,
                                                                        via_direct, redacted)
                ok = {system: a is not None and passes(case.facts, a[0]) for system, a in answers.items()}
                for system, good in ok.items():
                    tally.passed[(system, variant)] += good
                gw, seen = answers["gateway"], answers["direct, redacted prompt"]
                held = answers["gateway, placeholders"]  # what the placeholders tenant's model saw: `redacted`
                if gw is None or answers["direct"] is None:
                    continue
                if ok["gateway"] and not ok["gateway, placeholders"]:
                    tally.surrogates_only.append((variant, case.id))
                elif ok["gateway, placeholders"] and not ok["gateway"]:
                    tally.placeholders_only.append((variant, case.id))
                if ok["direct"] and not ok["gateway"]:
                    tally.gateway_only.append((variant, cause(case, variant, redacted, gw[0], gw[1]), case.id))
                    sur = answers["gateway, placeholders"]
                    tally.examples.append((case.id, variant, redacted, answers["direct"][0], gw[0],
                                           sur[0] if sur else ""))
                elif ok["gateway"] and not ok["direct"]:
                    tally.direct_only.append((variant, case.id))
                # With no placeholder in the model's answer there is nothing to restore: the two must agree.
                if (seen is not None and held is not None and not PLACEHOLDER_RE.search(seen[0])
                        and held[0] != seen[0]):
                    tally.restore_or_routing.append((variant, case.id))
            print(f"ztgate bench utility --facts: {number}/{len(cases)} prompts asked", file=sys.stderr, flush=True)
    finally:
        await gateway.close()
        await direct.close()


def fact_cases(corpora: Sequence[Path], subset: int | None) -> list[UtilityCase]:
    """The cases with facts of each corpus (the first `subset` of each when given), taken in turn from each
    corpus so that a run the time budget stops has asked every corpus."""
    lists = [[c for c in load_cases(corpus) if c.facts][:subset or None] for corpus in corpora]
    return [case for row in itertools.zip_longest(*lists) for case in row if case is not None]


def run(config_path: Path | None, corpora: Sequence[Path] = FACT_CORPORA, subset: int | None = None,
        max_tokens: int = MAX_TOKENS, budget_s: float = BUDGET_S) -> Tally:
    """Starts a suite of its own (no plain primary) and asks every case of every system; no new case is
    started once `budget_s` seconds of asking have passed (the report says so)."""
    from ztgate_bench.eval.schema import Goldens
    from ztgate_bench.eval.suite import own_suite

    cases = fact_cases(corpora, subset)
    if not cases:
        raise ValueError("no prompt with `facts` in " + ", ".join(str(c) for c in corpora))
    tally = Tally(max_tokens=max_tokens, planned=len(cases))
    from ztgate.redaction.config import DEFAULT_POLICY_DIR

    workdir = Path(tempfile.mkdtemp(prefix="ztgate-utility-facts-"))
    policies = workdir / "policies"
    policies.mkdir()
    default = (DEFAULT_POLICY_DIR / "default.yaml").read_text(encoding="utf-8")
    (policies / f"{PLACEHOLDER_TENANT}.yaml").write_text(
        default.replace("name: default", f"name: {PLACEHOLDER_TENANT}\ntenants: [{PLACEHOLDER_TENANT}]", 1)
        .replace("chat_pseudonyms: surrogate", "chat_pseudonyms: placeholder", 1), encoding="utf-8")
    with own_suite(config_path, Goldens().policies.resolve(), workdir / "suite", extra_policies=(policies,),
                   tenants=(PLACEHOLDER_TENANT,), plain=False) as target:
        asyncio.run(_ask(target, cases, tally, budget_s))
    return tally


def at_parity(tally: Tally) -> bool:
    """Whether the gateway passes at least as many facts as the direct calls, per variant, with no error."""
    return not sum(tally.errors.values()) and all(
        tally.passed[("gateway", v)] >= tally.passed[("direct", v)] for v in VARIANTS)
