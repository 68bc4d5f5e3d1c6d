"""What the inference service reports through OpenTelemetry, named per ztgate/common/semconv."""

from __future__ import annotations

from opentelemetry import metrics

from ztgate.common import semconv as sc
from ztgate.common.first_token import FirstTokenBudget
from ztgate.inference.engines.outputs import FinalStats


class InferenceMetrics:
    """GenAI latency and token metrics, speculation counts and hallucination scores of one instance.

    With a first-token budget (the gateway's), each first token is also recorded as its excess
    over the prompt's prefill allowance (semconv.FIRST_TOKEN_EXCESS), the SLO controller's signal.
    """

    def __init__(self, model: str, instance: str, meter: metrics.Meter | None = None,
                 budget: FirstTokenBudget | None = None) -> None:
        meter = meter or metrics.get_meter("ztgate.inference")
        self._budget = budget
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
        if tenant:
            attrs[sc.TENANT] = tenant
        return attrs

    def first_token(self, ttft_s: float, tenant: str, prompt_tokens: int = 0) -> None:
        """Recorded as soon as the first token exists, so the SLO controller sees slow starts early."""
        attrs = self._attrs("chat", tenant)
        self._ttft.record(ttft_s, attrs)
        if self._budget is not None:
            self._excess.record(self._budget.excess_s(ttft_s, prompt_tokens), attrs)

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
            attrs[sc.TENANT] = tenant
        self._score.record(value, attrs)
