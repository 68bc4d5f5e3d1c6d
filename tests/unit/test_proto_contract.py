"""The gRPC contract, checked by buf (a linter nobody here wrote): proto/ lints clean, and nothing in it
breaks the contract of the first milestone (tests/golden/proto-contract.binpb, the image `buf build`
made of proto/ at the repository's first commit). Checks outside the project call these services by
these names and field numbers.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = ROOT / "tests" / "golden" / "proto-contract.binpb"


def _buf() -> str:
    found = shutil.which("buf", path=str(Path(sys.executable).parent))
    assert found, "buf is not installed: `make install` installs the dev extra's buf-bin"
    return found


def _run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([_buf(), *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_proto_lints_clean() -> None:
    result = _run("lint")
    assert result.returncode == 0, result.stdout + result.stderr


def test_proto_keeps_the_first_milestones_contract() -> None:
    result = _run("breaking", "--against", str(CONTRACT))
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(("old", "new", "complaint"), [
    ("string text = 1;", "string body = 1;", "changed name from \"text\" to \"body\""),
    ("string text = 1;", "bytes text = 1;", "changed type from \"string\" to \"bytes\""),
])
def test_a_change_that_breaks_the_contract_is_caught(tmp_path: Path, old: str, new: str,
                                                     complaint: str) -> None:
    """The control: the same check on a copy of proto/ with one field of RedactRequest changed fails."""
    shutil.copytree(ROOT / "proto", tmp_path / "proto")
    shutil.copy(ROOT / "buf.yaml", tmp_path / "buf.yaml")
    path = tmp_path / "proto" / "ztgate" / "redaction" / "v1" / "redaction.proto"
    text = path.read_text()
    start = text.index("message RedactRequest {")
    at = text.index(old, start)
    path.write_text(text[:at] + new + text[at + len(old):])
    result = _run("breaking", "--against", str(CONTRACT), cwd=tmp_path)
    assert result.returncode != 0
    assert "RedactRequest" in result.stdout and complaint in result.stdout, result.stdout
