"""The eval's reports: JSON for machines, Markdown for people, and a PNG of the run's latency
distributions (drawn with Pillow: matplotlib is not among the project's dependencies)."""

from __future__ import annotations

import json
from pathlib import Path

from ztgate_bench.eval.compare import DIFF_LINES

REPORT_JSON, REPORT_MD, REPORT_PNG = "eval-report.json", "eval-report.md", "eval-latency.png"


def _fmt(value: object) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def _diff_block(lines: list[str]) -> list[str]:
    shown = lines[:DIFF_LINES]
    more = [f"... {len(lines) - DIFF_LINES} more lines in the JSON report"] if len(lines) > DIFF_LINES else []
    return ["```diff", *shown, *more, "```"]


def markdown(report: dict, png: str | None = REPORT_PNG) -> str:
    verdict = "PASSED" if report["passed"] else "FAILED"
    lines = [f"# ztgate eval ({report['set']} set): {verdict}", "",
             f"{report['when']}. Configuration: " + (", ".join(f"{k} {v}" for k, v in report["configuration"].items())
                                                    or "n/a") + ".", "",
             "| gate | value | threshold | |", "|---|---:|---|---|"]
    for g in report["gates"]:
        lines.append(f"| {g['name']} | {_fmt(g['value'])} | {g['threshold']} | {'ok' if g['passed'] else '**FAILED**'} |")
    r = report["redaction"]
    lines += ["", f"## Redaction ({r['cases']} cases)", "",
              "| type | truth | found | recall | precision |", "|---|---:|---:|---:|---:|"]
    lines += [f"| {t} | {v['truth']} | {v['found']} | {_fmt(v['recall'])} | {_fmt(v['precision'])} |"
              for t, v in r["by_type"].items()]
    changed = {name: v for name, v in r["by_recognizer"].items() if v["missing"] or v["added"]}
    lines += ["", f"Findings by recognizer ({len(r['by_recognizer'])} recognizers; "
              f"{len(changed)} with findings missing or added against the golden):", "",
              "| recognizer | golden | found | missing | added |", "|---|---:|---:|---:|---:|"]
    lines += [f"| {name} | {v['golden']} | {v['found']} | {v['missing']} | {v['added']} |"
              for name, v in sorted(r["by_recognizer"].items(), key=lambda item: (not changed.get(item[0]), item[0]))]
    lines += ["", f"Blocked cases: {r['blocked']['correct']} of {r['blocked']['cases']} answered with their golden "
              f"status. Clean texts altered: {len(r['clean_altered'])}."]
    for wrong in r["blocked"]["wrong"]:
        lines.append(f"- blocked case `{wrong['id']}`: golden {wrong['golden']}, observed {wrong['observed']}")
    for case in r["clean_altered"]:
        lines += [f"- clean text `{case['id']}` altered:", *_diff_block(case["diff"])]
    if r["drifted"]:
        lines += ["", f"### Drifted redaction cases ({len(r['drifted'])})", ""]
        for case in r["drifted"]:
            named = f"; {', '.join(case['recognizers'])}" if case["recognizers"] else ""
            lines += [f"`{case['id']}` ({case['shape']}{named}):", *_diff_block(case["diff"]), ""]
    a = report["answers"]
    lines += ["", f"## Answers ({a['cases']} cases)", "",
              f"Exact match: {a['exact_matches']} of {a['comparisons']} comparisons ({a['exact_match_rate']:.1%}); "
              f"primary and fallback identical on {a['parity']['identical']} of {a['parity']['cases']} greedy cases."]
    for line in a["configuration_drift"]:
        lines.append(f"- configuration drifted: {line}")
    for case in a["stream_mismatch"]:
        lines += [f"- streamed `{case['id']}` differs from its unary answer:", *_diff_block(case["diff"])]
    for case in a["restore_failures"]:
        lines.append(f"- `{case['id']}` not restored: {'; '.join(case['problems'])}")
    if a["drifted"]:
        lines += ["", f"### Drifted answers ({len(a['drifted'])})", ""]
        for case in a["drifted"]:
            lines += [f"`{case['id']}` ({case['where']}):", *_diff_block(case["diff"]), ""]
    s = report["speculation"]
    lines += ["", "## Speculation", "", "| method | golden | observed | tolerance | state |", "|---|---:|---:|---:|---|"]
    lines += [f"| {m} | {_fmt(v['golden'])} | {_fmt(v['observed'])} | {v['tolerance']:g} | {v['state']} |"
              for m, v in s["methods"].items()]
    lines += [f"- {line}" for line in s["drifted"]]
    lat = report["latency"]
    lines += ["", "## Latency (this run; gated as ratios only)", "", "| series | calls | median (ms) |", "|---|---:|---:|"]
    lines += [f"| {k} | {lat['samples'].get(k, 0)} | {_fmt(v)} |" for k, v in lat["medians_ms"].items()]
    lines += [""] + [f"- {k}: {v:.2f}x" for k, v in lat["ratios"].items()]
    mismatch = lat.get("speculation_mismatch")
    lines.append("- speculation on/off: not run (a --target suite has no primary with speculation off)"
                 if mismatch is None else
                 f"- speculation on/off, greedy tokens differing: {', '.join(mismatch) or 'none'}")
    if png:
        lines += ["", f"![latency distributions]({png})"]
    return "\n".join(lines) + "\n"


def latency_png(series: dict[str, list[float]], path: Path) -> None:
    """One strip per series: every call as a tick, the median as a bar (log-free, ms on x)."""
    from PIL import Image, ImageDraw

    width, row, left, right, top = 900, 70, 170, 30, 40
    names = [n for n, v in series.items() if v]
    image = Image.new("RGB", (width, top + row * max(1, len(names)) + 40), "white")
    draw = ImageDraw.Draw(image)
    draw.text((10, 10), "ztgate eval: latency per call (ms), median marked", fill="black")
    high = max((max(v) for v in series.values() if v), default=1.0) * 1.05
    scale = (width - left - right) / high
    for i, name in enumerate(names):
        y = top + i * row + row // 2
        draw.text((10, y - 6), name, fill="black")
        draw.line((left, y, width - right, y), fill=(220, 220, 220))
        for value in series[name]:
            x = left + value * scale
            draw.line((x, y - 12, x, y + 12), fill=(60, 110, 200))
        ordered = sorted(series[name])
        median = ordered[len(ordered) // 2]
        x = left + median * scale
        draw.rectangle((x - 2, y - 20, x + 2, y + 20), fill=(200, 50, 50))
    axis_y = top + row * max(1, len(names)) + 10
    draw.line((left, axis_y, width - right, axis_y), fill="black")
    for k in range(6):
        value = high * k / 5
        x = left + value * scale
        draw.line((x, axis_y, x, axis_y + 5), fill="black")
        draw.text((x - 10, axis_y + 8), f"{value:.0f}", fill="black")
    image.save(path)


def write(report: dict, series: dict[str, list[float]], out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    (out / REPORT_JSON).write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    latency_png(series, out / REPORT_PNG)
    (out / REPORT_MD).write_text(markdown(report), encoding="utf-8")
    return [out / REPORT_JSON, out / REPORT_MD, out / REPORT_PNG]
