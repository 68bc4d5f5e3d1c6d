"""The collector assembled: queue, aggregation, SLO controller, forwarders and exposition.

`server.py` puts gRPC in front of it; everything here runs without gRPC (tests drive it
directly). `start` binds the exposition and starts the background tasks; `stop` cancels them,
aggregates what is still queued and closes the upstreams.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from prometheus_client.metrics_core import Metric

from ztgate.telemetry.aggregate import Aggregator
from ztgate.telemetry.config import ForwardEndpoint, TelemetrySettings
from ztgate.telemetry.exposition import AggregationCollector, Exposition, MetricBuilder
from ztgate.telemetry.forwarder import Forwarder, Send
from ztgate.telemetry.pipeline import Pipeline
from ztgate.telemetry.queue import IngestQueue, Item
from ztgate.telemetry.rtds import RuntimePublisher
from ztgate.telemetry.slo_controller import PRIMARY, Misses, Probe, SloController

log = logging.getLogger(__name__)

# Builds the transport of one upstream: its send function and how to close it.
# Seconds the consumer gets to aggregate what is still queued at shutdown.
STOP_TIMEOUT_S = 10.0
UpstreamFactory = Callable[[ForwardEndpoint], tuple[Send, Callable[[], Awaitable[None]]]]


@dataclass(frozen=True)
class Status:
    queue_depth: int
    accepted: int
    dropped: int
    ttft_p99_ms: float
    fallback_active: bool
    samples: int


class TelemetryCollector:
    def __init__(self, settings: TelemetrySettings, metrics_host: str, metrics_port: int,
                 upstream: UpstreamFactory | None = None, *, misses: Misses | None = None,
                 probe: Probe | None = None,
                 closers: Iterable[Callable[[], Awaitable[None]]] = ()) -> None:
        """`misses` and `probe` are the SLO controller's sources (Envoy's per-try-timeout
        counter, the primary); `closers` release them at stop. The controller's decisions go to
        Envoy through `runtime`, the RTDS layer this collector serves."""
        self.settings = settings
        self.queue = IngestQueue(settings.queue_size)
        self.aggregator = Aggregator(settings.max_series_per_metric, settings.max_metrics,
                                     settings.series_ttl_s)
        self.runtime = RuntimePublisher(settings.slo.rtds_layer)
        self.slo = (SloController(settings.slo, self._publish, misses=misses, probe=probe)
                    if settings.slo.enabled else None)
        self.forwarders: list[Forwarder] = []
        self._closers: list[Callable[[], Awaitable[None]]] = list(closers)
        for endpoint in settings.forward:
            if upstream is None:
                raise ValueError("forward endpoints are configured but no upstream transport")
            send, close = upstream(endpoint)
            self.forwarders.append(Forwarder(
                endpoint.endpoint, send, endpoint.signals, endpoint.max_buffer_bytes,
                endpoint.initial_backoff_s, endpoint.max_backoff_s))
            self._closers.append(close)
        self.pipeline = Pipeline(self.queue, self.aggregator,
                                 self.slo.observers if self.slo else (), self.forwarders)
        tls = settings.metrics.tls
        self.exposition = Exposition(
            AggregationCollector(self.aggregator, self.own_metrics), metrics_host, metrics_port,
            tls.cert if tls else None, tls.key if tls else None, tls.client_ca if tls else None)
        self._tasks: list[asyncio.Task[None]] = []
        self._stop = threading.Event()
        self._consumer: threading.Thread | None = None

    def _publish(self, percent: int, state: str) -> None:
        self.runtime.publish({self.settings.slo.runtime_key: percent}, state)

    def restore(self, state: str) -> None:
        """The state an Envoy reported holding when it (re)subscribed to the runtime."""
        if self.slo is not None:
            self.slo.restore(state)

    def offer(self, signal: str, request: object, weight: int) -> bool:
        """Queues an export for aggregation; False when it was refused (queue full)."""
        return self.queue.offer(Item(signal, request, weight))

    async def start(self) -> None:
        port = self.exposition.start()
        address = f"{self.exposition.host}:{port}"
        log.info("prometheus exposition on %s/metrics", address, extra={"address": address})
        self.pipeline.handoff = asyncio.get_running_loop().call_soon_threadsafe
        self._stop.clear()
        self._consumer = threading.Thread(target=self.pipeline.run, args=(self._stop,),
                                          name="telemetry-pipeline", daemon=True)
        self._consumer.start()
        for forwarder in self.forwarders:
            self._tasks.append(asyncio.create_task(forwarder.run(), name="telemetry-forward"))
        if self.slo is not None:
            self._tasks.append(asyncio.create_task(self.slo.run(), name="telemetry-slo"))

    async def stop(self) -> None:
        """Stops the consumer (it aggregates what is queued first), the tasks and the upstreams."""
        self._stop.set()
        if self._consumer is not None:
            await asyncio.to_thread(self._consumer.join, STOP_TIMEOUT_S)
            self._consumer = None
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks.clear()
        for close in self._closers:
            await close()
        self.exposition.stop()

    def status(self) -> Status:
        slo = self.slo.status if self.slo else None
        return Status(
            queue_depth=self.queue.depth, accepted=self.queue.total_accepted,
            dropped=self.queue.total_dropped,
            ttft_p99_ms=(slo.ttft_p99_s or 0.0) * 1000 if slo else 0.0,
            fallback_active=bool(slo and slo.fallback_active),
            samples=slo.ttft_samples if slo else 0)

    def own_metrics(self) -> Iterable[Metric]:
        """The collector's own metrics (read from another thread; plain reads only)."""
        q, agg = self.queue, self.aggregator
        accepted = MetricBuilder("ztgate_telemetry_accepted_items", "counter",
                          "Items (points, spans, log records) accepted into the queue")
        refused = MetricBuilder("ztgate_telemetry_refused_items", "counter",
                         "Items refused with RESOURCE_EXHAUSTED because the queue was full")
        for signal in ("metrics", "traces", "logs"):
            accepted.add(q.accepted.get(signal, 0), signal=signal)
            refused.add(q.dropped.get(signal, 0), signal=signal)
        dropped = MetricBuilder("ztgate_telemetry_dropped_points", "counter",
                         "Data points accepted but not aggregated, by reason")
        for reason, count in sorted(dict(agg.dropped).items()):
            dropped.add(count, reason=reason)
        starts = MetricBuilder("ztgate_telemetry_part_starts", "counter",
                               "Processes of a part (job) first seen by the collector, each by "
                               "its service.instance.id: a start, a restart or a new replica")
        for job, count in sorted(self.pipeline.starts.snapshot().items()):
            starts.add(count, job=job)
        overflow = MetricBuilder("ztgate_telemetry_overflow_points", "counter",
                          "Data points folded into the `other` series past the series limit")
        for name, count in sorted(agg.overflow_counts().items()):
            overflow.add(count, metric=name)
        out = [
            MetricBuilder("ztgate_telemetry_queue_depth", "gauge", "Items waiting in the queue")
            .add(q.depth).metric,
            MetricBuilder("ztgate_telemetry_queue_capacity", "gauge",
                          "Items the queue holds at most")
            .add(q.capacity).metric,
            MetricBuilder("ztgate_telemetry_processed_items", "counter",
                   "Items taken from the queue and processed").add(self.pipeline.processed).metric,
            MetricBuilder("ztgate_telemetry_series", "gauge", "Series in the exposition")
            .add(agg.series_count()).metric,
            accepted.metric, refused.metric, dropped.metric, overflow.metric, starts.metric,
        ]
        if self.forwarders:
            sent = MetricBuilder("ztgate_telemetry_forward_sent_exports", "counter",
                          "Exports delivered to an upstream collector")
            lost = MetricBuilder("ztgate_telemetry_forward_dropped_exports", "counter",
                          "Exports not delivered upstream: buffer overflow or permanent refusal")
            retries = MetricBuilder("ztgate_telemetry_forward_retries", "counter",
                             "Retries of exports to an upstream collector")
            buffered = MetricBuilder("ztgate_telemetry_forward_buffer_bytes", "gauge",
                              "Bytes of exports waiting for an upstream collector")
            for f in self.forwarders:
                sent.add(f.sent, upstream=f.name)
                lost.add(f.dropped_overflow, upstream=f.name, reason="overflow")
                lost.add(f.dropped_rejected, upstream=f.name, reason="rejected")
                retries.add(f.retries, upstream=f.name)
                buffered.add(f.buffered_bytes, upstream=f.name)
            out += [sent.metric, lost.metric, retries.metric, buffered.metric]
        if self.slo is not None:
            out += self._slo_metrics(self.slo, self.runtime)
        return out

    @staticmethod
    def _slo_metrics(slo: SloController, runtime: RuntimePublisher) -> list[Metric]:
        st = slo.status
        transitions = MetricBuilder("ztgate_slo_transitions", "counter",
                             "SLO controller transitions, by the state moved to")
        for state, count in sorted(st.transitions.items()):
            transitions.add(count, to=state)
        probes = MetricBuilder("ztgate_slo_probes", "counter",
                               "Probes of the primary while traffic is off it, by result (ok, miss)")
        for result, count in sorted(st.probes.items()):
            probes.add(count, result=result)
        return [
            MetricBuilder("ztgate_slo_fallback_active", "gauge",
                   "1 while inference traffic is moved to the fallback by the SLO controller")
            .add(0 if st.state == PRIMARY else 1).metric,
            MetricBuilder("ztgate_slo_state_age_seconds", "gauge",
                   "Seconds since the controller entered its current state (with "
                   "ztgate_slo_fallback_active: how long traffic has been on the fallback)")
            .add(slo.state_age_s).metric,
            MetricBuilder("ztgate_slo_ttft_p99_seconds", "gauge",
                   "Rolling P99 time to first token of the primary, as the controller measured it")
            .add(st.ttft_p99_s).metric,
            MetricBuilder("ztgate_slo_ttft_samples", "gauge",
                          "TTFT samples in the controller's window")
            .add(st.ttft_samples).metric,
            MetricBuilder("ztgate_slo_tpot_p99_seconds", "gauge",
                   "Rolling P99 time per output token of the primary (second signal)")
            .add(st.tpot_p99_s).metric,
            MetricBuilder("ztgate_slo_primary_percent", "gauge",
                   "Percent of inference traffic last published for the primary (RTDS)")
            .add(st.applied_percent).metric,
            MetricBuilder("ztgate_slo_rtds_subscribers", "gauge",
                   "Envoy RTDS streams open to the collector (one per Envoy)")
            .add(runtime.subscribers).metric,
            MetricBuilder("ztgate_slo_rtds_rejected", "counter",
                   "Runtime versions an Envoy refused (NACK)")
            .add(runtime.rejected).metric,
            MetricBuilder("ztgate_slo_restored", "counter",
                   "Fallback decisions taken up again from Envoy after a collector restart")
            .add(st.restored).metric,
            MetricBuilder("ztgate_slo_budget_misses", "counter",
                   "Retries of primary-first calls Envoy counted that the primary did not report "
                   "as its own miss, counted by the controller as misses of no tenant")
            .add(st.budget_misses).metric,
            probes.metric,
            transitions.metric,
        ]
