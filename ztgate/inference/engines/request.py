"""A generation request and its sampling parameters, validated when built.

Both engines take the same typed request, so a bad one is refused (InvalidRequest, before anything
starts) the same way whichever engine would serve it.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field

from ztgate.inference.engines.errors import InvalidRequest

# Documented defaults for the proto's optional sampling fields (unset means these).
# Greedy unless asked: the answer that is the same with and without speculation and on either
# engine (a failover does not change it), and the only one a CPU primary serves (vllm_engine.py).
DEFAULT_TEMPERATURE = 0.0  # 0 means greedy
DEFAULT_TOP_P = 1.0  # 1 keeps the whole distribution
DEFAULT_TOP_K = 0  # 0 disables top-k
DEFAULT_MAX_TOKENS = 256  # clamped to what the context leaves after the prompt
ROLES = ("system", "user", "assistant")


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
        # How many stops, and how long, are limits (ztgate/inference/limits.py), checked before.
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
