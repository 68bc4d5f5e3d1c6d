"""Engines that serve generations: vLLM (primary) and transformers (fallback), behind one interface."""

from __future__ import annotations

from typing import Literal

from services.inference.engines.base import Engine
from services.inference.engines.engine_config import EngineConfig
from services.inference.engines.errors import EngineConfigError

EngineKind = Literal["vllm", "transformers"]


def create_engine(kind: EngineKind, config: EngineConfig) -> Engine:
    """An engine of that kind, not yet started (call `await engine.start()`)."""
    if kind == "vllm":
        from services.inference.engines.vllm_engine import VllmEngine

        return VllmEngine(config)
    if kind == "transformers":
        from services.inference.engines.transformers_engine import TransformersEngine

        return TransformersEngine(config)
    raise EngineConfigError(f"engine {kind!r} is unknown; use vllm or transformers")
