"""`ztgate eval [--full] [--target ADDR] [--update] [--out DIR]`: the golden gate's entry point.

Exit 0 when every gate passes; 1 on drift past a threshold (the report names each drifted case and
shows its diff); 2 on bad input (a golden file off its schema, a --target that is not a ztgate suite).
With --update the expected files are rewritten from the run and the diff printed; exit 0, or 1 when an
answer broke its case's reviewed facts (that answer is not accepted; the others are).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from ztgate_bench.eval import compare, report, update
from ztgate_bench.eval.measure import Observations, measure
from ztgate_bench.eval.schema import DEFAULT_DIR, Goldens
from ztgate_bench.eval.suite import TargetError, Target, own_suite, running_target


def _observe(goldens: Goldens, target: Target, full: bool) -> Observations:
    return asyncio.run(measure(target, goldens, full))


def run(goldens: Goldens, *, full: bool, target: str | None, token: str, config_path: Path | None,
        gateway_tls=None, workdir: Path | None = None) -> Observations:
    """Measures on the --target suite, or on one started for the run (and stopped after)."""
    if target:
        return _observe(goldens, running_target(target, token, config_path, gateway_tls), full)
    with own_suite(config_path, goldens.policies.resolve(), workdir) as own:
        return _observe(goldens, own, full)


def main(args: argparse.Namespace) -> int:
    golden_dir = getattr(args, "golden_dir", None) or DEFAULT_DIR
    goldens = Goldens(golden_dir)  # GoldenError (a ConfigError): the CLI prints it, exit 2
    full = bool(args.full)
    out = args.out or Path(tempfile.mkdtemp(prefix="ztgate-eval-report-"))
    where = f"the running suite at {args.target}" if args.target else "a suite of its own (ztgate up on free ports)"
    print(f"ztgate eval: {'full' if full else 'quick'} set on {where} ...", file=sys.stderr, flush=True)
    try:
        obs = run(goldens, full=full, target=args.target, token=args.token, config_path=args.config,
                  gateway_tls=_gateway_tls(args))
    except TargetError as exc:
        print(f"ztgate eval: {exc}", file=sys.stderr)
        return 2
    if args.update:
        files = update.new_files(goldens, obs, full)
        text = update.diff(files, golden_dir)
        changed = update.write(files)
        refused = update.refused(goldens, obs, full)
        for case in refused:
            print(f"ztgate eval --update: {case['id']}: answer not accepted, it breaks its facts: "
                  f"{'; '.join(case['problems'])}", file=sys.stderr)
        if not changed:
            print("ztgate eval --update: the goldens already match this run; nothing written", file=sys.stderr)
            return 1 if refused else 0
        sys.stdout.write(text)
        print(f"\nztgate eval --update: rewrote {len(changed)} golden file(s) above; review the diff and commit "
              "it with the change that caused it", file=sys.stderr)
        return 1 if refused else 0
    result = compare.judge(goldens, obs, full=full)
    paths = report.write(result, obs.latency_ms, out)
    print(report.markdown(result, png=None))
    print(f"reports: {', '.join(str(p) for p in paths)}", file=sys.stderr)
    return 0 if result["passed"] else 1


def _gateway_tls(args: argparse.Namespace):
    from ztgate.common.settings import ClientTlsSettings

    if not getattr(args, "tls_ca", None):
        return None
    return ClientTlsSettings(ca=args.tls_ca, cert=args.tls_cert, key=args.tls_key)
