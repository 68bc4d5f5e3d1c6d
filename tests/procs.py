"""Real processes for integration and e2e tests: free ports, service children, health waits."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml

from ztgate.common import process as common_process
from ztgate.common.lifetime import alive  # noqa: F401 - the tests import it from here
from ztgate.common.process import free_port  # noqa: F401 - the tests import it from here

ROOT = Path(__file__).resolve().parents[1]


def compiled_cache_dir() -> Path:
    """The cache every suite in a test session shares: `$ZTGATE_CACHE_DIR`, else `~/.cache/ztgate`.

    It holds the compiled Hyperscan database and the place table, both named by a hash of what
    they were built from and written atomically, so suites may share them: `make` prepares the
    default rules' database once, and no suite pays a compile (about 30 s, minutes on a loaded
    machine) for rules another has compiled. Keys and certificates stay in each suite's folder.
    """
    configured = os.environ.get("ZTGATE_CACHE_DIR")
    return Path(configured) if configured else Path.home() / ".cache" / "ztgate"


def health_status(address: str, service: str = "", timeout: float = 1.0) -> int | None:
    """The gRPC health status, or None when nothing answers (plaintext: the tests' own services)."""
    return common_process.health_status(address, service, timeout=timeout)


@dataclass
class Child:
    name: str
    process: subprocess.Popen
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30.0) -> int:
        return common_process.stop(self.process, timeout, sig)


def spawn(name: str, argv: list[str], log_dir: Path, env: Mapping[str, str] | None = None) -> Child:
    log_path = log_dir / f"{name}.log"
    return Child(name, common_process.spawn(argv, log_path, env, cwd=ROOT), log_path)


def spawn_service(name: str, service: str, listen: str, log_dir: Path,
                  env: Mapping[str, str] | None = None, config: Path | None = None) -> Child:
    argv = [sys.executable, "-m", "ztgate.cli", "serve", service, "--listen", listen]
    if config:
        argv += ["--config", str(config)]
    if service == "redaction":  # its generated keys stay with the test, not in ~/.config
        env = {"ZTGATE_REDACTION__KEYS_FILE": str(log_dir / "keys" / "redaction.json"), **(env or {})}
    return spawn(name, argv, log_dir, env)


def wait_serving(child: Child, address: str, service: str = "", timeout: float = 180.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if child.process.poll() is not None:
            raise RuntimeError(f"{child.name} exited ({child.process.returncode}):\n{child.log()[-4000:]}")
        if common_process.is_serving(address, service):
            return
        time.sleep(0.2)
    raise RuntimeError(f"{child.name} not SERVING within {timeout} s:\n{child.log()[-4000:]}")


def admin_get(admin: str, path: str) -> str:
    """A GET on Envoy's admin console (loopback)."""
    with urllib.request.urlopen(f"http://{admin}{path}", timeout=2) as resp:  # noqa: S310 - loopback
        return resp.read().decode()


def plaintext_mesh_clusters(bootstrap: Path) -> list[str]:
    """Envoy clusters that dial a suite part (they have endpoints) without TLS; the OpenAI adapter's
    (plain HTTP on loopback by design, `openai_*`) aside. An empty list: every hop behind Envoy is mTLS."""
    clusters = yaml.safe_load(bootstrap.read_text())["static_resources"]["clusters"]
    return [c["name"] for c in clusters if "load_assignment" in c and not c["name"].startswith("openai_")
            and "UpstreamTlsContext" not in str(c.get("transport_socket", ""))]
