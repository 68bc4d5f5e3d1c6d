"""Settings every service shares: where it listens, TLS, shutdown, logging, OpenTelemetry."""

from __future__ import annotations

import ipaddress
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ztgate.common.tenants import TENANT_RULE, is_tenant


def on_loopback(host: str) -> bool:
    """`localhost` or a loopback IP address (no name lookup: any other name counts as off
    loopback, which errs on the side of refusing)."""
    host = host.strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def host_port(value: str) -> str:
    """`value` when it is HOST:PORT with a port 1-65535 (a settings validator); else ValueError."""
    host, sep, port = value.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"{value!r} must be HOST:PORT")
    return value


def listen_address(value: str) -> str:
    """`value` when it is HOST:PORT with a port 0-65535 (0: any free port), the form of a listen
    setting (loopback or TLS is checked where the server starts); else ValueError."""
    _, sep, port = value.rpartition(":")
    if not sep or not port.isdigit() or int(port) > 65535:
        raise ValueError(f"{value!r} must be HOST:PORT, with a port from 0 to 65535")
    return value


class Strict(BaseModel):
    """Base for settings models: unknown keys are errors, not silently ignored."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class TlsSettings(Strict):
    # PEM certificate chain of this server.
    cert: Path
    # PEM private key of this server.
    key: Path
    # CA bundle that client certificates must chain to; set it to require mTLS.
    client_ca: Path | None = None
    # Common names of the client certificates accepted (with client_ca); empty: any that chains.
    allowed_clients: tuple[str, ...] = ()
    # With client_ca: the tenants each caller (by its certificate's common name) may act for when
    # it names one (the x-ztgate-tenant header, else the request's tenant field); "*": any. Envoy
    # (`envoy`) is not listed: it acts only for the tenant in the header it sets itself. A caller
    # neither Envoy nor listed is refused (PERMISSION_DENIED). The operator holds the suite's
    # operator key, so it may act for any tenant by default. (docs/security.md)
    tenants: dict[str, tuple[str, ...]] = Field(default_factory=lambda: {"operator": ("*",)})

    @field_validator("tenants")
    @classmethod
    def _tenant_names(cls, value: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
        from ztgate.common.pki import ENVOY  # pki builds on these settings

        if ENVOY in value:
            raise ValueError("envoy cannot be listed in tls.tenants: it acts only for the tenant in "
                             "the header it sets from a verified token")
        for caller, tenants in value.items():
            bad = [t for t in tenants if t != "*" and not is_tenant(t)]
            if not caller or bad:
                raise ValueError(f"tls.tenants.{caller or '(empty name)'}: each entry is \"*\" or a "
                                 f"tenant name ({TENANT_RULE}); got {', '.join(map(repr, bad))}")
        return value

    @model_validator(mode="after")
    def _names_need_a_ca(self) -> TlsSettings:
        if self.allowed_clients and self.client_ca is None:
            raise ValueError("tls.allowed_clients needs tls.client_ca: without client certificates "
                             "there is no caller name to check")
        return self


class ClientTlsSettings(Strict):
    # CA bundle the server's certificate must chain to.
    ca: Path
    # PEM certificate chain and private key presented to servers that require mTLS.
    cert: Path | None = None
    key: Path | None = None


class ServerSettings(Strict):
    # host:port to listen on. Without TLS only loopback addresses are accepted.
    listen: str
    # TLS for the listener; required on any non-loopback address.
    tls: TlsSettings | None = None
    # Seconds that in-flight calls get to finish on SIGTERM/SIGINT before they are cancelled.
    shutdown_grace_s: float = Field(default=10.0, ge=0)
    # Largest gRPC message accepted, in bytes (the payload limits of each service sit below it).
    max_message_bytes: int = Field(default=4 * 1024 * 1024, gt=0)
    # Memory ceiling of this part's server process, in MiB of resident memory: past 90 % of it
    # (with what the calls in flight may still take) new calls are refused RESOURCE_EXHAUSTED (429
    # on the OpenAI door) naming this setting, rather than the part being killed for memory. Unset:
    # the part's default (redaction 1536, each inference instance 4096, telemetry 512); 0: none.
    max_rss_mib: int | None = Field(default=None, ge=0)

    @field_validator("listen")
    @classmethod
    def _host_and_port(cls, value: str) -> str:
        # The form only: refused at load, so a mistyped `--listen` or ZTGATE_*__LISTEN stops
        # start-up naming its key.
        return listen_address(value)


class OtelSettings(Strict):
    # Turns on gRPC instrumentation (spans) and OTLP export of traces and metrics.
    enabled: bool = False
    # OTLP/gRPC endpoint of the telemetry collector.
    endpoint: str = "127.0.0.1:4317"
    # Seconds between metric exports.
    export_interval_s: float = Field(default=5.0, gt=0)
    # TLS to the collector (with cert and key: mTLS); plaintext when unset (loopback only).
    tls: ClientTlsSettings | None = None


class MeshSettings(Strict):
    # mTLS between Envoy, the services and the collector under `ztgate up` (and Envoy's clusters
    # in `ztgate envoy-config`). Off only for development setups that start parts by hand.
    mtls: bool = True
    # Certificates of the suite (`ztgate certs init`); `ztgate up` issues them there if absent.
    pki_dir: Path = Path("~/.config/ztgate/pki")


class LoggingSettings(Strict):
    # Root log level: debug, info, warning, error.
    level: str = Field(default="info", pattern="^(debug|info|warning|error)$")
