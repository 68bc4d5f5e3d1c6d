"""`ztgate eval --update`: rewrites the expected answers from one run, deliberately, and prints the
diff to review (and to put in the commit). Curated inputs (the YAML files) are never rewritten, and an
answer that breaks its case's reviewed facts (eval/facts.py) is never accepted: its golden stays as it was."""

from __future__ import annotations

import difflib
from pathlib import Path

from ztgate_bench.eval import facts
from ztgate_bench.eval.measure import Observations, selected
from ztgate_bench.eval.schema import (
    ANSWERS_EXPECTED_SCHEMA,
    REDACTION_EXPECTED_SCHEMA,
    SPECULATION_EXPECTED_SCHEMA,
    AnswerExpected,
    AnswersExpected,
    EngineAnswer,
    Goldens,
    RedactionExpected,
    SpeculationExpected,
    dump,
)


def _merge_redaction(goldens: Goldens, obs: Observations, full: bool) -> dict[Path, str]:
    files = {}
    for shape, golden in goldens.redaction.items():
        old = goldens.redaction_expected.get(shape)
        cases = dict(old.cases) if old else {}
        for case in selected(golden.cases, full):
            if case.id in obs.redaction:
                cases[case.id] = obs.redaction[case.id]
        # In the curated file's order; cases no longer curated are dropped.
        ordered = {case.id: cases[case.id] for case in golden.cases if case.id in cases}
        files[goldens.expected_path(shape)] = dump(RedactionExpected.model_validate(
            {"schema": REDACTION_EXPECTED_SCHEMA, "shape": shape, "cases": ordered}))
    return files


def _merge_answers(goldens: Goldens, obs: Observations, full: bool) -> str:
    old = goldens.answers_expected
    cases = dict(old.cases) if old else {}
    for case in selected(goldens.answers.cases, full):
        seen = obs.answers.get(case.id)
        if seen is None or seen.error or facts.answer_problems(case, seen.gateway, seen.engines, seen.stream):
            continue
        engines = {name: EngineAnswer(**value) for name, value in seen.engines.items()}
        parity = (engines["primary"].token_ids == engines["fallback"].token_ids
                  if {"primary", "fallback"} <= set(engines) else None)
        cases[case.id] = AnswerExpected(engines=engines, gateway=seen.gateway, parity=parity)
    ordered = {case.id: cases[case.id] for case in goldens.answers.cases if case.id in cases}
    configuration = {**(old.configuration if old else {}), **obs.configuration}
    return dump(AnswersExpected.model_validate({"schema": ANSWERS_EXPECTED_SCHEMA, "model": goldens.answers.model,
                                                "configuration": dict(sorted(configuration.items())),
                                                "cases": ordered}))


def _merge_speculation(goldens: Goldens, obs: Observations) -> str | None:
    old = goldens.speculation_expected
    methods = dict(old.methods) if old else {}
    methods.update({name: value for name, value in obs.speculation.items() if value is not None})
    method = obs.configuration.get("primary speculative method")
    if method is None:
        return None
    return dump(SpeculationExpected.model_validate({
        "schema": SPECULATION_EXPECTED_SCHEMA, "primary_method": method,
        "num_speculative_tokens": int(obs.configuration.get("primary num_speculative_tokens", "0")),
        "methods": dict(sorted(methods.items()))}))


def refused(goldens: Goldens, obs: Observations, full: bool) -> list[dict]:
    """The answer cases whose observed answers break their facts, with the problems: not accepted."""
    out = []
    for case in selected(goldens.answers.cases, full):
        seen = obs.answers.get(case.id)
        if seen is not None and not seen.error:
            broken = facts.answer_problems(case, seen.gateway, seen.engines, seen.stream)
            if broken:
                out.append({"id": case.id, "problems": broken})
    return out


def new_files(goldens: Goldens, obs: Observations, full: bool) -> dict[Path, str]:
    """Every expected file as the run would write it."""
    files = _merge_redaction(goldens, obs, full)
    files[goldens.root / "answers.expected.json"] = _merge_answers(goldens, obs, full)
    speculation = _merge_speculation(goldens, obs)
    if speculation is not None:
        files[goldens.root / "speculation.expected.json"] = speculation
    return files


def diff(files: dict[Path, str], root: Path) -> str:
    """The unified diff of what --update changes, per file, relative to the repository."""
    out = []
    for path, text in sorted(files.items()):
        before = path.read_text(encoding="utf-8") if path.exists() else ""
        if before == text:
            continue
        name = str(path.relative_to(root.parent.parent)) if path.is_relative_to(root.parent.parent) else str(path)
        out += difflib.unified_diff(before.splitlines(keepends=True), text.splitlines(keepends=True),
                                    f"a/{name}", f"b/{name}")
    return "".join(out)


def write(files: dict[Path, str]) -> list[Path]:
    changed = []
    for path, text in sorted(files.items()):
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        changed.append(path)
    return changed
