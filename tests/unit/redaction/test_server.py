"""The Redaction servicer's stream: chunks scrubbed in a worker thread, one after the other.

Driven directly (no gRPC server; a FakeContext stands in for grpc's, no caller certificate): the service is the real one on the pattern tier (test_ext_proc's
`make_service`), its stream scanner slowed and watched (`SlowScanner`, a fault injected).
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from ztgate.common.identity import TenantAccess
from ztgate.gen.redaction.v1 import redaction_pb2 as pb
from ztgate.redaction.detection.patterns.scanner import PatternScanner
from ztgate.redaction.server import RedactionServicer
from tests.fake_context import FakeContext
from tests.unit.redaction.test_ext_proc import SlowScanner, Ticker, make_service

EMAIL = "jane.doe@example.com"


@pytest.fixture(scope="module")
def scanner(hs_cache_dir: Path) -> PatternScanner:
    return PatternScanner(cache_dir=hs_cache_dir)


async def test_stream_chunks_are_scrubbed_off_the_event_loop_in_order(scanner: PatternScanner) -> None:
    slow = SlowScanner(scanner, delay_s=0.1)
    servicer = RedactionServicer(make_service(scanner, slow), TenantAccess(None))
    text = f"mail {EMAIL} now and then write to {EMAIL} again, thanks"
    chunks = [text[i:i + 7] for i in range(0, len(text), 7)]

    async def requests() -> AsyncIterator[pb.RedactChunk]:
        for i, chunk in enumerate(chunks):
            yield pb.RedactChunk(text=chunk, final=i == len(chunks) - 1)

    async with Ticker() as ticker:
        replies = [r async for r in servicer.RedactStream(requests(), FakeContext())]
    out = "".join(r.text for r in replies)
    assert out == "mail <EMAIL_ADDRESS_1> now and then write to <EMAIL_ADDRESS_1> again, thanks"
    assert len(replies) == len(chunks) and replies[-1].final
    assert slow.threads and threading.get_ident() not in slow.threads
    assert ticker.ticks >= 0.1 * len(slow.threads) / 0.01 / 4  # the loop ran on while each scan blocked


@pytest.mark.parametrize("tenant", ["", "default", "globex"])
async def test_a_policy_bound_to_other_tenants_serves_no_one_else(scanner: PatternScanner, tenant: str) -> None:
    """`acme-strict` names its tenants; another tenant (or none) naming it is refused, not served."""
    from ztgate.common.errors import PermissionDenied

    service = make_service(scanner)
    with pytest.raises(PermissionDenied, match="bound to other tenants"):
        await service.redact(f"mail {EMAIL}", policy="acme-strict", tenant=tenant)
    assert EMAIL not in (await service.redact(f"mail {EMAIL}", policy="default", tenant=tenant)).text
