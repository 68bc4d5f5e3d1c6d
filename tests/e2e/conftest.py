"""Fixtures shared by the e2e modules; each module starts its own `suite` (with a `gateway` address)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import grpc
import pytest

from ztgate.gen.inference.v1 import inference_pb2_grpc


@pytest.fixture
async def stub(suite) -> AsyncIterator[inference_pb2_grpc.InferenceStub]:
    """An Inference client of the module's gateway."""
    async with grpc.aio.insecure_channel(suite.gateway) as channel:
        yield inference_pb2_grpc.InferenceStub(channel)
