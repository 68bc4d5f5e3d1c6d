"""The committed stubs match proto/: a stale stub fails here."""

from ztgate.common import protogen


def test_generated_stubs_are_in_sync_with_proto() -> None:
    assert protogen.stale_files() == []
