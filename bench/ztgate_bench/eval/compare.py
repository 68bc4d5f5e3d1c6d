"""Judges one run's observations against the goldens and the thresholds: the report, and whether the
gate passes. Pure (no I/O): tests run it on modified observations.

The report has a deterministic part (every field but `latency` and `when`: the same tree and the
same answers give the same bytes) and the latency ratios of the run, which are gated as ratios
only, never as absolute times.
"""

from __future__ import annotations

import difflib
import statistics
import time
from collections import defaultdict

from ztgate_bench.eval import facts
from ztgate_bench.eval.measure import ENGINES, Observations, selected
from ztgate_bench.eval.schema import Finding, Goldens, RedactionAnswer, RedactionCase

REPORT_SCHEMA = "ztgate.eval.report/1"
# Lines of diff shown per drifted case (the JSON report keeps them all).
DIFF_LINES = 40


def text_diff(expected: str | None, observed: str | None, what: str = "text") -> list[str]:
    """A unified diff, line by line (a one-line text shows as - and + lines)."""
    if expected == observed:
        return []
    a = [] if expected is None else expected.splitlines()
    b = [] if observed is None else observed.splitlines()
    return [line.rstrip("\n") for line in difflib.unified_diff(a, b, f"golden {what}", f"observed {what}",
                                                              lineterm="", n=1)]


# The recognizer of a golden finding recorded before findings carried theirs.
UNRECORDED = "(not recorded)"


def _spans(answer: RedactionAnswer) -> dict[str, Finding]:
    return {f"{f.type} [{f.start}:{f.end}]": f for f in answer.findings}


def _by(finding: Finding) -> str:
    return f" by {finding.recognizer}" if finding.recognizer else ""


def finding_changes(expected: RedactionAnswer, observed: RedactionAnswer) -> tuple[list[str], list[Finding],
                                                                                  list[Finding]]:
    """The finding lines of a diff, and the golden findings gone and observed findings new. A finding is
    its type and span; one whose recognizer changed (both recorded) is gone under the golden's recognizer
    and new under the observed one."""
    old, new = _spans(expected), _spans(observed)
    lines, missing, added = [], [], []
    for key in sorted(old.keys() - new.keys()):
        lines.append(f"- finding {key}{_by(old[key])}")
        missing.append(old[key])
    for key in sorted(new.keys() - old.keys()):
        lines.append(f"+ finding {key}{_by(new[key])}")
        added.append(new[key])
    for key in sorted(old.keys() & new.keys()):
        was, now = old[key].recognizer, new[key].recognizer
        if was and now and was != now:
            lines.append(f"~ finding {key}: golden by {was}, observed by {now}")
            missing.append(old[key])
            added.append(new[key])
    return lines, missing, added


def redaction_diff(expected: RedactionAnswer | None, observed: RedactionAnswer, text: str) -> list[str]:
    """What changed in one case: status, findings (type and span, by which recognizer) and the output text."""
    if expected is None:
        return ["no golden recorded for this case (run `ztgate eval --update` and review the diff)"]
    lines = []
    if expected.status != observed.status:
        lines.append(f"status: golden {expected.status}, observed {observed.status}")
    lines += finding_changes(expected, observed)[0]
    lines += text_diff(expected.text, observed.text, "output")
    return lines


def _count_recognizers(by_recognizer: dict[str, dict[str, int]], expected: RedactionAnswer | None,
                       observed: RedactionAnswer) -> list[str]:
    """Adds one case's findings to the per-recognizer counts; the recognizers its drift names."""
    for f in observed.findings:
        by_recognizer[f.recognizer or UNRECORDED]["found"] += 1
    if expected is None:
        return []
    for f in expected.findings:
        by_recognizer[f.recognizer or UNRECORDED]["golden"] += 1
    _, missing, added = finding_changes(expected, observed)
    for what, findings in (("missing", missing), ("added", added)):
        for f in findings:
            by_recognizer[f.recognizer or UNRECORDED][what] += 1
    return sorted({f.recognizer or UNRECORDED for f in (*missing, *added)})


def _truth_spans(case: RedactionCase) -> list[tuple[str, int, int]]:
    spans = set()
    for item in case.truth:
        start = case.text.find(item.value)
        while start >= 0:
            spans.add((item.type, start, start + len(item.value)))
            start = case.text.find(item.value, start + 1)
    return sorted(spans)


def _overlaps(a: tuple[str, int, int], b: tuple[str, int, int]) -> bool:
    return a[0] == b[0] and a[1] < b[2] and b[1] < a[2]


def _threshold(table: dict[str, float], entity_type: str) -> float:
    return table.get(entity_type, table.get("*", 0.0))


def judge_redaction(goldens: Goldens, obs: Observations, full: bool, gates: list[dict]) -> dict:
    t = goldens.thresholds
    drifted, clean_altered, blocked_wrong = [], [], []
    counts: dict[str, dict[str, int]] = defaultdict(lambda: {"truth": 0, "found": 0, "true_positive_truth": 0,
                                                             "true_positive_found": 0})
    by_recognizer: dict[str, dict[str, int]] = defaultdict(lambda: {"golden": 0, "found": 0, "missing": 0,
                                                                    "added": 0})
    n = blocked = 0
    for shape, golden in sorted(goldens.redaction.items()):
        expected = goldens.redaction_expected.get(shape)
        for case in selected(golden.cases, full):
            n += 1
            observed = obs.redaction.get(case.id, RedactionAnswer(status="NOT RUN"))
            want = expected.cases.get(case.id) if expected else None
            diff = redaction_diff(want, observed, case.text)
            recognizers = _count_recognizers(by_recognizer, want, observed)
            if diff:
                drifted.append({"id": case.id, "shape": shape, "recognizers": recognizers, "diff": diff})
            if shape == "blocked" or (want is not None and want.status != "OK"):
                blocked += 1
                if want is None or observed.status != want.status:
                    blocked_wrong.append({"id": case.id, "golden": want.status if want else None,
                                          "observed": observed.status})
                continue
            if not case.truth and observed.status == "OK" and observed.text != case.text:
                clean_altered.append({"id": case.id, "shape": shape,
                                      "diff": text_diff(case.text, observed.text, "output")})
            truth = _truth_spans(case)
            found = [(f.type, f.start, f.end) for f in observed.findings]
            for span in truth:
                counts[span[0]]["truth"] += 1
                counts[span[0]]["true_positive_truth"] += any(_overlaps(span, f) for f in found)
            for f in found:
                counts[f[0]]["found"] += 1
                counts[f[0]]["true_positive_found"] += any(_overlaps(f, span) for span in truth)
    by_type = {}
    for entity_type, c in sorted(counts.items()):
        recall = c["true_positive_truth"] / c["truth"] if c["truth"] else None
        precision = c["true_positive_found"] / c["found"] if c["found"] else None
        by_type[entity_type] = {"truth": c["truth"], "found": c["found"],
                                "recall": None if recall is None else round(recall, 4),
                                "precision": None if precision is None else round(precision, 4)}
        if recall is not None:
            _gate(gates, f"redaction recall {entity_type}", round(recall, 4), _threshold(t.min_recall, entity_type), ">=")
        if precision is not None:
            _gate(gates, f"redaction precision {entity_type}", round(precision, 4),
                  _threshold(t.min_precision, entity_type), ">=")
    _gate(gates, "redaction cases drifted from golden", len(drifted), t.max_redaction_drifted, "<=")
    _gate(gates, "clean texts altered", len(clean_altered), t.max_clean_altered, "<=")
    correct = (blocked - len(blocked_wrong)) / blocked if blocked else 1.0
    _gate(gates, "blocked cases answered with their golden status", round(correct, 4), t.min_blocked_correct, ">=")
    return {"cases": n, "drifted": drifted, "by_type": by_type, "by_recognizer": dict(sorted(by_recognizer.items())),
            "clean_altered": clean_altered,
            "blocked": {"cases": blocked, "correct": blocked - len(blocked_wrong), "wrong": blocked_wrong}}


def judge_answers(goldens: Goldens, obs: Observations, full: bool, gates: list[dict]) -> dict:
    t = goldens.thresholds
    expected = goldens.answers_expected
    drifted, stream_mismatch, restore_failures, errors, fact_failures = [], [], [], [], []
    compared = matched = parity_cases = parity_kept = 0
    config_drift = []
    if expected is not None:
        for key, value in sorted(expected.configuration.items()):
            if obs.configuration.get(key, value) != value:
                config_drift.append(f"{key}: golden {value}, observed {obs.configuration.get(key)}")
    for case in selected(goldens.answers.cases, full):
        seen = obs.answers.get(case.id)
        want = expected.cases.get(case.id) if expected else None
        if seen is None or seen.error:
            errors.append({"id": case.id, "error": seen.error if seen else "not run"})
            drifted.append({"id": case.id, "where": "call", "diff": [seen.error if seen else "not run"]})
            compared += 1
            continue
        broken = facts.answer_problems(case, seen.gateway, seen.engines, seen.stream)
        if broken:
            fact_failures.append({"id": case.id, "problems": broken})
        if want is None:
            drifted.append({"id": case.id, "where": "golden",
                            "diff": ["no golden recorded for this case (run `ztgate eval --update`)"]})
            compared += 1
            continue
        pairs = [(f"{engine} token ids", want.engines[engine].token_ids, seen.engines.get(engine, {}).get("token_ids"),
                  want.engines[engine].text, seen.engines.get(engine, {}).get("text"))
                 for engine in ENGINES if engine in want.engines]
        pairs.append(("gateway text", want.gateway, seen.gateway, want.gateway, seen.gateway))
        for where, golden_value, observed_value, golden_text, observed_text in pairs:
            compared += 1
            if golden_value == observed_value:
                matched += 1
                continue
            diff = text_diff(golden_text, observed_text, where.split()[0] + " text")
            if where.endswith("token ids"):
                diff = [f"token ids: golden {golden_value}", f"token ids: observed {observed_value}", *diff]
            drifted.append({"id": case.id, "where": where, "diff": diff or ["(same text, other token ids)"]})
        if case.kind == "greedy" and all(e in seen.engines for e in ENGINES):
            parity = seen.engines["primary"]["token_ids"] == seen.engines["fallback"]["token_ids"]
            parity_cases += 1
            parity_kept += parity
            if want.parity and not parity:
                drifted.append({"id": case.id, "where": "parity",
                                "diff": ["primary (speculative) and fallback (plain) no longer agree token for token",
                                         *text_diff(seen.engines["fallback"]["text"], seen.engines["primary"]["text"],
                                                    "fallback->primary")]})
        if case.kind == "stream" and seen.stream != seen.gateway:
            stream_mismatch.append({"id": case.id, "diff": text_diff(seen.gateway, seen.stream, "unary->stream")})
        if case.kind == "pseudonym":
            from ztgate.redaction.vault import PLACEHOLDER_RE

            answer = seen.gateway or ""
            problems = [f"placeholder {m.group(0)} left unrestored" for m in PLACEHOLDER_RE.finditer(answer)]
            problems += [f"stand-in #{i + 1} left unrestored"
                         for i, _ in enumerate(facts.stand_ins_left(answer, case.prompt))]
            problems += [f"value #{i + 1} of `restores` missing from the answer"
                         for i, value in enumerate(case.restores) if value not in answer]
            if problems:
                restore_failures.append({"id": case.id, "problems": problems})
    rate = matched / compared if compared else 1.0
    _gate(gates, "greedy exact-match rate", round(rate, 4), t.min_exact_match, ">=")
    _gate(gates, "answer configuration drifted", len(config_drift), 0, "<=")
    _gate(gates, "streamed answers unlike their unary answer", len(stream_mismatch), t.max_stream_mismatch, "<=")
    _gate(gates, "pseudonym answers not restored", len(restore_failures), t.max_restore_failures, "<=")
    _gate(gates, "answers failing their reviewed facts", len(fact_failures), t.max_fact_failures, "<=")
    return {"cases": len(selected(goldens.answers.cases, full)), "comparisons": compared, "exact_matches": matched,
            "exact_match_rate": round(rate, 4), "drifted": drifted, "configuration_drift": config_drift,
            "parity": {"cases": parity_cases, "identical": parity_kept},
            "stream_mismatch": stream_mismatch, "restore_failures": restore_failures, "fact_failures": fact_failures}


def judge_speculation(goldens: Goldens, obs: Observations, gates: list[dict]) -> dict:
    expected = goldens.speculation_expected
    out: dict[str, dict] = {}
    drift = []
    if expected is not None:
        for key, value in (("primary speculative method", expected.primary_method),
                           ("primary num_speculative_tokens", str(expected.num_speculative_tokens))):
            observed = obs.configuration.get(key)
            if observed is not None and observed != value:
                drift.append(f"{key}: golden {value}, observed {observed}")
    for method, spec in sorted(goldens.speculation.methods.items()):
        golden = expected.methods.get(method) if expected else None
        observed = obs.speculation.get(method)
        row = {"golden": golden, "observed": observed, "tolerance": spec.tolerance}
        if observed is None:
            row["state"] = "not run by this suite (reported, not gated)"
        elif golden is None:
            row["state"] = "no golden recorded (run `ztgate eval --update`)"
            drift.append(f"{method}: no golden recorded")
        else:
            ok = abs(observed - golden) <= spec.tolerance
            row["state"] = "within tolerance" if ok else "drifted"
            if not ok:
                drift.append(f"{method}: mean acceptance length golden {golden:g} +/- {spec.tolerance:g}, "
                             f"observed {observed:g}")
        out[method] = row
    _gate(gates, "speculation drifted from golden", len(drift), 0, "<=")
    return {"methods": out, "drifted": drift}


def latency_ratios(obs: Observations, goldens: Goldens, gates: list[dict]) -> dict:
    """Medians of the same run and their ratios (the only latency figures gated)."""
    t = goldens.thresholds
    medians = {name: round(statistics.median(series), 2) if series else None
               for name, series in obs.latency_ms.items()}
    ratios = {}
    for name, top, bottom, limit in (
            ("gateway over direct primary", "gateway", "direct primary", t.max_gateway_over_direct),
            ("speculation on over off, same engine", "speculation on", "speculation off",
             t.max_speculative_over_plain)):
        if medians.get(top) and medians.get(bottom):
            ratios[name] = round(medians[top] / medians[bottom], 3)
            _gate(gates, f"latency ratio {name}", ratios[name], limit, "<=", deterministic=False)
    if medians.get("direct primary") and medians.get("direct fallback"):  # two engines: reported, not gated
        ratios["primary over fallback (reported)"] = round(medians["direct primary"] / medians["direct fallback"], 3)
    if obs.speculation_mismatch is not None:
        _gate(gates, "greedy answers unlike with speculation off", len(obs.speculation_mismatch),
              t.max_speculation_mismatch, "<=")
    return {"medians_ms": medians, "ratios": ratios, "samples": {k: len(v) for k, v in obs.latency_ms.items()},
            "speculation_mismatch": obs.speculation_mismatch}


def _gate(gates: list[dict], name: str, value: float, threshold: float, op: str, deterministic: bool = True) -> None:
    passed = value >= threshold if op == ">=" else value <= threshold
    gates.append({"name": name, "value": value, "threshold": f"{op} {threshold:g}", "passed": passed,
                  **({} if deterministic else {"measured": True})})


def judge(goldens: Goldens, obs: Observations, *, full: bool) -> dict:
    """The whole report; `report["passed"]` is the gate."""
    gates: list[dict] = []
    report = {
        "schema": REPORT_SCHEMA,
        "set": "full" if full else "quick",
        "configuration": dict(sorted(obs.configuration.items())),
        "redaction": judge_redaction(goldens, obs, full, gates),
        "answers": judge_answers(goldens, obs, full, gates),
        "speculation": judge_speculation(goldens, obs, gates),
    }
    report["latency"] = latency_ratios(obs, goldens, gates)
    report["gates"] = gates
    report["passed"] = all(g["passed"] for g in gates)
    report["when"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    return report


def deterministic_part(report: dict) -> dict:
    """The report without what a run measures (latency, time): equal for equal answers."""
    return {**{k: v for k, v in report.items() if k not in ("latency", "when")},
            "gates": [g for g in report["gates"] if not g.get("measured")]}
