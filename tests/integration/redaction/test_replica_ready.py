"""A restarted redaction replica reports SERVING only once it holds its peer's sessions
(redaction.replication.ready_wait_s, ztgate/redaction/replication.py, `Replicator.ready`).

Two real `ztgate serve redaction` processes over the suite's mTLS, each the other's peer. Sessions
are written on replica A (Redact, as the operator for a tenant); replica B is SIGKILLed and started
again, its health polled every few milliseconds, and at its first SERVING every session A holds is
restored through B at once. Both replicas send on a heartbeat of 60 s, so the only copy B can get in
the test's seconds is the one it asks for itself: that makes the window visible and the same on
every run (with the default of 1 s, A's send reaches a restart while it loads its models, most of the
time before SERVING: the window is there, but only sometimes seen).

Control, in the same test: B restarted with ready_wait_s 0 (no asking) reports SERVING with none of
A's sessions, and every Restore through it is NOT_FOUND. Then B is killed again and restarted with
the wait: every session restores from its first SERVING.
"""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from ztgate.common import pki
from ztgate.common.process import is_serving
from ztgate.common.settings import ClientTlsSettings
from ztgate.common.tls import open_channel
from ztgate.gen.redaction.v1 import redaction_pb2 as rpb
from ztgate.gen.redaction.v1 import redaction_pb2_grpc
from ztgate.supervisor.launcher import SERVED_PARTS
from tests.procs import Child, compiled_cache_dir, free_port, spawn_service

pytestmark = pytest.mark.slow

HEALTH = "ztgate.redaction.v1.Redaction"
TENANT = "acme"
BEFORE_KILL = 12   # sessions written on A while B is up (A sends them to B's first instance)
WHILE_DOWN = 8     # sessions written on A while B is dead


def _env(suite: pki.Pki, peer: str, ready_wait_s: float) -> dict[str, str]:
    prefix, callers = SERVED_PARTS[pki.REDACTION]
    return {
        f"ZTGATE_{prefix}__TLS__CERT": str(suite.cert(pki.REDACTION)),
        f"ZTGATE_{prefix}__TLS__KEY": str(suite.key(pki.REDACTION)),
        f"ZTGATE_{prefix}__TLS__CLIENT_CA": str(suite.ca),
        f"ZTGATE_{prefix}__TLS__ALLOWED_CLIENTS": "[" + ", ".join(callers) + "]",
        "ZTGATE_REDACTION__WORKERS": "1",
        "ZTGATE_REDACTION__REPLICATION__PEERS": f'["{peer}"]',
        "ZTGATE_REDACTION__REPLICATION__HEARTBEAT_S": "60",
        "ZTGATE_REDACTION__REPLICATION__READY_WAIT_S": str(ready_wait_s),
        "ZTGATE_CACHE_DIR": str(compiled_cache_dir()),
    }


class _Replica:
    def __init__(self, name: str, address: str, peer: str, suite: pki.Pki, logs: Path) -> None:
        self.name, self.address, self.peer, self.suite, self.logs = name, address, peer, suite, logs
        self.child: Child | None = None
        self.starts = 0

    def start(self, ready_wait_s: float) -> None:
        self.starts += 1
        folder = self.logs / f"{self.name}-{self.starts}"
        folder.mkdir()
        self.child = spawn_service(self.name, "redaction", self.address, folder,
                                   env=_env(self.suite, self.peer, ready_wait_s))

    def first_serving(self, tls: ClientTlsSettings, timeout_s: float = 300) -> float:
        """Polls health until the first SERVING; the seconds it took."""
        assert self.child is not None
        started = time.monotonic()
        while not is_serving(self.address, HEALTH, tls, timeout=0.5):
            assert self.child.process.poll() is None, self.child.log()[-3000:]
            assert time.monotonic() - started < timeout_s, f"{self.name} not SERVING in {timeout_s} s"
            time.sleep(0.01)
        return time.monotonic() - started

    def kill(self) -> None:
        assert self.child is not None
        self.child.stop(signal.SIGKILL, timeout=30)

    def stop(self) -> None:
        if self.child is not None and self.child.process.poll() is None:
            self.child.stop(signal.SIGTERM, timeout=60)


@pytest.fixture(scope="module")
def replicas(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[_Replica, _Replica, ClientTlsSettings]]:
    logs = tmp_path_factory.mktemp("replica-ready")
    suite = pki.create(logs / "pki")
    first, second = f"127.0.0.1:{free_port()}", f"127.0.0.1:{free_port()}"
    a = _Replica("redaction-a", first, second, suite, logs)
    b = _Replica("redaction-b", second, first, suite, logs)
    tls = ClientTlsSettings(ca=suite.ca, cert=suite.cert(pki.OPERATOR), key=suite.key(pki.OPERATOR))
    try:
        a.start(10)
        b.start(10)
        a.first_serving(tls)
        b.first_serving(tls)
        yield a, b, tls
    finally:
        b.stop()
        a.stop()


async def _call(address: str, tls: ClientTlsSettings, method: str, session: str, text: str) -> str:
    """Redact or Restore on one replica directly, as the operator for TENANT; the status name when
    it fails."""
    async with open_channel(address, tls) as channel:
        stub = redaction_pb2_grpc.RedactionStub(channel)
        try:
            if method == "redact":
                reply = await stub.Redact(rpb.RedactRequest(text=text, session_id=session, tenant=TENANT),
                                          timeout=60)
            else:
                reply = await stub.Restore(rpb.RestoreRequest(text=text, session_id=session, tenant=TENANT),
                                           timeout=60)
        except grpc.aio.AioRpcError as exc:
            return exc.code().name
    return reply.text


async def _write(address: str, tls: ClientTlsSettings, sessions: list[str]) -> dict[str, str]:
    made = {}
    for session in sessions:
        redacted = await _call(address, tls, "redact", session, f"Mail {session}@example.com today")
        assert f"{session}@example.com" not in redacted, redacted
        made[session] = redacted
    return made


async def _restored_through(address: str, tls: ClientTlsSettings, made: dict[str, str]) -> dict[str, str]:
    """Every session restored at once through `address`: session -> the text or the status name."""
    texts = await asyncio.gather(*(_call(address, tls, "restore", s, t) for s, t in made.items()))
    return dict(zip(made, texts, strict=True))


def test_a_restarted_replica_restores_every_peer_session_from_its_first_serving(
        replicas, record_property) -> None:
    a, b, tls = replicas
    made = asyncio.run(_write(a.address, tls, [f"ready-before-{n}" for n in range(BEFORE_KILL)]))
    b.kill()
    made |= asyncio.run(_write(a.address, tls, [f"ready-down-{n}" for n in range(WHILE_DOWN)]))
    expected = {s: f"Mail {s}@example.com today" for s in made}

    # Control: no wait. SERVING comes with none of A's sessions: every one is NOT_FOUND through B.
    b.start(0)
    control_s = b.first_serving(tls)
    control = asyncio.run(_restored_through(b.address, tls, made))
    b.kill()

    # With the wait: from its first SERVING, B restores every session A holds.
    b.start(10)
    ready_s = b.first_serving(tls)
    restored = asyncio.run(_restored_through(b.address, tls, made))

    line = (f"restart without the wait: SERVING after {control_s:.1f} s, "
            f"{sum(v == expected[s] for s, v in control.items())} of {len(made)} sessions restored at it; "
            f"with ready_wait_s 10: SERVING after {ready_s:.1f} s, "
            f"{sum(v == expected[s] for s, v in restored.items())} of {len(made)} restored at it")
    print(line)
    record_property("replica_ready", line)
    assert all(v == "NOT_FOUND" for v in control.values()), control
    assert restored == expected, restored
    assert "took the peers' sessions" in b.child.log()   # type: ignore[union-attr]
