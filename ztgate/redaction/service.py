"""The redaction service's domain facade: size limits, sessions, policies, tiers, operators, vault.

Detection runs in the analysis worker pool, a tenant's fair share at a time, each call until its
deadline; policy, operators and the vault run here, because the vault is per-process state. Output is
scanned by the pattern tier only. Nothing CPU-bound runs on the event loop (`off_loop`), and anything
that fails raises: no path returns the input unredacted. Details: docs/architecture.md
("Module notes").
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
import threading
import uuid
from collections.abc import Callable, Collection, Coroutine, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from ztgate.common.errors import DeadlineExceeded, InvalidArgument, PermissionDenied, ResourceExhausted
from ztgate.common.tenants import DEFAULT_TENANT, TENANT_RULE, is_tenant
from ztgate.redaction.anonymising import anonymize
from ztgate.redaction.anonymising.anonymize import Finding
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.config import RedactionSettings
from ztgate.redaction.detection.normalise import detect_on_view
from ztgate.redaction.detection.patterns.scanner import PatternScanner
from ztgate.redaction.metrics import RedactionMetrics, ScrubPath
from ztgate.redaction.policies import Action, Policy, PolicyStore
from ztgate.redaction.runtime.analysis_pool import AnalysisPool, AnalyzerSpec
from ztgate.redaction.runtime.fair_share import TenantCalls, TenantCpu, TenantRate, TenantSlots, default_share
from ztgate.redaction.runtime.thread_lanes import ThreadLanes
from ztgate.redaction.streaming import Emitted, StreamScrubber
from ztgate.redaction.types import SECRET_ENTITY_TYPES, Detection
from ztgate.redaction.vault import Vault

if TYPE_CHECKING:
    from ztgate.redaction.anonymising.keys import OperatorKeys

__all__ = ["Finding", "RedactResult", "RedactionService", "RedactionStream"]

T = TypeVar("T")
_SESSION_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
# A text of at least this many characters that a stream or answer is scanned with goes to an analysis
# worker, in its tenant's share of them (`scan_for`): in the server's threads its scan held the
# interpreter lock that the event loop serving every tenant needs, for longer than its own CPU time
# whenever the machine's cores were busy (docs/adr/0043). A shorter one (a normal answer chunk)
# is scanned in the thread: the hop to a worker costs about what its scan does.
SCAN_IN_WORKER_CHARS = 16 * 1024
# Findings a policy is applied to on the event loop (a few hundred microseconds at most, about what a
# thread hop costs); a request with more is applied in a worker thread.
INLINE_FINDINGS = 32

P = ParamSpec("P")


@dataclass(frozen=True, slots=True)
class RedactResult:
    text: str
    findings: tuple[Finding, ...]
    session_id: str


def _check_ids(tenant: str, session_id: str) -> str:
    """The tenant (empty: `default`, as the servers' TenantAccess decides it) once both ids are valid."""
    tenant = tenant or DEFAULT_TENANT
    if not is_tenant(tenant):
        raise InvalidArgument(f"tenant must be {TENANT_RULE}")
    if session_id and not _SESSION_ID.fullmatch(session_id):
        raise InvalidArgument("session_id must be 1-128 letters, digits or . _ : - "
                              "(leave it empty to start a new session)")
    return tenant


def wanted_entities(policy: Policy, supported: Collection[str]) -> list[str] | None:
    """Entity types the policy acts on; None means all (nothing to skip)."""
    wanted = [e for e in supported if policy.rule_for(e).action is not Action.ALLOW]
    return None if len(wanted) == len(supported) else wanted


def output_policy(policy: Policy) -> Policy:
    """What model output is scrubbed with: the policy's secret rules, PII left as is.

    A `block` on a secret becomes `redact` (an answer already under way cannot be refused). PII is
    allowed because pseudonyms are restored after scrubbing, and because the model never saw the
    originals: the values in its output are placeholders, or what it made up.
    """
    entities = {}
    for entity_type in SECRET_ENTITY_TYPES:
        rule = policy.rule_for(entity_type)
        action = Action.REDACT if rule.action is Action.BLOCK else rule.action
        entities[entity_type] = {"action": action, "threshold": rule.threshold,
                                 "mask_char": rule.mask_char}
    return Policy(name=f"{policy.name[:56]}.output", default_action=Action.ALLOW,
                  default_threshold=policy.default_threshold, entities=entities)


class RedactionStream:
    """One RedactStream call (or a gateway answer, by `path`): chunks in, scrubbed chunks out,
    offsets counted over the whole stream; what it acts on is counted under `path`."""

    def __init__(self, service: RedactionService, policy: Policy, tenant: str, session_id: str,
                 path: ScrubPath) -> None:
        self.session_id = session_id
        self.tenant = tenant
        self.path = path
        self._service = service
        self._policy = policy
        self._consumed = 0  # code points of input already emitted
        self._scrubber: StreamScrubber[Finding] = StreamScrubber(self._scan, self._apply)

    def _scan(self, text: str) -> list[Detection]:
        return self._service.scan_for(self.tenant, text)

    def _apply(self, segment: str, detections: list[Detection]) -> tuple[str, list[Finding]]:
        outcome = anonymize.redact(segment, detections, self._policy, self._service.vault,
                                   self.tenant, self.session_id, operators=self._service.operators)
        self._service.metrics.findings(self.path, self.tenant, outcome.findings)
        base = self._consumed
        self._consumed += len(segment)
        return outcome.text, [f._replace(start=f.start + base, end=f.end + base)
                              for f in outcome.findings]

    def feed(self, text: str, final: bool = False) -> Emitted[Finding]:
        """What may be sent after `text`; everything left when it is `final` (CPU-bound: callers on the
        event loop use `off_loop`)."""
        self._service.check_size(text, self._scrubber.held)
        if self.path is ScrubPath.REDACT_STREAM:  # a model's answer, already under way, is not refused
            self._service.check_cpu(self.tenant)
        out = self._scrubber.feed(text)
        if final:
            tail = self._scrubber.finish()
            out.text += tail.text
            out.findings += tail.findings
        return out

    def finish(self) -> Emitted[Finding]:
        return self._scrubber.finish()

    def scrub(self, text: str) -> Emitted[Finding]:
        """A whole text in one pass (one scan, nothing held), for a stream nothing was fed to yet."""
        self._service.check_size(text)
        return Emitted(*self._apply(text, self._scan(text)))


class RedactionService:
    def __init__(self, *, policies: PolicyStore, pool: AnalysisPool, scanner: PatternScanner,
                 vault: Vault, operators: Operators, max_text_bytes: int,
                 max_inflight_per_tenant: int | None = None,
                 max_queued_per_tenant: int = 64,
                 lanes: ThreadLanes | None = None,
                 metrics: RedactionMetrics | None = None,
                 restore_chars_per_s_per_tenant: int = 0,
                 cpu_ms_per_s_per_tenant: int = 0,
                 cpu_reserve_ns_per_char: int | None = None,
                 scan_in_worker_chars: int = 0) -> None:
        self.policies = policies
        self.pool = pool
        # None: the default share of the pool's workers.
        self.tenant_slots = TenantSlots(max_inflight_per_tenant or default_share(pool.size))
        # A tenant's calls in its line at once: its running share plus so many waiting.
        self.tenant_calls = TenantCalls(self.tenant_slots.limit, max_queued_per_tenant)
        # Threads for CPU work off the event loop, a fair share per tenant (`off_loop`).
        self.lanes = lanes or ThreadLanes(RedactionSettings().worker_threads)
        # One budget of this process's CPU per tenant, across every kind of its work here: the lanes
        # charge each job's CPU, each call checks it (`check_cpu`; 0: no limit; docs/adr/0031).
        self.cpu_budget = TenantCpu(cpu_ms_per_s_per_tenant / 1000)
        self.lanes.cpu = self.cpu_budget
        # Jobs under way count against it from their start, by an estimate per character of their
        # text (None: the lanes' own; docs/adr/0035).
        if cpu_reserve_ns_per_char is not None:
            self.lanes.reserve_s_per_char = cpu_reserve_ns_per_char / 1e9
        self.scanner = scanner
        # Texts this long or longer are scanned in the analysis workers (`scan_for`; 0: never, as
        # with a scanner of the caller's own, which the workers do not have).
        self.scan_in_worker_chars = scan_in_worker_chars
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread: int | None = None
        self.vault = vault
        self.operators = operators
        self.max_text_bytes = max_text_bytes
        # Restore's cost per tenant on the event loop (`restore_on_loop`; 0: no limit).
        self.restore_budget = TenantRate(restore_chars_per_s_per_tenant, max_text_bytes,
                                         "redaction.restore_chars_per_s_per_tenant")
        # Findings counted where they are acted on (here); refusals and timings by the servicers.
        self.metrics = metrics or RedactionMetrics()
        # Output policies by the name of the policy they derive from (policies are read-only).
        self._output_policies: dict[str, Policy] = {}
        operators.check(policies.policies())  # a policy needing a key we lack stops start-up

    async def off_loop(self, tenant: str, fn: Callable[P, T], /,
                       *args: P.args, **kwargs: P.kwargs) -> T:
        """`fn(*args, **kwargs)` in a worker thread within `tenant`'s share of them, so that the event
        loop keeps serving and no tenant's work holds every thread (thread_lanes.py)."""
        return await self.lanes.run(tenant or DEFAULT_TENANT, fn, *args, **kwargs)

    def scan(self, text: str) -> list[Detection]:
        """The pattern tier on the normalised view of `text` (normalise.py), in spans of `text`: what
        streams and answers are scrubbed with."""
        return detect_on_view(self.scanner.scan, text)

    def scan_for(self, tenant: str, text: str) -> list[Detection]:
        """`scan`, for a tenant's stream or answer, from one of the lanes' threads: a text of
        `scan_in_worker_chars` or more is scanned in an analysis worker, within the tenant's share
        of them, this thread waiting without the interpreter lock, and the worker's CPU charged to
        the tenant's budget as the thread's own would be. On the event loop's thread, or before
        `start`, it scans here."""
        loop = self._loop
        if (not self.scan_in_worker_chars or len(text) < self.scan_in_worker_chars or loop is None
                or threading.get_ident() == self._loop_thread):
            return self.scan(text)
        future = asyncio.run_coroutine_threadsafe(self._scan_in_worker(tenant, text), loop)
        try:  # the pool ends the scan by its timeout; this bounds the wait if the loop itself stops
            return future.result(timeout=self.pool.timeout_s + 1.0)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise DeadlineExceeded(f"a scan did not finish within {self.pool.timeout_s:g} s "
                                   "(redaction.analysis_timeout_s)") from None

    async def _scan_in_worker(self, tenant: str, text: str) -> list[Detection]:
        deadline = self._deadline(None)
        async with self.tenant_slots.slot(tenant or DEFAULT_TENANT, deadline) as hold:
            detections, cpu_s = await self.pool.scan(text, deadline=deadline, on_abandon=hold)
        self.cpu_budget.charge(tenant or DEFAULT_TENANT, cpu_s)
        return detections

    @classmethod
    def from_settings(cls, settings: RedactionSettings, keys: OperatorKeys) -> RedactionService:
        """The service as configured, with the `hash`/`encrypt` keys from `keys.resolve`."""
        return cls(
            policies=PolicyStore.load(settings.policies),
            pool=AnalysisPool(settings.workers or None,
                              spec=AnalyzerSpec(cache_dir=str(settings.cache_dir)),
                              timeout_s=settings.analysis_timeout_s),
            scanner=PatternScanner(cache_dir=settings.cache_dir),
            vault=Vault(settings.vault),
            operators=Operators(hash_key=keys.hash_key, encrypt_key=keys.encrypt_key),
            max_text_bytes=settings.max_text_bytes,
            max_inflight_per_tenant=settings.max_inflight_per_tenant or None,
            max_queued_per_tenant=settings.max_queued_per_tenant,
            lanes=ThreadLanes(settings.worker_threads, settings.worker_threads_per_tenant or None),
            metrics=RedactionMetrics(max_tenants=settings.metrics_max_tenants),
            restore_chars_per_s_per_tenant=settings.restore_chars_per_s_per_tenant,
            cpu_ms_per_s_per_tenant=settings.cpu_ms_per_s_per_tenant,
            cpu_reserve_ns_per_char=settings.cpu_reserve_ns_per_char,
            scan_in_worker_chars=SCAN_IN_WORKER_CHARS,
        )

    async def start(self) -> None:
        """Loads spaCy and the Hyperscan database in every worker; health turns SERVING after."""
        await self.pool.start()
        self._loop, self._loop_thread = asyncio.get_running_loop(), threading.get_ident()

    async def close(self) -> None:
        await self.pool.close()
        self.lanes.close()

    def _policy(self, name: str, tenant: str) -> Policy:
        """A tenant with a policy of its own cannot pick another (a weaker one) by name, and a policy
        bound to tenants (its `tenants` list) serves only those tenants."""
        chosen = self.policies.resolve(name, tenant)
        own = self.policies.resolve("", tenant) if tenant else None
        if own is not None and own.name != "default" and chosen.name != own.name:
            raise PermissionDenied(f"tenant '{tenant}' is bound to policy '{own.name}' and cannot "
                                   f"use '{chosen.name}'")
        if chosen.tenants and (tenant or "default") not in chosen.tenants:
            raise PermissionDenied(f"policy '{chosen.name}' is bound to other tenants; tenant "
                                   f"'{tenant or 'default'}' cannot use it")
        return chosen

    def _open(self, tenant: str, session_id: str, *, replicate: bool = True) -> str:
        """The call's session (the one named, else a new one), made to exist before any work: a
        Redact that pseudonymises nothing still returns a session that Restore accepts, and a
        vault that cannot take the session refuses the call before analysis. `replicate`: whether
        peer replicas get it (not a gateway call's own session, which lives and ends with its call
        on this replica)."""
        session_id = session_id or uuid.uuid4().hex
        self.vault.open(tenant, session_id, replicate=replicate)
        return session_id

    def check_cpu(self, tenant: str) -> None:
        """Refuses a call of a tenant that has spent its budget of this process's CPU
        (RESOURCE_EXHAUSTED naming redaction.cpu_ms_per_s_per_tenant), before any of its work."""
        self.cpu_budget.check(tenant or DEFAULT_TENANT)

    def check_size(self, text: str, already: int = 0) -> None:
        # Code points are at most 4 bytes: skip the encode when the text is clearly small.
        if (len(text) + already) * 4 <= self.max_text_bytes:
            return
        size = len(text.encode("utf-8")) + already
        if size > self.max_text_bytes:
            raise ResourceExhausted(f"text is {size} bytes; the limit is {self.max_text_bytes} bytes "
                                    "(split it, or raise redaction.max_text_bytes)")

    def _deadline(self, timeout_s: float | None) -> float:
        """When a call's analyses must be done, in the event loop's clock: the caller's remaining
        time; a caller without a deadline of its own gets the pool's timeout, waiting included.
        (No one analysis runs longer than the pool's timeout either way.)"""
        budget = self.pool.timeout_s if timeout_s is None else timeout_s
        return asyncio.get_running_loop().time() + budget

    async def _detect(self, text: str, policy: Policy, tenant: str, deadline: float) -> list[Detection]:
        if not text:
            return []
        async with self.tenant_slots.slot(tenant, deadline) as hold:
            return await self.pool.analyze(text, wanted_entities(policy, self.pool.supported_entities),
                                           deadline=deadline, on_abandon=hold)

    async def redact(self, text: str, *, policy: str = "", tenant: str = "",
                     session_id: str = "", timeout_s: float | None = None) -> RedactResult:
        """`timeout_s`: the caller's remaining time (its gRPC deadline), None when it has none."""
        tenant = _check_ids(tenant, session_id)
        self.check_size(text)
        self.check_cpu(tenant)
        chosen = self._policy(policy, tenant)
        with self.tenant_calls.admit(tenant):  # a refused call opens no session
            session_id = self._open(tenant, session_id)
            detections = await self._detect(text, chosen, tenant, self._deadline(timeout_s))
        [outcome] = await self._apply([text], [detections], chosen, tenant, session_id,
                                      ScrubPath.REDACT)
        return RedactResult(outcome.text, outcome.findings, session_id)

    async def redact_many(self, texts: Sequence[str], *, policy: str = "", tenant: str = "",
                          session_id: str = "", timeout_s: float | None = None,
                          path: ScrubPath = ScrubPath.REDACT, chat: bool = False,
                          replicate: bool = True) -> list[RedactResult]:
        """Redacts the texts of one request (a prompt, chat messages) in one session (`chat`: the
        policy as chat applies it; `replicate`: whether peer replicas get a session it opens; `_open`).

        Detection runs concurrently (within the tenant's share of the workers), and the first text
        that fails stops the others; pseudonyms are then allocated in text order, so `<PERSON_1>` is
        the first person of the first text. A block in any text refuses the whole call.
        `path`: where its findings are counted (the gateway's prompts: GATEWAY_REQUEST). `chat`: the
        gateway's scrub of a chat or completion call, which applies the policy's chat form
        (`Policy.for_chat`: surrogates unless the policy's `chat_pseudonyms` says placeholders).
        """
        tenant = _check_ids(tenant, session_id)
        for text in texts:
            self.check_size(text)
        self.check_cpu(tenant)
        chosen = self._policy(policy, tenant)
        if chat:
            chosen = chosen.for_chat
        deadline = self._deadline(timeout_s)
        with self.tenant_calls.admit(tenant):  # a refused call opens no session
            session_id = self._open(tenant, session_id, replicate=replicate)
            if len(texts) == 1:  # the usual prompt: no tasks to gather
                found = [await self._detect(texts[0], chosen, tenant, deadline)]
            else:
                found = await _all_or_none([self._detect(text, chosen, tenant, deadline)
                                            for text in texts])
        outcomes = await self._apply(texts, found, chosen, tenant, session_id, path)
        return [RedactResult(o.text, o.findings, session_id) for o in outcomes]

    async def _apply(self, texts: Sequence[str], found: Sequence[Sequence[Detection]], policy: Policy,
                     tenant: str, session_id: str, path: ScrubPath) -> list[anonymize.RedactOutcome]:
        """The policy applied to each text in order (pseudonyms numbered in text order); what it
        acted on is counted once every text succeeded."""
        def apply() -> list[anonymize.RedactOutcome]:
            return [anonymize.redact(text, detections, policy, self.vault, tenant, session_id,
                                     operators=self.operators)
                    for text, detections in zip(texts, found)]
        outcomes = apply() if sum(map(len, found)) <= INLINE_FINDINGS else (
            await self.off_loop(tenant, apply))
        self.metrics.findings(path, tenant, (f for outcome in outcomes for f in outcome.findings))
        return outcomes

    async def analyze(self, text: str, *, policy: str = "", tenant: str = "",
                      timeout_s: float | None = None) -> list[Finding]:
        tenant = _check_ids(tenant, "")
        self.check_size(text)
        self.check_cpu(tenant)
        chosen = self._policy(policy, tenant)
        with self.tenant_calls.admit(tenant):
            detections = await self._detect(text, chosen, tenant, self._deadline(timeout_s))

        def findings() -> list[Finding]:
            return [Finding(d.entity_type, d.start, d.end, d.score, d.recognizer, "",
                            chosen.rule_for(d.entity_type).action)
                    for d in anonymize.analyze(text, detections, chosen)]
        return findings() if len(detections) <= INLINE_FINDINGS else (
            await self.off_loop(tenant, findings))

    def restore(self, text: str, *, session_id: str, tenant: str = "") -> str:
        """The session's pseudonyms put back; NOT_FOUND when the tenant has no such session
        (CPU-bound: callers on the event loop use `restore_on_loop`)."""
        tenant = self._check_restore(text, session_id, tenant)
        return self.vault.restore(tenant, session_id, text)

    async def restore_on_loop(self, text: str, *, session_id: str, tenant: str = "") -> str:
        """`restore` on the event loop a slice at a time, within the tenant's share of the worker
        threads (ThreadLanes.run_on_loop): no tenant's large Restores hold the loop from another's
        calls, as its threads did (docs/adr/0011)."""
        tenant = self._check_restore(text, session_id, tenant)
        self.check_cpu(tenant)
        self.restore_budget.take(tenant or DEFAULT_TENANT, len(text))
        return await self.lanes.run_on_loop(tenant or DEFAULT_TENANT,
                                            self.vault.restore_steps(tenant, session_id, text))

    def _check_restore(self, text: str, session_id: str, tenant: str) -> str:
        tenant = _check_ids(tenant, session_id)
        if not session_id:
            raise InvalidArgument("session_id is required: pseudonyms are restored per session")
        self.check_size(text)
        return tenant

    def open_stream(self, *, policy: str = "", tenant: str = "", session_id: str = "") -> RedactionStream:
        tenant = _check_ids(tenant, session_id)
        chosen = self._policy(policy, tenant)
        return RedactionStream(self, chosen, tenant, self._open(tenant, session_id),
                               ScrubPath.REDACT_STREAM)

    def open_output_stream(self, *, tenant: str, session_id: str) -> RedactionStream:
        """Scrubs a model's answer for the gateway: secrets by the tenant's policy (`output_policy`)."""
        tenant = _check_ids(tenant, session_id)
        policy = self._policy("", tenant)
        derived = self._output_policies.get(policy.name)
        if derived is None:
            derived = self._output_policies[policy.name] = output_policy(policy)
        return RedactionStream(self, derived, tenant, session_id, ScrubPath.GATEWAY_ANSWER)


async def _all_or_none(calls: Sequence[Coroutine[Any, Any, T]]) -> list[T]:
    """Runs the calls concurrently; the first to fail (or a cancellation) cancels the rest, so no
    analysis keeps a worker for a request that has already failed."""
    tasks = [asyncio.ensure_future(call) for call in calls]
    try:
        return await asyncio.gather(*tasks)
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
