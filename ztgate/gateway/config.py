"""Settings of the Envoy gateway (the `gateway:` section of ztgate.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import Field, field_validator, model_validator

from ztgate.common.first_token import FirstTokenBudget
from ztgate.common.scrub_timeout import ScrubTimeouts
from ztgate.common.settings import Strict, TlsSettings, host_port, on_loopback
from ztgate.protocols.openai.schema import DoorOptions
from ztgate.gateway.ingress import GatewayIngressSettings

# Longest a gateway token may live, by default: a day (a stolen token is good at most that long).
DEFAULT_MAX_TOKEN_LIFETIME_S = 24 * 3600


class GatewayAuthSettings(Strict):
    # JWKS file (public keys) that every call's bearer token must verify against, read by Envoy
    # (no network fetch). Unset: no token is checked and every call runs as tenant `default`.
    # `ztgate token keygen` makes one with a signing key for development and tests.
    jwks_path: Path | None = None
    # The token's `iss` and `aud` must be these.
    issuer: str = Field(default="ztgate", min_length=1)
    audience: str = Field(default="ztgate-gateway", min_length=1)
    # The claim whose value becomes the call's tenant (its redaction policy, vault share, rate
    # limit); a verified token without it, or whose value is not a tenant name (1-128 letters,
    # digits or . _ : @ -), is refused by Envoy (UNAUTHENTICATED) before anything runs.
    tenant_claim: str = Field(default="tenant", pattern=r"^[A-Za-z0-9_.-]+$")
    # The claim (space-separated, as OAuth's `scope`) naming the APIs a token may call:
    # `inference` for ztgate.inference.v1.Inference, `redaction` for ztgate.redaction.v1.Redaction.
    # Envoy's RBAC filter refuses any other call with PERMISSION_DENIED.
    scope_claim: str = Field(default="scope", pattern=r"^[A-Za-z0-9_.-]+$")
    # Seconds a token may still have to live when it reaches Envoy: a token without `exp`, or whose
    # `exp` lies further ahead than this, is UNAUTHENTICATED (Envoy's `require_expiration` and
    # `max_lifetime`). `ztgate token mint --ttl-s` above it is refused.
    max_token_lifetime_s: int = Field(default=DEFAULT_MAX_TOKEN_LIFETIME_S, ge=1)
    # A `gateway.listen` off loopback requires tokens (`jwks_path`). True lets such a listener serve
    # every caller, unauthenticated, as tenant `default`; `ztgate up` then warns on every start.
    allow_anonymous_off_loopback: bool = False
    # With `jwks_path` naming a file that does not exist, `ztgate up` makes a signing key and that
    # JWKS there (what `ztgate token keygen` writes) instead of refusing to start: tokens on from a
    # fresh install's first start, with keys of its own (compose.yaml).
    keygen_if_missing: bool = False


class GatewayRateLimitSettings(Strict):
    # Calls per second each tenant may make through the gateway (without tokens every call is
    # tenant `default`, and all share its bucket); unset: `with_tokens_per_s` wherever tokens are
    # on or the listener is off loopback (compose, Kubernetes), else no limit. Past it Envoy
    # answers RESOURCE_EXHAUSTED at once and nothing reaches a service.
    requests_per_s: int | None = Field(default=None, ge=1)
    # The limit that applies, unless `requests_per_s` is set, wherever tokens are on or the
    # listener is off loopback; null: none there either.
    with_tokens_per_s: int | None = Field(default=50, ge=1)
    # Calls a tenant may make at once after being idle (the bucket's size); default: one second's.
    burst: int | None = Field(default=None, ge=1)
    # Tenants tracked at once (Envoy's dynamic descriptors); a tenant evicted starts a fresh bucket.
    max_tenants: int = Field(default=1000, ge=1)

    def per_s(self, *, tokens_or_exposed: bool) -> int | None:
        """The per-tenant rate in force: `requests_per_s`, else `with_tokens_per_s` where tokens
        are on or the listener is off loopback; None: no limit."""
        if self.requests_per_s is not None:
            return self.requests_per_s
        return self.with_tokens_per_s if tokens_or_exposed else None


class GatewayBreakerSettings(Strict):
    # Envoy's circuit breakers on each inference instance (cluster): past a threshold Envoy
    # refuses the call at once, UNAVAILABLE ("overflow"), instead of piling more work on that
    # instance; Envoy never retries an overflow (no retry storm), so these are a hard backstop
    # above each instance's own admission limit (RESOURCE_EXHAUSTED, which is retried on the
    # other instance). Connections to the instance at most.
    max_connections: int = Field(default=1024, ge=1)
    # Calls waiting for a connection at most.
    max_pending_requests: int = Field(default=1024, ge=1)
    # Calls in flight on the instance at most (each instance also admits only its own
    # `inference.*.max_inflight` and answers RESOURCE_EXHAUSTED past it).
    max_requests: int = Field(default=1024, ge=1)
    # Retries in flight at most, per instance and per route (primary first, fallback first): a
    # bound on the extra work a failing instance can cause; past it a call gets no failover.
    max_retries: int = Field(default=64, ge=1)


class GatewayOutlierSettings(Strict):
    # Envoy's outlier detection on each inference instance: answers that are gateway errors
    # (gRPC UNAVAILABLE and the like: 502, 503, 504) this many times in a row take the instance out of
    # rotation; calls go to the other one meanwhile. Connect failures and per-try
    # timeouts do not count (Envoy's "local origin" errors): a dead instance fails its health
    # checks, and a slow first token is the SLO controller's to judge over its window.
    consecutive_gateway_failure: int = Field(default=3, ge=1)
    # Seconds between Envoy's sweeps that return ejected instances to rotation.
    interval_s: float = Field(default=5.0, gt=0)
    # Seconds an ejected instance stays out (times the number of its ejections so far).
    base_ejection_time_s: float = Field(default=15.0, gt=0)
    # Percent of an instance cluster's hosts that may be ejected at once (each cluster has one).
    max_ejection_percent: int = Field(default=100, ge=0, le=100)


class OpenAIUpstreamSettings(Strict):
    # An OpenAI-compatible backend behind the HTTP door (`/v1/...`): vLLM's OpenAI server, a hosted
    # API, ztgate's own adapter. Its name (Envoy's cluster `openai_<name>`, and `owned_by` in
    # GET /v1/models).
    name: str = Field(pattern=r"^[a-z0-9_-]{1,64}$")
    # Where it serves the OpenAI API: http://HOST:PORT/v1 or https://HOST[:PORT]/v1 (the path is
    # the prefix that replaces the gateway's `/v1`; https verifies the server's certificate).
    base_url: str
    # The `model` names it serves: a request goes to the upstreams that list its model, in the
    # order they are listed here (the next takes over on connect failure, reset, 429 or 503).
    models: list[str] = Field(min_length=1)
    # CA bundle that verifies an https upstream's certificate; unset: the system's bundle.
    ca_file: Path | None = None
    # The upstream's API key, which Envoy sends as `Authorization: Bearer <key>` so that clients
    # never hold it: read by Envoy from this file, or from this environment variable of Envoy's
    # (never written into its configuration, never logged). At most one of the two.
    api_key_file: Path | None = None
    api_key_env: str | None = Field(default=None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")

    @field_validator("base_url")
    @classmethod
    def _url(cls, value: str) -> str:
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
            raise ValueError(f"{value!r} must be http://HOST[:PORT]/PATH or https://HOST[:PORT]/PATH")
        try:
            parts.port
        except ValueError:
            raise ValueError(f"{value!r} has no valid port") from None
        return value.rstrip("/")

    @field_validator("models")
    @classmethod
    def _model_names(cls, value: list[str]) -> list[str]:
        for model in value:
            if not model or len(model) > 256 or not model.isprintable() or not model.isascii():
                raise ValueError(f"model {model!r} must be 1-256 printable ASCII characters")
        return value

    @model_validator(mode="after")
    def _one_key_source(self) -> "OpenAIUpstreamSettings":
        if self.api_key_file is not None and self.api_key_env is not None:
            raise ValueError(f"openai upstream {self.name}: set api_key_file or api_key_env, not both")
        return self

    @model_validator(mode="after")
    def _key_only_over_tls(self) -> "OpenAIUpstreamSettings":
        # An API key in plaintext is readable by anyone on the path: off loopback, only https.
        keyed = self.api_key_file is not None or self.api_key_env is not None
        if keyed and not self.tls and not on_loopback(self.host):
            raise ValueError(f"openai upstream {self.name}: its API key would cross the network in "
                             f"plaintext to {self.host}: use an https:// base_url (or an upstream "
                             "on loopback)")
        return self

    @property
    def tls(self) -> bool:
        return urlsplit(self.base_url).scheme == "https"

    @property
    def host(self) -> str:
        return urlsplit(self.base_url).hostname or ""

    @property
    def port(self) -> int:
        parts = urlsplit(self.base_url)
        return parts.port or (443 if parts.scheme == "https" else 80)

    @property
    def path(self) -> str:
        """The prefix that replaces the gateway's `/v1` ("" for a base URL without a path)."""
        return urlsplit(self.base_url).path.rstrip("/")


class GatewayRedactionSettings(Strict):
    """How long Envoy waits for the redaction service (its ext_proc and Redaction route)."""

    # Route timeout of redaction calls, seconds.
    timeout_s: float = Field(default=15.0, gt=0)
    # Seconds the redaction service may take to answer one ext_proc message (scrubbing a prompt, one
    # chunk of an answer); past it the inference call fails (closed) and nothing more is forwarded.
    message_timeout_s: float = Field(default=2.0, gt=0)
    # Seconds more per KiB of a request body above 4 KiB: the redaction service first tells Envoy
    # to wait that much longer for the scrubbed body (ext_proc override_message_timeout), and its
    # analyses end by the same time (ztgate/common/scrub_timeout.py). NER reads a prompt whole, and
    # name-dense or lowercase prose is the slowest; 0.25 is above the worst rate measured, with room
    # for a busier host (the figures: docs/operations/limits.md).
    message_timeout_per_kib_s: float = Field(default=0.25, ge=0)
    # The longest Envoy waits for one scrubbed request body, seconds (its ext_proc
    # max_message_timeout): the scaled wait stops here, and so does the scrub. 20 s covers a
    # limits.max_prompt_bytes (64 KiB) prompt at the rate above; redaction.analysis_timeout_s must
    # be at least this (checked at load), since no one analysis runs longer than that.
    max_message_timeout_s: float = Field(default=20.0, gt=0)

    @model_validator(mode="after")
    def _message_timeouts_nest(self) -> "GatewayRedactionSettings":
        if self.max_message_timeout_s < self.message_timeout_s:
            raise ValueError("max_message_timeout_s must be at least message_timeout_s (Envoy's wait "
                             "for every message)")
        return self


class GatewayInferenceSettings(Strict):
    """How Envoy routes an inference call: timeouts, retries, breakers, outlier detection."""

    # Seconds a whole inference call may take (a long answer is not a slow service); also the cap
    # on a client's grpc-timeout.
    timeout_s: float = Field(default=300.0, gt=0)
    # Seconds one try may wait for response headers, which the inference service sends with the
    # first token, on a short prompt; past it Envoy abandons the try and retries on the other
    # instance. Longer prompts get more (next keys): the gateway sets each call's per-try timeout.
    per_try_timeout_s: float = Field(default=1.2, gt=0)
    # Seconds more per 1,000 estimated prompt tokens (prefill). 12 covers the prefill `ztgate bench
    # failover`'s long-prompt probe measured on the default suite, quiet host (the figures:
    # docs/operations/failover.md); past it, or on a busy host, the call is hedged (the losing twin
    # stops at once). Lower it on faster hardware.
    per_try_timeout_per_1k_tokens_s: float = Field(default=12.0, ge=0)
    # The per-try timeout never exceeds this, however long the prompt (above the longest first
    # token the probe measured on the default suite: docs/operations/failover.md).
    per_try_timeout_max_s: float = Field(default=150.0, gt=0)
    # The fewest UTF-8 bytes a token of the served model takes. The gateway has no tokenizer: it
    # sets each call's per-try timeout to the budget of the most tokens the prompt can be, plus
    # one base (an outer bound), while the inference service holds each try to the budget of the
    # prompt's real token count. 1: no token of a byte-level tokenizer is shorter than a byte, and
    # digit-dense text comes close (the default model's bytes a token: docs/operations/failover.md).
    # A larger value cuts digit-dense prompts before their budget: healthy tries counted as misses.
    prompt_bytes_per_token: float = Field(default=1.0, gt=0)
    # Seconds an inference call may go without a byte either way (a model that hangs after its
    # first chunk); longer than the largest per-try timeout, since prefill sends nothing.
    stream_idle_timeout_s: float = Field(default=240.0, gt=0)
    # Retries of an inference call on connect failure, reset, per-try timeout, UNAVAILABLE or
    # RESOURCE_EXHAUSTED. Each retry goes to the next instance in priority order; with two
    # instances a second retry would go back to the one that already failed this call, so 1.
    retries: int = Field(default=1, ge=0, le=5)
    # Circuit breakers and outlier detection on each inference instance.
    breakers: GatewayBreakerSettings = GatewayBreakerSettings()
    outlier_detection: GatewayOutlierSettings = GatewayOutlierSettings()

    @model_validator(mode="after")
    def _timeouts_nest(self) -> "GatewayInferenceSettings":
        if self.per_try_timeout_max_s < self.per_try_timeout_s:
            raise ValueError("per_try_timeout_max_s must be at least per_try_timeout_s")
        if self.per_try_timeout_max_s >= self.timeout_s:
            raise ValueError("per_try_timeout_max_s must be below timeout_s "
                             "(Envoy ignores a per-try timeout as long as the whole call's)")
        if self.stream_idle_timeout_s <= self.per_try_timeout_max_s:
            raise ValueError("stream_idle_timeout_s must exceed per_try_timeout_max_s "
                             "(nothing flows while a long prompt is prefilled)")
        return self


class GatewaySettings(Strict):
    # Envoy's gRPC ingress, the only address clients use.
    listen: str = "127.0.0.1:8080"
    # Envoy's admin console; loopback only (anything else is refused): it has no authentication,
    # and POST /runtime_modify moves traffic and lifts limits, POST /quitquitquit stops Envoy.
    admin: str = "127.0.0.1:9901"
    # Envoy's waits for the redaction service: the route timeout, and each ext_proc message's.
    redaction: GatewayRedactionSettings = GatewayRedactionSettings()
    # Seconds between Envoy's gRPC health checks of each upstream.
    health_interval_s: float = Field(default=1.0, gt=0)
    # Envoy's routing of inference calls: timeouts (the first token's by prompt size), retries,
    # circuit breakers and outlier detection on each instance.
    inference: GatewayInferenceSettings = GatewayInferenceSettings()
    # Envoy's OpenTelemetry tracer: a span per call, continuing a client's traceparent and passed on
    # to the redaction (ext_proc) and inference services, exported over OTLP/gRPC to `otel.endpoint`.
    # Rendered only while `otel.enabled` is on (`ztgate up` turns it on); false keeps Envoy untraced.
    tracing: bool = True
    # Percent of calls Envoy traces (its decision, taken per call): a client's traceparent is
    # continued when the call is picked, and a client's unsampled traceparent is never traced.
    trace_sampling_percent: float = Field(default=100.0, ge=0, le=100)
    # Bearer tokens (JWT) checked by Envoy; off until `auth.jwks_path` is set, which a listener
    # off loopback requires.
    auth: GatewayAuthSettings = GatewayAuthSettings()
    # Per-tenant rate limit in Envoy (local token buckets): `rate_limit.requests_per_s`, else on by
    # default wherever tokens are on or the listener is off loopback (`with_tokens_per_s`).
    rate_limit: GatewayRateLimitSettings = GatewayRateLimitSettings()
    # What any caller can hold at the ingress: stream and header timeouts, streams per
    # connection, connections, Envoy's heap, the tokenless health route (ztgate/gateway/ingress.py).
    ingress: GatewayIngressSettings = GatewayIngressSettings()
    # TLS on Envoy's ingress listener (cert and key); with `client_ca`, clients must also present a
    # certificate from that CA (mTLS). Unset: plaintext, for a listener on loopback. `ztgate certs
    # init` issues a `gateway` certificate for it (localhost, 127.0.0.1 and any --name).
    tls: TlsSettings | None = None
    # The HTTP door's backends (`POST /v1/chat/completions`, `POST /v1/completions`,
    # `GET /v1/models` on the same listener): none by default, and then every /v1 call is 404.
    openai_upstreams: list[OpenAIUpstreamSettings] = []
    # Content parts of a chat message that are not text (images, audio, files) cannot be scrubbed:
    # `refuse` answers 400 naming the part; `pass` lets them through to the model unread.
    openai_non_text_parts: Literal["refuse", "pass"] = "refuse"
    # Top-level request fields the door accepts beyond OpenAI's own (ztgate/protocols/openai/
    # fields.py), e.g. a vLLM upstream's `chat_template_kwargs`: each is scrubbed as text (every
    # string and key in it) and counts against limits.max_prompt_bytes. Any other unknown field
    # is refused with a 400 naming it.
    openai_extra_fields: list[Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")]] = []
    # Most choices one request may ask for (`n`, and `best_of` of a completion): each is a whole
    # generation. Above it the door answers 400 naming the field.
    openai_max_choices: int = Field(default=4, ge=1, le=128)

    @model_validator(mode="after")
    def _openai_upstreams_agree(self) -> "GatewaySettings":
        names = [u.name for u in self.openai_upstreams]
        if len(set(names)) != len(names):
            raise ValueError("gateway.openai_upstreams: every upstream needs a name of its own")
        paths: dict[str, tuple[str, str]] = {}
        serving: dict[str, int] = {}
        for upstream in self.openai_upstreams:
            for model in upstream.models:
                serving[model] = serving.get(model, 0) + 1
        for upstream in self.openai_upstreams:
            shared = [m for m in upstream.models if serving[m] > 1]
            if shared and (upstream.api_key_file or upstream.api_key_env):
                # Envoy runs upstream filters (the key's injector) of the route's cluster, and a
                # model served by several upstreams routes to their failover (aggregate) cluster.
                raise ValueError(
                    f"gateway.openai_upstreams: {upstream.name} has an API key and shares model "
                    f"{shared[0]!r} with another upstream; Envoy cannot send the key through the "
                    "failover between them, so an upstream with a key must serve its models alone")
        for upstream in self.openai_upstreams:
            for model in upstream.models:
                first = paths.setdefault(model, (upstream.name, upstream.path))
                if first[1] != upstream.path:
                    raise ValueError(
                        f"gateway.openai_upstreams: model {model!r} is served by {first[0]} and "
                        f"{upstream.name} under different base URL paths ({first[1] or '/'} and "
                        f"{upstream.path or '/'}); upstreams that share a model need the same path")
        return self

    @field_validator("tls")
    @classmethod
    def _no_allowed_clients(cls, value: TlsSettings | None) -> TlsSettings | None:
        if value is not None and value.allowed_clients:
            raise ValueError("gateway.tls.allowed_clients is not used by Envoy's listener: every "
                             "certificate from gateway.tls.client_ca is accepted, and tokens decide the rest")
        if value is not None and "tenants" in value.model_fields_set:
            raise ValueError("gateway.tls.tenants is not used by Envoy's listener: a client's tenant "
                             "comes from its token (gateway.auth), never from its certificate")
        return value

    def door_options(self) -> DoorOptions:
        """The OpenAI door's field options, as the ext_proc processor applies them."""
        return DoorOptions(pass_non_text_parts=self.openai_non_text_parts == "pass",
                           extra_fields=frozenset(self.openai_extra_fields),
                           max_choices=self.openai_max_choices)

    @property
    def scrub_timeouts(self) -> ScrubTimeouts:
        """Envoy's wait for the redaction service's answer on a request body, by its size."""
        return ScrubTimeouts(base_s=self.redaction.message_timeout_s,
                             per_kib_s=self.redaction.message_timeout_per_kib_s,
                             max_s=self.redaction.max_message_timeout_s)

    @property
    def first_token_budget(self) -> FirstTokenBudget:
        """The per-try timeout of an inference call as a function of its prompt."""
        inference = self.inference
        return FirstTokenBudget(base_s=inference.per_try_timeout_s,
                                per_1k_tokens_s=inference.per_try_timeout_per_1k_tokens_s,
                                max_s=inference.per_try_timeout_max_s,
                                bytes_per_token=inference.prompt_bytes_per_token)

    @field_validator("listen", "admin")
    @classmethod
    def _host_port(cls, value: str) -> str:
        return host_port(value)
