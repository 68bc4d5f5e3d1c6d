"""Names the services and the collector agree on: metrics, attributes, units and buckets.

OpenTelemetry GenAI and RPC semantic conventions are used where they exist; ztgate's own names
live under `ztgate.`. Services record these through the OpenTelemetry SDK; the collector turns
them into Prometheus names (see naming.py), e.g. `gen_ai.server.time_to_first_token` (unit `s`)
becomes `gen_ai_server_time_to_first_token_seconds`.

Ratios are left to PromQL, e.g. the speculative acceptance rate over five minutes:
    sum(rate(ztgate_spec_decode_accepted_tokens_total[5m]))
      / sum(rate(ztgate_spec_decode_draft_tokens_total[5m]))
"""

from __future__ import annotations

from dataclasses import dataclass

# --- attributes ------------------------------------------------------------------------------
# Which inference cluster recorded a point: "primary" or "fallback" (the SLO controller reads it).
INSTANCE = "ztgate.instance"
# Tenant of the request, as Envoy set it from the verified token; absent without a tenant.
TENANT = "ztgate.tenant"
# The tenant of the SLO controller's own probes of the primary: the controller counts each probe
# itself, so it skips these points when they come back through OTLP.
PROBE_TENANT = "ztgate-slo-probe"
# Entity type of a redaction finding (e.g. EMAIL_ADDRESS) and the action applied (e.g. redact).
ENTITY_TYPE = "ztgate.entity_type"
ACTION = "ztgate.action"
# Which detection tier found it: "pattern" (Hyperscan rules and their validators) or "ner"
# (spaCy NER and the gazetteer that runs inside its NLP engine); ztgate/redaction/metrics.py.
TIER = "ztgate.redaction.tier"
# Where the redaction service scrubbed: "redact" (Redact), "redact_stream" (RedactStream),
# "gateway_request" (a prompt through Envoy's ext_proc) or "gateway_answer" (an answer through it).
SCRUB_PATH = "ztgate.redaction.path"
# Session replication between redaction replicas: what became of a session (redaction/replication.py
# Outcome), and the configured peer entry it was for ("in" for sessions taken from peers).
REPLICATION_OUTCOME = "ztgate.redaction.replication.outcome"
REPLICATION_PEER = "ztgate.redaction.replication.peer"
# Why a request was blocked: "policy" (a `block` rule matched an entity in the text).
BLOCK_REASON = "ztgate.block_reason"
# The gRPC status a refused scrub got, by name (e.g. RESOURCE_EXHAUSTED).
GRPC_STATUS = "ztgate.grpc_status"
# GenAI semantic-convention attributes.
OPERATION_NAME = "gen_ai.operation.name"
REQUEST_MODEL = "gen_ai.request.model"
TOKEN_TYPE = "gen_ai.token.type"  # "input" or "output"
EVALUATION_NAME = "gen_ai.evaluation.name"
EVALUATION_SCORE = "gen_ai.evaluation.score.value"
# Event name of one evaluation (a hallucination score), sent as an OTLP log record.
EVALUATION_EVENT = "gen_ai.evaluation.result"

# --- metrics ---------------------------------------------------------------------------------
TOKEN_USAGE = "gen_ai.client.token.usage"
REQUEST_DURATION = "gen_ai.server.request.duration"
TIME_TO_FIRST_TOKEN = "gen_ai.server.time_to_first_token"
TIME_PER_OUTPUT_TOKEN = "gen_ai.server.time_per_output_token"
# Time to first token beyond the prompt's prefill allowance (ztgate/common/first_token.py): the
# TTFT of a short prompt, comparable across prompt sizes; the SLO controller judges it.
FIRST_TOKEN_EXCESS = "ztgate.inference.first_token_excess"
SPEC_DRAFT_TOKENS = "ztgate.spec_decode.draft_tokens"
SPEC_ACCEPTED_TOKENS = "ztgate.spec_decode.accepted_tokens"
SPEC_ACCEPTANCE_RATE = "ztgate.spec_decode.acceptance_rate"
HALLUCINATION_SCORE = "ztgate.hallucination.score"
REDACTION_FINDINGS = "ztgate.redaction.findings"
BLOCKED_REQUESTS = "ztgate.blocked_requests"
REDACTION_REFUSALS = "ztgate.redaction.refusals"
REDACTION_DURATION = "ztgate.redaction.duration"
REPLICATION_SESSIONS = "ztgate.redaction.replication.sessions"
REPLICATION_READY = "ztgate.redaction.replication.ready"
RPC_SERVER_DURATION = "rpc.server.duration"

# Bucket bounds (seconds) for TTFT and request duration: the GenAI advisory bounds plus 0.8, 1.2,
# 1.5 and 2.0, so that the SLO thresholds (trip 1.2 s, recover 0.8 s) are bucket bounds and the
# P99 decision is exact rather than interpolated across a wide bucket.
LATENCY_BUCKETS_S = (0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 0.8, 1.0,
                     1.2, 1.5, 2.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0)
# Bounds (seconds) for time per output token (GenAI advisory bounds).
TPOT_BUCKETS_S = (0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5)
# Bounds for token counts (GenAI advisory bounds).
TOKEN_BUCKETS = (1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304)
# Bounds for scores and rates in [0, 1].
UNIT_INTERVAL_BUCKETS = (0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0)
# Bounds (seconds) for one scrub: a stream's chunk takes tens of microseconds, a long prompt through
# NER seconds.
SCRUB_BUCKETS_S = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                   0.5, 1.0, 2.5, 5.0, 10.0, 20.0)
# Bounds (milliseconds) for rpc.server.duration (the RPC conventions' unit is ms).
RPC_BUCKETS_MS = (1, 2.5, 5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000, 10000)


@dataclass(frozen=True)
class MetricSpec:
    name: str
    # counter, histogram, gauge (the OpenTelemetry instrument to create).
    instrument: str
    unit: str
    description: str
    attributes: tuple[str, ...]
    buckets: tuple[float, ...] = ()


CATALOGUE: tuple[MetricSpec, ...] = (
    MetricSpec(TOKEN_USAGE, "histogram", "{token}", "Tokens per request, by token type",
               (OPERATION_NAME, REQUEST_MODEL, TOKEN_TYPE, TENANT, INSTANCE), TOKEN_BUCKETS),
    MetricSpec(REQUEST_DURATION, "histogram", "s", "Generation request duration",
               (OPERATION_NAME, REQUEST_MODEL, TENANT, INSTANCE), LATENCY_BUCKETS_S),
    MetricSpec(TIME_TO_FIRST_TOKEN, "histogram", "s", "Time to first token",
               (OPERATION_NAME, REQUEST_MODEL, TENANT, INSTANCE), LATENCY_BUCKETS_S),
    MetricSpec(TIME_PER_OUTPUT_TOKEN, "histogram", "s", "Time per output token after the first",
               (OPERATION_NAME, REQUEST_MODEL, TENANT, INSTANCE), TPOT_BUCKETS_S),
    MetricSpec(FIRST_TOKEN_EXCESS, "histogram", "s",
               "Time to first token beyond the prompt's prefill allowance (gateway."
               "gateway.inference.per_try_timeout_per_1k_tokens_s per 1,000 prompt tokens)",
               (OPERATION_NAME, REQUEST_MODEL, TENANT, INSTANCE), LATENCY_BUCKETS_S),
    MetricSpec(SPEC_DRAFT_TOKENS, "counter", "{token}", "Draft tokens proposed by speculation",
               (REQUEST_MODEL, INSTANCE)),
    MetricSpec(SPEC_ACCEPTED_TOKENS, "counter", "{token}", "Draft tokens accepted by the target",
               (REQUEST_MODEL, INSTANCE)),
    MetricSpec(SPEC_ACCEPTANCE_RATE, "histogram", "1", "Per-request speculative acceptance rate",
               (REQUEST_MODEL, INSTANCE), UNIT_INTERVAL_BUCKETS),
    MetricSpec(HALLUCINATION_SCORE, "histogram", "1", "Hallucination score of each answer",
               (REQUEST_MODEL, TENANT, INSTANCE), UNIT_INTERVAL_BUCKETS),
    MetricSpec(REDACTION_FINDINGS, "counter", "{finding}",
               "Values the redaction service acted on (a block counts the values that refused the "
               "request)", (ENTITY_TYPE, ACTION, TIER, SCRUB_PATH, TENANT)),
    MetricSpec(BLOCKED_REQUESTS, "counter", "{request}",
               "Requests the redaction policy refused (a block rule matched)",
               (BLOCK_REASON, SCRUB_PATH, TENANT)),
    MetricSpec(REDACTION_REFUSALS, "counter", "{request}",
               "Scrubs refused (failed closed: nothing was forwarded), by gRPC status",
               (GRPC_STATUS, SCRUB_PATH, TENANT)),
    MetricSpec(REDACTION_DURATION, "histogram", "s",
               "Time to scrub a Redact call, a RedactStream chunk, a gateway request body or a "
               "gateway answer body chunk", (SCRUB_PATH, TENANT), SCRUB_BUCKETS_S),
    MetricSpec(REPLICATION_SESSIONS, "counter", "{session}",
               "Sessions sent to peer replicas, taken from them, or dropped (a peer down or slow, "
               "its queue full, a session too large), by outcome",
               (REPLICATION_OUTCOME, REPLICATION_PEER)),
    MetricSpec(REPLICATION_READY, "counter", "{start}",
               "Starts of a redaction replica by whether it held its peers' sessions when it "
               "reported SERVING (complete) or served after redaction.replication.ready_wait_s "
               "without them (incomplete)", (REPLICATION_OUTCOME,)),
    MetricSpec(RPC_SERVER_DURATION, "histogram", "ms", "gRPC server call duration",
               ("rpc.system", "rpc.service", "rpc.method", "rpc.grpc.status_code"),
               RPC_BUCKETS_MS),
)
DESCRIPTIONS = {spec.name: spec.description for spec in CATALOGUE}
