"""GenAI metrics of calls through the OpenAI-compatible door, recorded by the gateway's processor.

An external upstream (vLLM's server, a hosted API) reports nothing to ztgate, so the gateway's
ext_proc processor, which sees every call's request and answer, records the same GenAI metrics
as the inference service (ztgate/common/semconv.py): `gen_ai.server.time_to_first_token` (from
the scrubbed request going on to the first text of the answer), `gen_ai.server.request.duration`
(to the end of the answer) and `gen_ai.client.token.usage` (the upstream's `usage`, when it sends
one), with `gen_ai.operation.name` `chat` or `text_completion` as the call is, the request's
model and the tenant. `ztgate.instance` is `openai`, so the SLO controller (which judges the
primary instance) never mixes these in.
"""

from __future__ import annotations

import time

from opentelemetry import metrics

from ztgate.common import semconv as sc
from ztgate.gateway.processor.openai_api import OpenAIExchange

INSTANCE = "openai"


# The model label of a call for a model the gateway does not serve (an attacker's random names
# would otherwise each make series of their own, and push real ones into the collector's `other`).
OTHER_MODEL = "other"


class DoorMetrics:
    def __init__(self, meter: metrics.Meter | None = None,
                 models: frozenset[str] | None = None) -> None:
        """`models`: the configured models, the only values of the model label (others are
        OTHER_MODEL); None labels every call with its own model (tests)."""
        meter = meter or metrics.get_meter("ztgate.gateway.openai")
        self._models = models
        spec = {s.name: s for s in sc.CATALOGUE}

        def histogram(name: str) -> metrics.Histogram:
            return meter.create_histogram(name, unit=spec[name].unit, description=spec[name].description,
                                          explicit_bucket_boundaries_advisory=spec[name].buckets)

        self._ttft = histogram(sc.TIME_TO_FIRST_TOKEN)
        self._duration = histogram(sc.REQUEST_DURATION)
        self._tokens = histogram(sc.TOKEN_USAGE)

    def finished(self, exchange: OpenAIExchange) -> None:
        """The answer's last body chunk went out: one point per metric (none for an answer that
        never started)."""
        stats = exchange.stats
        if stats is None or exchange.sent_at is None:
            return
        model = exchange.model if self._models is None or exchange.model in self._models else OTHER_MODEL
        attrs = {sc.OPERATION_NAME: exchange.operation, sc.REQUEST_MODEL: model,
                 sc.INSTANCE: INSTANCE}
        if exchange.tenant:
            attrs[sc.TENANT] = exchange.tenant
        if stats.first_text_at is not None:
            self._ttft.record(stats.first_text_at - exchange.sent_at, attrs)
        self._duration.record(time.perf_counter() - exchange.sent_at, attrs)
        if stats.usage:
            for kind, key in (("input", "prompt_tokens"), ("output", "completion_tokens")):
                if key in stats.usage:
                    self._tokens.record(stats.usage[key], {**attrs, sc.TOKEN_TYPE: kind})
