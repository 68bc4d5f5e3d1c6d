"""Settings of the OpenAI adapter (the `openai_adapter:` section of ztgate.yaml)."""

from __future__ import annotations

from pydantic import field_validator

from ztgate.common.settings import ClientTlsSettings, Strict, host_port

# The upstream name of the adapter in Envoy (cluster `openai_ztgate`, `owned_by` in GET /v1/models).
ADAPTER_UPSTREAM = "ztgate"


class OpenAIAdapterSettings(Strict):
    # Serve ztgate's own model (`inference.model_name`) on the HTTP door: `ztgate up` runs the
    # adapter and Envoy routes that model's /v1 calls to it, after the door's whole chain; the
    # adapter calls the gateway's own gRPC Inference route (primary/fallback split, retries).
    enabled: bool = True
    # Where the adapter listens (HTTP/1.1, loopback: only Envoy calls it).
    listen: str = "127.0.0.1:8090"
    # With `gateway.tls`: how the adapter dials the gateway's TLS listener: `ca`, what its
    # certificate chains to, and `cert`/`key`, the adapter's own when the listener requires client
    # certificates (gateway.tls.client_ca). Unset: the suite's CA (mesh.pki_dir) when the
    # listener's certificate is the suite's own; otherwise the adapter stays off and `up` says why.
    # The listener's certificate must name the address the adapter dials (127.0.0.1 when
    # gateway.listen is a wildcard), as the suite's `gateway` certificate does.
    gateway_tls: ClientTlsSettings | None = None

    @field_validator("listen")
    @classmethod
    def _host_port(cls, value: str) -> str:
        return host_port(value)
