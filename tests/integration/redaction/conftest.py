"""One real redaction service process per test session (spaCy and the worker pool load once)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from ztgate.gen.redaction.v1 import redaction_pb2_grpc
from tests.procs import Child, compiled_cache_dir, free_port, spawn_service, wait_serving

TEST_POLICIES = Path(__file__).resolve().parents[2] / "unit" / "redaction" / "data" / "policies"


@pytest.fixture(scope="session")
def redaction_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Child, str]]:
    logs = tmp_path_factory.mktemp("redaction")
    address = f"127.0.0.1:{free_port()}"
    child = spawn_service("redaction", "redaction", address, logs, env={
        "ZTGATE_REDACTION__WORKERS": "2",
        "ZTGATE_REDACTION__POLICIES": f"[{TEST_POLICIES}]",
        "ZTGATE_REDACTION__MAX_TEXT_BYTES": "65536",
        "ZTGATE_CACHE_DIR": str(compiled_cache_dir()),
    })
    try:
        wait_serving(child, address, "ztgate.redaction.v1.Redaction")
        yield child, address
    finally:
        child.stop()


@pytest.fixture(scope="session")
def redaction_address(redaction_process: tuple[Child, str]) -> str:
    return redaction_process[1]


@pytest.fixture
async def stub(redaction_address: str) -> redaction_pb2_grpc.RedactionStub:
    channel = grpc.aio.insecure_channel(redaction_address)
    yield redaction_pb2_grpc.RedactionStub(channel)
    await channel.close()
