"""The redaction service's metrics on every path, read back through an in-memory metric reader.

The service is the real one on the pattern tier (test_ext_proc's `make_service`: real policies,
operators, vault and Hyperscan scanner; its analysis pool replaced by the scanner alone, so no NER
model loads), except in the NER-tier test, which runs the real Analyzer (spaCy) in-process in the
pool's place. The servicers are driven directly, a FakeContext (TEST DOUBLE, tests/fake_context.py)
standing in for grpc's; one test injects a failing pool (a fault) to see a failure counted.
"""

from __future__ import annotations

import string
from collections.abc import AsyncIterator, Iterable
from pathlib import Path

import grpc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from opentelemetry.sdk.metrics import MeterProvider
from envoy.service.ext_proc.v3 import external_processor_pb2 as ep
from opentelemetry.sdk.metrics.export import InMemoryMetricReader

from ztgate.common import semconv as sc
from ztgate.common.identity import TenantAccess
from ztgate.gen.inference.v1 import inference_pb2 as ipb
from ztgate.gen.redaction.v1 import redaction_pb2 as pb
from ztgate.redaction.detection.analyzer import Analyzer
from ztgate.redaction.detection.names.context import CONTEXT_RECOGNIZER_NAMES
from ztgate.redaction.metrics import OTHER_TENANT, RedactionMetrics, ScrubPath, Tier, tier_of
from ztgate.redaction.detection.patterns.scanner import PatternScanner
from ztgate.redaction.policies import Action
from ztgate.redaction.server import RedactionServicer
from ztgate.redaction.service import RedactionService
from ztgate.redaction.types import ALL_ENTITY_TYPES, Detection
from tests.fake_context import FakeContext
from tests.unit.gateway.processor.test_ext_proc import (AWS, EMAIL, GENERATE, STREAM, _body, _chunks,
                                                        _drive, _headers, _request)
from tests.unit.redaction.pattern_service import make_service

SSN = "536-22-8790"  # acme's policy blocks US_SSN
Points = dict[frozenset[tuple[str, str]], float]


class Recorded:
    """The service's metrics on an in-memory reader; `points(name)` reads one metric back."""

    def __init__(self, max_tenants: int = 50) -> None:
        self.reader = InMemoryMetricReader()
        self.provider = MeterProvider(metric_readers=[self.reader])
        self.metrics = RedactionMetrics(self.provider.get_meter("test"), max_tenants=max_tenants)
        self._data = None

    def collect(self) -> None:
        self._data = self.reader.get_metrics_data()

    def points(self, name: str) -> Points:
        """Counter sums, or histogram counts, by label set (cumulative since the start)."""
        if self._data is None:
            self.collect()
        out: Points = {}
        for rm in self._data.resource_metrics if self._data else ():
            for scope in rm.scope_metrics:
                for metric in scope.metrics:
                    if metric.name == name:
                        for p in metric.data.data_points:
                            out[frozenset(p.attributes.items())] = getattr(p, "value", None) or p.count
        return out

    def all_labels(self) -> set[tuple[str, str]]:
        self.collect()
        return {label for name in (sc.REDACTION_FINDINGS, sc.BLOCKED_REQUESTS, sc.REDACTION_REFUSALS,
                                   sc.REDACTION_DURATION) for labels in self.points(name) for label in labels}


def finding(entity: str, action: str, tier: str, path: str, tenant: str) -> frozenset:
    return frozenset({(sc.ENTITY_TYPE, entity), (sc.ACTION, action), (sc.TIER, tier),
                      (sc.SCRUB_PATH, path), (sc.TENANT, tenant)})


def labels(path: str, tenant: str, **more: str) -> frozenset:
    return frozenset({(sc.SCRUB_PATH, path), (sc.TENANT, tenant),
                      *((getattr(sc, k.upper()), v) for k, v in more.items())})


@pytest.fixture(scope="module")
def scanner(hs_cache_dir: Path) -> PatternScanner:
    return PatternScanner(cache_dir=hs_cache_dir)


@pytest.fixture
def recorded() -> Recorded:
    return Recorded()


@pytest.fixture
def service(scanner: PatternScanner, recorded: Recorded) -> RedactionService:
    service = make_service(scanner)
    service.metrics = recorded.metrics
    return service


def ep_response(body: bytes) -> ep.ProcessingRequest:
    return ep.ProcessingRequest(response_body=ep.HttpBody(body=body))


class AbortingContext(FakeContext):
    """FakeContext that also takes the servicer's abort, as grpc's does (raising), and keeps the code."""

    code: grpc.StatusCode | None = None

    async def abort(self, code: grpc.StatusCode, details: str) -> None:
        self.code = code
        raise grpc.aio.AbortError(code, details)


async def _refused(call, context: AbortingContext) -> grpc.StatusCode | None:
    with pytest.raises(grpc.aio.AbortError):
        await call
    return context.code


def _assert_no_values(recorded: Recorded, *values: str) -> None:
    """No label carries a value, a text or a session id: every label value is from a fixed set."""
    fixed = (ALL_ENTITY_TYPES | {a.value for a in Action} | {t.value for t in Tier}
             | {p.value for p in ScrubPath} | {"policy", OTHER_TENANT, "default", "acme"}
             | {c.name for c in grpc.StatusCode})
    seen = recorded.all_labels()
    assert seen and {value for _, value in seen} <= fixed, seen
    assert not [v for v in values if any(v in value for _, value in seen)]


# --- Redact --------------------------------------------------------------------------------

async def test_redact_counts_each_finding_by_type_action_tier_and_tenant(
        service: RedactionService, recorded: Recorded) -> None:
    servicer = RedactionServicer(service, TenantAccess(None))
    reply = await servicer.Redact(pb.RedactRequest(
        text=f"mail {EMAIL} or {EMAIL.upper()}, key {AWS}"), FakeContext())
    assert EMAIL not in reply.text
    assert recorded.points(sc.REDACTION_FINDINGS) == {
        finding("EMAIL_ADDRESS", "pseudonymize", "pattern", "redact", "default"): 2,
        finding("AWS_ACCESS_KEY_ID", "redact", "pattern", "redact", "default"): 1}
    assert recorded.points(sc.REDACTION_DURATION) == {labels("redact", "default"): 1}
    assert recorded.points(sc.REDACTION_REFUSALS) == {}
    await servicer.Redact(pb.RedactRequest(text=f"card of {EMAIL}", tenant="acme"), FakeContext())
    recorded.collect()
    assert recorded.points(sc.REDACTION_FINDINGS)[
        finding("EMAIL_ADDRESS", "hash", "pattern", "redact", "acme")] == 1
    _assert_no_values(recorded, EMAIL, AWS, reply.session_id)


async def test_a_blocked_redact_counts_the_block_the_values_and_the_refusal(
        service: RedactionService, recorded: Recorded) -> None:
    servicer = RedactionServicer(service, TenantAccess(None))
    context = AbortingContext()
    assert await _refused(servicer.Redact(pb.RedactRequest(text=f"my SSN is {SSN}", tenant="acme"),
                                          context), context) is grpc.StatusCode.PERMISSION_DENIED
    assert recorded.points(sc.BLOCKED_REQUESTS) == {
        labels("redact", "acme", block_reason="policy"): 1}
    assert recorded.points(sc.REDACTION_FINDINGS) == {
        finding("US_SSN", "block", "pattern", "redact", "acme"): 1}
    assert recorded.points(sc.REDACTION_REFUSALS) == {
        labels("redact", "acme", grpc_status="PERMISSION_DENIED"): 1}
    assert recorded.points(sc.REDACTION_DURATION) == {}  # a refusal is not a scrub's time
    _assert_no_values(recorded, SSN)


async def test_refusals_are_counted_by_status(service: RedactionService, recorded: Recorded,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    servicer = RedactionServicer(service, TenantAccess(None))
    for request in (pb.RedactRequest(text="x" * 70_000),  # past max_text_bytes (65536)
                    pb.RedactRequest(text="hi", tenant="bad tenant!"),
                    pb.RedactRequest(text="hi", policy="no-such-policy")):
        context = AbortingContext()
        assert await _refused(servicer.Redact(request, context), context) is not None

    async def broken(*_args: object, **_kwargs: object) -> list[Detection]:
        raise RuntimeError("a worker died")

    monkeypatch.setattr(service.pool, "analyze", broken)  # a fault injected
    context = AbortingContext()
    assert await _refused(servicer.Redact(pb.RedactRequest(text=f"mail {EMAIL}"), context),
                          context) is grpc.StatusCode.INTERNAL
    assert recorded.points(sc.REDACTION_REFUSALS) == {
        labels("redact", "default", grpc_status="RESOURCE_EXHAUSTED"): 1,
        labels("redact", OTHER_TENANT, grpc_status="INVALID_ARGUMENT"): 1,  # tenant never known
        labels("redact", "default", grpc_status="INVALID_ARGUMENT"): 1,
        labels("redact", "default", grpc_status="INTERNAL"): 1}
    assert recorded.points(sc.BLOCKED_REQUESTS) == {}


# --- RedactStream --------------------------------------------------------------------------

async def _stream(servicer: RedactionServicer, chunks: list[str], tenant: str = "",
                  context: FakeContext | None = None) -> list[pb.RedactChunk]:
    async def requests() -> AsyncIterator[pb.RedactChunk]:
        for i, chunk in enumerate(chunks):
            yield pb.RedactChunk(text=chunk, tenant=tenant, final=i == len(chunks) - 1)
    return [r async for r in servicer.RedactStream(requests(), context or FakeContext())]


async def test_redact_stream_counts_findings_across_chunks_and_times_each_chunk(
        service: RedactionService, recorded: Recorded) -> None:
    servicer = RedactionServicer(service, TenantAccess(None))
    text = f"write to {EMAIL} and keep {AWS} safe, then {EMAIL} again"
    chunks = [text[i:i + 9] for i in range(0, len(text), 9)]
    replies = await _stream(servicer, chunks)
    assert EMAIL not in "".join(r.text for r in replies)
    assert recorded.points(sc.REDACTION_FINDINGS) == {
        finding("EMAIL_ADDRESS", "pseudonymize", "pattern", "redact_stream", "default"): 2,
        finding("AWS_ACCESS_KEY_ID", "redact", "pattern", "redact_stream", "default"): 1}
    assert recorded.points(sc.REDACTION_DURATION) == {labels("redact_stream", "default"): len(chunks)}
    _assert_no_values(recorded, EMAIL, AWS, replies[0].session_id)


async def test_a_stream_blocked_midway_counts_what_went_out_and_the_block(
        service: RedactionService, recorded: Recorded) -> None:
    servicer = RedactionServicer(service, TenantAccess(None))
    context = AbortingContext()
    assert await _refused(_stream(servicer, [f"mail {EMAIL} now. ", "Later: ", f"my SSN is {SSN}. ",
                                             "end"], "acme", context),
                          context) is grpc.StatusCode.PERMISSION_DENIED
    assert recorded.points(sc.REDACTION_FINDINGS) == {
        finding("EMAIL_ADDRESS", "hash", "pattern", "redact_stream", "acme"): 1,
        finding("US_SSN", "block", "pattern", "redact_stream", "acme"): 1}
    assert recorded.points(sc.BLOCKED_REQUESTS) == {
        labels("redact_stream", "acme", block_reason="policy"): 1}
    assert recorded.points(sc.REDACTION_REFUSALS) == {
        labels("redact_stream", "acme", grpc_status="PERMISSION_DENIED"): 1}


# --- the gateway (ext_proc) ----------------------------------------------------------------

async def test_gateway_prompt_and_answer_are_counted_apart(service: RedactionService,
                                                           recorded: Recorded) -> None:
    answer = _chunks([f"Hi <EMAIL_ADDRESS_1>, your key {AWS} and", f" again {AWS}"])
    responses = await _drive(service, [
        _headers(STREAM, "acme"),
        _body(_request(ipb.GenerateRequest(messages=[
            ipb.ChatMessage(role="user", content=f"I am {EMAIL}"),
            ipb.ChatMessage(role="user", content=f"key {AWS}, card 4111 1111 1111 1111")]))),
        ep_response(answer[:11]), ep_response(answer[11:])])
    assert [r.WhichOneof("response") for r in responses] == [
        "request_headers", "request_body", "response_body", "response_body"]
    assert recorded.points(sc.REDACTION_FINDINGS) == {
        finding("EMAIL_ADDRESS", "hash", "pattern", "gateway_request", "acme"): 1,
        finding("AWS_ACCESS_KEY_ID", "redact", "pattern", "gateway_request", "acme"): 1,
        finding("CREDIT_CARD", "mask", "pattern", "gateway_request", "acme"): 1,
        finding("AWS_ACCESS_KEY_ID", "redact", "pattern", "gateway_answer", "acme"): 2}
    assert recorded.points(sc.REDACTION_DURATION) == {
        labels("gateway_request", "acme"): 1, labels("gateway_answer", "acme"): 2}
    _assert_no_values(recorded, EMAIL, AWS, "4111")


async def test_gateway_refusals_are_counted_on_their_path(service: RedactionService,
                                                          recorded: Recorded,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    await _drive(service, [_headers(GENERATE, "acme"),
                           _body(_request(ipb.GenerateRequest(prompt=f"my SSN is {SSN}")))])
    await _drive(service, [_headers(GENERATE), _body(b"\x00\x00\x00")])
    await _drive(service, [_headers(GENERATE, "bad tenant!"), _body(_request(ipb.GenerateRequest()))])
    await _drive(service, [_headers("/ztgate.inference.v1.Inference/Embed"), _body(b"")])
    # An answer that is not a GenerateChunk: refused on the answer's path.
    await _drive(service, [_headers(STREAM), _body(_request(ipb.GenerateRequest(prompt="hi"))),
                           ep_response(b"\x00\x00\x00\x00\x02\xff\xff")])

    async def broken(*_args: object, **_kwargs: object) -> list[Detection]:
        raise RuntimeError("a worker died")

    monkeypatch.setattr(service.pool, "analyze", broken)  # a fault injected
    await _drive(service, [_headers(GENERATE), _body(_request(ipb.GenerateRequest(prompt=f"I am {EMAIL}")))])
    assert recorded.points(sc.REDACTION_REFUSALS) == {
        labels("gateway_request", "acme", grpc_status="PERMISSION_DENIED"): 1,
        labels("gateway_request", "default", grpc_status="INVALID_ARGUMENT"): 1,
        labels("gateway_request", OTHER_TENANT, grpc_status="INVALID_ARGUMENT"): 1,
        labels("gateway_request", OTHER_TENANT, grpc_status="UNIMPLEMENTED"): 1,
        labels("gateway_answer", "default", grpc_status="INVALID_ARGUMENT"): 1,
        labels("gateway_request", "default", grpc_status="INTERNAL"): 1}
    assert recorded.points(sc.BLOCKED_REQUESTS) == {
        labels("gateway_request", "acme", block_reason="policy"): 1}
    assert recorded.points(sc.REDACTION_FINDINGS) == {
        finding("US_SSN", "block", "pattern", "gateway_request", "acme"): 1}
    _assert_no_values(recorded, SSN, EMAIL, "bad tenant")


# --- tiers and tenants ---------------------------------------------------------------------

class AnalyzerPool:
    """Stands in for the analysis worker pool: the real Analyzer (Hyperscan + spaCy), in this process."""

    size = 2
    timeout_s = 30.0

    def __init__(self, analyzer: Analyzer) -> None:
        self._analyzer = analyzer
        self.supported_entities = analyzer.supported_entities

    async def analyze(self, text: str, entities: Iterable[str] | None = None, *,
                      deadline: float | None = None, on_abandon: object = None) -> list[Detection]:
        return self._analyzer.analyze(text, entities)


async def test_ner_findings_are_counted_under_the_ner_tier(
        scanner: PatternScanner, redaction_analyzer: Analyzer, recorded: Recorded) -> None:
    service = make_service(scanner)
    service.pool = AnalyzerPool(redaction_analyzer)
    service.metrics = recorded.metrics
    result = await service.redact(f"Yesterday Angela Merkel met Barack Obama; mail {EMAIL}.")
    tiers = {(f.entity_type, tier_of(f.recognizer)) for f in result.findings}
    assert ("PERSON", Tier.NER) in tiers and ("EMAIL_ADDRESS", Tier.PATTERN) in tiers
    points = recorded.points(sc.REDACTION_FINDINGS)
    assert points[finding("PERSON", "pseudonymize", "ner", "redact", "default")] == sum(
        1 for f in result.findings if f.entity_type == "PERSON" and tier_of(f.recognizer) is Tier.NER)
    assert points[finding("EMAIL_ADDRESS", "pseudonymize", "pattern", "redact", "default")] == 1


def test_tenants_past_the_bound_share_one_label() -> None:
    metrics = Recorded(max_tenants=2).metrics
    assert [metrics.tenant_label(t) for t in ("a", "", "c", "a", "default", None, "x y")] == [
        "a", "default", OTHER_TENANT, "a", "default", OTHER_TENANT, OTHER_TENANT]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet=string.ascii_letters + string.digits + "._:@- /é\n", max_size=12),
                max_size=40))
def test_tenant_labels_are_bounded_and_never_an_invalid_name(tenants: list[str]) -> None:
    metrics = RedactionMetrics(MeterProvider().get_meter("t"), max_tenants=5)
    labels_seen = {metrics.tenant_label(t) for t in tenants}
    assert len(labels_seen - {OTHER_TENANT}) <= 5
    assert all(label == OTHER_TENANT or label in {*tenants, "default"} for label in labels_seen)
    assert not any(c in label for label in labels_seen - {OTHER_TENANT} for c in " /é\n")


def test_every_tier2_recognizer_has_its_tier(redaction_analyzer: Analyzer) -> None:
    """A recognizer added to tier 2 must not be counted as a catalogue rule's finding; the context rules
    share the `context` tier (the label set stays small; a finding carries the rule's own name)."""
    names = {r.name for r in redaction_analyzer.engine.registry.recognizers} - {"HyperscanRecognizer"}
    assert names and all(tier_of(n) is not Tier.PATTERN for n in names), names
    assert CONTEXT_RECOGNIZER_NAMES <= names
    assert {tier_of(n) for n in CONTEXT_RECOGNIZER_NAMES} == {Tier.CONTEXT}
    assert {n: tier_of(n) for n in names - CONTEXT_RECOGNIZER_NAMES} == {
        "SpacyRecognizer": Tier.NER, "GazetteerRecognizer": Tier.GAZETTEER,
        "PersonEvidenceRecognizer": Tier.EVIDENCE}
