"""The one list of the suite's parts: what `ztgate up`, `status`, the PKI, replicas and deploy read.

A part is named once here, with where its settings live, what it serves and how it starts; every
other list of parts is derived from `PARTS`. Adding a part is one entry (CONTRIBUTING.md says what
else a new part brings: its server, its section of the configuration, its Envoy cluster).
This module is data: it imports only the generated descriptors, so that any layer may read it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ztgate.gen.inference.v1 import inference_pb2
from ztgate.gen.redaction.v1 import redaction_pb2
from ztgate.gen.telemetry.v1 import telemetry_pb2

# gRPC services' full names, from the proto descriptors (never written out by hand).
REDACTION_SERVICE: str = redaction_pb2.DESCRIPTOR.services_by_name["Redaction"].full_name
# Redaction replicas' session replication (redaction/replication.py): internal, no Envoy route.
SESSION_REPLICA_SERVICE: str = redaction_pb2.DESCRIPTOR.services_by_name["SessionReplica"].full_name
INFERENCE_SERVICE: str = inference_pb2.DESCRIPTOR.services_by_name["Inference"].full_name
TELEMETRY_SERVICE: str = telemetry_pb2.DESCRIPTOR.services_by_name["Telemetry"].full_name

# Suite identities that are no part of their own (certificates only, common/pki.py).
# `ztgate up` / `ztgate status` health checks, and an operator calling a service directly.
OPERATOR = "operator"
# Envoy's ingress listener, when it serves TLS (`gateway.tls`): a server certificate only.
GATEWAY = "gateway"
# In `Part.callers`: every part that serves gRPC with an identity of its own.
EVERY_SERVER = "*servers"


def setting(config: Any, path: str) -> Any:
    """The value at a dotted key path of the configuration ("redaction.server.listen")."""
    value = config
    for key in path.split("."):
        value = getattr(value, key)
    return value


def env_var(path: str) -> str:
    """The ZTGATE_* variable that overrides a key path (ZTGATE_REDACTION__SERVER__LISTEN)."""
    return "ZTGATE_" + path.upper().replace(".", "__")


@dataclass(frozen=True)
class Part:
    """One part of the suite, as `ztgate up` runs it (start order is the order of `PARTS`)."""

    # Its name in `up`'s output, `status --part`, replicas and (when it has one) its certificate.
    name: str
    # Key path of its section of ztgate.yaml.
    section: str
    # Key path of its own listen address (its health is checked there unless `ready_setting`).
    listen: str
    # Further addresses it listens on (checked free before `up` starts anything).
    also_listens: tuple[str, ...] = ()
    # The gRPC service it serves (health reported under this name); None: not a gRPC server.
    service: str | None = None
    # Internal services it also serves, for its own replicas or parts only (no Envoy route).
    internal_services: tuple[str, ...] = ()
    # `ztgate serve` arguments that run it; None: not a ztgate process (Envoy).
    serve: tuple[str, ...] | None = None
    # Key path of an address answering HTTP GET /ready, for a part that is no gRPC server.
    ready_setting: str | None = None
    # Its identity in the suite's certificates (None: it has none), and the identities it takes
    # calls from when the suite runs with mTLS.
    identity: str | None = None
    callers: tuple[str, ...] = ()
    # Whether `up --replicas` may run it several times, and the Envoy cluster of its replicas.
    replicable: bool = False
    cluster: str | None = None
    # Nothing is served without it: `up` stops when it is given up on.
    essential: bool = False
    # Whether this configuration runs it (default: always); `up` and `status` skip it otherwise.
    active: Callable[[Any], bool] = lambda config: True

    def allowed_callers(self) -> tuple[str, ...]:
        """The identities it takes calls from, EVERY_SERVER expanded."""
        return tuple(dict.fromkeys(c for caller in self.callers
                                   for c in (SERVERS if caller == EVERY_SERVER else (caller,))))

    def address(self, config: Any) -> str:
        """Its configured listen address."""
        return str(setting(config, self.listen))

    @property
    def tls_section(self) -> str | None:
        """Key path of its server block (listen, tls), for a part with an identity that serves gRPC."""
        return self.listen.rsplit(".", 1)[0] if self.service and self.identity else None


def _every_server_identity() -> tuple[str, ...]:
    return tuple(p.identity for p in PARTS if p.service and p.identity)


PARTS: tuple[Part, ...] = (
    # First, so that the others' telemetry has somewhere to land; every part exports to it.
    Part("telemetry", "telemetry", "telemetry.server.listen", also_listens=("telemetry.metrics.listen",),
         service=TELEMETRY_SERVICE, serve=("telemetry",), identity="telemetry",
         callers=("envoy", OPERATOR, EVERY_SERVER)),
    # Only Envoy calls redaction and inference (and the operator's health checks; the collector's
    # SLO probes reach the primary). Redaction replicas call each other's SessionReplica only
    # (their certificate acts for no tenant on the Redaction API).
    Part("redaction", "redaction", "redaction.server.listen", service=REDACTION_SERVICE,
         serve=("redaction",), identity="redaction", callers=("envoy", OPERATOR, "redaction"),
         internal_services=(SESSION_REPLICA_SERVICE,),
         replicable=True, cluster="redaction", essential=True),
    Part("inference-primary", "inference.primary", "inference.primary.server.listen",
         service=INFERENCE_SERVICE, serve=("inference", "--instance", "primary"),
         identity="inference-primary", callers=("envoy", OPERATOR, "telemetry"),
         replicable=True, cluster="inference_primary"),
    Part("inference-fallback", "inference.fallback", "inference.fallback.server.listen",
         service=INFERENCE_SERVICE, serve=("inference", "--instance", "fallback"),
         identity="inference-fallback", callers=("envoy", OPERATOR),
         replicable=True, cluster="inference_fallback"),
    # ztgate's own model behind the OpenAI door: an HTTP server, a client of the gateway only.
    Part("openai-adapter", "openai_adapter", "openai_adapter.listen", serve=("openai-adapter",),
         ready_setting="openai_adapter.listen", active=lambda config: config.openai_adapter_active),
    # The one door; a client of every service (ext_proc, routes, health checks) and of the collector.
    Part("envoy", "gateway", "gateway.listen", also_listens=("gateway.admin",),
         ready_setting="gateway.admin", identity="envoy", essential=True),
)

BY_NAME: dict[str, Part] = {p.name: p for p in PARTS}
NAMES: tuple[str, ...] = tuple(BY_NAME)
# Parts that serve gRPC with a certificate of their own (they export OTLP to the collector too).
SERVERS: tuple[str, ...] = _every_server_identity()
# Every identity in the suite's certificates: the servers, the clients-only parts, the operator,
# and the gateway's listener.
IDENTITIES: tuple[str, ...] = (*SERVERS, *(p.identity for p in PARTS if p.identity and p.identity not in SERVERS),
                               OPERATOR, GATEWAY)
REPLICABLE: tuple[str, ...] = tuple(p.name for p in PARTS if p.replicable)
# Every address `ztgate up` listens on, by its key path.
LISTEN_SETTINGS: tuple[str, ...] = tuple(s for p in PARTS for s in (p.listen, *p.also_listens))


def identity_of(name: str) -> str:
    """The certificate identity of the part `name`; KeyError for a part without one."""
    identity = BY_NAME[name].identity
    if identity is None:
        raise KeyError(f"the part {name!r} has no identity in the suite's certificates")
    return identity


def active(config: Any) -> tuple[Part, ...]:
    """The parts this configuration runs, in start order."""
    return tuple(p for p in PARTS if p.active(config))
