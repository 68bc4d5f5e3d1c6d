"""The whole ztgate configuration: one YAML file (`ztgate.yaml`), one section per part."""

from __future__ import annotations

from pathlib import Path

from services.common.config import load_settings
from services.common.settings import LoggingSettings, MeshSettings, OtelSettings, Strict
from services.gateway.config import GatewaySettings
from services.inference.config import InferenceSettings
from services.redaction.config import RedactionSettings
from services.supervisor.config import SupervisorSettings
from services.telemetry.config import TelemetrySettings


class ZtgateConfig(Strict):
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


def load_config(path: Path | str | None = None) -> ZtgateConfig:
    """Reads ztgate.yaml (or $ZTGATE_CONFIG) with ZTGATE_* overrides; raises ConfigError."""
    return load_settings(ZtgateConfig, path)
