"""The consumer side of the queue: aggregate, feed the SLO controller, forward upstream."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence

from services.telemetry.aggregate import Aggregator, Kind
from services.telemetry.forwarder import Forwarder
from services.telemetry.otlp_metrics import HistogramObserver, fold
from services.telemetry.otlp_signals import evaluation_events, log_evaluation
from services.telemetry.queue import IngestQueue, Item

log = logging.getLogger(__name__)

# Seconds between sweeps of idle series.
EXPIRE_EVERY_S = 30.0
EVALUATIONS_METRIC = "ztgate_evaluation_events"
EVALUATIONS_HELP = "gen_ai.evaluation.result events received, by evaluation name"


class Pipeline:
    def __init__(self, queue: IngestQueue, aggregator: Aggregator,
                 observers: Sequence[HistogramObserver] = (),
                 forwarders: Sequence[Forwarder] = ()) -> None:
        self.queue = queue
        self.aggregator = aggregator
        self.observers = list(observers)
        self.forwarders = list(forwarders)
        # Items (data points, spans, log records) fully processed.
        self.processed = 0
        self._next_expiry = time.monotonic() + EXPIRE_EVERY_S

    def process(self, item: Item) -> None:
        if item.signal == "metrics":
            fold(item.request, self.aggregator, self.observers)
        elif item.signal == "logs":
            self._evaluations(item)
        if self.forwarders:
            payload = item.request.SerializeToString()
            for forwarder in self.forwarders:
                forwarder.offer(item.signal, payload)
        self.processed += item.weight

    def _evaluations(self, item: Item) -> None:
        events = list(evaluation_events(item.request))
        if not events:
            return
        agg = self.aggregator
        with agg.lock:
            agg.now = agg.clock()
            fam = agg.family(EVALUATIONS_METRIC, Kind.COUNTER, EVALUATIONS_HELP)
            for name, _ in events:
                if fam is None:
                    agg.drop("metric_limit")
                else:
                    agg.number(fam, (("gen_ai_evaluation_name", name),), 1.0, delta=True)
        for name, score in events:
            log_evaluation(name, score)

    def drain(self) -> int:
        """Processes whatever is queued now without waiting; returns how many items."""
        done = 0
        while (item := self.queue.take_nowait()) is not None:
            self._safe_process(item)
            done += item.weight
        return done

    def _safe_process(self, item: Item) -> None:
        try:
            self.process(item)
        except Exception:  # noqa: BLE001 - one malformed export must not stop the consumer
            self.aggregator.drop("malformed", item.weight)
            log.exception("could not process a %s export", item.signal,
                          extra={"event": "ingest_failed"})

    async def run(self) -> None:
        """Consumes the queue until cancelled, yielding to the receivers between exports."""
        while True:
            item = await self.queue.take()
            self._safe_process(item)
            if time.monotonic() >= self._next_expiry:
                self._next_expiry = time.monotonic() + EXPIRE_EVERY_S
                await asyncio.to_thread(self.aggregator.expire)
            await asyncio.sleep(0)
