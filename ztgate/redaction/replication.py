"""Session replication between redaction replicas (docs/adr/0017-session-replication.md).

Each replica notes every session it writes or uses (the vault's listener: a key and whether the
content changed, with the vault's lock held, nothing more) and a task per peer sends those sessions,
whole (or touched only), over the mesh's mTLS with a short deadline; the peer merges each copy into
its own vault under the same bounds as its own sessions (`Vault.take`). Nothing here is on a call's
path: a peer that is down or slow only loses what was waiting for it, dropped and counted
(`ztgate.redaction.replication.sessions`), never queued without bound. A peer answers every send
with its instance (new each start): a new one (a restart, a replica added) is sent every live session
again. A starting replica also asks each peer for its sessions (`Sessions`, paged) and reports SERVING
once it has them, or after `ready_wait_s` (logged, counted): docs/adr/0025. Only the redaction
certificate may send or ask (`SessionReplicaServicer`; mesh.mtls off: nobody). Values are never logged.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
import threading
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

import grpc
from opentelemetry import metrics

from ztgate.common import semconv as sc
from ztgate.common.errors import InvalidArgument, PermissionDenied, ZtgateError
from ztgate.common.handlers import unary
from ztgate.common.pki import REDACTION
from ztgate.common.server import split_host_port
from ztgate.common.settings import ClientTlsSettings, TlsSettings
from ztgate.common.tenants import is_tenant
from ztgate.common.tls import client_credentials, peer_name
from ztgate.gen.redaction.v1 import redaction_pb2 as rpb
from ztgate.gen.redaction.v1 import redaction_pb2_grpc
from ztgate.parts import SESSION_REPLICA_SERVICE
from ztgate.redaction.config import ReplicationSettings
from ztgate.redaction.vault import SessionCopy, Vault

log = logging.getLogger(__name__)
SERVICE_NAME = SESSION_REPLICA_SERVICE
_SESSION_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:-")


class Outcome(StrEnum):
    """What became of a session sent or taken (the `ztgate.redaction.replication.outcome` label)."""

    SENT = "sent"              # a peer took it
    REFUSED = "refused"        # a peer answered, and its vault refused it (its bounds)
    QUEUE_FULL = "queue_full"  # dropped: max_pending were already waiting for the peer
    UNREACHABLE = "unreachable"  # dropped: the send failed (peer down, slow past timeout_s)
    TOO_LARGE = "too_large"    # dropped: one session past max_batch_bytes
    TAKEN = "taken"            # taken from a peer into this vault
    NOT_TAKEN = "not_taken"    # a peer's copy this vault refused (bounds, invalid ids)
    PULLED = "pulled"          # taken from a peer's answer to this replica's ask at start


class Readiness(StrEnum):
    """How a start ended its wait for the peers' sessions (`ztgate.redaction.replication.ready`)."""

    COMPLETE = "complete"      # every peer answered in full (or nobody listens at its address)
    INCOMPLETE = "incomplete"  # served after ready_wait_s, or a peer could not be asked


class ReplicationMetrics:
    """One counter of sessions by outcome and peer (peers: the configured entries, a bounded set)."""

    def __init__(self, meter: metrics.Meter | None = None) -> None:
        meter = meter or metrics.get_meter("ztgate.redaction")
        spec = next(s for s in sc.CATALOGUE if s.name == sc.REPLICATION_SESSIONS)
        self._sessions = meter.create_counter(spec.name, unit=spec.unit, description=spec.description)
        ready = next(s for s in sc.CATALOGUE if s.name == sc.REPLICATION_READY)
        self._ready = meter.create_counter(ready.name, unit=ready.unit, description=ready.description)
        self.readiness: list[Readiness] = []
        self._lock = threading.Lock()
        # Counted here too, for tests and `counts`.
        self.counts: dict[tuple[str, str], int] = {}

    def add(self, outcome: Outcome, peer: str, n: int = 1) -> None:
        if n <= 0:
            return
        self._sessions.add(n, {sc.REPLICATION_OUTCOME: outcome.value, sc.REPLICATION_PEER: peer})
        with self._lock:
            self.counts[(outcome.value, peer)] = self.counts.get((outcome.value, peer), 0) + n

    def ready(self, outcome: Readiness) -> None:
        self._ready.add(1, {sc.REPLICATION_OUTCOME: outcome.value})
        self.readiness.append(outcome)

    def total(self, outcome: Outcome) -> int:
        with self._lock:
            return sum(n for (name, _), n in self.counts.items() if name == outcome.value)


def to_message(copy: SessionCopy) -> rpb.ReplicatedSession:
    return rpb.ReplicatedSession(
        tenant=copy.tenant, session_id=copy.session_id,
        pseudonyms=[rpb.Pseudonym(entity_type=t, original=o, stand_in=s)
                    for (t, o), s in copy.placeholders.items()],
        counters=copy.counters, surrogates=copy.surrogates, forms=copy.forms, names=sorted(copy.names),
        mails=copy.mails, mail_locals={k: v or "" for k, v in copy.mail_locals.items()}, phones=copy.phones)


def from_message(message: rpb.ReplicatedSession) -> SessionCopy:
    """The copy a message carries; InvalidArgument for a tenant or session id no call could name."""
    if not is_tenant(message.tenant) or not 0 < len(message.session_id) <= 128 \
            or not set(message.session_id) <= _SESSION_ID_CHARS:
        raise InvalidArgument("a replicated session names an invalid tenant or session id")
    return SessionCopy(
        message.tenant, message.session_id,
        {(p.entity_type, p.original): p.stand_in for p in message.pseudonyms}, dict(message.counters),
        dict(message.surrogates), dict(message.forms), frozenset(message.names), dict(message.mails),
        {k: v or None for k, v in message.mail_locals.items()}, dict(message.phones))


def _copy_bytes(copy: SessionCopy) -> int:
    """About what the copy weighs on the wire: its originals and stand-ins, each a few times."""
    return 3 * sum(len(o.encode()) + len(s.encode()) + len(t) for (t, o), s in copy.placeholders.items())


class SessionReplicaServicer(redaction_pb2_grpc.SessionReplicaServicer):
    """Takes peers' sessions into this replica's vault: only from the redaction certificate."""

    def __init__(self, vault: Vault, tls: TlsSettings | None, instance: str,
                 metrics_: ReplicationMetrics, settings: ReplicationSettings | None = None) -> None:
        self._vault = vault
        self._certificates = tls is not None and tls.client_ca is not None
        self.instance = instance
        self._metrics = metrics_
        self._settings = settings or ReplicationSettings()

    def _check_caller(self, context: grpc.aio.ServicerContext) -> None:
        if not self._certificates or peer_name(context) != REDACTION:
            raise PermissionDenied(
                f"only another redaction replica (certificate {REDACTION}) may send or ask for sessions"
                + ("" if self._certificates else "; this listener takes no client certificates "
                   "(mesh.mtls off), so nobody can be"))

    @unary
    async def Sessions(self, request: rpb.SessionsRequest,
                       context: grpc.aio.ServicerContext) -> rpb.SessionsResponse:
        """One page of the sessions this replica holds, after the request's cursor, in key order
        (within batch_sessions and max_batch_bytes; a single session past max_batch_bytes is
        skipped, counted as for a send)."""
        self._check_caller(context)
        after = (request.after_tenant, request.after_session_id)
        keys = sorted(key for key in self._vault.keys() if key > after)
        messages: list[rpb.ReplicatedSession] = []
        weight, scanned = 0, 0
        for key in keys:
            if len(messages) >= self._settings.batch_sessions:
                break
            copy = self._vault.export(*key)
            if copy is not None:
                size = _copy_bytes(copy)
                if size > self._settings.max_batch_bytes:
                    self._metrics.add(Outcome.TOO_LARGE, "ask")
                elif messages and weight + size > self._settings.max_batch_bytes:
                    break
                else:
                    weight += size
                    messages.append(to_message(copy))
            scanned += 1
        return rpb.SessionsResponse(sessions=messages, instance=self.instance, done=scanned == len(keys))

    @unary
    async def Replicate(self, request: rpb.ReplicateRequest,
                        context: grpc.aio.ServicerContext) -> rpb.ReplicateResponse:
        self._check_caller(context)
        kept = refused = 0
        for message in request.sessions:
            try:
                if message.touch_only:
                    if not is_tenant(message.tenant):
                        raise InvalidArgument("invalid tenant")
                    self._vault.touch(message.tenant, message.session_id)
                else:
                    self._vault.take(from_message(message))
                kept += 1
            except (ZtgateError, ValueError):   # its bounds, an invalid id: this one is not taken
                refused += 1
        self._metrics.add(Outcome.TAKEN, "in", kept)
        self._metrics.add(Outcome.NOT_TAKEN, "in", refused)
        return rpb.ReplicateResponse(instance=self.instance, kept=kept, refused=refused)


def client_tls(tls: TlsSettings | None) -> ClientTlsSettings | None:
    """A replica's credentials towards its peers: its own certificate, trusting the suite CA its
    listener trusts (None without client certificates: no replication)."""
    if tls is None or tls.client_ca is None:
        return None
    return ClientTlsSettings(ca=tls.client_ca, cert=tls.cert, key=tls.key)


@dataclass
class _Peer:
    """One peer address and what waits for it: session keys -> whether the content changed."""

    entry: str             # the configured peer it came from (the metrics' label)
    address: str
    channel: grpc.aio.Channel
    pending: dict[tuple[str, str], bool] = field(default_factory=dict)
    instance: str | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    gone: bool = False     # itself (answered with our own instance), or no longer resolved


class Replicator:
    """Sends this replica's sessions to its peers (module doc). `start` on the event loop; `note` is
    called by the vault from any thread."""

    def __init__(self, vault: Vault, settings: ReplicationSettings, tls: ClientTlsSettings | None,
                 instance: str, metrics_: ReplicationMetrics) -> None:
        self._vault = vault
        self._settings = settings
        self._tls = tls
        self.instance = instance
        self.metrics = metrics_
        self._lock = threading.Lock()
        self._peers: dict[str, _Peer] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._resolver: asyncio.Task[None] | None = None
        self._asking: asyncio.Task[bool] | None = None

    @property
    def peers(self) -> list[str]:
        with self._lock:
            return [a for a, p in self._peers.items() if not p.gone]

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._vault.listener = self.note
        await self._resolve()
        self._resolver = asyncio.ensure_future(self._resolve_every())

    def ask_peers(self) -> None:
        """Starts asking every peer for its sessions (`catch_up`); `ready` waits for it."""
        if self._asking is None:
            self._asking = asyncio.ensure_future(self.catch_up())

    async def ready(self, wait_s: float) -> Readiness:
        """Waits at most `wait_s` for `ask_peers` to end: COMPLETE when every peer's sessions are
        here; else INCOMPLETE, logged and counted, the asking going on in the background."""
        if self._asking is None:
            self.ask_peers()
        assert self._asking is not None
        try:
            complete = await asyncio.wait_for(asyncio.shield(self._asking), max(wait_s, 0.0))
        except asyncio.TimeoutError:
            complete = False
        outcome = Readiness.COMPLETE if complete else Readiness.INCOMPLETE
        self.metrics.ready(outcome)
        if complete:
            log.info("took the peers' sessions (%d) before serving", self.metrics.total(Outcome.PULLED),
                     extra={"event": "replication_ready"})
        else:
            log.warning("serving without every peer's sessions after redaction.replication.ready_wait_s "
                        "(%.1f s): %d taken so far; a session a peer holds may not restore here until "
                        "its copy arrives", wait_s, self.metrics.total(Outcome.PULLED),
                        extra={"event": "replication_ready_incomplete"})
        return outcome

    async def catch_up(self) -> bool:
        """Asks every peer for every session it holds and takes them into this vault; True when
        every peer answered in full or has nobody listening (a peer down holds nothing to get)."""
        peers = [p for p in list(self._peers.values()) if not p.gone]
        done = await asyncio.gather(*(self._ask(peer) for peer in peers))
        return all(done)

    async def _ask(self, peer: _Peer) -> bool:
        stub = redaction_pb2_grpc.SessionReplicaStub(peer.channel)
        after = ("", "")
        retry_s = min(self._settings.heartbeat_s, 0.2)
        while True:
            try:
                reply = await stub.Sessions(rpb.SessionsRequest(after_tenant=after[0], after_session_id=after[1]),
                                            timeout=self._settings.timeout_s)
            except grpc.aio.AioRpcError as exc:
                if exc.code() == grpc.StatusCode.UNAVAILABLE and peer.instance is None and after == ("", ""):
                    log.info("replication peer %s does not answer: nothing to take from it", peer.address,
                             extra={"peer": peer.address, "event": "replication_peer_down"})
                    return True
                if exc.code() in (grpc.StatusCode.UNIMPLEMENTED, grpc.StatusCode.PERMISSION_DENIED,
                                  grpc.StatusCode.UNAUTHENTICATED):
                    log.warning("replication peer %s cannot be asked for its sessions (%s)", peer.address,
                                exc.code().name, extra={"peer": peer.address, "event": "replication_ask_refused"})
                    return False
                await asyncio.sleep(retry_s)   # slow or briefly unreachable mid-way: ask that page again
                continue
            if reply.instance == self.instance:   # a name that stands for this replica too
                peer.gone = True
                return True
            peer.instance = reply.instance   # it holds what it sends us; no need to echo them back
            taken = refused = 0
            for message in reply.sessions:
                try:
                    self._vault.take(from_message(message))
                    taken += 1
                except (ZtgateError, ValueError):
                    refused += 1
            self.metrics.add(Outcome.PULLED, peer.entry, taken)
            self.metrics.add(Outcome.NOT_TAKEN, peer.entry, refused)
            if reply.done or not reply.sessions:
                return True
            after = (reply.sessions[-1].tenant, reply.sessions[-1].session_id)

    async def close(self) -> None:
        self._vault.listener = None
        tasks = [t for t in (self._resolver, self._asking, *(p.task for p in self._peers.values()))
                 if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for peer in self._peers.values():
            await peer.channel.close()

    def note(self, tenant: str, session_id: str, changed: bool) -> None:
        """A session written (`changed`) or used here: waits for each peer (module doc)."""
        key = (tenant, session_id)
        with self._lock:
            peers = [p for p in self._peers.values() if not p.gone]
            for peer in peers:
                self._queue(peer, key, changed)
        loop = self._loop
        if loop is not None and peers:
            try:
                loop.call_soon_threadsafe(self._wake_all)
            except RuntimeError:   # the loop closed: the part is stopping
                pass

    def _queue(self, peer: _Peer, key: tuple[str, str], changed: bool) -> None:
        """With self._lock held."""
        if key in peer.pending:
            peer.pending[key] = peer.pending[key] or changed
        elif len(peer.pending) >= self._settings.max_pending:
            self.metrics.add(Outcome.QUEUE_FULL, peer.entry)
        else:
            peer.pending[key] = changed

    def _wake_all(self) -> None:
        for peer in list(self._peers.values()):
            peer.wake.set()

    async def _resolve_every(self) -> None:
        while True:
            await asyncio.sleep(max(self._settings.heartbeat_s, 1.0))
            try:
                await self._resolve()
            except Exception:  # noqa: BLE001 - a failed lookup keeps the peers it had
                log.warning("could not look up the replication peers", exc_info=True)

    async def _resolve(self) -> None:
        """The configured peers' addresses now (a name may stand for several): new ones get a
        task, vanished ones stop."""
        found: dict[str, str] = {}
        for entry in self._settings.peers:
            for address in await _addresses(entry):
                found.setdefault(address, entry)
        for address, entry in found.items():
            if address not in self._peers:
                peer = _Peer(entry, address, self._channel(address))
                self._peers[address] = peer
                peer.task = asyncio.ensure_future(self._run(peer))
        for address, peer in list(self._peers.items()):
            if address not in found and peer.task is not None:
                peer.task.cancel()
                del self._peers[address]
                await peer.channel.close()

    def _channel(self, address: str) -> grpc.aio.Channel:
        """A channel to one peer address; over TLS the peer must present the redaction certificate
        (its DNS name, whatever address was dialled: a resolved pod or container address). It tries
        to reconnect to a peer that went away every heartbeat at most (gRPC's own backoff grows to
        two minutes: a restarted peer would be found long after Envoy sends it sessions)."""
        every_ms = max(100, int(self._settings.heartbeat_s * 1000))
        options: list[tuple[str, int | str]] = [
            ("grpc.initial_reconnect_backoff_ms", every_ms), ("grpc.min_reconnect_backoff_ms", every_ms),
            ("grpc.max_reconnect_backoff_ms", every_ms)]
        if self._tls is None:
            return grpc.aio.insecure_channel(address, options=options)
        return grpc.aio.secure_channel(address, client_credentials(self._tls),
                                       options=[*options, ("grpc.ssl_target_name_override", REDACTION)])

    async def _run(self, peer: _Peer) -> None:
        stub = redaction_pb2_grpc.SessionReplicaStub(peer.channel)
        while True:
            try:
                await asyncio.wait_for(peer.wake.wait(), self._settings.heartbeat_s)
            except asyncio.TimeoutError:
                pass
            peer.wake.clear()
            while True:
                batch = self._take(peer)
                sent = await self._send(peer, stub, batch)
                if not sent:   # down: the next try after a heartbeat's wait, whatever is noted
                    await asyncio.sleep(self._settings.heartbeat_s)
                if not sent or not peer.pending or peer.gone:
                    break

    def _take(self, peer: _Peer) -> list[tuple[tuple[str, str], bool]]:
        with self._lock:
            keys = list(peer.pending.items())[:self._settings.batch_sessions]
            for key, _ in keys:
                del peer.pending[key]
        return keys

    async def _send(self, peer: _Peer, stub: redaction_pb2_grpc.SessionReplicaStub,
                    batch: list[tuple[tuple[str, str], bool]]) -> bool:
        """One send (a heartbeat when `batch` is empty); False when the peer could not be reached."""
        messages, weight = [], 0
        for (tenant, session_id), changed in batch:
            if not changed:
                messages.append(rpb.ReplicatedSession(tenant=tenant, session_id=session_id, touch_only=True))
                continue
            copy = self._vault.export(tenant, session_id)
            if copy is None:     # dropped or expired here since
                continue
            size = _copy_bytes(copy)
            if size > self._settings.max_batch_bytes:
                self.metrics.add(Outcome.TOO_LARGE, peer.entry)
                continue
            if weight + size > self._settings.max_batch_bytes:
                with self._lock:   # the next send takes it
                    self._queue(peer, (tenant, session_id), True)
                continue
            weight += size
            messages.append(to_message(copy))
        if batch and not messages:
            return True
        try:
            reply = await stub.Replicate(rpb.ReplicateRequest(sessions=messages),
                                         timeout=self._settings.timeout_s)
        except grpc.aio.AioRpcError as exc:
            with self._lock:   # nothing waits for a peer that cannot be reached
                dropped = len(peer.pending)
                peer.pending.clear()
            self.metrics.add(Outcome.UNREACHABLE, peer.entry, len(messages) + dropped)
            if peer.instance is not None:
                log.warning("replication peer %s unreachable (%s); its sessions are dropped until it "
                            "answers again", peer.address, exc.code().name,
                            extra={"peer": peer.address, "event": "replication_peer_down"})
            peer.instance = None
            return False
        self.metrics.add(Outcome.SENT, peer.entry, reply.kept)
        self.metrics.add(Outcome.REFUSED, peer.entry, reply.refused)
        if reply.instance == self.instance:   # a name that stands for this replica too
            peer.gone = True
            with self._lock:
                peer.pending.clear()
            return True
        if reply.instance != peer.instance:
            first = peer.instance is None
            peer.instance = reply.instance
            keys = self._vault.keys()
            with self._lock:
                for key in keys:
                    self._queue(peer, key, True)
            log.info("replication peer %s %s: sending it %d sessions", peer.address,
                     "answers" if first else "restarted", len(keys),
                     extra={"peer": peer.address, "event": "replication_peer_up"})
        return True


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


async def _addresses(entry: str) -> Iterable[str]:
    """host:port for every address `entry`'s host resolves to (itself for an IP address)."""
    host, port = split_host_port(entry)
    if _is_ip(host):
        return [entry]
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError:
        return []
    out = []
    for family, _, _, _, sockaddr in infos:
        ip = sockaddr[0]
        out.append(f"[{ip}]:{port}" if family == socket.AF_INET6 else f"{ip}:{port}")
    return list(dict.fromkeys(out))


def new_instance() -> str:
    """This process's instance, new on each start."""
    return uuid.uuid4().hex
