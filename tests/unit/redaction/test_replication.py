"""Session replication between redaction replicas (ztgate/redaction/replication.py).

The vault side first: a copy taken from a peer restores, continues with the same placeholders and
numbering, stays its tenant's own, and counts against the receiver's bounds. Then real gRPC over the
suite's mTLS on loopback: two vaults, each behind a real SessionReplica server with the redaction
certificate, a Replicator sending from one to the other. Two FAULT-INJECTED peers stand in where a
real one cannot be made to fail on cue: an address nobody listens on (a peer that is down), and a
servicer written here that answers only after 5 s (a slow peer); each test says which it uses.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import grpc
import pytest

from ztgate.common import pki
from ztgate.common.settings import ClientTlsSettings, TlsSettings
from ztgate.common.tls import client_credentials, server_credentials
from ztgate.gen.redaction.v1 import redaction_pb2 as rpb
from ztgate.gen.redaction.v1 import redaction_pb2_grpc
from ztgate.redaction.config import ReplicationSettings, VaultSettings
from ztgate.redaction.replication import (Outcome, ReplicationMetrics, Replicator, SessionReplicaServicer,
                                          client_tls, from_message, to_message)
from ztgate.redaction.vault import SessionUnknownError, Vault, VaultFullError
from tests.procs import free_port


def _write(vault: Vault, tenant: str, session: str, *values: str, surrogate: bool = False) -> list[str]:
    """Pseudonyms for `values` (PERSON) in one transaction: placeholders, or stand-ins."""
    with vault.transaction(tenant, session) as txn:
        if surrogate:
            return [txn.surrogate_for("PERSON", v, " ".join(values)) for v in values]
        return [txn.placeholder_for("PERSON", v) for v in values]


def _copied(source: Vault, target: Vault, tenant: str, session: str) -> None:
    """What the wire carries: the copy as a message, serialised and parsed, then taken."""
    copy = source.export(tenant, session)
    assert copy is not None
    target.take(from_message(rpb.ReplicatedSession.FromString(to_message(copy).SerializeToString())))


# --- the vault's side ---------------------------------------------------------------------------

def test_a_copy_restores_and_continues_with_the_same_pseudonyms_and_numbering() -> None:
    owner, peer = Vault(), Vault()
    first = _write(owner, "acme", "s1", "Anna Schmidt", "Jean Dupont")
    _copied(owner, peer, "acme", "s1")
    assert peer.restore("acme", "s1", f"{first[0]} met {first[1]}") == "Anna Schmidt met Jean Dupont"
    # The session goes on at the peer: a value it has keeps its placeholder, a new one takes the next number.
    again = _write(peer, "acme", "s1", "Jean Dupont", "Maria Rossi")
    assert again[0] == first[1]
    assert again[1] not in first and again[1] == "<PERSON_3>"


def test_a_copy_of_stand_ins_restores_them_and_reuses_them() -> None:
    owner, peer = Vault(), Vault()
    [stand_in] = _write(owner, "acme", "s1", "Anna Schmidt", surrogate=True)
    assert not stand_in.startswith("<")
    _copied(owner, peer, "acme", "s1")
    assert peer.restore("acme", "s1", f"Dear {stand_in},") == "Dear Anna Schmidt,"
    assert _write(peer, "acme", "s1", "Anna Schmidt", surrogate=True) == [stand_in]


def test_a_copy_answers_only_its_own_tenant() -> None:
    owner, peer = Vault(), Vault()
    [placeholder] = _write(owner, "acme", "s1", "Anna Schmidt")
    _copied(owner, peer, "acme", "s1")
    with pytest.raises(SessionUnknownError):
        peer.restore("globex", "s1", placeholder)


def test_merging_keeps_what_the_receiver_already_hands_out() -> None:
    """Both replicas wrote the session (the ring moved it while a copy was on its way): no
    placeholder names two values, and what the receiver gave out stays."""
    owner, peer = Vault(), Vault()
    _write(owner, "acme", "s1", "Anna Schmidt")            # <PERSON_1> = Anna at the owner
    _write(peer, "acme", "s1", "Jean Dupont")              # <PERSON_1> = Jean at the peer
    _copied(owner, peer, "acme", "s1")
    assert peer.restore("acme", "s1", "<PERSON_1>") == "Jean Dupont"
    assert _write(peer, "acme", "s1", "Maria Rossi") == ["<PERSON_2>"]


def test_a_copy_counts_against_the_receivers_bounds() -> None:
    """Per-tenant session quota: a copy makes way from the tenant's own least recently used
    sessions; the vault's byte cap with another tenant's sessions: refused, nothing taken."""
    owner = Vault()
    peer = Vault(VaultSettings(max_sessions=10, max_sessions_per_tenant=2, max_bytes=40,
                               max_bytes_per_tenant=40))
    for session in ("a", "b", "c"):
        _write(owner, "acme", session, f"Person {session}")
        _copied(owner, peer, "acme", session)
    assert peer.usage("acme").sessions == ("b", "c")
    _write(peer, "globex", "g", "x" * 20)
    _write(owner, "initech", "big", "y" * 20)
    with pytest.raises(VaultFullError):
        _copied(owner, peer, "initech", "big")
    assert peer.usage("initech").sessions == ()
    assert peer.total_bytes() <= 40


def test_expiry_holds_on_the_copy() -> None:
    now = [0.0]
    owner = Vault(VaultSettings(ttl_s=10), clock=lambda: now[0])
    peer = Vault(VaultSettings(ttl_s=10), clock=lambda: now[0])
    _write(owner, "acme", "s1", "Anna Schmidt")
    _copied(owner, peer, "acme", "s1")
    now[0] = 9.0
    assert peer.touch("acme", "s1")   # a use at the owner, replicated: the copy lives on
    now[0] = 18.0
    assert peer.entry_count("acme", "s1") == 1
    now[0] = 30.0
    assert len(peer) == 0 and not peer.touch("acme", "s1")


def test_the_listener_hears_own_writes_and_uses_never_copies() -> None:
    owner, peer = Vault(), Vault()
    heard: list[tuple[str, str, bool]] = []
    owner.listener = lambda *event: heard.append(event)
    peer.listener = lambda *event: heard.append(("peer", *event))  # type: ignore[arg-type]
    owner.open("acme", "s1")
    [placeholder] = _write(owner, "acme", "s1", "Anna Schmidt")
    owner.restore("acme", "s1", placeholder)
    _copied(owner, peer, "acme", "s1")
    assert heard[0] == ("acme", "s1", True)          # opened
    assert ("acme", "s1", True) in heard[1:2]        # written
    assert heard[-1] == ("acme", "s1", False)        # used by Restore
    assert not [e for e in heard if e[0] == "peer"]  # taking a copy tells nobody: no echo


def test_a_session_kept_local_is_told_to_nobody_and_never_resent() -> None:
    """A gateway call's own session (opened with replicate off) lives and ends with its call on
    one replica: its writes and uses reach no listener, and a new peer is not sent it."""
    vault = Vault()
    heard: list[tuple[str, str, bool]] = []
    vault.listener = lambda *event: heard.append(event)
    vault.open("acme", "call-1", replicate=False)
    [placeholder] = _write(vault, "acme", "call-1", "Anna Schmidt")
    assert vault.restore("acme", "call-1", placeholder) == "Anna Schmidt"
    vault.open("acme", "api-1")
    assert heard == [("acme", "api-1", True)]
    assert vault.keys() == [("acme", "api-1")]


# --- over the mesh ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> pki.Pki:
    return pki.create(tmp_path_factory.mktemp("pki") / "suite")


def _listener(suite: pki.Pki) -> TlsSettings:
    return TlsSettings(cert=suite.cert(pki.REDACTION), key=suite.key(pki.REDACTION), client_ca=suite.ca)


async def _serve(servicer: redaction_pb2_grpc.SessionReplicaServicer, suite: pki.Pki,
                 port: int = 0) -> tuple[grpc.aio.Server, int]:
    server = grpc.aio.server()
    redaction_pb2_grpc.add_SessionReplicaServicer_to_server(servicer, server)
    port = server.add_secure_port(f"127.0.0.1:{port}", server_credentials(_listener(suite)))
    await server.start()
    return server, port


def _settings(*peers: str, **extra: float) -> ReplicationSettings:
    return ReplicationSettings(peers=list(peers), **{"timeout_s": 0.3, "heartbeat_s": 0.1, **extra})


async def _until(check: Callable[[], bool], timeout_s: float = 10.0) -> None:
    ends = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < ends, "not within the time"
        await asyncio.sleep(0.02)


@pytest.fixture
async def pair(suite: pki.Pki) -> AsyncIterator[tuple[Vault, Vault, Replicator, SessionReplicaServicer]]:
    """Vault `owner` replicating to vault `peer` behind a real SessionReplica server."""
    owner, peer = Vault(), Vault()
    receiving = SessionReplicaServicer(peer, _listener(suite), "peer-1", ReplicationMetrics())
    server, port = await _serve(receiving, suite)
    replicator = Replicator(owner, _settings(f"127.0.0.1:{port}"), client_tls(_listener(suite)),
                            "owner-1", ReplicationMetrics())
    await replicator.start()
    yield owner, peer, replicator, receiving
    await replicator.close()
    await server.stop(0)


async def test_a_session_written_on_one_replica_restores_on_its_peer(pair) -> None:
    owner, peer, replicator, _ = pair
    [placeholder] = _write(owner, "acme", "s1", "Anna Schmidt")
    await _until(lambda: peer.entry_count("acme", "s1") == 1)
    assert peer.restore("acme", "s1", placeholder) == "Anna Schmidt"
    owner.open("acme", "empty")   # a session Redact opened with nothing in it restores too
    await _until(lambda: "empty" in peer.usage("acme").sessions)
    assert replicator.metrics.total(Outcome.SENT) >= 2


async def _call(port: int, tls: ClientTlsSettings | None) -> grpc.StatusCode:
    channel = (grpc.aio.secure_channel(f"127.0.0.1:{port}", client_credentials(tls)) if tls
               else grpc.aio.insecure_channel(f"127.0.0.1:{port}"))
    message = rpb.ReplicatedSession(tenant="acme", session_id="forged",
                                    pseudonyms=[rpb.Pseudonym(entity_type="PERSON", original="x",
                                                              stand_in="<PERSON_1>")])
    async with channel:
        try:
            await redaction_pb2_grpc.SessionReplicaStub(channel).Replicate(
                rpb.ReplicateRequest(sessions=[message]), timeout=5)
        except grpc.aio.AioRpcError as exc:
            return exc.code()
    return grpc.StatusCode.OK


async def test_only_the_redaction_certificate_may_send_sessions(suite: pki.Pki) -> None:
    peer = Vault()
    server, port = await _serve(SessionReplicaServicer(peer, _listener(suite), "p", ReplicationMetrics()), suite)
    try:
        for name in (pki.ENVOY, pki.OPERATOR, pki.INFERENCE_PRIMARY):
            tls = ClientTlsSettings(ca=suite.ca, cert=suite.cert(name), key=suite.key(name))
            assert await _call(port, tls) == grpc.StatusCode.PERMISSION_DENIED, name
        assert await _call(port, client_tls(_listener(suite))) == grpc.StatusCode.OK
        assert peer.entry_count("acme", "forged") == 1   # (the redaction certificate's own write)
    finally:
        await server.stop(0)
    # A listener without client certificates (mesh.mtls off) takes nobody's sessions.
    open_peer = Vault()
    plain = grpc.aio.server()
    redaction_pb2_grpc.add_SessionReplicaServicer_to_server(
        SessionReplicaServicer(open_peer, None, "p", ReplicationMetrics()), plain)
    plain_port = plain.add_insecure_port("127.0.0.1:0")
    await plain.start()
    try:
        assert await _call(plain_port, None) == grpc.StatusCode.PERMISSION_DENIED
        assert len(open_peer) == 0
    finally:
        await plain.stop(0)


async def test_a_restarted_peer_is_sent_every_live_session_again(suite: pki.Pki, pair) -> None:
    owner, peer, replicator, receiving = pair
    for n in range(5):
        _write(owner, "acme", f"s{n}", f"Person {n}")
    await _until(lambda: len(peer) == 5)
    # The peer "restarts": same address, an empty vault, a new instance.
    fresh = Vault()
    receiving._vault = fresh          # noqa: SLF001 - the process behind the address is replaced
    receiving.instance = "peer-2"
    await _until(lambda: len(fresh) == 5)   # with no new write here: the heartbeat saw the new instance


async def test_a_peer_that_is_down_costs_the_writer_nothing_and_queues_nothing(suite: pki.Pki) -> None:
    """FAULT-INJECTED peer: an address nobody listens on."""
    owner = Vault()
    down = free_port()
    replicator = Replicator(owner, _settings(f"127.0.0.1:{down}", max_pending=5),
                            client_tls(_listener(suite)), "owner-1", ReplicationMetrics())
    await replicator.start()
    try:
        started = time.perf_counter()
        for n in range(200):
            _write(owner, "acme", f"s{n}", f"Person {n}")
        per_write_ms = (time.perf_counter() - started) / 200 * 1000
        assert per_write_ms < 5, per_write_ms
        await _until(lambda: replicator.metrics.total(Outcome.UNREACHABLE) > 0)
        peer = replicator._peers[f"127.0.0.1:{down}"]   # noqa: SLF001 - what waits for it
        assert len(peer.pending) <= 5
        assert replicator.metrics.total(Outcome.QUEUE_FULL) + replicator.metrics.total(Outcome.UNREACHABLE) > 0
        assert replicator.metrics.total(Outcome.SENT) == 0
        # Redaction itself goes on: every session restores where it was written.
        assert owner.restore("acme", "s7", "<PERSON_1>") == "Person 7"
    finally:
        await replicator.close()


class _SlowServicer(redaction_pb2_grpc.SessionReplicaServicer):
    """FAULT-INJECTED peer: answers each send only after 5 s."""

    async def Replicate(self, request: rpb.ReplicateRequest,
                        context: grpc.aio.ServicerContext) -> rpb.ReplicateResponse:
        await asyncio.sleep(5)
        return rpb.ReplicateResponse(instance="slow")


async def test_a_slow_peer_is_cut_at_the_deadline_and_costs_the_writer_nothing(suite: pki.Pki) -> None:
    owner = Vault()
    server, port = await _serve(_SlowServicer(), suite)
    replicator = Replicator(owner, _settings(f"127.0.0.1:{port}", timeout_s=0.2, max_pending=50),
                            client_tls(_listener(suite)), "owner-1", ReplicationMetrics())
    await replicator.start()
    try:
        started = time.perf_counter()
        for n in range(100):
            _write(owner, "acme", f"s{n}", f"Person {n}")
            await asyncio.sleep(0)
        assert (time.perf_counter() - started) < 1.0
        await _until(lambda: replicator.metrics.total(Outcome.UNREACHABLE) > 0, timeout_s=3)
        peer = replicator._peers[f"127.0.0.1:{port}"]   # noqa: SLF001
        assert len(peer.pending) <= 50
    finally:
        await replicator.close()
        await server.stop(0)


async def test_a_name_that_stands_for_the_replica_itself_is_skipped(suite: pki.Pki, tmp_path: Path) -> None:
    """compose's service name resolves to every replica, this one among them: it answers with the
    sender's own instance, and nothing more is sent there."""
    own = Vault()
    receiving = SessionReplicaServicer(own, _listener(suite), "self-1", ReplicationMetrics())
    server, port = await _serve(receiving, suite)
    replicator = Replicator(own, _settings(f"localhost:{port}"), client_tls(_listener(suite)), "self-1",
                            ReplicationMetrics())
    await replicator.start()
    try:
        await _until(lambda: replicator.peers == [])
        _write(own, "acme", "s1", "Anna Schmidt")
        await asyncio.sleep(0.3)
        assert replicator.metrics.total(Outcome.SENT) == 0
    finally:
        await replicator.close()
        await server.stop(0)


async def test_a_peer_back_after_seconds_down_is_found_within_heartbeats(suite: pki.Pki) -> None:
    """The peer's process goes away for 6 s (FAULT-INJECTED: its server stopped), then a fresh one
    (empty vault, new instance) listens on the same port: it has every session within 2.5 s. With
    gRPC's own reconnect backoff (1 s growing by 1.6x) the channel would next try only at about 9 s."""
    owner, first = Vault(), Vault()
    server, port = await _serve(SessionReplicaServicer(first, _listener(suite), "peer-1", ReplicationMetrics()),
                                suite)
    replicator = Replicator(owner, _settings(f"127.0.0.1:{port}", heartbeat_s=0.5), client_tls(_listener(suite)),
                            "owner-1", ReplicationMetrics())
    await replicator.start()
    try:
        for n in range(3):
            _write(owner, "acme", f"s{n}", f"Person {n}")
        await _until(lambda: len(first) == 3)
        await server.stop(0)
        await asyncio.sleep(6)
        fresh = Vault()
        server, _ = await _serve(SessionReplicaServicer(fresh, _listener(suite), "peer-2", ReplicationMetrics()),
                                 suite, port)
        started = time.monotonic()
        await _until(lambda: len(fresh) == 3, timeout_s=2.5)
        assert time.monotonic() - started < 2.5
    finally:
        await replicator.close()
        await server.stop(0)


# --- a starting replica asks its peers for their sessions before SERVING ------------------------

async def test_a_starting_replica_takes_every_session_its_peer_holds_page_by_page(suite: pki.Pki) -> None:
    """The survivor holds 150 sessions of two tenants; a starting replica (empty vault, the
    survivor's heartbeat far away) asks for them in pages of 64 and holds every one when `ready`
    returns COMPLETE; none is echoed back."""
    survivor, starting = Vault(), Vault()
    made = {(tenant, f"s{n}"): _write(survivor, tenant, f"s{n}", f"Person {tenant} {n}")[0]
            for tenant in ("acme", "globex") for n in range(75)}
    counted = ReplicationMetrics()
    server, port = await _serve(SessionReplicaServicer(survivor, _listener(suite), "survivor-1", counted), suite)
    replicator = Replicator(starting, _settings(f"127.0.0.1:{port}", heartbeat_s=60, timeout_s=2),
                            client_tls(_listener(suite)), "starting-1", ReplicationMetrics())
    await replicator.start()
    try:
        replicator.ask_peers()
        assert await replicator.ready(10) == "complete"
        assert len(starting) == 150
        assert replicator.metrics.total(Outcome.PULLED) == 150
        assert replicator.metrics.readiness == ["complete"]
        await asyncio.sleep(0.2)
        assert counted.total(Outcome.TAKEN) == 0   # nothing sent back to the survivor
        # (each Restore below is a use, which the survivor is then told of: a touch)
        assert all(starting.restore(t, s, p) == f"Person {t} {s[1:]}" for (t, s), p in made.items())
    finally:
        await replicator.close()
        await server.stop(0)


async def test_a_peer_nobody_listens_on_holds_nothing_to_wait_for(suite: pki.Pki) -> None:
    """FAULT-INJECTED peer: an address nobody listens on (both replicas starting at once, or the
    other one dead): the start is ready at once, COMPLETE."""
    replicator = Replicator(Vault(), _settings(f"127.0.0.1:{free_port()}", timeout_s=1),
                            client_tls(_listener(suite)), "starting-1", ReplicationMetrics())
    await replicator.start()
    try:
        started = time.monotonic()
        assert await replicator.ready(10) == "complete"
        assert time.monotonic() - started < 2
    finally:
        await replicator.close()


class _SlowSessions(redaction_pb2_grpc.SessionReplicaServicer):
    """FAULT-INJECTED peer: answers every ask for sessions only after 5 s (past the deadline)."""

    async def Sessions(self, request: rpb.SessionsRequest,
                       context: grpc.aio.ServicerContext) -> rpb.SessionsResponse:
        await asyncio.sleep(5)
        return rpb.SessionsResponse(instance="slow", done=True)


async def test_past_the_bound_a_start_serves_incomplete_and_says_so(
        suite: pki.Pki, caplog: pytest.LogCaptureFixture) -> None:
    server, port = await _serve(_SlowSessions(), suite)
    replicator = Replicator(Vault(), _settings(f"127.0.0.1:{port}", timeout_s=0.3),
                            client_tls(_listener(suite)), "starting-1", ReplicationMetrics())
    await replicator.start()
    try:
        started = time.monotonic()
        with caplog.at_level("WARNING", logger="ztgate.redaction.replication"):
            assert await replicator.ready(1.0) == "incomplete"
        assert 0.9 < time.monotonic() - started < 2
        assert replicator.metrics.readiness == ["incomplete"]
        assert any("ready_wait_s" in r.getMessage() for r in caplog.records)
    finally:
        await replicator.close()
        await server.stop(0)


async def test_only_the_redaction_certificate_may_ask_for_sessions(suite: pki.Pki) -> None:
    own = Vault()
    _write(own, "acme", "s1", "Anna Schmidt")
    server, port = await _serve(SessionReplicaServicer(own, _listener(suite), "peer-1", ReplicationMetrics()),
                                suite)
    try:
        tls = ClientTlsSettings(ca=suite.ca, cert=suite.cert(pki.OPERATOR), key=suite.key(pki.OPERATOR))
        async with grpc.aio.secure_channel(f"127.0.0.1:{port}", client_credentials(tls)) as channel:
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await redaction_pb2_grpc.SessionReplicaStub(channel).Sessions(rpb.SessionsRequest(), timeout=5)
        assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    finally:
        await server.stop(0)
