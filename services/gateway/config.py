"""Settings of the Envoy gateway (the `gateway:` section of ztgate.yaml)."""

from __future__ import annotations

from pydantic import Field

from services.common.settings import Strict


class GatewaySettings(Strict):
    # Envoy's gRPC ingress, the only address clients use.
    listen: str = "127.0.0.1:8080"
    # Envoy's admin console; keep it on loopback.
    admin: str = "127.0.0.1:9901"
    # Route timeout of redaction calls, seconds.
    redaction_timeout_s: float = Field(default=15.0, gt=0)
    # Seconds between Envoy's gRPC health checks of each upstream.
    health_interval_s: float = Field(default=1.0, gt=0)
