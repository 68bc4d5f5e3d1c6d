"""A real `ztgate up` for the e2e modules that run one: every address a free loopback port, its
certificates issued into a fresh folder, and a wait until it says it is up."""

from __future__ import annotations

import signal
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from ztgate.supervisor.launcher import listen_variables
from tests.procs import Child, compiled_cache_dir, free_port, spawn

# The settings of every address `up` listens on.
ENV_KEYS = listen_variables()


def up_env(logs: Path, **extra: str) -> dict[str, str]:
    """The environment of a suite of its own: free ports, one analysis worker, no background
    scoring (a 2-core machine), certificates under `logs`, the session's compiled cache."""
    env = dict(zip(ENV_KEYS, (f"127.0.0.1:{free_port()}" for _ in ENV_KEYS)))
    env["ZTGATE_REDACTION__WORKERS"] = "1"
    env["ZTGATE_INFERENCE__PRIMARY__BACKGROUND_SCORING"] = "false"
    env["ZTGATE_INFERENCE__FALLBACK__BACKGROUND_SCORING"] = "false"
    env["ZTGATE_CACHE_DIR"] = str(compiled_cache_dir())
    env["ZTGATE_MESH__PKI_DIR"] = str(logs / "pki")  # empty: `up` issues the suite's certificates
    env["ZTGATE_REDACTION__KEYS_FILE"] = str(logs / "keys" / "redaction.json")  # and the redaction keys
    return {**env, **extra}


def start_up(logs: Path, env: dict[str, str], timeout_s: float = 480.0,
             args: Sequence[str] = ()) -> Child:
    """`ztgate up` with `env` (and `args`, e.g. --replicas), once it has printed "ztgate is up";
    RuntimeError (with its log) if it exits or takes longer than `timeout_s`. With --verbose, so that
    every part's output is in its one log (the tests read it, e.g. for values that must never be logged)."""
    child = spawn("up", [sys.executable, "-m", "ztgate.cli", "up", "--verbose", *args], logs, env)
    deadline = time.monotonic() + timeout_s
    while "ztgate is up" not in child.log():
        if child.process.poll() is not None or time.monotonic() > deadline:
            child.stop()
            raise RuntimeError(f"ztgate up did not come up:\n{child.log()[-4000:]}")
        time.sleep(0.3)
    return child


def plumbing_suite(logs: Path, **extra: str) -> Iterator[tuple[Child, dict[str, str]]]:
    """A module's `ztgate up` for testing the suite's plumbing, not first-token budgets (a loaded
    2-core machine may take the fallback past the default 1.2 s; test_gateway_slo tests budgets):
    yields the child and its environment (`extra`: more ZTGATE_* settings), and stops it with
    SIGINT after."""
    env = up_env(logs, ZTGATE_GATEWAY__INFERENCE__PER_TRY_TIMEOUT_S="10",
                 ZTGATE_GATEWAY__INFERENCE__PER_TRY_TIMEOUT_MAX_S="10", **extra)
    try:
        child = start_up(logs, env)
    except RuntimeError as exc:
        pytest.fail(str(exc))
    yield child, env
    child.stop(signal.SIGINT)
