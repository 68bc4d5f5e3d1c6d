"""The whole ztgate configuration: one YAML file (`ztgate.yaml`), one section per part."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from pydantic import Field, model_validator

from ztgate.common.config import load_settings
from ztgate.common.settings import ClientTlsSettings, LoggingSettings, MeshSettings, OtelSettings, Strict
from ztgate.gateway.config import GatewaySettings
from ztgate.inference.config import InferenceSettings
from ztgate.inference.limits import RequestLimits
from ztgate.openai_adapter.config import ADAPTER_UPSTREAM, OpenAIAdapterSettings
from ztgate.redaction.config import RedactionSettings
from ztgate.telemetry.config import TelemetrySettings

# What an ext_proc message adds to the request body it carries (headers, attributes, framing),
# with room to spare: the redaction service's gRPC message limit must hold body and this.
EXT_PROC_OVERHEAD_BYTES = 64 * 1024


# `ztgate up`'s own section (the supervisor, ztgate/supervisor/): declared here, with the whole
# configuration, since the launcher that reads it is part of the composition.
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


# Keys that have moved to a section of their own ({old: new}): set at the old place, in the file or
# a ZTGATE_* variable, they stop start-up with a message naming the new place (CHANGELOG.md).
MOVED_KEYS: dict[str, str] = {
    **{f"gateway.redaction_{key}": f"gateway.redaction.{key}" for key in (
        "timeout_s", "message_timeout_s", "message_timeout_per_kib_s", "max_message_timeout_s")},
    **{f"gateway.inference_{key}": f"gateway.inference.{key}" for key in (
        "timeout_s", "per_try_timeout_s", "per_try_timeout_per_1k_tokens_s", "per_try_timeout_max_s",
        "stream_idle_timeout_s", "retries", "breakers", "outlier_detection")},
    "gateway.prompt_bytes_per_token": "gateway.inference.prompt_bytes_per_token",
    "telemetry.metrics_listen": "telemetry.metrics.listen",
    "telemetry.metrics_tls": "telemetry.metrics.tls",
    "supervisor.backoff_initial_s": "supervisor.backoff.initial_s",
    "supervisor.backoff_max_s": "supervisor.backoff.max_s",
}


class ZtgateConfig(Strict):
    MOVED_KEYS: ClassVar[dict[str, str]] = MOVED_KEYS

    logging: LoggingSettings = LoggingSettings()
    # OpenTelemetry export, shared by every service.
    otel: OtelSettings = OtelSettings()
    # mTLS inside the suite.
    mesh: MeshSettings = MeshSettings()
    gateway: GatewaySettings = GatewaySettings()
    redaction: RedactionSettings = RedactionSettings()
    telemetry: TelemetrySettings = TelemetrySettings()
    inference: InferenceSettings = InferenceSettings()
    # How `ztgate up` keeps the parts running: health checks, restarts, limits.
    supervisor: SupervisorSettings = SupervisorSettings()
    # Shape of an inference request (sizes, counts, max_tokens), enforced by the gateway before
    # any redaction work and by the inference service for callers inside the mesh.
    limits: RequestLimits = RequestLimits()
    # ztgate's own model behind the OpenAI-compatible HTTP door (ztgate/openai_adapter/).
    openai_adapter: OpenAIAdapterSettings = OpenAIAdapterSettings()

    @property
    def openai_adapter_active(self) -> bool:
        """Whether `ztgate up` runs the adapter and Envoy routes the model to it."""
        return self.openai_adapter_off_reason is None

    @property
    def openai_adapter_off_reason(self) -> str | None:
        """Why the adapter does not run (the setting to change), None when it does."""
        if not self.openai_adapter.enabled:
            return "openai_adapter.enabled is false"
        given = self.openai_adapter.gateway_tls
        if self.gateway.tls is None:
            return None
        if self.gateway.tls.client_ca is not None and (given is None or given.cert is None):
            return ("gateway.tls.client_ca requires client certificates: set openai_adapter.gateway_tls "
                    "(ca, cert, key) for the adapter's calls to the gateway")
        if given is None and (self.gateway.tls.cert.expanduser().resolve().parent
                != self.mesh.pki_dir.expanduser().resolve()):
            return ("gateway.tls.cert is not the suite's own: set openai_adapter.gateway_tls.ca to the CA "
                    "it chains to")
        return None

    @property
    def openai_adapter_gateway_tls(self) -> ClientTlsSettings | None:
        """The credentials the adapter dials the gateway with; None: plaintext (no gateway.tls)."""
        if self.gateway.tls is None:
            return None
        if self.openai_adapter.gateway_tls is not None:
            return self.openai_adapter.gateway_tls
        from ztgate.common.pki import Pki  # cryptography: only where TLS is configured
        return ClientTlsSettings(ca=Pki.of(self.mesh).ca)

    @model_validator(mode="after")
    def _adapter_has_its_name(self) -> ZtgateConfig:
        if self.openai_adapter.enabled and any(
                u.name == ADAPTER_UPSTREAM for u in self.gateway.openai_upstreams):
            raise ValueError(f"gateway.openai_upstreams: the name {ADAPTER_UPSTREAM!r} is ztgate's "
                             "own adapter's (openai_adapter.enabled); give that upstream another name")
        return self

    @model_validator(mode="after")
    def _redaction_receives_whole_requests(self) -> ZtgateConfig:
        need = self.limits.max_request_bytes + EXT_PROC_OVERHEAD_BYTES
        have = self.redaction.server.max_message_bytes
        if have < need:
            raise ValueError(
                f"redaction.server.max_message_bytes ({have}) cannot hold a request of "
                f"limits.max_request_bytes ({self.limits.max_request_bytes}) as Envoy's ext_proc "
                f"sends it: raise it to at least {need}, or lower limits.max_request_bytes")
        return self

    @model_validator(mode="after")
    def _analyses_outlast_envoys_wait(self) -> ZtgateConfig:
        # The gateway scrubs a long prompt for up to gateway.redaction.max_message_timeout_s, but
        # no one analysis runs longer than redaction.analysis_timeout_s: a shorter one would cut
        # every long prompt's scrub short of the wait the settings promise it.
        wait = self.gateway.redaction.max_message_timeout_s
        if self.redaction.analysis_timeout_s < wait:
            raise ValueError(
                f"redaction.analysis_timeout_s ({self.redaction.analysis_timeout_s:g}) is below "
                f"gateway.redaction.max_message_timeout_s ({wait:g}), the longest the gateway waits "
                "for a long prompt to be scrubbed: raise the first, or lower the second")
        return self


def load_config(path: Path | str | None = None) -> ZtgateConfig:
    """Reads ztgate.yaml (or $ZTGATE_CONFIG) with ZTGATE_* overrides; raises ConfigError."""
    return load_settings(ZtgateConfig, path)
