"""The consumer side of the queue: aggregate, feed the SLO controller, forward upstream.

It runs in its own thread, so that folding a large export never holds up the receivers on the
event loop (they only count and enqueue); the GIL is shared, the loop is not.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from ztgate.telemetry.aggregate import Aggregator, Kind
from ztgate.telemetry.forwarder import Forwarder
from ztgate.telemetry.otlp_metrics import HistogramObserver, fold
from ztgate.telemetry.otlp_signals import evaluation_events, log_evaluation
from ztgate.telemetry.part_starts import PartStarts
from ztgate.telemetry.queue import IngestQueue, Item

log = logging.getLogger(__name__)

# Seconds between sweeps of idle series.
EXPIRE_EVERY_S = 30.0
# Seconds the consumer waits for an item before it looks at the stop flag again.
POLL_S = 0.2
EVALUATIONS_METRIC = "ztgate_evaluation_events"
EVALUATIONS_HELP = "gen_ai.evaluation.result events received, by evaluation name"
# Runs a call where the forwarders live (the event loop: loop.call_soon_threadsafe).
Handoff = Callable[..., Any]


def _direct(fn: Callable[..., Any], *args: Any) -> None:
    fn(*args)


class Pipeline:
    def __init__(self, queue: IngestQueue, aggregator: Aggregator,
                 observers: Sequence[HistogramObserver] = (),
                 forwarders: Sequence[Forwarder] = (), handoff: Handoff = _direct) -> None:
        self.queue = queue
        self.aggregator = aggregator
        self.observers = list(observers)
        self.forwarders = list(forwarders)
        self.handoff = handoff
        # Items (data points, spans, log records) fully processed.
        self.processed = 0
        self.starts = PartStarts()

    def process(self, item: Item) -> None:
        if item.signal == "metrics":
            self.starts.observe(item.request)
            fold(item.request, self.aggregator, self.observers)
        elif item.signal == "logs":
            self._evaluations(item)
        if self.forwarders:
            payload = item.request.SerializeToString()
            for forwarder in self.forwarders:
                self.handoff(forwarder.offer, item.signal, payload)
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

    def _safe_process(self, item: Item) -> None:
        try:
            self.process(item)
        except Exception:  # noqa: BLE001 - one malformed export must not stop the consumer
            with self.aggregator.lock:
                self.aggregator.drop("malformed", item.weight)
            log.exception("could not process a %s export", item.signal,
                          extra={"event": "ingest_failed"})

    def drain(self) -> int:
        """Processes whatever is queued now without waiting; returns how many items."""
        done = 0
        while (item := self.queue.take_nowait()) is not None:
            self._safe_process(item)
            done += item.weight
        return done

    def run(self, stop: threading.Event) -> None:
        """Consumes the queue until `stop` is set, then drains what is left (blocking)."""
        next_expiry = time.monotonic() + EXPIRE_EVERY_S
        while not stop.is_set():
            item = self.queue.take(POLL_S)
            if item is not None:
                self._safe_process(item)
            if time.monotonic() >= next_expiry:
                next_expiry = time.monotonic() + EXPIRE_EVERY_S
                self.aggregator.expire()
        self.drain()
