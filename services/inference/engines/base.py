"""The engine interface: typed requests and sampling parameters, their validation, streamed deltas.

Both engines (vLLM, transformers) share this module, so a request is validated, rendered to token
ids (chat template or raw prompt) and timed the same way whichever engine serves it; the engines
only turn prompt token ids into streamed output tokens.
"""

from __future__ import annotations

import dataclasses
import time
import uuid
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal

from services.common.errors import InvalidArgument, Unavailable
from services.inference import hallucination

# Documented defaults for the proto's optional sampling fields (unset means these).
# Greedy unless asked: the answer that is the same with and without speculation and on either
# engine (a failover does not change it), and the only one a CPU primary serves (vllm_engine.py).
DEFAULT_TEMPERATURE = 0.0  # 0 means greedy
DEFAULT_TOP_P = 1.0  # 1 keeps the whole distribution
DEFAULT_TOP_K = 0  # 0 disables top-k
DEFAULT_MAX_TOKENS = 256  # clamped to what the context leaves after the prompt
ROLES = ("system", "user", "assistant")
WARMUP_PROMPT = "one two three four, one two three four, one two three four, one two"

FinishReason = Literal["stop", "length", "abort"]
Parity = Literal["strict", "fast"]
SpeculativeMethod = Literal["none", "ngram", "draft_model", "eagle", "eagle3", "medusa"]
SPECULATIVE_METHODS: tuple[str, ...] = ("none", "ngram", "draft_model", "eagle", "eagle3", "medusa")
# Methods that need a second set of weights (a draft model or a speculator head).
METHODS_WITH_WEIGHTS: tuple[str, ...] = ("draft_model", "eagle", "eagle3", "medusa")
# strict: float32 everywhere, so speculative and plain decoding (and both engines) give the same
# greedy tokens; fast: bfloat16, faster, and greedy output may then differ with speculation.
PARITY_DTYPES: dict[str, str] = {"strict": "float32", "fast": "bfloat16"}


class InvalidRequest(InvalidArgument, ValueError):
    """The request cannot be served as given (INVALID_ARGUMENT); the message says what to change."""


class EngineConfigError(RuntimeError):
    """The engine configuration cannot work; the message says which setting to fix."""


class EngineNotReady(Unavailable):
    """The engine has not finished starting, or has been closed (UNAVAILABLE)."""


class SamplingUnsupported(Unavailable):
    """This engine cannot sample this request correctly (UNAVAILABLE: through the gateway, Envoy's
    retry policy sends the call to the other instance)."""


@dataclass(frozen=True, slots=True)
class ChatMessage:
    role: str
    content: str


@dataclass(frozen=True, slots=True)
class SamplingParams:
    """Resolved sampling parameters; `from_optional` maps unset (None) fields to the defaults."""

    temperature: float = DEFAULT_TEMPERATURE
    top_p: float = DEFAULT_TOP_P
    top_k: int = DEFAULT_TOP_K
    # None: DEFAULT_MAX_TOKENS, clamped to the room the prompt leaves in the context. A number is
    # the caller's own, and one above the model's context is refused (PromptRenderer).
    max_tokens: int | None = None
    seed: int | None = None
    stop: tuple[str, ...] = ()
    # Per-token log-probabilities and an inline hallucination score (costs speed).
    score_inline: bool = False

    def __post_init__(self) -> None:
        if not self.temperature >= 0:  # also rejects NaN
            raise InvalidRequest(f"temperature must be >= 0 (0 means greedy); got {self.temperature}")
        if not 0 < self.top_p <= 1:
            raise InvalidRequest(f"top_p must be in (0, 1] (1 keeps every token); got {self.top_p}")
        if self.top_k < 0:
            raise InvalidRequest(f"top_k must be >= 0 (0 disables it); got {self.top_k}")
        if self.max_tokens is not None and self.max_tokens <= 0:
            raise InvalidRequest(f"max_tokens must be a positive number of tokens; got {self.max_tokens}")
        # How many stops, and how long, are limits (services/inference/limits.py), checked before.
        for i, s in enumerate(self.stop):
            if not s:
                raise InvalidRequest(f"stop sequence {i} is empty; remove it")

    @property
    def greedy(self) -> bool:
        return self.temperature == 0

    @classmethod
    def from_optional(
        cls,
        *,
        temperature: float | None = None,
        top_p: float | None = None,
        top_k: int | None = None,
        max_tokens: int | None = None,
        seed: int | None = None,
        stop: Sequence[str] = (),
        score_inline: bool | None = None,
    ) -> SamplingParams:
        """Builds parameters from proto3-optional values: None means the documented default."""
        return cls(
            temperature=DEFAULT_TEMPERATURE if temperature is None else float(temperature),
            top_p=DEFAULT_TOP_P if top_p is None else float(top_p),
            top_k=DEFAULT_TOP_K if top_k is None else int(top_k),
            max_tokens=None if max_tokens is None else int(max_tokens),
            seed=seed,
            stop=tuple(stop),
            score_inline=bool(score_inline),
        )


def engine_request_id(tenant: str, request_id: str) -> str:
    """The id a request has inside the engine (and the background scorer): unique per (tenant,
    request_id), so one tenant reusing another's request_id never touches the other's request. The
    tenant's length leads, so no two pairs give the same id whatever characters they hold."""
    return f"{len(tenant)}:{tenant}:{request_id}"


@dataclass(frozen=True, slots=True)
class GenerationRequest:
    """One generation: exactly one of `prompt` (raw text) and `messages` (chat, rendered with the
    model's chat template). `request_id` is the client's, echoed in answers; the engine knows the
    request as `engine_id`."""

    prompt: str = ""
    messages: tuple[ChatMessage, ...] = ()
    sampling: SamplingParams = field(default_factory=SamplingParams)
    request_id: str = ""  # empty: the engine assigns one
    tenant: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "messages", tuple(self.messages))
        has_prompt, has_messages = bool(self.prompt), bool(self.messages)
        if has_prompt and has_messages:
            raise InvalidRequest("set exactly one of prompt and messages, not both")
        if not has_prompt and not has_messages:
            raise InvalidRequest("set exactly one of prompt and messages; both are empty")
        if has_prompt and not self.prompt.strip():
            raise InvalidRequest("the prompt is only whitespace; send some text")
        for i, m in enumerate(self.messages):
            if m.role not in ROLES:
                raise InvalidRequest(f"messages[{i}].role is {m.role!r}; use one of {', '.join(ROLES)}")
            if not m.content.strip():
                raise InvalidRequest(f"messages[{i}] ({m.role}) has no content")
        if not self.request_id:
            object.__setattr__(self, "request_id", uuid.uuid4().hex)

    @property
    def engine_id(self) -> str:
        return engine_request_id(self.tenant, self.request_id)


@dataclass(frozen=True, slots=True)
class SpeculativeSettings:
    """Speculative decoding. ngram (prompt lookup) needs no extra weights; the other methods need
    `draft_model`, a path to the draft model or speculator head."""

    # Defaults: the best of the single-stream sweep on the CPU build in strict parity
    # (python -m services.bench.inference_bench): 2.2x on copy-heavy prompts, ~1.1x on mixed chat.
    method: SpeculativeMethod = "ngram"
    num_speculative_tokens: int = 8
    prompt_lookup_min: int = 1  # ngram: shortest n-gram matched against the context
    prompt_lookup_max: int = 4  # ngram: longest n-gram matched against the context
    draft_model: str | None = None

    def check(self) -> None:
        """Raises EngineConfigError naming the setting to change."""
        if self.method not in SPECULATIVE_METHODS:
            raise EngineConfigError(
                f"speculative method {self.method!r} is unknown; use one of {', '.join(SPECULATIVE_METHODS)}")
        if self.method == "none":
            return
        if self.num_speculative_tokens < 1:
            raise EngineConfigError(
                f"num_speculative_tokens must be >= 1 with method {self.method!r}; "
                f"got {self.num_speculative_tokens} (or set the method to none)")
        if self.method == "ngram":
            if not 1 <= self.prompt_lookup_min <= self.prompt_lookup_max:
                raise EngineConfigError(
                    "ngram speculation needs 1 <= prompt_lookup_min <= prompt_lookup_max; got "
                    f"prompt_lookup_min={self.prompt_lookup_min}, prompt_lookup_max={self.prompt_lookup_max}")
        elif not self.draft_model:
            raise EngineConfigError(
                f"speculative method {self.method!r} needs draft_model (the path to its draft model or "
                "speculator weights); set it, or use method ngram, which needs none")
        elif not Path(self.draft_model).exists():
            raise EngineConfigError(
                f"draft_model {self.draft_model!r} for speculative method {self.method!r} does not exist; "
                "prepare it (eagle3: `ztgate models train-speculator`) or fix the path")


@dataclass(frozen=True, slots=True)
class EngineConfig:
    model_dir: Path  # a Hugging Face model folder (see services.inference.models.prepare)
    model_name: str = "SmolLM2-135M-Instruct"  # reported in responses
    parity: Parity = "strict"
    speculative: SpeculativeSettings = field(default_factory=lambda: SpeculativeSettings(method="none"))
    max_model_len: int | None = None  # None: the model's own context length
    max_num_seqs: int = 8  # requests batched together by vLLM
    kv_cache_gib: int = 1  # CPU only: KV cache GiB; the vLLM engine sets VLLM_CPU_KVCACHE_SPACE from it
    # vLLM engine arguments of the accelerator settings (accelerator.engine_kwargs), and where they
    # are set, for the check against the installed build.
    accelerator_args: tuple[tuple[str, Any], ...] = ()
    enforce_eager: bool = True  # no compilation or graph capture: a start in seconds, not minutes

    @property
    def dtype(self) -> str:
        return PARITY_DTYPES[self.parity]

    def check(self) -> None:
        if self.parity not in PARITY_DTYPES:
            raise EngineConfigError(f"parity {self.parity!r} is unknown; use strict or fast")
        if not (Path(self.model_dir) / "config.json").is_file():
            raise EngineConfigError(
                f"no model at {self.model_dir} (config.json missing); run `ztgate models prepare` first")
        if self.max_model_len is not None and self.max_model_len < 16:
            raise EngineConfigError(f"max_model_len {self.max_model_len} is too small; use at least 16 or unset it")
        self.speculative.check()


@dataclass(frozen=True, slots=True)
class Usage:
    prompt_tokens: int
    completion_tokens: int


@dataclass(frozen=True, slots=True)
class SpeculativeStats:
    """Per-request speculation figures, as the engine counted them.

    acceptance_rate = accepted_tokens / draft_tokens; mean_acceptance_length = 1 + accepted_tokens /
    num_drafts (tokens emitted per verification step, the bonus token included), vLLM's conventions.
    """

    method: str = "none"
    num_speculative_tokens: int = 0
    num_drafts: int = 0
    draft_tokens: int = 0
    accepted_tokens: int = 0
    # False when the engine does not expose draft/accept counts (transformers): the counts and
    # ratios are then not known, and must not be reported as zeros.
    counted: bool = True

    @property
    def acceptance_rate(self) -> float:
        return self.accepted_tokens / self.draft_tokens if self.draft_tokens else 0.0

    @property
    def mean_acceptance_length(self) -> float:
        return 1.0 + self.accepted_tokens / self.num_drafts if self.num_drafts else 0.0


@dataclass(frozen=True, slots=True)
class Timings:
    ttft_ms: float
    total_ms: float
    tpot_ms: float  # mean time per output token after the first


@dataclass(frozen=True, slots=True)
class FinalStats:
    """Carried by the last delta of a stream."""

    usage: Usage
    speculative: SpeculativeStats
    timings: Timings | None = None  # filled by Engine.generate
    # Natural-log probability of each generated token under the unmodified model distribution;
    # only when the request asked for score_inline.
    token_logprobs: tuple[float, ...] | None = None
    hallucination_score: float | None = None  # only when computed (score_inline)
    model: str = ""
    # The prompt as the model saw it (chat template applied), for the background scorer.
    prompt_token_ids: tuple[int, ...] = field(default=(), repr=False)


@dataclass(frozen=True, slots=True)
class Delta:
    """A piece of a streamed answer: new tokens and the text they complete. The last delta has
    finish_reason and final set."""

    token_ids: tuple[int, ...]
    text: str
    finish_reason: FinishReason | None = None
    final: FinalStats | None = None
    # Tokens of the rendered prompt, set by Engine.generate on the first delta with tokens (the
    # work before the first token, for the comparable TTFT the SLO judges); else 0.
    prompt_tokens: int = 0


@dataclass(frozen=True, slots=True)
class Completion:
    """A whole answer, as `collect` assembles it from a stream."""

    request_id: str
    text: str
    token_ids: tuple[int, ...]
    finish_reason: FinishReason
    final: FinalStats


class PromptRenderer:
    """Turns a request into prompt token ids with the model's own tokenizer and chat template,
    and checks that the prompt leaves room in the context."""

    def __init__(self, tokenizer: Any, max_model_len: int) -> None:
        self.tokenizer = tokenizer
        self.max_model_len = max_model_len

    def render(self, request: GenerationRequest) -> tuple[list[int], int]:
        """Returns (prompt token ids, max_tokens clamped to the room the context leaves).

        An explicit max_tokens above the whole context is refused before any tokenizing: no prompt
        could leave it room. The unset default is clamped.
        """
        asked = request.sampling.max_tokens
        if asked is not None and asked > self.max_model_len:
            raise InvalidRequest(
                f"max_tokens is {asked}; the model's context is {self.max_model_len} tokens, prompt "
                "included: ask for fewer, or leave it unset to get what the context leaves")
        if request.messages:
            text = self.tokenizer.apply_chat_template(
                [{"role": m.role, "content": m.content} for m in request.messages],
                tokenize=False, add_generation_prompt=True)
            ids = self.tokenizer(text, add_special_tokens=False)["input_ids"]
        else:
            ids = self.tokenizer(request.prompt, add_special_tokens=True)["input_ids"]
        ids = list(ids)
        room = self.max_model_len - len(ids)
        if room <= 0:
            raise InvalidRequest(
                f"the prompt is {len(ids)} tokens; the model's context is {self.max_model_len} tokens and must "
                f"leave room for the answer: shorten the prompt by at least {1 - room} tokens")
        return ids, min(DEFAULT_MAX_TOKENS if asked is None else asked, room)


class Engine(ABC):
    """Loads a model, warms it up and streams generations.

    Subclasses implement `_start`, `_stream`, `_abort` and `_close`; `generate` wraps `_stream`
    with validation, prompt rendering, request-id bookkeeping and timings.
    """

    kind: ClassVar[str]

    def __init__(self, config: EngineConfig) -> None:
        self.config = config
        self._renderer: PromptRenderer | None = None
        self._ready = False
        self._inflight: set[str] = set()

    @property
    def ready(self) -> bool:
        return self._ready

    @property
    def model_name(self) -> str:
        return self.config.model_name

    @property
    def speculative_method(self) -> str:
        return self.config.speculative.method

    @property
    def max_model_len(self) -> int:
        if self._renderer is None:
            raise EngineNotReady("the engine has not started")
        return self._renderer.max_model_len

    @property
    def tokenizer(self) -> Any:
        if self._renderer is None:
            raise EngineNotReady("the engine has not started")
        return self._renderer.tokenizer

    @property
    def inflight(self) -> int:
        """Requests in flight on this engine (streams not yet finished or closed)."""
        return len(self._inflight)

    async def start(self) -> None:
        """Loads the model and runs a warm-up generation; `ready` is True afterwards."""
        self.config.check()
        self._renderer = await self._start()
        try:
            # A repetitive prompt and a few tokens, so that speculation proposes and verifies drafts
            # (vLLM compiles its n-gram proposer on first use: that belongs to start, not to a request).
            async for _ in self.generate(GenerationRequest(
                    prompt=WARMUP_PROMPT, sampling=SamplingParams(temperature=0, max_tokens=8)), _warmup=True):
                pass
        except BaseException:
            await self._close()
            raise
        self._ready = True

    async def generate(self, request: GenerationRequest, *, _warmup: bool = False) -> AsyncIterator[Delta]:
        """Streams the answer. Raises InvalidRequest before the first delta when the request cannot
        be served. Closing or cancelling the iteration aborts the request inside the engine."""
        if not (self._ready or _warmup) or self._renderer is None:
            raise EngineNotReady("the engine is not ready (starting or closed)")
        key = request.engine_id
        if key in self._inflight:
            raise InvalidRequest(
                f"request_id {request.request_id!r} is already in flight here for this tenant; send a "
                "unique id or none")
        prompt_ids, max_tokens = self._renderer.render(request)
        self._refuse(request)  # after validation: a bad request is INVALID_ARGUMENT wherever it goes
        self._inflight.add(key)
        t0 = time.perf_counter()
        t_first: float | None = None
        n_out = 0
        finished = False
        try:
            async for delta in self._stream(request, prompt_ids, max_tokens):
                if delta.token_ids and t_first is None:
                    t_first = time.perf_counter()
                    delta = dataclasses.replace(delta, prompt_tokens=len(prompt_ids))
                n_out += len(delta.token_ids)
                if delta.final is not None:
                    finished = True
                    self._inflight.discard(key)  # done, whether or not the consumer reads on
                    delta = dataclasses.replace(delta, final=self._finish(delta.final, prompt_ids, t0, t_first, n_out))
                yield delta
        finally:
            self._inflight.discard(key)
            if not finished:
                await self._abort(key)

    def _finish(self, final: FinalStats, prompt_ids: list[int], t0: float, t_first: float | None,
                n_out: int) -> FinalStats:
        now = time.perf_counter()
        ttft = ((t_first or now) - t0) * 1e3
        total = (now - t0) * 1e3
        tpot = (total - ttft) / (n_out - 1) if n_out > 1 else 0.0
        score = final.hallucination_score
        if score is None and final.token_logprobs:
            try:
                score = hallucination.score_from_logprobs(final.token_logprobs).score
            except ValueError:  # e.g. a NaN from the engine: no score rather than a wrong one
                score = None
        return dataclasses.replace(final, timings=Timings(ttft, total, tpot), hallucination_score=score,
                                   model=self.model_name, prompt_token_ids=tuple(prompt_ids))

    async def abort(self, request_id: str, tenant: str = "") -> bool:
        """Aborts the tenant's in-flight request; False when it has no such request in flight here."""
        key = engine_request_id(tenant, request_id)
        if key not in self._inflight:
            return False
        await self._abort(key)
        return True

    async def close(self) -> None:
        self._ready = False
        await self._close()

    def _refuse(self, request: GenerationRequest) -> None:
        """Raises when this engine cannot serve `request` as asked (before anything starts)."""

    @abstractmethod
    async def _start(self) -> PromptRenderer: ...

    @abstractmethod
    def _stream(self, request: GenerationRequest, prompt_ids: list[int], max_tokens: int) -> AsyncIterator[Delta]:
        """Yields deltas; the last one has finish_reason and final (usage, speculative stats and,
        for score_inline, token_logprobs) set. The engine knows the request as `request.engine_id`."""

    @abstractmethod
    async def _abort(self, engine_id: str) -> None: ...

    @abstractmethod
    async def _close(self) -> None: ...


async def collect(stream: AsyncIterator[Delta], request_id: str) -> Completion:
    """Consumes a stream into one Completion (the unary Generate)."""
    texts: list[str] = []
    ids: list[int] = []
    last: Delta | None = None
    async for d in stream:
        texts.append(d.text)
        ids.extend(d.token_ids)
        last = d
    if last is None or last.final is None:
        raise RuntimeError("the engine stream ended without a final delta")
    return Completion(request_id, "".join(texts), tuple(ids), last.finish_reason or "stop", last.final)
