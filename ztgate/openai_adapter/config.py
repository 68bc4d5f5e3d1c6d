"""Settings of the OpenAI adapter (the `openai_adapter:` section of ztgate.yaml)."""

from __future__ import annotations

from pydantic import field_validator, model_validator

from ztgate.common.settings import ClientTlsSettings, Strict, host_port, on_loopback

# The upstream name of the adapter in Envoy (cluster `openai_ztgate`, `owned_by` in GET /v1/models).
ADAPTER_UPSTREAM = "ztgate"


def exposure_problem(listen: str) -> str | None:
    """Why the adapter may not listen at `listen` (None: it may). It serves plaintext HTTP and
    checks no token (Envoy checks the caller's before it), so it has neither the TLS nor the
    tokens a listener off loopback needs: only Envoy may reach it, on loopback."""
    host = listen.rpartition(":")[0]
    if on_loopback(host):
        return None
    return (f"openai_adapter.listen {listen} is not a loopback address: the adapter serves "
            "plaintext HTTP and checks no token (Envoy checks them before it), so it listens on "
            "loopback only (e.g. 127.0.0.1:8090), or set openai_adapter.enabled: false")


class OpenAIAdapterSettings(Strict):
    # Serve ztgate's own model (`inference.model_name`) on the HTTP door: `ztgate up` runs the
    # adapter and Envoy routes that model's /v1 calls to it, after the door's whole chain; the
    # adapter calls the gateway's own gRPC Inference route (primary/fallback split, retries).
    enabled: bool = True
    # Where the adapter listens (HTTP/1.1): a loopback address, since only Envoy calls it (it has
    # no TLS and checks no token; anything else is refused at start).
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

    @model_validator(mode="after")
    def _loopback_only(self) -> "OpenAIAdapterSettings":
        problem = exposure_problem(self.listen) if self.enabled else None
        if problem:
            raise ValueError(problem)
        return self
