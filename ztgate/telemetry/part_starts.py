"""Starts of the suite's parts, as the collector sees them: each process exports under a
`service.instance.id` of its own (ztgate/common/telemetry.py), so a new id for a part (`job`) is
a process that started: a restart, or a replica added. It is the one restart signal that holds in
every deployment (`ztgate up`'s supervisor, compose's `restart:`, Kubernetes), with no help from
the thing that restarted it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
)

from ztgate.telemetry.otlp_metrics import resource_labels

# Processes remembered per part (the oldest forgotten first), and parts counted at most.
MAX_INSTANCES_PER_JOB = 64
MAX_JOBS = 64


class PartStarts:
    def __init__(self, max_instances: int = MAX_INSTANCES_PER_JOB, max_jobs: int = MAX_JOBS) -> None:
        self._max_instances = max_instances
        self._max_jobs = max_jobs
        self._seen: dict[str, OrderedDict[str, None]] = {}
        self._lock = threading.Lock()
        # Processes first seen, by part (job).
        self.starts: dict[str, int] = {}

    def observe(self, request: ExportMetricsServiceRequest) -> None:
        """Counts the processes of a metrics export not seen before."""
        for rm in request.resource_metrics:
            labels = dict(resource_labels(rm.resource.attributes))
            job, instance = labels.get("job"), labels.get("instance")
            if job and instance:
                self._see(job, instance)

    def _see(self, job: str, instance: str) -> None:
        with self._lock:
            seen = self._seen.get(job)
            if seen is None:
                if len(self._seen) >= self._max_jobs:
                    return
                seen = self._seen[job] = OrderedDict()
            if instance in seen:
                seen.move_to_end(instance)
                return
            seen[instance] = None
            if len(seen) > self._max_instances:
                seen.popitem(last=False)
            self.starts[job] = self.starts.get(job, 0) + 1

    def snapshot(self) -> dict[str, int]:
        with self._lock:
            return dict(self.starts)
