"""vLLM's EngineCore process dies with the inference server, even when the server is SIGKILLed.

vLLM (0.32.0, vllm_compat.SUPPORTED_VLLM; spawn on CPU) starts EngineCore with `multiprocessing.Process(target=
EngineCoreProc.run_engine_core)` and stops it from the server's shutdown path, which a SIGKILL
skips. Seen: a killed primary left its EngineCore running, orphaned, holding ~700 MB and a busy
core, until killed by hand. vLLM has no setting or hook for that child's start, and the kernel's
PR_SET_PDEATHSIG must be armed by the child itself, so `bind_engine_core_to_server` points that one
class attribute at `run_engine_core` here (pickled by name, so a spawned child imports this
module): it arms the signal (ztgate/common/lifetime.py) and then runs vLLM's own entry point,
unchanged. EngineCore in turn starts vLLM's model worker (`VLLM::Worker`, multiprocessing target
`WorkerProc.worker_main`), which only watches a pipe for its parent's exit and then shuts down in
its own time (seen: still running 20 s after a SIGKILLed server took its EngineCore along, on a
busy machine): `run_engine_core` binds that entry point the same way (`run_worker`), so the
worker dies with its EngineCore. Under `ztgate up` the supervisor also kills the server's whole
process group; this covers `ztgate serve inference` on its own, and a group that a signal did
not reach.
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from typing import Any

from ztgate.common.lifetime import die_with_parent


def _vllm_entry_point() -> Callable[..., Any]:
    """vLLM's own EngineCoreProc.run_engine_core, whether or not this process bound it."""
    from vllm.v1.engine.core import EngineCoreProc

    current = EngineCoreProc.__dict__["run_engine_core"].__func__
    return getattr(current, "__wrapped__", current)


def _vllm_worker_main() -> Callable[..., Any]:
    """vLLM's own WorkerProc.worker_main, whether or not this process bound it."""
    from vllm.v1.executor.multiproc_executor import WorkerProc

    current = WorkerProc.__dict__["worker_main"].__func__
    return getattr(current, "__wrapped__", current)


def run_worker(*args: Any, **kwargs: Any) -> Any:
    """vLLM's worker process entry point: dies with its EngineCore, then runs vLLM's as is."""
    die_with_parent(signal.SIGKILL)
    return _vllm_worker_main()(*args, **kwargs)


def bind_worker_to_engine_core() -> None:
    """Makes every model worker this process (an EngineCore) starts die with it. Idempotent."""
    from vllm.v1.executor.multiproc_executor import WorkerProc

    original = _vllm_worker_main()
    run_worker.__wrapped__ = original  # type: ignore[attr-defined]
    WorkerProc.worker_main = staticmethod(run_worker)  # type: ignore[method-assign]


def run_engine_core(*args: Any, **kwargs: Any) -> Any:
    """EngineCore's process entry point: dies with its server, binds its workers to itself, then
    runs vLLM's as is."""
    die_with_parent(signal.SIGKILL)
    bind_worker_to_engine_core()
    return _vllm_entry_point()(*args, **kwargs)


def bind_engine_core_to_server() -> None:
    """Makes every EngineCore this process starts from now on die with it. Idempotent.

    Call it from the thread that starts the engine (the event loop's): the kernel's "parent" is
    that thread."""
    from vllm.v1.engine.core import EngineCoreProc

    original = _vllm_entry_point()
    run_engine_core.__wrapped__ = original  # type: ignore[attr-defined]  # a forked child finds it here
    EngineCoreProc.run_engine_core = staticmethod(run_engine_core)  # type: ignore[method-assign]
