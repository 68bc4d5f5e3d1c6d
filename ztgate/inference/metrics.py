"""What the inference service reports through OpenTelemetry, named per ztgate/common/semconv.

Label values are bounded, so that no caller can make series: the model label is the configured
model (the instance's `inference.model_name`), never a request's; the tenant label names the first
`inference.metrics_max_tenants` tenants seen since start (the SLO probe's tenant always, since the
controller skips its points by that name), and every later tenant, or a value that is not a tenant
name, is OTHER_TENANT. The collector would otherwise fold real series into its `other` series once
a metric passes `telemetry.max_series_per_metric`.
"""

from __future__ import annotations

import threading

from opentelemetry import metrics

from ztgate.common import semconv as sc
from ztgate.common.first_token import FirstTokenBudget
from ztgate.common.tenants import is_tenant
from ztgate.inference.engines.outputs import FinalStats

# The tenant label of tenants past the bound: not a tenant name (parentheses), so it never
# stands for a real tenant; the same value as the redaction metrics'.
OTHER_TENANT = "(other)"
# Tenants named in the labels when no settings say (inference.metrics_max_tenants' default).
DEFAULT_MAX_TENANTS = 50
# The excess recorded for a first token that never came within its budget: above the histogram's
# last bound, so the SLO window counts it past every threshold, as it does Envoy's abandoned tries.
MISSED_EXCESS_S = 2 * sc.LATENCY_BUCKETS_S[-1]


class TenantLabels:
    """The tenant label's values: the first `max_tenants` tenant names seen, then OTHER_TENANT."""

    def __init__(self, max_tenants: int = DEFAULT_MAX_TENANTS, always: tuple[str, ...] = (sc.PROBE_TENANT,)) -> None:
        if max_tenants < 1:
            raise ValueError(f"max_tenants must be >= 1; got {max_tenants}")
        self.max_tenants = max_tenants
        self._always = frozenset(always)
        self._named: set[str] = set()
        self._lock = threading.Lock()

    def __call__(self, tenant: str) -> str:
        if tenant in self._named or tenant in self._always:
            return tenant
        if not is_tenant(tenant):
            return OTHER_TENANT
        with self._lock:
            if tenant in self._named or len(self._named) < self.max_tenants:
                self._named.add(tenant)
                return tenant
        return OTHER_TENANT


class InferenceMetrics:
    """GenAI latency and token metrics, speculation counts and hallucination scores of one instance.

    With a first-token budget, each first token is also recorded as its excess over the prompt's
    prefill allowance (semconv.FIRST_TOKEN_EXCESS), the SLO controller's signal, and a try ended at
    its budget as MISSED_EXCESS_S (`first_token_missed`).
    """

    def __init__(self, model: str, instance: str, meter: metrics.Meter | None = None,
                 budget: FirstTokenBudget | None = None, max_tenants: int | None = None) -> None:
        meter = meter or metrics.get_meter("ztgate.inference")
        self.budget = budget
        self.tenants = TenantLabels(max_tenants or DEFAULT_MAX_TENANTS)
        self._base = {sc.REQUEST_MODEL: model, sc.INSTANCE: instance}
        spec = {s.name: s for s in sc.CATALOGUE}

        def histogram(name: str) -> metrics.Histogram:
            return meter.create_histogram(name, unit=spec[name].unit, description=spec[name].description,
                                          explicit_bucket_boundaries_advisory=spec[name].buckets)

        def counter(name: str) -> metrics.Counter:
            return meter.create_counter(name, unit=spec[name].unit, description=spec[name].description)

        self._ttft = histogram(sc.TIME_TO_FIRST_TOKEN)
        self._excess = histogram(sc.FIRST_TOKEN_EXCESS)
        self._tpot = histogram(sc.TIME_PER_OUTPUT_TOKEN)
        self._duration = histogram(sc.REQUEST_DURATION)
        self._tokens = histogram(sc.TOKEN_USAGE)
        self._acceptance = histogram(sc.SPEC_ACCEPTANCE_RATE)
        self._score = histogram(sc.HALLUCINATION_SCORE)
        self._draft = counter(sc.SPEC_DRAFT_TOKENS)
        self._accepted = counter(sc.SPEC_ACCEPTED_TOKENS)

    def _attrs(self, operation: str, tenant: str) -> dict[str, str]:
        attrs = {**self._base, sc.OPERATION_NAME: operation}
        if tenant:  # a call of no tenant (a direct caller's) carries no tenant label
            attrs[sc.TENANT] = self.tenants(tenant)
        return attrs

    def first_token(self, ttft_s: float, tenant: str, prompt_tokens: int = 0) -> None:
        """Recorded as soon as the first token exists, so the SLO controller sees slow starts early."""
        attrs = self._attrs("chat", tenant)
        self._ttft.record(ttft_s, attrs)
        if self.budget is not None:
            self._excess.record(self.budget.excess_s(ttft_s, prompt_tokens), attrs)

    def first_token_missed(self, tenant: str) -> None:
        """A try ended at its first-token budget, or refused at the admission limit (both retried
        by Envoy): a miss of this tenant's, above every bound of the SLO's window."""
        self._excess.record(MISSED_EXCESS_S, self._attrs("chat", tenant))

    def finished(self, final: FinalStats, tenant: str) -> None:
        attrs = self._attrs("chat", tenant)
        if final.timings is not None:
            self._duration.record(final.timings.total_ms / 1000, attrs)
            if final.usage.completion_tokens > 1:
                self._tpot.record(final.timings.tpot_ms / 1000, attrs)
        self._tokens.record(final.usage.prompt_tokens, {**attrs, sc.TOKEN_TYPE: "input"})
        self._tokens.record(final.usage.completion_tokens, {**attrs, sc.TOKEN_TYPE: "output"})
        spec = final.speculative
        if spec.method != "none" and spec.counted and spec.draft_tokens:
            self._draft.add(spec.draft_tokens, self._base)
            self._accepted.add(spec.accepted_tokens, self._base)
            self._acceptance.record(spec.acceptance_rate, self._base)
        if final.hallucination_score is not None:
            self.score(final.hallucination_score, tenant)

    def score(self, value: float, tenant: str) -> None:
        attrs = dict(self._base)
        if tenant:
            attrs[sc.TENANT] = self.tenants(tenant)
        self._score.record(value, attrs)
