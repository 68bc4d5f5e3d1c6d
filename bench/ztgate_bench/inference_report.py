"""The inference benchmark's results: per-request records, the statistics drawn from them, the table.

Pure data and arithmetic (no engine), so that what the table says can be tested on its own:
tokens/s of a set is completion tokens over the set's wall time (all its requests, `concurrency`
of them in flight); P95 is over per-request latencies; acceptance figures are summed from the
engine's own per-request counts (ratios of sums, vLLM's conventions); identical % compares greedy
token ids with the plain engine of the same parity (see `reference_for`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace

from ztgate_bench.redaction_metrics import percentile

PLAIN = "none"  # the config name of plain decoding (no speculation)
# Single-stream speedup targets of speculation over plain decoding, per prompt set (issue #3).
SPEEDUP_TARGETS: dict[str, float] = {"mixed": 1.5, "copy_heavy": 2.5}


@dataclass(frozen=True, slots=True)
class RequestRecord:
    """One request of a set: what it produced and what the engine counted for it."""

    prompt_index: int
    token_ids: tuple[int, ...]
    latency_ms: float  # client side, from submission to the last token (queueing included)
    ttft_ms: float = 0.0
    num_drafts: int = 0
    draft_tokens: int = 0
    accepted_tokens: int = 0
    counted: bool = True  # False: the engine does not expose draft/accept counts (transformers)


@dataclass(frozen=True, slots=True)
class SetRun:
    """One prompt set at one concurrency (the fastest of `repeat` passes)."""

    prompt_set: str
    concurrency: int
    wall_s: float
    records: tuple[RequestRecord, ...]

    @property
    def completion_tokens(self) -> int:
        return sum(len(r.token_ids) for r in self.records)

    @property
    def tokens_per_s(self) -> float:
        return self.completion_tokens / self.wall_s if self.wall_s > 0 else 0.0

    @property
    def p95_ms(self) -> float:
        return percentile([r.latency_ms for r in self.records], 95)

    @property
    def speculated(self) -> bool:
        """True when the engine counted drafts for every request (so the ratios below mean something)."""
        return bool(self.records) and all(r.counted for r in self.records) and any(r.num_drafts for r in self.records)

    @property
    def acceptance_rate(self) -> float | None:
        """accepted / drafted tokens over the set; None when not counted."""
        drafts = sum(r.draft_tokens for r in self.records)
        return sum(r.accepted_tokens for r in self.records) / drafts if self.speculated and drafts else None

    @property
    def mean_acceptance_length(self) -> float | None:
        """Tokens emitted per verification step (1 + accepted / drafts proposed); None when not counted."""
        steps = sum(r.num_drafts for r in self.records)
        return 1 + sum(r.accepted_tokens for r in self.records) / steps if self.speculated and steps else None


@dataclass(frozen=True, slots=True)
class ConfigRun:
    """Every set of one engine configuration (one engine start)."""

    parity: str
    config: str  # "none", "ngram:K:MIN:MAX" or "draft_model:PATH:K"
    engine: str = "vllm"
    start_s: float = 0.0
    sets: tuple[SetRun, ...] = ()

    @property
    def plain(self) -> bool:
        return self.config == PLAIN

    def get(self, prompt_set: str, concurrency: int) -> SetRun | None:
        return next((s for s in self.sets if s.prompt_set == prompt_set and s.concurrency == concurrency), None)


def faster_of(first: ConfigRun, second: ConfigRun) -> ConfigRun:
    """One configuration measured twice (plain, first and last in a run): each set keeps its faster
    measurement, so a machine that slowed down while the plain engine ran cannot flatter the
    configurations measured after it; speedups can only come out lower."""
    assert (first.parity, first.config) == (second.parity, second.config)
    sets = []
    for s in first.sets:
        other = second.get(s.prompt_set, s.concurrency)
        sets.append(s if other is None or s.wall_s <= other.wall_s else other)
    return replace(first, sets=tuple(sets))


@dataclass(frozen=True, slots=True)
class BenchHeader:
    """What the header line of the report says about the run."""

    command: str
    machine: str
    cpus: int
    date: str
    model: str
    max_tokens: int
    arch: str = ""  # e.g. x86_64
    notes: tuple[str, ...] = field(default=())


def reference_for(run: ConfigRun, prompt_set: str, concurrency: int, runs: Sequence[ConfigRun]) -> SetRun | None:
    """The set that `run`'s greedy outputs and speed are compared with.

    A speculative config: the plain engine of the same parity at the same concurrency (so that only
    speculation differs). The plain engine: its own run at the lowest concurrency measured (so its
    row shows what batching alone changes); None for that lowest run itself.
    """
    plain = next((r for r in runs if r.plain and r.parity == run.parity), None)
    if plain is None:
        return None
    if not run.plain:
        return plain.get(prompt_set, concurrency)
    lowest = min((s.concurrency for s in plain.sets if s.prompt_set == prompt_set), default=concurrency)
    return None if concurrency == lowest else plain.get(prompt_set, lowest)


def identical_share(run: SetRun, reference: SetRun) -> float | None:
    """Share (0-1) of the prompts of `run` whose greedy token ids equal the reference's for the same
    prompt; None when the two sets share no prompt."""
    ref = {r.prompt_index: r.token_ids for r in reference.records}
    shared = [r for r in run.records if r.prompt_index in ref]
    if not shared:
        return None
    return sum(r.token_ids == ref[r.prompt_index] for r in shared) / len(shared)


def speedup(run: SetRun, baseline: SetRun | None) -> float | None:
    """tokens/s over the baseline's; None without a baseline (or when it produced nothing)."""
    if baseline is None or baseline.tokens_per_s <= 0:
        return None
    return run.tokens_per_s / baseline.tokens_per_s


@dataclass(frozen=True, slots=True)
class Cell:
    """One prompt set's figures in one row of the table."""

    tokens_per_s: float
    speedup: float | None
    p95_ms: float
    acceptance_rate: float | None
    mean_acceptance_length: float | None
    identical: float | None  # share 0-1; None: the row is the reference itself


@dataclass(frozen=True, slots=True)
class Row:
    parity: str
    config: str
    concurrency: int
    cells: dict[str, Cell | None]  # by prompt set; None: not measured


def prompt_sets(runs: Sequence[ConfigRun]) -> list[str]:
    """Prompt set names in the order they were first run."""
    names: list[str] = []
    for run in runs:
        for s in run.sets:
            if s.prompt_set not in names:
                names.append(s.prompt_set)
    return names


def build_rows(runs: Sequence[ConfigRun]) -> list[Row]:
    """One row per parity x config x concurrency, in run order; plain first within a parity."""
    names = prompt_sets(runs)
    ordered = sorted(runs, key=lambda r: (not r.plain,))  # stable: keeps run order otherwise
    parities = list(dict.fromkeys(r.parity for r in runs))
    rows: list[Row] = []
    for parity in parities:
        for run in (r for r in ordered if r.parity == parity):
            for conc in sorted({s.concurrency for s in run.sets}):
                cells: dict[str, Cell | None] = {}
                for name in names:
                    s = run.get(name, conc)
                    if s is None:
                        cells[name] = None
                        continue
                    ref = reference_for(run, name, conc, runs)
                    base = ref if not run.plain else None  # plain's speedup is against itself: blank
                    cells[name] = Cell(s.tokens_per_s, speedup(s, base), s.p95_ms, s.acceptance_rate,
                                       s.mean_acceptance_length, identical_share(s, ref) if ref else None)
                rows.append(Row(parity, run.config, conc, cells))
    return rows


def _num(value: float | None, fmt: str, suffix: str = "") -> str:
    return "-" if value is None or math.isnan(value) else f"{value:{fmt}}{suffix}"


# What the GPU-implied column means, printed under the header of every report.
GPU_IMPLIED_NOTE = ("GPU-implied: the speedup the mean acceptance length implies where a verification pass costs "
                    "one plain step and drafting is free (a GPU, roughly): tokens per verification = mean len. "
                    "It depends on the drafts, not the hardware; the measured speedup is this CPU's.")


def gpu_implied_speedup(mean_acceptance_length: float | None, verification_cost: float = 1.0) -> float | None:
    """Speedup over plain decoding when each verification pass costs `verification_cost` plain steps and
    yields `mean_acceptance_length` tokens (accepted drafts plus the target's own token)."""
    if mean_acceptance_length is None or math.isnan(mean_acceptance_length):
        return None
    return mean_acceptance_length / verification_cost


def render_table(runs: Sequence[ConfigRun]) -> str:
    """The Markdown table: rows parity x config x concurrency, seven columns per prompt set."""
    names = prompt_sets(runs)
    cols = ["tok/s", "speedup", "P95 ms", "accept", "mean len", "GPU-implied", "identical"]
    head = ["parity", "config", "conc"] + [f"{n} {c}" for n in names for c in cols]
    lines = ["| " + " | ".join(head) + " |", "|---|---|---:|" + "---:|" * (len(cols) * len(names))]
    for row in build_rows(runs):
        cells = [row.parity, "plain" if row.config == PLAIN else row.config, str(row.concurrency)]
        for name in names:
            c = row.cells[name]
            if c is None:
                cells += ["n/a"] * len(cols)
                continue
            cells += [_num(c.tokens_per_s, ".1f"), _num(c.speedup, ".2f", "x"), _num(c.p95_ms, ".0f"),
                      _num(c.acceptance_rate, ".2f"), _num(c.mean_acceptance_length, ".2f"),
                      _num(gpu_implied_speedup(c.mean_acceptance_length), ".2f", "x"),
                      _num(None if c.identical is None else 100 * c.identical, ".0f", "%")]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def target_lines(runs: Sequence[ConfigRun]) -> list[str]:
    """The issue's targets, per speculative config: identical greedy outputs in strict parity (every
    concurrency), and the single-stream speedups of SPEEDUP_TARGETS (lowest concurrency measured)."""
    lines: list[str] = []
    rows = build_rows(runs)
    for row in rows:
        if row.config == PLAIN:
            continue
        measured = [c for c in row.cells.values() if c is not None and c.identical is not None]
        if row.parity == "strict" and measured:
            same = all(c.identical == 1.0 for c in measured)
            lines.append(f"strict {row.config} conc {row.concurrency}: identical greedy outputs "
                         f"{'100% (met)' if same else 'below 100% (NOT met)'}")
        lowest = min(r.concurrency for r in rows if r.parity == row.parity and r.config == row.config)
        if row.concurrency != lowest:
            continue
        for name, target in SPEEDUP_TARGETS.items():
            c = row.cells.get(name)
            if c is not None and c.speedup is not None:
                verdict = "met" if c.speedup >= target else "NOT met"
                lines.append(f"{row.parity} {row.config} conc {row.concurrency}: {name} speedup "
                             f"{c.speedup:.2f}x, target {target:g}x ({verdict})")
    return lines


def targets_met(runs: Sequence[ConfigRun]) -> bool:
    """Every target of `target_lines` met (the bench's exit status: 0 only then)."""
    return not any(line.endswith("(NOT met)") for line in target_lines(runs))


def render_report(runs: Sequence[ConfigRun], header: BenchHeader) -> str:
    """Header line, table and target verdicts, as Markdown."""
    where = f"{header.arch}, {header.cpus} CPUs" if header.arch else f"{header.cpus} CPUs"
    top = (f"`{header.command}` on {header.machine} ({where}), {header.date}; model "
           f"{header.model}, greedy, max_tokens {header.max_tokens}")
    parts = [top, *header.notes, GPU_IMPLIED_NOTE, "", render_table(runs).rstrip("\n"), ""]
    targets = target_lines(runs)
    if targets:
        parts += ["Targets:", "", *(f"- {t}" for t in targets)]
    return "\n".join(parts) + "\n"


def to_json(runs: Sequence[ConfigRun], header: BenchHeader) -> dict:
    """Everything measured (per-request records included) and the table's figures."""
    return {
        "header": asdict(header),
        "runs": [asdict(r) for r in runs],
        "rows": [{"parity": row.parity, "config": row.config, "concurrency": row.concurrency,
                  "sets": {n: None if c is None else asdict(c) for n, c in row.cells.items()}}
                 for row in build_rows(runs)],
        "targets": target_lines(runs),
    }
