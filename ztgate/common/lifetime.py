"""A child process that dies with its parent, even when the parent is killed by SIGKILL.

Linux's prctl(PR_SET_PDEATHSIG) has the kernel signal a process when the thread that created it
exits. Nothing in the parent has to run, so it holds when the parent is SIGKILLed, which no
cleanup handler survives (seen: a killed inference server left vLLM's EngineCore running, ~700 MB
and a busy core, until killed by hand). The setting is cleared by fork and kept across exec, so the
child arms it itself: `die_with_parent` from Python code (a multiprocessing target), or
`parent_death_preexec` for a program started with subprocess. Elsewhere than Linux both do nothing,
and only an orderly stop takes children along.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable

# From <linux/prctl.h>.
PR_SET_PDEATHSIG = 1


def _prctl() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    return ctypes.CDLL(None, use_errno=True).prctl


def _arm(prctl: Callable[..., int], sig: int, parent_pid: int | None) -> None:
    if prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"prctl(PR_SET_PDEATHSIG): {os.strerror(err)}")
    # The parent may have died before the line above ran: then this process was already handed to
    # another (init or a subreaper), the signal will never come, and it goes now instead.
    if parent_pid is not None and os.getppid() != parent_pid:
        os.kill(os.getpid(), sig)


def die_with_parent(sig: int = signal.SIGKILL) -> bool:
    """Arms `sig` for when this process's parent exits; True when armed (Linux).

    In a multiprocessing child the parent is known (`multiprocessing.parent_process()`), so a
    parent already gone is noticed too."""
    prctl = _prctl()
    if prctl is None:
        return False
    parent = multiprocessing.parent_process()
    _arm(prctl, sig, parent.pid if parent is not None else None)
    return True


def parent_death_preexec(sig: int = signal.SIGKILL) -> Callable[[], None] | None:
    """A `preexec_fn` for subprocess that arms `sig` in the child for when this process exits;
    None where it cannot (not Linux). Everything is resolved here, before the fork: the child only
    calls into libc, so it takes no lock another thread of this process might hold.

    The parent that counts is the thread that starts the child: start it from the main thread
    (asyncio's event loop), not from a worker thread that may end first."""
    prctl = _prctl()
    if prctl is None:
        return None
    parent_pid = os.getpid()

    def arm() -> None:
        _arm(prctl, sig, parent_pid)

    return arm


def _live_processes() -> list[tuple[int, int, int]]:
    """(pid, parent pid, process group) of every live (not zombie) process, from Linux's /proc;
    [] elsewhere."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    found = []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:  # gone meanwhile
            continue
        # "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
        fields = stat[stat.rfind(b")") + 2:].split()
        if fields[0] != b"Z":
            found.append((int(entry), int(fields[1]), int(fields[2])))
    return found


def alive(pid: int) -> bool:
    """Whether process `pid` runs (a zombie, dead but not yet waited for, does not); Linux's /proc."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return False
    return stat[stat.rfind(b")") + 2:].split()[0] != b"Z"


def group_members(pgid: int) -> list[int]:
    """Live (not zombie) processes in process group `pgid`, from Linux's /proc; [] elsewhere."""
    return [pid for pid, _, group in _live_processes() if group == pgid]


def descendants(pid: int) -> list[int]:
    """Live (not zombie) children of `pid`, theirs, and so on, from Linux's /proc; [] elsewhere.
    Unlike `group_members` it finds a descendant that left its parent's process group too."""
    parents: dict[int, list[int]] = {}
    for child, parent, _ in _live_processes():
        parents.setdefault(parent, []).append(child)
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            if child not in found:
                found.append(child)
                todo.append(child)
    return found
