"""Settings of the redaction service (the `redaction:` section of ztgate.yaml)."""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import Field, SecretStr

from services.common.settings import ServerSettings, Strict

DEFAULT_POLICY_DIR = Path(__file__).parent / "policies"


def _default_cache_dir() -> Path:
    return Path(os.environ.get("ZTGATE_CACHE_DIR", Path.home() / ".cache" / "ztgate"))


class VaultSettings(Strict):
    # Sessions kept at once; the least recently used is dropped past this.
    max_sessions: int = Field(default=10_000, gt=0)
    # Pseudonyms kept per session.
    max_entries_per_session: int = Field(default=1_000, gt=0)
    # Seconds a session lives after its last use.
    ttl_s: float = Field(default=3600.0, gt=0)


class RedactionSettings(Strict):
    server: ServerSettings = ServerSettings(listen="127.0.0.1:50051")
    # Policy files or folders of them; the `default` policy must be among them.
    policies: list[Path] = [DEFAULT_POLICY_DIR]
    # Largest text accepted, in UTF-8 bytes; larger gets RESOURCE_EXHAUSTED.
    max_text_bytes: int = Field(default=1024 * 1024, gt=0)
    # Analysis worker processes (spaCy NER runs there); 0 means one per CPU.
    workers: int = Field(default=0, ge=0)
    # Seconds one analysis may run on a worker before the call fails (closed). A call also ends at
    # its caller's gRPC deadline (through the gateway: its per-message timeout); a call without one
    # gets this long in all, waiting for a worker included.
    analysis_timeout_s: float = Field(default=10.0, gt=0)
    # Analyses one tenant may run at once (fair share of the workers); its further texts wait their
    # turn within their deadline. 0 means one less than the workers (at least 1), so that no tenant
    # holds every worker; set it to the worker count for a single-tenant deployment.
    max_inflight_per_tenant: int = Field(default=0, ge=0)
    # Where the compiled Hyperscan database is cached.
    cache_dir: Path = Field(default_factory=_default_cache_dir)
    # Key of the `hash` action (HMAC-SHA256); set it per deployment.
    hash_key: SecretStr = SecretStr("ztgate-dev-hash-key")
    # Key of the `encrypt` action (AES, 16/24/32 characters); set it per deployment.
    encrypt_key: SecretStr = SecretStr("ztgate-dev-key-0")
    vault: VaultSettings = VaultSettings()
