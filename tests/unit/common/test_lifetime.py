"""Children that die with their parent, even a parent killed by SIGKILL (PR_SET_PDEATHSIG).

Real processes: a small parent script (written below) starts a child the way the suite does
(multiprocessing spawn, as vLLM's EngineCore and the analysis workers; subprocess with a preexec
function, as `ztgate up`'s parts), prints the child's pid, and waits; the test SIGKILLs the parent
and watches the child. The same script without the death signal shows that the child would live on.
"""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import time
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from ztgate.common.lifetime import descendants, group_members
from ztgate.inference.vllm_compat import engine_core
from tests.procs import ROOT, alive

SPAWN_PARENT = """
import multiprocessing, sys, time
from ztgate.common.lifetime import die_with_parent

def child(arm):
    if arm:
        die_with_parent()
    print("ready", flush=True)  # past its start, the death signal armed if it is to be
    time.sleep(120)

if __name__ == "__main__":
    p = multiprocessing.get_context("spawn").Process(target=child, args=(sys.argv[1] == "arm",))
    p.start()
    print(p.pid, flush=True)
    time.sleep(120)
"""

EXEC_PARENT = """
import subprocess, sys, time
from ztgate.common.lifetime import parent_death_preexec

arm = parent_death_preexec() if sys.argv[1] == "arm" else None
p = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"], preexec_fn=arm)
print(p.pid, flush=True)
print("ready", flush=True)  # Popen returns once the child has exec'd: the preexec function (the signal) ran
time.sleep(120)
"""

# The one spawn helper of benches, the eval and tests (ztgate/common/process.py): what a bench or a test
# starts must not outlive it when it is SIGKILLed (a killed bench once left a whole `ztgate up` running).
SPAWN_HELPER_PARENT = """
import sys, tempfile, time
from pathlib import Path
from ztgate.common import process

c = process.spawn([sys.executable, "-c", "import time; time.sleep(120)"], Path(tempfile.mkdtemp()) / "c.log")
print(c.pid, flush=True)
print("ready", flush=True)  # Popen returns once the child has exec'd: the preexec function (the signal) ran
time.sleep(120)
"""


@pytest.fixture
def run_parent(tmp_path: Path) -> Iterator:
    started: list[int] = []

    def run(script: str, mode: str) -> tuple[subprocess.Popen, int]:
        path = tmp_path / f"parent_{len(started)}.py"
        path.write_text(script)
        parent = subprocess.Popen([sys.executable, str(path), mode], stdout=subprocess.PIPE, text=True,
                                  cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
        # The child's pid and "ready" (the child is past its start, its death signal armed if it is), in
        # either order: in the multiprocessing script the child says it is ready itself. No fixed sleep.
        lines = [parent.stdout.readline().strip() for _ in range(2)]
        assert "ready" in lines, lines
        child = int(next(line for line in lines if line != "ready"))
        started.extend([parent.pid, child])
        return parent, child

    yield run
    for pid in started:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _outlives_its_parent(run_parent, script: str, mode: str) -> bool:
    parent, child = run_parent(script, mode)
    assert alive(child)
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 5
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    return alive(child)


@pytest.mark.parametrize("script", [SPAWN_PARENT, EXEC_PARENT], ids=["multiprocessing", "subprocess"])
def test_an_armed_child_dies_with_its_sigkilled_parent_and_an_unarmed_one_would_not(
        run_parent, script: str) -> None:
    assert not _outlives_its_parent(run_parent, script, "arm")
    assert _outlives_its_parent(run_parent, script, "none")  # what happened before


def test_what_the_spawn_helper_starts_dies_with_its_sigkilled_parent(run_parent) -> None:
    assert not _outlives_its_parent(run_parent, SPAWN_HELPER_PARENT, "arm")


def test_group_members_lists_the_live_processes_of_a_group() -> None:
    leader = subprocess.Popen(["sh", "-c", "sleep 60 & sleep 60 & wait"], start_new_session=True)
    try:
        deadline = time.monotonic() + 5
        while len(group_members(leader.pid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        members = group_members(leader.pid)
        assert leader.pid in members and len(members) == 3  # sh and its two sleeps
        os.killpg(leader.pid, signal.SIGKILL)
        leader.wait()
        deadline = time.monotonic() + 5
        while group_members(leader.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert group_members(leader.pid) == []
    finally:
        try:
            os.killpg(leader.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_descendants_follows_children_out_of_their_parents_group() -> None:
    """A child in a session of its own (setsid: out of the group) is still found."""
    leader = subprocess.Popen(["sh", "-c", "setsid sleep 60 & sleep 60 & wait"], start_new_session=True)
    try:
        def settled() -> tuple[list[int], set[int]]:
            """One reading of the leader's descendants and its group (the same /proc moment, near enough)."""
            return descendants(leader.pid), set(group_members(leader.pid))

        def as_expected(found: list[int], in_group: set[int]) -> bool:
            return (len(found) == 2 and leader.pid not in found and len(set(found) - in_group) == 1
                    and all(descendants(pid) == [] for pid in found))

        # Until both run and the setsid'd one has called setsid: on a loaded machine the shell's forks are
        # seen for a while as copies of the shell, in the group. Wait for that with a deadline, not a sleep.
        deadline = time.monotonic() + 30
        found, in_group = settled()
        while not as_expected(found, in_group) and time.monotonic() < deadline:
            time.sleep(0.05)
            found, in_group = settled()
        assert len(found) == 2 and leader.pid not in found, found
        assert len(set(found) - in_group) == 1, (found, in_group)  # the setsid'd one left the group
        assert all(descendants(pid) == [] for pid in found)
    finally:
        for pid in [*descendants(leader.pid), leader.pid]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        leader.wait()


def test_vllms_engine_core_and_its_worker_start_through_entry_points_that_arm_the_signal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """vLLM's classes are TEST DOUBLES here (importing vLLM takes a minute); the real ones are
    bound, and their processes checked, in tests/e2e/test_up_supervision.py."""
    calls: list[tuple] = []

    class EngineCoreProc:
        @staticmethod
        def run_engine_core(*args, **kwargs):
            calls.append(("vllm", args, kwargs))

    class WorkerProc:
        @staticmethod
        def worker_main(*args, **kwargs):
            calls.append(("worker", args, kwargs))

    for name, cls in (("vllm.v1.engine.core", EngineCoreProc), ("vllm.v1.executor.multiproc_executor", WorkerProc)):
        fake = types.ModuleType(name)
        setattr(fake, cls.__name__, cls)
        monkeypatch.setitem(sys.modules, name, fake)
    monkeypatch.setattr(engine_core, "die_with_parent", lambda sig: calls.append(("armed", sig)))
    # bind sets these; monkeypatch takes them away again after the test.
    monkeypatch.setattr(engine_core.run_engine_core, "__wrapped__", None, raising=False)
    monkeypatch.setattr(engine_core.run_worker, "__wrapped__", None, raising=False)
    engine_core.bind_engine_core_to_server()
    engine_core.bind_engine_core_to_server()  # idempotent: still vLLM's underneath, once
    target = EngineCoreProc.run_engine_core
    # What multiprocessing hands a spawned child: our entry point, by name.
    assert pickle.loads(pickle.dumps(target)) is engine_core.run_engine_core
    target("a", dp_rank=0)  # in the EngineCore: armed, and its workers bound before vLLM runs
    assert calls == [("armed", signal.SIGKILL), ("vllm", ("a",), {"dp_rank": 0})]
    worker = WorkerProc.worker_main
    assert pickle.loads(pickle.dumps(worker)) is engine_core.run_worker
    worker(rank=0)
    assert calls[2:] == [("armed", signal.SIGKILL), ("worker", (), {"rank": 0})]
