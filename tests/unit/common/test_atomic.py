"""Atomic cache writes: whole files or none."""

from __future__ import annotations

import pytest

from ztgate.common.atomic import write_atomically


def test_writes_the_whole_file_and_leaves_no_temporary_behind(tmp_path) -> None:
    path = tmp_path / "sub" / "cache.bin"
    write_atomically(path, b"first")
    write_atomically(path, b"second, longer")
    assert path.read_bytes() == b"second, longer"
    assert [p.name for p in path.parent.iterdir()] == ["cache.bin"]


def test_a_failed_write_keeps_the_old_file_and_cleans_up(tmp_path, monkeypatch) -> None:
    path = tmp_path / "cache.bin"
    write_atomically(path, b"old")

    def refuse(src, dst):  # noqa: ANN001, ANN202 - injects the fault of a failing rename
        raise OSError("disk full")

    monkeypatch.setattr("ztgate.common.atomic.os.replace", refuse)
    with pytest.raises(OSError, match="disk full"):
        write_atomically(path, b"new")
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["cache.bin"]
