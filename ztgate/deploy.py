"""`ztgate prepare`: what a deployment of one container (or pod) per part needs before any starts.

`ztgate up` issues the suite's certificates, the token keys and the redaction keys into one
folder that every part on the machine reads. In a compose project or a Kubernetes namespace each
part runs apart, and gets only what it needs: a folder per part (`PARTS_SUBDIR/<part>`, a volume
or a Secret of its own) with the suite CA, its own certificate and key, and
- envoy: the gateway's certificate, the JWKS that verifies tokens, and its bootstrap;
- redaction: the redaction keys file.
The CA's key is never kept, the token signing key stays in the source folder (minting tokens is
the operator's), and no part holds the operator's key: a part's health check presents its own
certificate (`ztgate status --part P --identity P`).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from ztgate import parts as suite_parts
from ztgate.common import pki
from ztgate.config import ZtgateConfig
from ztgate.serve import render_envoy

# Parts that run in containers of their own with a certificate (ztgate/parts.py: the suite's
# servers, and Envoy).
PARTS = tuple(identity for part in suite_parts.PARTS if (identity := part.identity))
ENVOY_BOOTSTRAP = "envoy.yaml"
JWKS_SUBPATH = Path("tokens") / "jwks.json"
REDACTION_KEYS_SUBPATH = Path("keys") / "redaction.json"


def _copy(source: Path, target: Path) -> None:
    """Copies a file with its mode (a key stays 0600); replaced atomically."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    shutil.copy2(source, partial)
    os.replace(partial, target)


def part_files(config: ZtgateConfig, part: str) -> dict[Path, Path]:
    """A part's folder: relative path there -> the source file it copies."""
    suite = pki.Pki.of(config.mesh)
    files = {Path(pki.CA_FILE): suite.ca, Path(f"{part}.pem"): suite.cert(part),
             Path(f"{part}.key"): suite.key(part)}
    if part == pki.ENVOY:
        if config.gateway.tls is not None:
            files[Path(f"{pki.GATEWAY}.pem")] = config.gateway.tls.cert.expanduser()
            files[Path(f"{pki.GATEWAY}.key")] = config.gateway.tls.key.expanduser()
        if config.gateway.auth.jwks_path is not None:
            files[JWKS_SUBPATH] = config.gateway.auth.jwks_path.expanduser()
    if part == pki.REDACTION:
        files[REDACTION_KEYS_SUBPATH] = config.redaction.keys_file.expanduser()
    return files


def envoy_view(config: ZtgateConfig, folder: Path) -> ZtgateConfig:
    """The configuration as Envoy's container sees it: every file it reads in its own folder."""
    gateway = config.gateway
    update: dict[str, object] = {}
    if gateway.tls is not None:
        update["tls"] = gateway.tls.model_copy(update={"cert": folder / f"{pki.GATEWAY}.pem",
                                                       "key": folder / f"{pki.GATEWAY}.key"})
    if gateway.auth.jwks_path is not None:
        update["auth"] = gateway.auth.model_copy(update={"jwks_path": folder / JWKS_SUBPATH})
    return config.model_copy(update={
        "mesh": config.mesh.model_copy(update={"pki_dir": folder}),
        "gateway": gateway.model_copy(update=update)})


def write_parts(config: ZtgateConfig, parts_dir: Path, mount: Path | None = None) -> list[str]:
    """Writes each part's folder under `parts_dir` and Envoy's bootstrap into its own; lines to
    print. `mount`: where the part folders are mounted in the containers, when not at `parts_dir`
    (Kubernetes Secrets made on an operator's machine; the bootstrap names files there). Run
    after `launcher.prepare` (the sources must exist)."""
    if not config.mesh.mtls:
        raise pki.PkiError("ztgate prepare lays out the suite's certificates per part: it needs mesh.mtls")
    lines = []
    for part in PARTS:
        folder = parts_dir / part
        folder.mkdir(parents=True, exist_ok=True)
        os.chmod(folder, 0o700)
        for relative, source in part_files(config, part).items():
            _copy(source, folder / relative)
        lines.append(f"{part}: {', '.join(sorted(str(p) for p in part_files(config, part)))} in {folder}")
    envoy_dir = parts_dir / pki.ENVOY
    bootstrap = envoy_dir / ENVOY_BOOTSTRAP
    text = render_envoy(envoy_view(config, envoy_dir))  # checks every file it names, where it is now
    if mount is not None:
        text = text.replace(f'"{envoy_dir}/', f'"{mount / pki.ENVOY}/')
    bootstrap.write_text(text)
    lines.append(f"envoy: bootstrap {bootstrap}")
    return lines


# Kubernetes: one Secret per part, `ztgate-<part>`; a key per file (its base name), which the
# Deployments (deploy/k8s/base) map back to the paths above.
SECRET_PREFIX = "ztgate-"


def kubernetes_secrets(parts_dir: Path, namespace: str) -> list[dict]:
    """The Secrets of the part folders `write_parts` made, as Kubernetes objects."""
    import base64

    secrets = []
    for part in PARTS:
        folder = parts_dir / part
        data = {path.name: base64.b64encode(path.read_bytes()).decode()
                for path in sorted(folder.rglob("*")) if path.is_file()}
        secrets.append({"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
                        "metadata": {"name": f"{SECRET_PREFIX}{part}", "namespace": namespace,
                                     "labels": {"app.kubernetes.io/name": part,
                                                "app.kubernetes.io/part-of": "ztgate"}},
                        "data": data})
    return secrets
