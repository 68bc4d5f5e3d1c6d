"""Engines that serve generations: vLLM (primary) and transformers (fallback), behind one interface."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ztgate.inference.engines.errors import EngineConfigError

if TYPE_CHECKING:  # at run time only errors: spec_decode imports them, and engine_config imports spec_decode
    from ztgate.inference.engines.base import Engine
    from ztgate.inference.engines.engine_config import EngineConfig

EngineKind = Literal["vllm", "transformers"]


def create_engine(kind: EngineKind, config: EngineConfig) -> Engine:
    """An engine of that kind, not yet started (call `await engine.start()`)."""
    if kind == "vllm":
        from ztgate.inference.engines.vllm_engine import VllmEngine

        return VllmEngine(config)
    if kind == "transformers":
        from ztgate.inference.engines.transformers_engine import TransformersEngine

        return TransformersEngine(config)
    raise EngineConfigError(f"engine {kind!r} is unknown; use vllm or transformers")
