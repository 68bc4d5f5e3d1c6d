"""`reserved_cpus` really reaches vLLM's CPU worker: with 0 reserved, its model threads take every
core this process may use (vLLM's own default keeps one for its scheduler process), and the answers
are the plain engine's, token for token.

The thread count is read where vLLM puts it, the worker process's OMP_NUM_THREADS, which vLLM
derives from the cores it binds (vllm/utils/ompmultiprocessing.py).
"""

from __future__ import annotations

import os
from pathlib import Path

import psutil
import pytest
from inference_prompts import run_all

from ztgate.inference.engines.engine_config import EngineConfig
from ztgate.inference.spec_decode.settings import SpeculativeSettings
from ztgate.inference.engines.vllm_engine import VllmEngine
from ztgate.inference.openmp import RESERVED_CPUS_VARIABLE

pytestmark = pytest.mark.slow


def _worker_threads() -> list[int]:
    """OMP_NUM_THREADS of each process below this one that has it (vLLM's worker)."""
    found = []
    for child in psutil.Process().children(recursive=True):
        try:
            environ = Path(f"/proc/{child.pid}/environ").read_bytes().split(b"\0")
        except OSError:  # a helper that exited meanwhile
            continue
        found += [int(v.split(b"=", 1)[1]) for v in environ if v.startswith(b"OMP_NUM_THREADS=")]
    return found


async def test_no_reserved_core_gives_the_model_every_core_and_the_same_tokens(model_dir, plain_vllm_outputs):
    engine = VllmEngine(EngineConfig(model_dir=model_dir, parity="strict", reserved_cpus=0,
                                     speculative=SpeculativeSettings(method="none")))
    await engine.start()
    try:
        assert _worker_threads() == [len(os.sched_getaffinity(0))]
        assert RESERVED_CPUS_VARIABLE not in os.environ  # the server's own environment is as it was
        outputs = await run_all(engine)
    finally:
        await engine.close()
    assert {name: out.token_ids for name, out in outputs.items()} == {
        name: out.token_ids for name, out in plain_vllm_outputs.items()}
