"""What the redaction service reports through OpenTelemetry, named per ztgate/common/semconv.

Four instruments on every scrubbing path (`ScrubPath`): findings, blocked requests, refusals and
duration. Labels carry names from fixed sets only, never a value, a text or a session id, and tenants
are bounded by `redaction.metrics_max_tenants` (later ones read `OTHER_TENANT`), so no label grows
without end or changes meaning. Recording is thread-safe. The instruments and their labels:
docs/operations/observability.md, docs/architecture.md ("Module notes").
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum

from opentelemetry import metrics

from ztgate.common import semconv as sc
from ztgate.common.errors import ZtgateError
from ztgate.common.tenants import DEFAULT_TENANT, is_tenant
from ztgate.redaction.anonymising.anonymize import BlockedError, Finding
from ztgate.redaction.config import RedactionSettings
from ztgate.redaction.detection.analyzer import NER_RECOGNIZER_NAME
from ztgate.redaction.detection.names.context import CONTEXT_RECOGNIZER_NAMES
from ztgate.redaction.detection.names.evidence_recognizer import EVIDENCE_RECOGNIZER_NAME
from ztgate.redaction.detection.names.gazetteer_recognizer import GAZETTEER_RECOGNIZER_NAME
from ztgate.redaction.policies import Action
from ztgate.redaction.types import ALL_ENTITY_TYPES, Detection

# The tenant label of tenants past the bound, and of calls refused before their tenant was known.
# Not a tenant name: parentheses are outside ztgate/common/tenants.TENANT_PATTERN.
OTHER_TENANT = "(other)"
# The entity-type label of a type outside types.ALL_ENTITY_TYPES (none today: the catalogue and
# NER report only those; a guard, so that the label set stays fixed).
OTHER_ENTITY = "other"
# Tenants named in the labels when no settings say (redaction.metrics_max_tenants' default).
DEFAULT_MAX_TENANTS: int = RedactionSettings.model_fields["metrics_max_tenants"].default


class ScrubPath(StrEnum):
    """Where the service scrubbed (the `ztgate.redaction.path` label)."""

    REDACT = "redact"                    # a Redact call
    REDACT_STREAM = "redact_stream"      # a RedactStream chunk
    GATEWAY_REQUEST = "gateway_request"  # a prompt through Envoy's ext_proc filter
    GATEWAY_ANSWER = "gateway_answer"    # an answer (body chunk) through it


class Tier(StrEnum):
    """Which detector found a value (the `ztgate.redaction.tier` label)."""

    PATTERN = "pattern"  # Hyperscan catalogue rules and their validators (the recognizer: a rule id)
    NER = "ner"          # spaCy NER (SpacyRecognizer)
    GAZETTEER = "gazetteer"  # the name and place lists, judged by context (GazetteerRecognizer)
    CONTEXT = "context"  # a word in a strong person or place context (the context recognizers, context/)
    EVIDENCE = "evidence"  # a name backed by evidence about a person (PersonEvidenceRecognizer)


_TIERS = {NER_RECOGNIZER_NAME: Tier.NER, GAZETTEER_RECOGNIZER_NAME: Tier.GAZETTEER,
          **dict.fromkeys(CONTEXT_RECOGNIZER_NAMES, Tier.CONTEXT), EVIDENCE_RECOGNIZER_NAME: Tier.EVIDENCE}


def tier_of(recognizer: str) -> Tier:
    """The tier of a finding by its recognizer's name: NER's, the lists', context's, else a
    catalogue rule's."""
    return _TIERS.get(recognizer, Tier.PATTERN)


class BlockReason(StrEnum):
    POLICY = "policy"  # a `block` rule matched an entity in the text


@dataclass(slots=True)
class Scrub:
    """One watched scrub (`RedactionMetrics.watch`): its tenant, once known."""

    tenant: str | None = None


class RedactionMetrics:
    """The redaction service's instruments, and the bounded label values they are recorded with."""

    def __init__(self, meter: metrics.Meter | None = None,
                 max_tenants: int = DEFAULT_MAX_TENANTS) -> None:
        meter = meter or metrics.get_meter("ztgate.redaction")
        spec = {s.name: s for s in sc.CATALOGUE}

        def counter(name: str) -> metrics.Counter:
            return meter.create_counter(name, unit=spec[name].unit, description=spec[name].description)

        self._findings = counter(sc.REDACTION_FINDINGS)
        self._blocked = counter(sc.BLOCKED_REQUESTS)
        self._refusals = counter(sc.REDACTION_REFUSALS)
        duration = spec[sc.REDACTION_DURATION]
        self._duration = meter.create_histogram(
            duration.name, unit=duration.unit, description=duration.description,
            explicit_bucket_boundaries_advisory=duration.buckets)
        self.max_tenants = max_tenants
        self._tenants: set[str] = set()
        self._lock = threading.Lock()

    def tenant_label(self, tenant: str | None) -> str:
        """The tenant's label value: its name while within the bound (module doc), else OTHER_TENANT."""
        if tenant is None:
            return OTHER_TENANT
        tenant = tenant or DEFAULT_TENANT
        if tenant in self._tenants:
            return tenant
        if not is_tenant(tenant):
            return OTHER_TENANT
        with self._lock:
            if tenant in self._tenants or len(self._tenants) < self.max_tenants:
                self._tenants.add(tenant)
                return tenant
        return OTHER_TENANT

    def findings(self, path: ScrubPath, tenant: str | None, findings: Iterable[Finding]) -> None:
        """Counts the findings of one scrub that were acted on."""
        self._count(path, tenant, ((f.entity_type, f.action, f.recognizer) for f in findings))

    def _count(self, path: ScrubPath, tenant: str | None,
               found: Iterable[tuple[str, Action, str]]) -> None:
        counts = Counter((entity if entity in ALL_ENTITY_TYPES else OTHER_ENTITY, Action(action),
                          tier_of(recognizer)) for entity, action, recognizer in found)
        if not counts:
            return
        label = self.tenant_label(tenant)
        for (entity, action, tier), n in counts.items():
            self._findings.add(n, {sc.ENTITY_TYPE: entity, sc.ACTION: action.value, sc.TIER: tier.value,
                                   sc.SCRUB_PATH: path.value, sc.TENANT: label})

    def blocked(self, path: ScrubPath, tenant: str | None, detections: Iterable[Detection]) -> None:
        """A request a `block` rule refused, and the values that refused it."""
        self._count(path, tenant, ((d.entity_type, Action.BLOCK, d.recognizer) for d in detections))
        self._blocked.add(1, {sc.BLOCK_REASON: BlockReason.POLICY.value, sc.SCRUB_PATH: path.value,
                              sc.TENANT: self.tenant_label(tenant)})

    def refused(self, path: ScrubPath, tenant: str | None, error: BaseException) -> None:
        """A scrub that failed closed with `error` (a typed error's status; anything else INTERNAL)."""
        status = error.status if isinstance(error, ZtgateError) else "INTERNAL"
        self._refusals.add(1, {sc.GRPC_STATUS: status, sc.SCRUB_PATH: path.value,
                               sc.TENANT: self.tenant_label(tenant)})

    def scrubbed(self, path: ScrubPath, tenant: str | None, seconds: float) -> None:
        self._duration.record(seconds, {sc.SCRUB_PATH: path.value, sc.TENANT: self.tenant_label(tenant)})

    @contextmanager
    def watch(self, path: ScrubPath, tenant: str | None = None) -> Iterator[Scrub]:
        """Times one scrub, or counts its refusal when it raises (a block also as a blocked request).

        Set the yielded `Scrub.tenant` once the call's tenant is decided. A cancellation is not a
        refusal (nobody is waiting for the answer) and is not counted.
        """
        scrub = Scrub(tenant)
        started = time.perf_counter()
        try:
            yield scrub
        except Exception as exc:
            self.failed(path, scrub.tenant, exc)
            raise
        self.scrubbed(path, scrub.tenant, time.perf_counter() - started)

    def failed(self, path: ScrubPath, tenant: str | None, error: Exception) -> None:
        """What a scrub that raised `error` counts: a refusal, and a blocked request for a block."""
        if isinstance(error, BlockedError):
            self.blocked(path, tenant, error.detections)
        self.refused(path, tenant, error)
