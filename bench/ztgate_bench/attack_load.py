"""The attack bench's two tenants, as gRPC clients of the gateway.

- `normal_load`: the tenant being protected: `Generate` with a prompt full of PII and `Redact` of it,
  one call at a time, each timed and checked (a Generate answer must come back restored, a Redact
  answer scrubbed); its Redact sessions are kept, to check later that they still restore.
- `run_attacks`: the hostile tenant: one bounded loop per attack kind (`KINDS`), all at once, each
  call with a deadline, until the phase ends. It runs in a process of its own (`AttackerProcess`), so
  that building and sending megabytes never shares an event loop (or a GIL) with the timing of the
  normal tenant's calls, and by default at the lowest CPU priority (niceness 19): on a deployment the
  attacker's client runs on a machine of its own, and its CPU is no part of the gateway's capacity.

Every attack names the victim tenant in its request body (`tenant`): through the gateway only the
verified token's tenant counts, so this must change nothing. Figures are counts and durations; no
text leaves this module but the scrubbed answers it checks for canaries.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
import concurrent.futures
import multiprocessing
import os
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from ztgate_bench import attack_inputs as inputs
from ztgate_bench.canaries import Canaries, carried
from ztgate_bench.gateway_bench import PROMPT as NORMAL_PROMPT
from ztgate.common.identity import bearer
from ztgate.gen.inference.v1 import inference_pb2, inference_pb2_grpc
from ztgate.gen.redaction.v1 import redaction_pb2, redaction_pb2_grpc
from ztgate.redaction.vault import PLACEHOLDER_RE

# The normal tenant's own values in NORMAL_PROMPT: none may reach the upstream, and a Restore by
# anyone else must never hand one back.
NORMAL_VALUES: dict[str, str] = {
    "normal name": "Maria Gonzalez",
    "normal email": "billing@acme-corp.example",
    "normal phone": "+1 415 555 0134",
    "normal card": "4111 1111 1111 1111",
    "normal AWS key": "AKIAZ7Q3XH2LMN4PQ5RS",
}
# What a restored answer must contain (a pseudonymised value, so it came back from the vault).
RESTORED_VALUE = NORMAL_VALUES["normal email"]
WRONG_ANSWER = "WRONG_ANSWER"
CANCELLED = "CANCELLED"
# How long a cancelled call lives before its client gives up on it.
CANCEL_AFTER_S = 0.02
# Answers may be large (a 1 MiB chunk comes back scrubbed; the default limit is 4 MiB). A subchannel
# pool per channel: else every channel of a process to the gateway shares one connection, and the
# kinds (or the normal tenant's two clients) would share its fate and its flow control.
CHANNEL_OPTIONS = [("grpc.max_receive_message_length", 64 * 1024 * 1024), ("grpc.use_local_subchannel_pool", 1)]


# A failed call's status message is kept up to this many characters (statuses quote no payload).
DETAIL_CHARS = 160


@dataclass(frozen=True, slots=True)
class Call:
    method: str        # Generate or Redact
    code: str          # a grpc.StatusCode name, or WRONG_ANSWER (status OK, wrong text)
    duration_ms: float
    detail: str = ""   # a failed call's status message (the first DETAIL_CHARS)
    started_s: float = 0.0  # when it began (time.monotonic()), to place it against a fault
    served_by: str = ""     # the inference instance that answered a Generate, if it said


def detail_of(exc: grpc.aio.AioRpcError) -> str:
    return " ".join((exc.details() or "").split())[:DETAIL_CHARS]


@dataclass(frozen=True, slots=True)
class Session:
    """A normal tenant's Redact: its session and the scrubbed text (placeholders to restore)."""

    session_id: str
    text: str


@dataclass(slots=True)
class NormalLoad:
    calls: list[Call] = field(default_factory=list)
    sessions: list[Session] = field(default_factory=list)


def check_generate(text: str) -> bool:
    """A Generate answer came back restored: the tenant's value is there and no placeholder is left."""
    return RESTORED_VALUE in text and not PLACEHOLDER_RE.search(text)


def check_redact(text: str) -> bool:
    """A Redact answer is scrubbed: none of the tenant's values, and at least one placeholder."""
    return not carried(text, NORMAL_VALUES) and bool(PLACEHOLDER_RE.search(text))


async def normal_load(gateway: str, token: str, *, calls: int, interval_s: float = 0.0,
                      until: float | None = None, timeout_s: float = 10.0,
                      methods: Sequence[str] = ("Generate", "Redact")) -> NormalLoad:
    """`calls` calls (the methods in turn): one at a time, or with `interval_s`, one starting every
    `interval_s` on a fixed schedule whether or not the previous one has ended (open loop: a tenant's
    calls arrive on their own clock, so a slow call neither delays nor hides the ones after it);
    none starts at or after `until` (time.monotonic()) if given."""
    load = NormalLoad()
    metadata = bearer(token)
    async with grpc.aio.insecure_channel(gateway, options=CHANNEL_OPTIONS) as channel:
        inference = inference_pb2_grpc.InferenceStub(channel)
        redaction = redaction_pb2_grpc.RedactionStub(channel)

        async def call(method: str) -> None:
            started = time.perf_counter()
            try:
                if method == "Generate":
                    reply = await inference.Generate(inference_pb2.GenerateRequest(prompt=NORMAL_PROMPT),
                                                     timeout=timeout_s, metadata=metadata)
                    code = "OK" if check_generate(reply.text) else WRONG_ANSWER
                else:
                    reply = await redaction.Redact(redaction_pb2.RedactRequest(text=NORMAL_PROMPT),
                                                   timeout=timeout_s, metadata=metadata)
                    code = "OK" if check_redact(reply.text) else WRONG_ANSWER
                    if code == "OK":
                        load.sessions.append(Session(reply.session_id, reply.text))
            except grpc.aio.AioRpcError as exc:
                code, detail = exc.code().name, detail_of(exc)
            else:
                detail = ""
            load.calls.append(Call(method, code, (time.perf_counter() - started) * 1000, detail))

        first = time.monotonic()
        pending: list[asyncio.Task[None]] = []
        for index in range(calls):
            method = methods[index % len(methods)]
            if not interval_s:
                if until is not None and time.monotonic() >= until:
                    break
                await call(method)
                continue
            wait = first + index * interval_s - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            if until is not None and time.monotonic() >= until:
                break
            pending.append(asyncio.create_task(call(method)))
        await asyncio.gather(*pending)
    return load


async def restorable(gateway: str, token: str, sessions: Sequence[Session], *, limit_s: float = 20.0,
                     timeout_s: float = 2.0, concurrency: int = 8, retry_s: float = 0.2) -> Counter[str]:
    """Restores each of the tenant's own sessions, `concurrency` at a time (so that a stuck service
    costs one timeout, not one per session): `restored`, `lost` (answered, value not back), the
    status name of a failed call (NOT_FOUND: the vault no longer holds the session), or `unchecked`
    once `limit_s` is spent. A call the tenant's rate limit refuses (RESOURCE_EXHAUSTED) is tried
    again after `retry_s`: the limit says nothing about the session."""
    outcome: Counter[str] = Counter()
    ends = time.monotonic() + limit_s
    gate = asyncio.Semaphore(concurrency)
    async with grpc.aio.insecure_channel(gateway, options=CHANNEL_OPTIONS) as channel:
        stub = redaction_pb2_grpc.RedactionStub(channel)

        async def restore(session: Session) -> None:
            async with gate:
                while True:
                    left = ends - time.monotonic()
                    if left <= 0:
                        outcome["unchecked"] += 1
                        return
                    try:
                        reply = await stub.Restore(redaction_pb2.RestoreRequest(
                            text=session.text, session_id=session.session_id),
                            timeout=min(timeout_s, left), metadata=bearer(token))
                    except grpc.aio.AioRpcError as exc:
                        if exc.code() == grpc.StatusCode.RESOURCE_EXHAUSTED:
                            await asyncio.sleep(retry_s)
                            continue
                        outcome[exc.code().name] += 1
                        return
                    outcome["restored" if RESTORED_VALUE in reply.text else "lost"] += 1
                    return

        await asyncio.gather(*(restore(session) for session in sessions))
    return outcome


async def time_to_recover(gateway: str, token: str, *, limit_s: float, timeout_s: float = 5.0) -> float | None:
    """Seconds until a normal Generate succeeds again (None: not within `limit_s`)."""
    started = time.monotonic()
    while time.monotonic() - started < limit_s:
        attempt = time.monotonic()
        load = await normal_load(gateway, token, calls=1, methods=("Generate",),
                                 timeout_s=min(timeout_s, max(0.5, limit_s - (attempt - started))))
        if load.calls[0].code == "OK":
            return time.monotonic() - started
        await asyncio.sleep(max(0.0, 0.5 - (time.monotonic() - attempt)))
    return None


# --- the hostile tenant ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AttackPlan:
    """Everything the attacker process needs (plain data: it is pickled across)."""

    gateway: str
    token: str
    kinds: tuple[str, ...]
    duration_s: float
    call_timeout_s: float
    seed: int
    victim_tenant: str
    victim_sessions: tuple[Session, ...] = ()


@dataclass(slots=True)
class KindFigures:
    """One attack kind's calls: statuses as "API CODE" -> count, durations, and what leaked."""

    calls: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    durations_ms: list[float] = field(default_factory=list)
    # Scrubbed answers (Redact, RedactStream) that still carried one of the run's canaries.
    canaries_in_answers: int = 0
    # Restore answers that handed back one of the victim tenant's values.
    victim_values_returned: int = 0
    # "API CODE" -> the status message of the first call that failed so.
    details: dict[str, str] = field(default_factory=dict)

    def add(self, api: str, code: str, duration_ms: float, detail: str = "") -> None:
        key = f"{api} {code}"
        self.statuses[key] = self.statuses.get(key, 0) + 1
        self.durations_ms.append(duration_ms)
        if detail:
            self.details.setdefault(key, detail)


@dataclass(frozen=True, slots=True)
class Kind:
    description: str
    concurrency: int
    max_calls: int
    step: Callable[[_Attacker, KindFigures, int], Awaitable[None]]


class _Attacker:
    """One attack run's inputs (built once, lazily) and its calls."""

    def __init__(self, plan: AttackPlan, channel: grpc.aio.Channel,
                 sync_channel: grpc.Channel | None = None) -> None:
        self.plan = plan
        self.canaries = Canaries.from_seed(plan.seed)
        self.values = self.canaries.labelled()
        self.metadata = bearer(plan.token)
        self.inference = inference_pb2_grpc.InferenceStub(channel)
        self.redaction = redaction_pb2_grpc.RedactionStub(channel)
        self.health = health_pb2_grpc.HealthStub(channel)
        # RedactStream through gRPC's synchronous client (`sync_channel`, the kind's own): the asyncio
        # client reports a write on a stream the server has already closed (a refusal while chunks
        # are still going out) as its own INTERNAL "Internal error from Core", hiding the status the
        # server sent; the synchronous client stops writing and reports the server's.
        self.sync_redaction = (redaction_pb2_grpc.RedactionStub(sync_channel)
                               if sync_channel is not None else None)
        # The attacker's own live session (live_restore): id and scrubbed text, made once.
        self.own_session: Session | None = None

    @cached_property
    def stream_1mib(self) -> str:
        return inputs.adversarial_text(inputs.STREAM_CHUNK_BYTES, self.canaries)

    @cached_property
    def prompt_8mib(self) -> inference_pb2.GenerateRequest:
        return self._spoofed(inputs.huge_prompt(self.canaries))

    @cached_property
    def messages_20k(self) -> inference_pb2.GenerateRequest:
        return self._spoofed(inputs.many_messages(self.canaries))

    @cached_property
    def name_dense_16k(self) -> str:
        return inputs.name_dense(self.canaries, 16 * inputs.KiB)

    @cached_property
    def large_prompt(self) -> inference_pb2.GenerateRequest:
        return self._spoofed(inference_pb2.GenerateRequest(
            prompt=inputs.name_dense(self.canaries, inputs.LARGE_PROMPT_BYTES)))

    @cached_property
    def cancelled_text(self) -> str:
        return inputs.pii_dense(self.canaries, 256 * inputs.KiB)

    def food(self, family: str) -> str:
        cache = self.__dict__.setdefault("_food", {})
        if family not in cache:
            cache[family] = inputs.family_text(family, inputs.FOOD_BYTES, self.canaries)
        return cache[family]

    def _spoofed(self, request: inference_pb2.GenerateRequest) -> inference_pb2.GenerateRequest:
        request.tenant = self.plan.victim_tenant
        return request

    async def timed(self, figures: KindFigures, api: str, call: Callable[[], Awaitable[str | None]]) -> str | None:
        """Runs one call; records its status and duration; returns its text (None if it failed)."""
        started = time.perf_counter()
        detail = ""
        try:
            text, code = await call(), "OK"
        except grpc.aio.AioRpcError as exc:
            text, code, detail = None, exc.code().name, detail_of(exc)
        figures.add(api, code, (time.perf_counter() - started) * 1000, detail)
        return text

    def check_answer(self, figures: KindFigures, text: str | None) -> None:
        if text is not None and carried(text, self.values):
            figures.canaries_in_answers += 1

    async def generate(self, figures: KindFigures, request: inference_pb2.GenerateRequest) -> None:
        async def call() -> str:
            reply = await self.inference.Generate(request, timeout=self.plan.call_timeout_s, metadata=self.metadata)
            return reply.text
        await self.timed(figures, "Generate", call)

    async def redact(self, figures: KindFigures, text: str) -> None:
        async def call() -> str:
            reply = await self.redaction.Redact(redaction_pb2.RedactRequest(
                text=text, tenant=self.plan.victim_tenant), timeout=self.plan.call_timeout_s, metadata=self.metadata)
            return reply.text
        self.check_answer(figures, await self.timed(figures, "Redact", call))

    async def redact_stream(self, figures: KindFigures, pieces: Sequence[str]) -> None:
        chunks = [redaction_pb2.RedactChunk(text=piece, tenant=self.plan.victim_tenant,
                                            final=index == len(pieces) - 1)
                  for index, piece in enumerate(pieces)]
        if self.sync_redaction is not None:
            await self.sync_stream(figures, chunks)
            return

        async def stream_chunks() -> AsyncIterator[redaction_pb2.RedactChunk]:
            for chunk in chunks:
                yield chunk

        async def call() -> str:
            stream = self.redaction.RedactStream(stream_chunks(), timeout=self.plan.call_timeout_s,
                                                 metadata=self.metadata)
            return "".join([chunk.text async for chunk in stream])
        self.check_answer(figures, await self.timed(figures, "RedactStream", call))

    async def sync_stream(self, figures: KindFigures, chunks: Sequence[redaction_pb2.RedactChunk],
                          cancel_after_s: float | None = None) -> None:
        """One RedactStream on the synchronous client (in a thread), recorded with the status the
        server sent (CANCELLED when `cancel_after_s` passed first and this client cancelled it)."""
        stub = self.sync_redaction
        assert stub is not None

        def call() -> tuple[str | None, str, str]:
            stream = stub.RedactStream(iter(chunks), timeout=self.plan.call_timeout_s, metadata=self.metadata)
            timer = threading.Timer(cancel_after_s, stream.cancel) if cancel_after_s else None
            if timer is not None:
                timer.start()
            try:
                return "".join(chunk.text for chunk in stream), "OK", ""
            except grpc.RpcError as exc:
                code = exc.code()  # type: ignore[attr-defined]
                return None, code.name, " ".join((exc.details() or "").split())[:DETAIL_CHARS]  # type: ignore[attr-defined]
            finally:
                if timer is not None:
                    timer.cancel()
        started = time.perf_counter()
        text, code, detail = await asyncio.to_thread(call)
        figures.add("RedactStream", code, (time.perf_counter() - started) * 1000, detail if code != "OK" else "")
        self.check_answer(figures, text)

    async def restore(self, figures: KindFigures, session: Session) -> None:
        async def call() -> str:
            reply = await self.redaction.Restore(redaction_pb2.RestoreRequest(
                text=session.text, session_id=session.session_id, tenant=self.plan.victim_tenant),
                timeout=self.plan.call_timeout_s, metadata=self.metadata)
            return reply.text
        text = await self.timed(figures, "Restore", call)
        if text is not None and carried(text, NORMAL_VALUES):
            figures.victim_values_returned += 1

    async def door(self, figures: KindFigures, body: bytes) -> None:
        """One OpenAI-door call (HTTP/1.1, the attacker's token), recorded as "Door STATUS"."""
        started = time.perf_counter()
        status, text = await asyncio.to_thread(post_door, self.plan.gateway, self.plan.token, body,
                                               self.plan.call_timeout_s)
        failed = status != 200
        figures.add("Door", str(status), (time.perf_counter() - started) * 1000,
                    " ".join(text.split())[:DETAIL_CHARS] if failed else "")
        self.check_answer(figures, text)

    async def cancelled(self, figures: KindFigures, api: str, call: grpc.aio.Call,
                        drain: Callable[[], Awaitable[object]]) -> None:
        """Gives `call` CANCEL_AFTER_S, then cancels it (recorded as CANCELLED unless it ended first)."""
        started = time.perf_counter()
        task = asyncio.ensure_future(drain())
        done, _ = await asyncio.wait({task}, timeout=CANCEL_AFTER_S)
        if not done:
            call.cancel()
        detail = ""
        try:
            await task
            code = "OK"
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if current is not None and current.cancelling():  # the bench is stopping this worker
                raise
            code = CANCELLED
        except grpc.aio.AioRpcError as exc:
            code, detail = exc.code().name, detail_of(exc)
        figures.add(api, code, (time.perf_counter() - started) * 1000, detail)


async def _stream_32k(a: _Attacker, f: KindFigures, n: int) -> None:
    await a.redact_stream(f, [a.canaries.sentence(), inputs.CHUNK_32K])


async def _stream_1mib(a: _Attacker, f: KindFigures, n: int) -> None:
    await a.redact_stream(f, [a.stream_1mib])


async def _prompt_8mib(a: _Attacker, f: KindFigures, n: int) -> None:
    await a.generate(f, a.prompt_8mib)


async def _messages_20k(a: _Attacker, f: KindFigures, n: int) -> None:
    await a.generate(f, a.messages_20k)


async def _max_tokens(a: _Attacker, f: KindFigures, n: int) -> None:
    await a.generate(f, a._spoofed(inputs.huge_max_tokens(a.canaries)))


async def _stops(a: _Attacker, f: KindFigures, n: int) -> None:
    await a.generate(f, a._spoofed(inputs.many_stops(a.canaries)))


def _food(family: str) -> Callable[[_Attacker, KindFigures, int], Awaitable[None]]:
    """The family's text through every API in turn: Redact (both tiers), RedactStream (the output
    tier, in chunks), Generate (the prompt scrubbed, the echoed answer scrubbed on its way back)."""
    async def step(a: _Attacker, f: KindFigures, n: int) -> None:
        text = a.food(family)
        if n % 3 == 0:
            await a.redact(f, text)
        elif n % 3 == 1:
            await a.redact_stream(f, list(inputs.chunks(text, inputs.FOOD_CHUNK_CHARS)))
        else:
            await a.generate(f, a._spoofed(inference_pb2.GenerateRequest(prompt=text)))
    return step


async def _session_flood(a: _Attacker, f: KindFigures, n: int) -> None:
    # A value to pseudonymise, so that every call leaves a session in the vault.
    await a.redact(f, f"Reach me at {a.canaries.email} (ticket {n}).")


async def _cross_tenant_restore(a: _Attacker, f: KindFigures, n: int) -> None:
    sessions = a.plan.victim_sessions
    if not sessions:  # nothing to steal: a made-up session, which must not answer either
        sessions = (Session(f"guess-{n}", "<PERSON_1> <EMAIL_ADDRESS_1>"),)
    await a.restore(f, sessions[n % len(sessions)])


async def _cancelled(a: _Attacker, f: KindFigures, n: int) -> None:
    text = a.cancelled_text
    if n % 2 == 0:
        call = a.inference.Generate(a._spoofed(inference_pb2.GenerateRequest(prompt=text)),
                                    timeout=a.plan.call_timeout_s, metadata=a.metadata)
        await a.cancelled(f, "Generate", call, lambda: call)
        return

    if a.sync_redaction is not None:
        await a.sync_stream(f, [redaction_pb2.RedactChunk(text=piece, tenant=a.plan.victim_tenant)
                                for piece in inputs.chunks(text, inputs.FOOD_CHUNK_CHARS)], CANCEL_AFTER_S)
        return

    async def chunks() -> AsyncIterator[redaction_pb2.RedactChunk]:
        for piece in inputs.chunks(text, inputs.FOOD_CHUNK_CHARS):
            yield redaction_pb2.RedactChunk(text=piece, tenant=a.plan.victim_tenant)
    stream = a.redaction.RedactStream(chunks(), timeout=a.plan.call_timeout_s, metadata=a.metadata)

    async def drain() -> None:
        async for chunk in stream:
            if carried(chunk.text, a.values):
                f.canaries_in_answers += 1
    await a.cancelled(f, "RedactStream", stream, drain)


def post_door(gateway: str, token: str, body: bytes, timeout_s: float) -> tuple[int, str]:
    """POST /v1/chat/completions through the gateway: (HTTP status, 0 when no answer; body text)."""
    request = urllib.request.Request(f"http://{gateway}/v1/chat/completions", data=body, headers={
        "content-type": "application/json", "authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:  # noqa: S310 - loopback
            return response.status, response.read().decode(errors="replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(errors="replace")
    except OSError as exc:
        return 0, type(exc).__name__


async def _held_streams(a: _Attacker, f: KindFigures, n: int) -> None:
    """A health Watch with no token, headers only, held until the gateway ends it."""
    async def call() -> str:
        stream = a.health.Watch(health_pb2.HealthCheckRequest(service=""), timeout=a.plan.call_timeout_s)
        async for _ in stream:
            pass
        return ""
    await a.timed(f, "Watch", call)


async def _queue_flood(a: _Attacker, f: KindFigures, n: int) -> None:
    await a.redact(f, a.name_dense_16k)


async def _large_bodies(a: _Attacker, f: KindFigures, n: int) -> None:
    await a.door(f, inputs.door_body("attack", f"Ticket {n}. {a.name_dense_16k}", inputs.LARGE_BODY_BYTES))


async def _live_restore(a: _Attacker, f: KindFigures, n: int) -> None:
    """Restore of 1 MiB of placeholders on the attacker's own live session (made by its first call)."""
    if a.own_session is None:
        async def call() -> str:
            reply = await a.redaction.Redact(redaction_pb2.RedactRequest(text=a.canaries.sentence()),
                                             timeout=a.plan.call_timeout_s, metadata=a.metadata)
            a.own_session = Session(reply.session_id, reply.text)
            return reply.text
        a.check_answer(f, await a.timed(f, "Redact", call))
        return
    placeholders = [m.group(0) for m in PLACEHOLDER_RE.finditer(a.own_session.text)]
    if not placeholders:  # nothing was pseudonymised: nothing to restore at size
        a.own_session = None
        return
    await a.restore(f, Session(a.own_session.session_id, inputs.restore_text(placeholders)))


async def _label_flood(a: _Attacker, f: KindFigures, n: int) -> None:
    await a.door(f, inputs.door_body(inputs.label_model(a.plan.seed, n), "Say hello."))


async def _large_prompts(a: _Attacker, f: KindFigures, n: int) -> None:
    await a.generate(f, a.large_prompt)


async def _bench_acts(a: _Attacker, f: KindFigures, n: int) -> None:
    """Not the attacker's: the bench itself acts (replica_kill), the attacker sends nothing."""


# Kinds the bench carries out itself rather than the attacker (no worker of the attacker's).
BENCH_KINDS = frozenset({"replica_kill", "none"})
# The control (`--attacks none`): no attack at all, so the two phases differ only by the machine's own
# noise (other jobs on shared cores); never part of the default, every real kind.
CONTROL_KIND = "none"

KINDS: dict[str, Kind] = {
    "stream_32k": Kind('RedactStream: a canary chunk, then the 32 KB chunk "1-" * 16000 + "a"', 1, 100, _stream_32k),
    "stream_1mib": Kind("RedactStream: one 1 MiB chunk of every regex-food family", 1, 100, _stream_1mib),
    "prompt_8mib": Kind("Generate: an 8 MiB prompt of every family", 1, 100, _prompt_8mib),
    "messages_20k": Kind(f"Generate: {inputs.MESSAGE_COUNT:,} chat messages", 1, 100, _messages_20k),
    "max_tokens_1e9": Kind("Generate: sampling.max_tokens 10^9", 1, 1000, _max_tokens),
    "stop_sequences": Kind(f"Generate: {inputs.STOP_COUNT:,} stop sequences", 1, 100, _stops),
    **{f"regex_{family}": Kind(f"Redact, RedactStream, Generate in turn: {inputs.FOOD_BYTES // inputs.KiB} KiB "
                               f"of {family}", 1, 300, _food(family))
       for family in inputs.FAMILIES},
    "session_flood": Kind("Redact, 8 at once, each in a fresh session (past the attacker's vault quota)", 8, 20_000,
                          _session_flood),
    "cross_tenant_restore": Kind("Restore of the normal tenant's session ids, its tenant in the body", 1, 2000,
                                 _cross_tenant_restore),
    "cancelled": Kind(f"Generate or RedactStream of 256 KiB of PII, cancelled after {CANCEL_AFTER_S * 1000:g} ms",
                      1, 1000, _cancelled),
    "held_streams": Kind("health Watch streams with no token, headers only, 64 held at once", 64, 2000,
                         _held_streams),
    "queue_flood": Kind("Redact of 16 KiB of names, 96 at once (past redaction.max_queued_per_tenant)", 96,
                        2000, _queue_flood),
    "large_bodies": Kind(f"OpenAI door: {inputs.LARGE_BODY_BYTES:,}-byte bodies (whitespace around 16 KiB "
                         "of names), 16 at once", 16, 2000, _large_bodies),
    # 20,000: a refused Restore takes about a millisecond, and 2,000 of them ended the attack within
    # seconds of its phase (the phase's end bounds it).
    "live_restore": Kind("Restore of 1 MiB of placeholders on the attacker's own live session, 4 at once", 4,
                         20_000, _live_restore),
    "label_flood": Kind("OpenAI door: a new model name on every call (metric labels)", 2, 2000, _label_flood),
    "large_prompts": Kind(f"Generate: two {inputs.LARGE_PROMPT_BYTES // inputs.KiB} KiB name-dense prompts at "
                          "once (limits.max_prompt_bytes)", 2, 1000, _large_prompts),
    "replica_kill": Kind("the bench SIGKILLs the second of two redaction replicas a third into the phase", 0, 0,
                         _bench_acts),
    CONTROL_KIND: Kind("the control: nothing is sent (the two phases differ by the machine's own noise)", 0, 0,
                       _bench_acts),
}
# What the bench runs unless told: every attack kind, not the control.
DEFAULT_KINDS = tuple(kind for kind in KINDS if kind != CONTROL_KIND)


def check_kinds(kinds: Sequence[str]) -> tuple[str, ...]:
    """The kinds asked for, in KINDS order; ValueError naming any unknown one."""
    unknown = sorted(set(kinds) - set(KINDS))
    if unknown:
        raise ValueError(f"unknown attack kind {', '.join(unknown)}; known: {', '.join(KINDS)}")
    return tuple(k for k in KINDS if k in set(kinds))


async def _attack(plan: AttackPlan) -> dict[str, KindFigures]:
    figures = {kind: KindFigures() for kind in plan.kinds}
    deadline = time.monotonic() + plan.duration_s
    # The door's HTTP calls run in threads: one each for every worker, or they would queue in
    # asyncio's default pool (a few threads on a small machine) past their own deadline, unrecorded.
    asyncio.get_running_loop().set_default_executor(
        ThreadPoolExecutor(max_workers=sum(KINDS[kind].concurrency for kind in plan.kinds) + 4))
    # A connection per kind, as separate clients would have: no kind queues behind another's upload.
    channels = {kind: grpc.aio.insecure_channel(plan.gateway, options=CHANNEL_OPTIONS) for kind in plan.kinds}
    # And a synchronous one per kind for RedactStream (`_Attacker.sync_stream`: the server's status).
    sync_channels = {kind: grpc.insecure_channel(plan.gateway, options=CHANNEL_OPTIONS) for kind in plan.kinds}

    async def worker(kind: str) -> None:
        spec, mine = KINDS[kind], figures[kind]
        attacker = _Attacker(plan, channels[kind], sync_channels[kind])
        while mine.calls < spec.max_calls and (mine.calls == 0 or time.monotonic() < deadline):
            n = mine.calls
            mine.calls += 1
            await spec.step(attacker, mine, n)

    tasks = [asyncio.ensure_future(worker(kind)) for kind in plan.kinds
             for _ in range(KINDS[kind].concurrency)]
    if not tasks:  # nothing of the attacker's to send (the control, or the bench's own acts only)
        await asyncio.sleep(plan.duration_s)
        return figures
    try:
        # Every call has its deadline; this bounds the phase even if one does not keep it.
        await asyncio.wait(tasks, timeout=plan.duration_s + plan.call_timeout_s + 5.0)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for channel in channels.values():
            await channel.close()
        for sync in sync_channels.values():
            sync.close()
    return figures


def run_attacks(plan: AttackPlan) -> dict[str, KindFigures]:
    """The attack phase (in the attacker process): figures per kind."""
    return asyncio.run(_attack(plan))


def _lower_priority(nice: int) -> None:
    """The attacker process's first act: its CPU niceness raised by `nice` (0: the bench's own)."""
    if nice:
        os.nice(nice)


def _ready() -> tuple[int, int]:
    """The attacker process's niceness and id (and its imports done)."""
    return os.nice(0), os.getpid()


# The attacker's default niceness: the lowest CPU priority there is. On a deployment the attacker's
# client is on a machine of its own; on the bench's shared cores it must not take the gateway's CPU.
LOWEST_PRIORITY = 19


class AttackerProcess:
    """A process of its own for the attacker, with its own event loop (spawned: nothing of the caller's
    gRPC state is forked), its niceness raised by `nice` (0: as the caller; the bench passes
    LOWEST_PRIORITY unless told otherwise)."""

    def __init__(self, nice: int = 0) -> None:
        self._pool = concurrent.futures.ProcessPoolExecutor(
            1, mp_context=multiprocessing.get_context("spawn"), initializer=_lower_priority, initargs=(nice,))
        # The niceness the attacker process runs at and its id (read from it once started).
        self.nice: int | None = None
        self.pid: int | None = None

    def __enter__(self) -> AttackerProcess:
        # imports done before the phase starts
        self.nice, self.pid = self._pool.submit(_ready).result(timeout=120)
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    async def run(self, plan: AttackPlan) -> dict[str, KindFigures]:
        """Runs the attack phase there; fails (and the process is ended) past its bound."""
        future = asyncio.wrap_future(self._pool.submit(run_attacks, plan))
        return await asyncio.wait_for(future, plan.duration_s + plan.call_timeout_s + 60.0)

    def close(self) -> None:
        processes = list((getattr(self._pool, "_processes", None) or {}).values())
        self._pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:  # a run still going past its bound is ended, not waited for
            if process.is_alive():
                process.terminate()
                process.join(10)
