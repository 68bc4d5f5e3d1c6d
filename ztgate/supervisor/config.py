"""Settings of `ztgate up`'s supervisor (the `supervisor:` section of ztgate.yaml)."""

from __future__ import annotations

from pydantic import Field, model_validator

from ztgate.common.settings import Strict


class BackoffSettings(Strict):
    # Seconds before the first restart of a part; each further restart within
    # supervisor.restart_window_s waits twice as long, up to max_s.
    initial_s: float = Field(default=1.0, gt=0)
    max_s: float = Field(default=60.0, gt=0)

    @model_validator(mode="after")
    def _backoff_grows(self) -> BackoffSettings:
        if self.max_s < self.initial_s:
            raise ValueError("supervisor.backoff.max_s must be at least supervisor.backoff.initial_s")
        return self


class SupervisorSettings(Strict):
    # Seconds between health checks of each running part (gRPC health; Envoy's /ready).
    check_interval_s: float = Field(default=2.0, gt=0)
    # Seconds one health check may take; no answer in time counts as a failed check.
    check_timeout_s: float = Field(default=2.0, gt=0)
    # Failed checks in a row (not SERVING, no answer, or not the part's own process answering)
    # after which a running part is killed, with its whole process group, and restarted. A part
    # that exits is restarted without waiting for checks.
    failure_threshold: int = Field(default=3, ge=1)
    # Seconds a part, started or restarted, has to answer SERVING before it counts as failed
    # (vLLM takes one to two minutes on a 2-core machine, more when it is busy).
    start_timeout_s: float = Field(default=300.0, gt=0)
    # The wait before a part is restarted: it doubles with each restart within restart_window_s.
    backoff: BackoffSettings = BackoffSettings()
    # A part is restarted at most max_restarts times within restart_window_s seconds; after that
    # `up` gives up on it and says why. The rest of the suite keeps serving, except that without
    # redaction or Envoy nothing can be served: giving up on either stops `up` (exit code 1), so
    # that whatever runs `up` (compose's restart policy, systemd) can start it afresh.
    max_restarts: int = Field(default=5, ge=0)
    restart_window_s: float = Field(default=600.0, gt=0)
    # Seconds a part has to exit after SIGTERM when `up` stops, before its process group is
    # SIGKILLed (above the services' server.shutdown_grace_s, so their calls can drain).
    stop_grace_s: float = Field(default=15.0, gt=0)
    # Most replicas of one part that `ztgate up --replicas PART=N` runs (redaction,
    # inference-primary, inference-fallback); each is a full process (a redaction replica holds
    # its own spaCy model and Hyperscan database, an inference one its own vLLM engine), so a larger
    # N is refused naming this setting.
    max_replicas: int = Field(default=4, ge=1)
    # Replica i (from 0) of a part listens on its configured port + i * replica_port_stride, on
    # its configured host: the first replica on the configured address itself. 100 keeps the
    # default ports' replicas apart (50051, 50151, ... for redaction; 50052, 50152, ... for the
    # primary); `up` refuses to start when a replica's address is taken or set for two parts.
    replica_port_stride: int = Field(default=100, ge=1, le=10_000)

