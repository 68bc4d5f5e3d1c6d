"""One suite CA and set of certificates for the whole test session (what `ztgate certs init` makes)."""

from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from pathlib import Path

from ztgate.common import pki


@functools.cache
def shared_pki() -> pki.Pki:
    """Issued on first use into a temporary folder, removed when the session ends."""
    root = Path(tempfile.mkdtemp(prefix="ztgate-test-pki-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    return pki.create(root / "pki")


def mesh_env() -> dict[str, str]:
    """Configuration overrides that point `mesh.pki_dir` at the shared certificates."""
    return {"ZTGATE_MESH__PKI_DIR": str(shared_pki().dir)}


# Parts started by hand in a test, without certificates: Envoy must not expect mTLS from them.
PLAINTEXT = {"ZTGATE_MESH__MTLS": "false"}
