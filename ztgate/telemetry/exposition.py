"""Prometheus exposition (GET /metrics) of the aggregation and the collector's own metrics."""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from prometheus_client import CollectorRegistry, start_http_server
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

from ztgate.telemetry.aggregate import Aggregator, FamilySnapshot, Kind


def family_metric(fam: FamilySnapshot) -> Metric:
    """One aggregated family as a prometheus_client Metric (label names may vary by series)."""
    metric = Metric(fam.name, fam.help, fam.kind.value)
    for series in fam.series:
        labels = dict(series.labels)
        if fam.kind is Kind.COUNTER:
            metric.add_sample(fam.name + "_total", labels, series.value)
        elif fam.kind is Kind.GAUGE:
            metric.add_sample(fam.name, labels, series.value)
        else:
            cumulative = 0.0
            for bound, count in zip(series.bounds, series.counts):
                cumulative += count
                metric.add_sample(fam.name + "_bucket", {**labels, "le": floatToGoString(bound)},
                                  cumulative)
            metric.add_sample(fam.name + "_bucket", {**labels, "le": "+Inf"}, series.count)
            metric.add_sample(fam.name + "_sum", labels, series.sum)
            metric.add_sample(fam.name + "_count", labels, series.count)
    return metric


class MetricBuilder:
    """Builder for the collector's own metrics, one family at a time."""

    def __init__(self, name: str, kind: str, help_text: str) -> None:
        self.metric = Metric(name, help_text, kind)
        self._suffix = "_total" if kind == "counter" else ""

    def add(self, value: float | None, **labels: str) -> "MetricBuilder":
        if value is not None and not math.isnan(value):
            self.metric.add_sample(self.metric.name + self._suffix, labels, float(value))
        return self


class AggregationCollector(Collector):
    def __init__(self, aggregator: Aggregator, own: Callable[[], Iterable[Metric]]) -> None:
        self._aggregator = aggregator
        self._own = own

    def collect(self) -> Iterable[Metric]:
        metrics = [family_metric(f) for f in self._aggregator.snapshot()]
        metrics.extend(self._own())
        return metrics


class Exposition:
    """The HTTP server of /metrics, in its own thread; never touches the event loop."""

    def __init__(self, collector: Collector, host: str, port: int, cert: Path | None = None,
                 key: Path | None = None, client_ca: Path | None = None) -> None:
        self.registry = CollectorRegistry(auto_describe=False)
        self.registry.register(collector)
        self.host = host
        self._args = (host, port, cert, key, client_ca)
        self._server = None
        self._thread: threading.Thread | None = None
        self.port = 0

    def start(self) -> int:
        host, port, cert, key, client_ca = self._args
        self._server, self._thread = start_http_server(
            port, addr=host, registry=self.registry,
            certfile=str(cert) if cert else None, keyfile=str(key) if key else None,
            client_cafile=str(client_ca) if client_ca else None,
            client_auth_required=client_ca is not None)
        self.port = self._server.server_port
        return self.port

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
