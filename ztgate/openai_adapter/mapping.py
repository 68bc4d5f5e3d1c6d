"""The OpenAI schema to and from ztgate's `Inference` messages: pure functions, no I/O.

Requests: every field OpenAI defines is either mapped one to one onto `SamplingParams`, accepted
because it changes nothing here (`user`, `stream_options`, `n: 1`, a zero penalty), or refused
with a 400 that names it; an unknown field is refused too, so that nothing a client asks for is
silently ignored. The request limits (`limits:`) are checked before anything is sent.

Answers: OpenAI's `chat.completion` / `text_completion` objects and their SSE chunks, with
`id`, `created`, `model`, `finish_reason` and `usage` filled from the reply, and ztgate's own
figures (served_by, request id, speculative statistics, timings, hallucination score) in an
extension field `ztgate` and in `x-ztgate-*` response headers (docs/architecture.md).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ztgate.common.errors import InvalidArgument, NotFound
from ztgate.gen.inference.v1 import inference_pb2 as pb
from ztgate.inference.limits import RequestLimits

CHAT = "chat"
COMPLETION = "text_completion"
# SSE's end of stream, as OpenAI sends it.
DONE = b"data: [DONE]\n\n"
INT64 = 2**63
# Chat roles the proto carries; OpenAI's `developer` is its newer name for `system`.
ROLES = {"system": "system", "developer": "system", "user": "user", "assistant": "assistant"}
# Fields that change nothing here when they have these values (OpenAI's defaults).
NEUTRAL = {"n": (1,), "presence_penalty": (0, 0.0), "frequency_penalty": (0, 0.0),
           "logprobs": (None, False), "echo": (None, False), "best_of": (None, 1),
           "suffix": (None,), "top_logprobs": (None,), "logit_bias": (None,),
           "tools": (None,), "tool_choice": (None, "none"), "functions": (None,),
           "function_call": (None, "none"), "response_format": (None,),
           "parallel_tool_calls": (None,)}
# Why a field is refused when it has any other value.
UNSUPPORTED = {
    "n": "only n=1 is served (one choice per request)",
    "presence_penalty": "the Inference service has no presence penalty",
    "frequency_penalty": "the Inference service has no frequency penalty",
    "logprobs": "log-probabilities are not returned on the HTTP door",
    "top_logprobs": "log-probabilities are not returned on the HTTP door",
    "echo": "echo is not served",
    "best_of": "only best_of=1 is served",
    "suffix": "suffix (insertion) is not served",
    "logit_bias": "logit_bias is not served",
    "tools": "tool calling is not served by ztgate's own model",
    "tool_choice": "tool calling is not served by ztgate's own model",
    "functions": "function calling is not served by ztgate's own model",
    "function_call": "function calling is not served by ztgate's own model",
    "response_format": "structured output is not served by ztgate's own model",
    "parallel_tool_calls": "tool calling is not served by ztgate's own model",
}
COMMON = {"model", "stream", "stream_options", "temperature", "top_p", "top_k", "max_tokens",
          "stop", "seed", "user", *NEUTRAL}
FIELDS = {CHAT: COMMON | {"messages", "max_completion_tokens"}, COMPLETION: COMMON | {"prompt"}}


class FieldError(InvalidArgument):
    """A request field the adapter cannot serve: 400, `param` names it."""

    def __init__(self, param: str, message: str) -> None:
        super().__init__(f"{param}: {message}")
        self.param = param


@dataclass(frozen=True)
class Parsed:
    """A request as the adapter sends it on: the gRPC message and how to answer."""

    request: pb.GenerateRequest
    stream: bool
    include_usage: bool
    model: str


def _number(body: Mapping[str, Any], name: str, low: float, high: float) -> float | None:
    value = body.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise FieldError(name, "must be a number")
    if not low <= value <= high:
        raise FieldError(name, f"must be between {low:g} and {high:g}, not {value!r}")
    return float(value)


def _integer(body: Mapping[str, Any], name: str, low: int, high: int) -> int | None:
    value = body.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise FieldError(name, "must be an integer")
    if not low <= value <= high:
        raise FieldError(name, f"must be between {low} and {high}, not {value}")
    return value


def _text(value: Any, name: str) -> str:
    """A message's content: a string, or OpenAI's array of parts whose every part is text."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        texts = []
        for i, part in enumerate(value):
            if not isinstance(part, dict) or part.get("type") != "text" or not isinstance(
                    part.get("text"), str):
                raise FieldError(f"{name}[{i}]", "only text parts are served by ztgate's own model")
            texts.append(part["text"])
        return "".join(texts)
    raise FieldError(name, "must be a string or an array of text parts")


def _messages(value: Any) -> list[pb.ChatMessage]:
    if not isinstance(value, list) or not value:
        raise FieldError("messages", "must be a non-empty array of messages")
    out = []
    for i, message in enumerate(value):
        where = f"messages[{i}]"
        if not isinstance(message, dict):
            raise FieldError(where, "must be an object with role and content")
        for key in message:
            if key not in ("role", "content", "name"):
                raise FieldError(f"{where}.{key}", "is not served by ztgate's own model "
                                 "(role, content and name are)")
        role = message.get("role")
        if role not in ROLES:
            raise FieldError(f"{where}.role", f"must be one of {', '.join(ROLES)}, not {role!r}")
        if "content" not in message or message["content"] is None:
            raise FieldError(f"{where}.content", "is required")
        out.append(pb.ChatMessage(role=ROLES[role], content=_text(message["content"],
                                                                  f"{where}.content")))
    return out


def _stops(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(s, str) for s in value):
        return list(value)
    raise FieldError("stop", "must be a string or an array of strings")


def parse(body: Any, kind: str, model: str, limits: RequestLimits) -> Parsed:
    """A parsed JSON body of `kind` (CHAT or COMPLETION) for `model` as a GenerateRequest; raises
    FieldError (400), NotFound (404: another model), or the limits' errors (413, 400)."""
    if not isinstance(body, dict):
        raise FieldError("body", "must be a JSON object")
    for name in body:
        if name not in FIELDS[kind]:
            raise FieldError(name, "is not a field of this endpoint served by ztgate's own model")
    for name, neutral in NEUTRAL.items():
        value = body.get(name)
        # By type as well as value: `true` is not `n: 1`, `false` is not a zero penalty.
        if name in body and not any(type(value) is type(v) and value == v for v in neutral):
            raise FieldError(name, UNSUPPORTED[name])
    if body.get("model") != model:
        if not isinstance(body.get("model"), str):
            raise FieldError("model", "is required (a string)")
        raise NotFound(f"model {body['model']!r} is not served here; this adapter serves {model!r}")
    stream = body.get("stream", False)
    if stream is None:
        stream = False
    if not isinstance(stream, bool):
        raise FieldError("stream", "must be true or false")
    options = body.get("stream_options")
    include_usage = False
    if options is not None:
        if not isinstance(options, dict) or set(options) - {"include_usage"} or not isinstance(
                options.get("include_usage", False), bool):
            raise FieldError("stream_options", "must be {\"include_usage\": true|false}")
        if not stream:
            raise FieldError("stream_options", "is only allowed with stream: true")
        include_usage = bool(options.get("include_usage", False))
    if body.get("user") is not None and not isinstance(body["user"], str):
        raise FieldError("user", "must be a string")
    sampling = pb.SamplingParams()
    if (temperature := _number(body, "temperature", 0.0, 2.0)) is not None:
        sampling.temperature = temperature
    if (top_p := _number(body, "top_p", 0.0, 1.0)) is not None:
        if top_p == 0.0:
            raise FieldError("top_p", "must be above 0")
        sampling.top_p = top_p
    if (top_k := _integer(body, "top_k", -1, 2**31 - 1)) is not None:
        sampling.top_k = top_k
    if (seed := _integer(body, "seed", -INT64, INT64 - 1)) is not None:
        sampling.seed = seed
    max_tokens = _integer(body, "max_tokens", 1, 2**31 - 1)
    if kind == CHAT:
        newer = _integer(body, "max_completion_tokens", 1, 2**31 - 1)
        if newer is not None and max_tokens is not None and newer != max_tokens:
            raise FieldError("max_completion_tokens", f"is {newer} but max_tokens is {max_tokens}; "
                             "set one of them")
        max_tokens = newer if newer is not None else max_tokens
    stops = _stops(body.get("stop"))
    if kind == CHAT:
        messages = _messages(body.get("messages"))
        prompt = ""
    else:
        raw = body.get("prompt")
        if isinstance(raw, list) and len(raw) == 1 and isinstance(raw[0], str):
            raw = raw[0]
        if not isinstance(raw, str):
            raise FieldError("prompt", "must be a string (one prompt per request; no token ids)")
        if not raw:
            raise FieldError("prompt", "must not be empty")
        messages, prompt = [], raw
    limits.check(prompt=prompt, contents=[m.content for m in messages], stops=stops,
                 max_tokens=max_tokens)
    if max_tokens is not None:
        sampling.max_tokens = max_tokens
    sampling.stop.extend(stops)
    request = pb.GenerateRequest(prompt=prompt, messages=messages, sampling=sampling)
    return Parsed(request=request, stream=stream, include_usage=include_usage, model=model)


def finish_reason(reason: str) -> str:
    """The proto's stop/length pass as they are; `abort` (the engine stopped the request) is
    OpenAI's nearest, `stop`; an empty one (still running) is null's caller's business."""
    return "stop" if reason == "abort" else reason


def usage(reply: pb.GenerateResponse | pb.GenerateChunk) -> dict[str, int]:
    prompt, completion = reply.usage.prompt_tokens, reply.usage.completion_tokens
    return {"prompt_tokens": prompt, "completion_tokens": completion,
            "total_tokens": prompt + completion}


def extension(reply: pb.GenerateResponse | pb.GenerateChunk) -> dict[str, Any]:
    """ztgate's own figures (the `ztgate` field of an answer or of the last chunk)."""
    s, t = reply.speculative, reply.timings
    out: dict[str, Any] = {
        "served_by": reply.served_by, "request_id": reply.request_id,
        "speculative": {"method": s.method, "num_speculative_tokens": s.num_speculative_tokens,
                        "draft_tokens": s.draft_tokens, "accepted_tokens": s.accepted_tokens,
                        "acceptance_rate": s.acceptance_rate,
                        "mean_acceptance_length": s.mean_acceptance_length},
        "timings": {"ttft_ms": t.ttft_ms, "total_ms": t.total_ms, "tpot_ms": t.tpot_ms},
    }
    if reply.HasField("hallucination_score"):
        out["hallucination_score"] = reply.hallucination_score
    return out


def headers(reply: pb.GenerateResponse | pb.GenerateChunk, final: bool) -> dict[str, str]:
    """`x-ztgate-*` response headers: who served it from the first chunk; the speculative
    statistics only where the answer is whole (unary), since a stream's headers go first."""
    out = {"x-ztgate-served-by": reply.served_by, "x-ztgate-request-id": reply.request_id}
    if final:
        s = reply.speculative
        out.update({"x-ztgate-speculative-method": s.method or "none",
                    "x-ztgate-speculative-draft-tokens": str(s.draft_tokens),
                    "x-ztgate-speculative-accepted-tokens": str(s.accepted_tokens),
                    "x-ztgate-speculative-acceptance-rate": f"{s.acceptance_rate:.4f}"})
    return {k: v for k, v in out.items() if v}


def completion_id(kind: str, request_id: str, fallback: str) -> str:
    return ("chatcmpl-" if kind == CHAT else "cmpl-") + (request_id or fallback)


def answer(reply: pb.GenerateResponse, kind: str, model: str, ident: str, created: int) -> dict:
    """A unary reply as OpenAI's `chat.completion` or `text_completion` object."""
    reason = finish_reason(reply.finish_reason) or "stop"
    if kind == CHAT:
        choice = {"index": 0, "message": {"role": "assistant", "content": reply.text},
                  "logprobs": None, "finish_reason": reason}
        obj = "chat.completion"
    else:
        choice = {"index": 0, "text": reply.text, "logprobs": None, "finish_reason": reason}
        obj = "text_completion"
    return {"id": ident, "object": obj, "created": created, "model": reply.model or model,
            "choices": [choice], "usage": usage(reply), "ztgate": extension(reply)}


def sse(payload: Mapping[str, Any]) -> bytes:
    """One server-sent event carrying `payload` as JSON (OpenAI's framing: `data: ...` + blank line)."""
    return b"data: " + json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode() + b"\n\n"


class ChunkShaper:
    """A stream of GenerateChunks as OpenAI's SSE chunks, the first with the assistant's role (chat),
    the last with finish_reason (and ztgate's figures), then the usage chunk when asked, then DONE."""

    def __init__(self, kind: str, model: str, ident: str, created: int, include_usage: bool) -> None:
        self.kind, self.model, self.ident = kind, model, ident
        self.created, self.include_usage = created, include_usage
        self.started = False

    def _chunk(self, choice: dict, model: str) -> dict:
        obj = "chat.completion.chunk" if self.kind == CHAT else "text_completion"
        out = {"id": self.ident, "object": obj, "created": self.created, "model": model,
               "choices": [choice]}
        if self.include_usage:
            out["usage"] = None
        return out

    def events(self, chunk: pb.GenerateChunk) -> list[bytes]:
        """The SSE events for one chunk (an empty text yields none but the first/last ones)."""
        model = chunk.model or self.model
        out = []
        reason = finish_reason(chunk.finish_reason) or None
        if self.kind == CHAT:
            if not self.started:
                out.append(sse(self._chunk({"index": 0, "delta": {"role": "assistant", "content": ""},
                                            "logprobs": None, "finish_reason": None}, model)))
            if chunk.text:
                out.append(sse(self._chunk({"index": 0, "delta": {"content": chunk.text},
                                            "logprobs": None, "finish_reason": None}, model)))
            if reason:
                last = self._chunk({"index": 0, "delta": {}, "logprobs": None,
                                    "finish_reason": reason}, model)
                last["ztgate"] = extension(chunk)
                out.append(sse(last))
        else:
            if chunk.text or reason:
                piece = self._chunk({"index": 0, "text": chunk.text, "logprobs": None,
                                     "finish_reason": reason}, model)
                if reason:
                    piece["ztgate"] = extension(chunk)
                out.append(sse(piece))
        self.started = True
        if reason and self.include_usage:
            tail = self._chunk({}, model)
            tail["choices"] = []
            tail["usage"] = usage(chunk)
            out.append(sse(tail))
        return out
