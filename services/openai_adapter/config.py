"""Settings of the OpenAI adapter (the `openai_adapter:` section of ztgate.yaml)."""

from __future__ import annotations

from pydantic import field_validator

from services.common.settings import Strict

# The upstream name of the adapter in Envoy (cluster `openai_ztgate`, `owned_by` in GET /v1/models).
ADAPTER_UPSTREAM = "ztgate"


class OpenAIAdapterSettings(Strict):
    # Serve ztgate's own model (`inference.model_name`) on the HTTP door: `ztgate up` runs the
    # adapter and Envoy routes that model's /v1 calls to it, after the door's whole chain; the
    # adapter calls the gateway's own gRPC Inference route (primary/fallback split, retries).
    # Not started while `gateway.tls` is set (the adapter dials the gateway in plaintext).
    enabled: bool = True
    # Where the adapter listens (HTTP/1.1, loopback: only Envoy calls it).
    listen: str = "127.0.0.1:8090"

    @field_validator("listen")
    @classmethod
    def _host_port(cls, value: str) -> str:
        host, sep, port = value.rpartition(":")
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"{value!r} must be HOST:PORT")
        return value
