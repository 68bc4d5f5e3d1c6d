"""vLLM's EngineCore process dies with the inference server, even when the server is SIGKILLed.

vLLM stops EngineCore from the server's shutdown path, which a SIGKILL skips, and has no hook for the
child's start, while PR_SET_PDEATHSIG must be armed by the child itself. So `bind_engine_core_to_server`
points vLLM's entry point at `run_engine_core` here, which arms the signal and runs vLLM's own, and binds
the model worker's the same way (`run_worker`). What was seen without it, and the decision:
docs/adr/0009-engine-core-dies-with-its-server.md.
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
