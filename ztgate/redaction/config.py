"""Settings of the redaction service (the `redaction:` section of ztgate.yaml)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr, model_validator

from ztgate.common import paths
from ztgate.common.settings import ServerSettings, Strict
from ztgate.redaction.data_dirs import POLICIES_DIR

DEFAULT_POLICY_DIR = POLICIES_DIR


class VaultSettings(Strict):
    """Bounds of the pseudonym vault. Per-tenant quotas keep tenants apart: a tenant past its own
    quota makes way by dropping its own least recently used sessions, never another tenant's. The
    global caps bound the memory of all tenants together; when they are reached, a tenant may still
    drop its own sessions to make room, and a tenant holding none is refused (RESOURCE_EXHAUSTED)
    rather than anyone else's sessions being taken. A per-tenant quota must not exceed its global
    cap; keep it well below, so that no single tenant can fill the vault."""

    # Sessions kept at once, all tenants together.
    max_sessions: int = Field(default=10_000, gt=0)
    # Bytes (UTF-8) of original values kept at once, all tenants together.
    max_bytes: int = Field(default=256 * 1024 * 1024, gt=0)
    # Sessions one tenant keeps at once; past it, its least recently used session is dropped.
    max_sessions_per_tenant: int = Field(default=1_000, gt=0)
    # Bytes (UTF-8) of original values one tenant keeps; past it, its least recently used
    # sessions are dropped, and a single session larger than this is refused.
    max_bytes_per_tenant: int = Field(default=32 * 1024 * 1024, gt=0)
    # Pseudonyms kept per session; one more fails the request (RESOURCE_EXHAUSTED).
    max_entries_per_session: int = Field(default=1_000, gt=0)
    # Seconds a session lives after its last use (a Redact, RedactStream or Restore naming it).
    ttl_s: float = Field(default=3600.0, gt=0)

    @model_validator(mode="after")
    def _quotas_within_caps(self) -> VaultSettings:
        for quota, cap in (("max_sessions_per_tenant", "max_sessions"),
                           ("max_bytes_per_tenant", "max_bytes")):
            if getattr(self, quota) > getattr(self, cap):
                raise ValueError(f"vault.{quota} ({getattr(self, quota)}) must not exceed "
                                 f"vault.{cap} ({getattr(self, cap)})")
        return self


class ReplicationSettings(Strict):
    """Session replication between redaction replicas (docs/adr/0017-session-replication.md): each
    replica sends the sessions it writes or uses to its peers, over the mesh's mTLS (only the
    redaction certificate may send them), so that the replica Envoy's ring moves a session to when
    its own replica dies already holds it. Off the request path: a peer that is down or slow costs
    no call anything; what cannot be sent is dropped and counted, never queued without bound."""

    # Send sessions to the peers (and take theirs). Off: each replica's sessions die with it.
    enabled: bool = True
    # The other replicas, host:port each. `ztgate up --replicas redaction=N` sets it for each
    # replica; a name that resolves to several addresses (compose's service name, a Kubernetes
    # headless Service) stands for all of them, looked up again every heartbeat, the replica itself
    # among them skipped. Empty: no peers. Needs mesh.mtls (the redaction certificate proves a peer).
    peers: list[str] = []
    # Seconds one send to a peer may take; past it the sessions in it are dropped (counted).
    timeout_s: float = Field(default=1.0, gt=0)
    # Seconds between heartbeats to an idle peer: a peer seen with a new instance (a restart, a
    # new replica) is sent every live session again.
    heartbeat_s: float = Field(default=1.0, gt=0)
    # Sessions waiting to be sent to one peer; a further one is dropped (counted), and a peer that
    # cannot be reached has everything waiting for it dropped.
    max_pending: int = Field(default=10_000, gt=0)
    # Sessions in one send, and their bytes of original values at most (a single larger session is
    # dropped, counted: below the peer's gRPC message limit, server.max_message_bytes).
    batch_sessions: int = Field(default=64, gt=0)
    max_batch_bytes: int = Field(default=2 * 1024 * 1024, gt=0)
    # Seconds a starting replica waits, before it reports SERVING, for its peers' sessions (it asks
    # each peer for them, a page at a time); past it, it serves without a complete copy (logged and
    # counted, the asking goes on). A peer nobody listens on holds nothing to wait for. 0: no asking,
    # SERVING at once (the peers' sends fill it at their next heartbeat).
    ready_wait_s: float = Field(default=10.0, ge=0)


class RedactionSettings(Strict):
    server: ServerSettings = ServerSettings(listen="127.0.0.1:50051")
    # Policy files or folders of them; the `default` policy must be among them.
    policies: list[Path] = [DEFAULT_POLICY_DIR]
    # Largest text accepted, in UTF-8 bytes; larger gets RESOURCE_EXHAUSTED.
    max_text_bytes: int = Field(default=1024 * 1024, gt=0)
    # Analysis worker processes (spaCy NER runs there); 0 means one per CPU.
    workers: int = Field(default=0, ge=0)
    # Seconds one analysis may run on a worker before the call fails (closed). A call also ends at
    # its caller's gRPC deadline (through the gateway: Envoy's wait for the scrubbed body, which
    # grows with the prompt); a call without one gets this long in all, waiting for a worker
    # included. At least gateway.redaction.max_message_timeout_s (checked at load), which covers a
    # 64 KiB name-dense prompt (docs/operations/limits.md).
    analysis_timeout_s: float = Field(default=20.0, gt=0)
    # Analyses one tenant may run at once (fair share of the workers); its further texts wait their
    # turn within their deadline. 0 means one less than the workers (at least 1), so that no tenant
    # holds every worker; set it to the worker count for a single-tenant deployment.
    max_inflight_per_tenant: int = Field(default=0, ge=0)
    # Calls of one tenant that may wait for its share of the workers, besides those running (a
    # chat request is one call, whatever its messages); the next is refused at once,
    # RESOURCE_EXHAUSTED (429 on the OpenAI door) naming this setting. Each waiting call holds its
    # request until its deadline: without tokens every caller is tenant `default` and shares it.
    max_queued_per_tenant: int = Field(default=64, ge=0)
    # Threads for the in-process CPU work (stream chunks, answers through the gateway, Restore, large
    # policy applications), so that the event loop keeps serving while it runs (thread_lanes.py).
    worker_threads: int = Field(default=8, ge=1)
    # Of those, jobs one tenant may run at once; its further jobs wait their turn. 0 means half the
    # threads, so that one tenant's flood of large chunks never holds the threads another tenant's
    # answer needs within Envoy's per-message wait (gateway.redaction.message_timeout_s).
    worker_threads_per_tenant: int = Field(default=0, ge=0)
    # Characters of Restore text (the Redaction API's Restore) one tenant may have restored a second
    # on this replica, up to a second's worth or redaction.max_text_bytes at once; past it a Restore
    # is refused at once, RESOURCE_EXHAUSTED naming this setting. Restore runs on the event loop that
    # serves every tenant (about 15 ms of it per MiB): without it one tenant's 1 MiB Restores, 40 a
    # second, kept the loop busy and slowed every other tenant's calls (docs/results/attack.md).
    # 0: no limit.
    restore_chars_per_s_per_tenant: int = Field(default=4 * 1024 * 1024, ge=0)
    # Milliseconds of this server process's CPU one tenant's work may take a second on this replica,
    # across every kind of it (stream and answer chunks, request bodies, policy applications,
    # Restore), a bucket holding a second's worth; a tenant that has spent more is refused at its
    # next call, RESOURCE_EXHAUSTED (429 on the OpenAI door) naming this setting, until the debt is
    # paid back. The analysis workers are bounded by redaction.max_inflight_per_tenant. Each limit of
    # one kind of work left the others free: one tenant sending every kind at once took the CPU
    # another tenant's calls needed (docs/adr/0031). 0: no limit.
    cpu_ms_per_s_per_tenant: int = Field(default=250, ge=0)
    # Nanoseconds of that CPU each job in the server's threads (a stream chunk, a request body, an
    # answer chunk) holds per character of its text from its start until it ends, when its real
    # CPU is charged instead: a tenant whose bucket less its jobs under way is below zero is refused
    # as one in debt, so the jobs it starts at once count before they end. Charged only at their
    # end, four 1 MiB stream chunks of one tenant began together while it still had budget and held
    # the event loop behind them for seconds (docs/adr/0035). 1,000 (1 MiB holds about a second) is
    # above ordinary text's cost (about 250 ns); a normal call's text holds well under its bucket.
    # 0: jobs count only once done.
    cpu_reserve_ns_per_char: int = Field(default=1000, ge=0)
    # Tenants named in the redaction metrics' tenant label (the first this many seen since start);
    # further tenants are counted together as "(other)". Bounds the series each metric can have
    # (a tenant adds a few dozen at most); size it with telemetry.max_series_per_metric.
    metrics_max_tenants: int = Field(default=50, gt=0)
    # Where the compiled Hyperscan database and the place table are cached (default
    # $ZTGATE_CACHE_DIR, else ~/.cache/ztgate: ztgate/common/paths.py).
    cache_dir: Path = Field(default_factory=paths.cache_dir)
    # Key of the `hash` action (HMAC-SHA256, at least 16 bytes). Unset: the install's own, from
    # keys_file.
    hash_key: SecretStr | None = None
    # Key of the `encrypt` action (AES-256-GCM under a key derived from it with HKDF; at least 16
    # bytes). Unset: the install's own, from keys_file.
    encrypt_key: SecretStr | None = None
    # The install's generated keys, for whichever of hash_key and encrypt_key is unset: written
    # (mode 0600 in a 0700 folder, 32 random bytes per key) by the first `ztgate up` or `ztgate
    # serve redaction` that needs it, then reused, so hashes stay stable and ciphertexts
    # decryptable across restarts. Keep it with your other secrets; never logged.
    keys_file: Path = Path("~/.config/ztgate/keys/redaction.json")
    vault: VaultSettings = VaultSettings()
    replication: ReplicationSettings = ReplicationSettings()
