"""`ztgate bench utility`: what redaction costs the answers - everyday prompts altered, public names kept,
private values reaching the model - for ztgate's policies and Presidio's default pipeline, same prompts.

The corpus (``bench/corpora/utility-*.jsonl``, how it was written: ``bench/corpora/README.md``) holds
everyday prompts without personal data, the public names each one depends on, and the same prompt with a
private person's details added and those details listed. ztgate runs in this process with the code the
redaction service runs (``Analyzer`` then ``anonymize.redact`` under a loaded policy); nothing is sent
anywhere. Only counts are reported, never a prompt's text.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ztgate.redaction.detection.analyzer import Analyzer

CORPORA_DIR = Path(__file__).resolve().parent.parent / "corpora"
# The prompts the figures are reported on (the second held-out set, written for the second round of issue #29,
# first; the first one, scored several times while the lists were built, after it), then the prompts the public
# lists were tuned on.
DEFAULT_CORPUS = CORPORA_DIR / "utility-holdout-2.jsonl"
FIRST_HOLDOUT = CORPORA_DIR / "utility-holdout.jsonl"
TUNING_CORPUS = CORPORA_DIR / "utility-tune.jsonl"
SECOND_TUNING_CORPUS = CORPORA_DIR / "utility-tune-2.jsonl"
CORPORA = (DEFAULT_CORPUS, FIRST_HOLDOUT, TUNING_CORPUS, SECOND_TUNING_CORPUS)
DEFAULT_POLICIES = ("default", "strict")


@dataclass(frozen=True, slots=True)
class UtilityCase:
    """One everyday prompt, the public names its answer needs, and its variant with private details."""

    id: str
    topic: str
    prompt: str
    public: tuple[str, ...]
    private_prompt: str
    private: tuple[str, ...]
    # Reviewed strings a correct answer must contain (an entry that is a tuple: any one of them); empty when the
    # corpus lists none (`ztgate bench utility --facts`, utility_facts.py).
    facts: tuple[str | tuple[str, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class UtilityScore:
    """Counts over a corpus for one redactor."""

    system: str
    prompts: int
    altered: int
    public_names: int
    public_kept: int
    private_values: int
    private_reaching: int
    # Public names kept in the variants with private details: a user's own details in a prompt must not cost the
    # question its subject (docs/adr/0037).
    public_kept_beside_private: int = 0

    @property
    def altered_share(self) -> float:
        return self.altered / self.prompts if self.prompts else 0.0

    @property
    def kept_share(self) -> float:
        return self.public_kept / self.public_names if self.public_names else 1.0

    @property
    def kept_beside_private_share(self) -> float:
        return self.public_kept_beside_private / self.public_names if self.public_names else 1.0


def load_cases(path: Path) -> list[UtilityCase]:
    """The cases of a JSONL corpus; a malformed line is a ValueError naming the file and the line."""
    cases: list[UtilityCase] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            case = UtilityCase(row["id"], row["topic"], row["prompt"], tuple(row["public"]),
                               row["private_prompt"], tuple(row["private"]), _facts(row.get("facts", [])))
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}:{number}: not a utility case ({type(exc).__name__}: {exc})") from None
        missing = [v for v in case.public if v not in case.prompt] + [
            v for v in case.private if v not in case.private_prompt]
        if missing:
            raise ValueError(f"{path}:{number}: {len(missing)} listed value(s) not in the prompt")
        cases.append(case)
    return cases


def _facts(value: object) -> tuple[str | tuple[str, ...], ...]:
    """A row's `facts`: a list whose entries are non-blank strings or non-empty lists of them."""
    if not isinstance(value, list):
        raise TypeError("facts is not a list")
    out: list[str | tuple[str, ...]] = []
    for entry in value:
        alternatives = entry if isinstance(entry, list) else [entry]
        if not alternatives or not all(isinstance(a, str) and a.strip() for a in alternatives):
            raise TypeError("a fact is not a non-blank string or a non-empty list of them")
        out.append(entry if isinstance(entry, str) else tuple(entry))
    return tuple(out)


def score(system: str, redact: Callable[[str], str], cases: Sequence[UtilityCase]) -> UtilityScore:
    """Counts for one redactor: a clean prompt is altered when its output differs at all; a public name is
    kept when it appears in the output of the clean prompt (and, counted apart, of the private variant); a private
    value reaches the model when it appears in the output of the private variant."""
    altered = kept = names = reaching = values = kept_beside = 0
    for case in cases:
        clean = redact(case.prompt)
        altered += clean != case.prompt
        names += len(case.public)
        kept += sum(name in clean for name in case.public)
        private = redact(case.private_prompt)
        values += len(case.private)
        reaching += sum(value in private for value in case.private)
        kept_beside += sum(name in private for name in case.public)
    return UtilityScore(system, len(cases), altered, names, kept, values, reaching, kept_beside)


def ztgate_redactor(policy_name: str) -> Callable[[str], str]:
    """The redaction service's path in this process: analysis, then the named built-in policy."""
    from ztgate.redaction.anonymising import anonymize
    from ztgate.redaction.anonymising.operators import Operators
    from ztgate.redaction.policies import PolicyStore

    analyzer = _analyzer()
    policy = PolicyStore.load().get(policy_name)
    operators = Operators()

    def redact(text: str) -> str:
        return anonymize.redact(text, analyzer.analyze(text), policy, None, None, None, operators=operators).text

    return redact


@functools.lru_cache(maxsize=1)
def _analyzer() -> Analyzer:
    """One analyzer for every policy scored (a spaCy load and the gazetteer: seconds)."""
    from ztgate.redaction.detection.analyzer import Analyzer
    return Analyzer.create()


def markdown(scores: Sequence[UtilityScore], corpus: Path) -> str:
    """The report table."""
    head = scores[0]
    lines = [(f"Corpus `{corpus.name}`: {head.prompts} prompts without personal data, {head.public_names} "
              f"public names, {head.private_values} private values in their variants."),
             "",
             "| system | prompts altered | public names kept | private values reaching the model | public names kept "
             "beside private details |",
             "|---|---|---|---|---|"]
    for s in scores:
        lines.append(f"| {s.system} | {s.altered}/{s.prompts} ({100 * s.altered_share:.0f}%) | "
                     f"{s.public_kept}/{s.public_names} ({100 * s.kept_share:.0f}%) | "
                     f"{s.private_reaching}/{s.private_values} | "
                     f"{s.public_kept_beside_private}/{s.public_names} ({100 * s.kept_beside_private_share:.0f}%) |")
    return "\n".join(lines)


def main(args: argparse.Namespace) -> int:
    """Scores ztgate's shipped policies and Presidio's default pipeline on the held-out prompts (the figures
    reported) and on the tuning prompts (shown apart), or on ``--corpus FILE`` alone; exit 1 when the default
    policy misses a target on the first corpus scored (at most MAX_ALTERED of clean prompts altered, at least MIN_KEPT of public names kept,
    no private value reaching the model)."""
    if getattr(args, "facts", False):
        return facts_main(args)
    if getattr(args, "answers", False):
        return answers_main(args)
    from ztgate_bench.presidio_baseline import SYSTEM_NAME, build_presidio

    redactors = [(f"ztgate {name}", ztgate_redactor(name)) for name in DEFAULT_POLICIES]
    redactors.append((SYSTEM_NAME, build_presidio().redact))
    tables: list[str] = []
    reported: list[UtilityScore] = []
    corpus_arg = getattr(args, "corpus", None)
    for corpus in ((Path(corpus_arg),) if corpus_arg else CORPORA):
        cases = load_cases(corpus)
        scores = [score(system, redact, cases) for system, redact in redactors]
        reported = reported or scores
        tables.append(markdown(scores, corpus))
    report = "\n\n".join(["# ztgate bench utility", *tables])
    print(report)
    out = getattr(args, "out", None)
    if out:
        Path(out).write_text(report + "\n", encoding="utf-8")
    return 0 if meets_targets(reported[0]) else 1


def answers_main(args: argparse.Namespace) -> int:
    """`--answers`: placeholders against surrogates through the gateway (ztgate_bench.utility_answers);
    `--examples FILE`: each answer that still holds a placeholder or a stand-in, as JSON lines (system,
    prompt, answer: the cases' own text, for reading, not reporting)."""
    from ztgate_bench import utility_answers

    tallies = utility_answers.run(getattr(args, "config", None))
    report = "\n\n".join(["# ztgate bench utility --answers", utility_answers.markdown(tallies)])
    examples = getattr(args, "examples", None)
    if examples:
        Path(examples).write_text("".join(json.dumps({"system": t.system, "prompt": prompt, "answer": answer}) + "\n"
                                          for t in tallies for prompt, answer in t.left), encoding="utf-8")
    print(report)
    out = getattr(args, "out", None)
    if out:
        Path(out).write_text(report + "\n", encoding="utf-8")
    return 0


def facts_main(args: argparse.Namespace) -> int:
    """`--facts`: the corpus prompts' reviewed facts, through the gateway against the same model called
    directly (ztgate_bench.utility_facts); `--corpus FILE` alone, `--subset N` prompts of each corpus,
    `--max-tokens`, `--duration-s` (seconds of asking, then no new prompt), `--examples FILE` (the redacted
    prompt and the answers of each gateway-only failure, as JSON lines: corpus text, for reading, not reporting). Exit 1 when the gateway passes fewer facts than the direct calls."""
    from ztgate_bench import utility_facts

    corpus = getattr(args, "corpus", None)
    tally = utility_facts.run(getattr(args, "config", None),
                              (Path(corpus),) if corpus else utility_facts.FACT_CORPORA,
                              getattr(args, "subset", None),
                              getattr(args, "max_tokens", None) or utility_facts.MAX_TOKENS,
                              getattr(args, "duration_s", None) or utility_facts.BUDGET_S)
    report = "\n\n".join(["# ztgate bench utility --facts",
                           utility_facts.markdown(tally, (Path(corpus),) if corpus else utility_facts.FACT_CORPORA)])
    print(report)
    out = getattr(args, "out", None)
    if out:
        Path(out).write_text(report + "\n", encoding="utf-8")
    examples = getattr(args, "examples", None)
    if examples:  # corpus text and answers, for the engineer reading the gateway-only failures; never the report
        Path(examples).write_text("".join(json.dumps(dict(zip(("id", "variant", "redacted", "direct", "gateway",
                                                                "placeholders"), e, strict=True))) + "\n"
                                          for e in tally.examples), encoding="utf-8")
    return 0 if utility_facts.at_parity(tally) else 1


MAX_ALTERED = 0.02
MIN_KEPT = 0.95


def meets_targets(s: UtilityScore) -> bool:
    """Issue #29's targets for the first policy scored."""
    return s.altered_share <= MAX_ALTERED and s.kept_share >= MIN_KEPT and s.private_reaching == 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--answers", action="store_true")
    parser.add_argument("--facts", action="store_true")
    parser.add_argument("--subset", type=int)
    parser.add_argument("--max-tokens", type=int)
    parser.add_argument("--duration-s", type=float)
    parser.add_argument("--examples", type=Path)
    parser.add_argument("--corpus", type=Path, help="score this file alone")
    sys.exit(main(parser.parse_args()))
