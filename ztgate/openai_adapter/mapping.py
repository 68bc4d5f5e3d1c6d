"""The OpenAI schema to and from ztgate's `Inference` messages: pure functions, no I/O.

Requests: checked against the door's own schema (ztgate/protocols/openai/fields.py), the one the
gateway's processor checks them against, so every field is known, well formed and within bounds;
then every field the schema marks as not served by ztgate's own model (`Field.own`: `n` above 1,
penalties, tools, ...) is refused with a 400 that names it unless it has its neutral value, so that
nothing a client asks for is silently ignored. The request limits (`limits:`) are checked before
anything is sent.

Answers: OpenAI's `chat.completion` / `text_completion` objects and their SSE chunks, with
`id`, `created`, `model`, `finish_reason` and `usage` filled from the reply, and ztgate's own
figures (served_by, request id, speculative statistics, timings, hallucination score) in an
extension field `ztgate` and in `x-ztgate-*` response headers (docs/architecture.md).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ztgate.common.errors import NotFound
from ztgate.gen.inference.v1 import inference_pb2 as pb
from ztgate.inference.limits import RequestLimits
from ztgate.protocols.openai.errors import OpenAIRequestError
from ztgate.protocols.openai.fields import CHAT_PATH, COMPLETIONS_PATH, check_request
from ztgate.protocols.openai.schema import DoorOptions
from ztgate.protocols.openai.sse import DONE, sse

__all__ = ["CHAT", "COMPLETION", "DONE", "ChunkShaper", "FieldError", "Parsed", "answer", "parse",
           "sse"]

CHAT = "chat"
COMPLETION = "text_completion"
PATHS = {CHAT: CHAT_PATH, COMPLETION: COMPLETIONS_PATH}
# Chat roles the proto carries; OpenAI's `developer` is its newer name for `system` (the schema
# marks `tool` and `function` as not served).
ROLES = {"system": "system", "developer": "system", "user": "user", "assistant": "assistant"}
# The schema's walk here: non-text parts are found (and refused as not served), never passed.
OPTIONS = DoorOptions(pass_non_text_parts=True, max_choices=2**31 - 1)


class FieldError(OpenAIRequestError):
    """A request field the adapter cannot serve: 400, `param` names it."""

    def __init__(self, param: str, message: str, *, whole: bool = False) -> None:
        super().__init__(message if whole else f"{param}: {message}", param)


@dataclass(frozen=True)
class Parsed:
    """A request as the adapter sends it on: the gRPC message and how to answer."""

    request: pb.GenerateRequest
    stream: bool
    include_usage: bool
    model: str


def _text(value: str | list, name: str) -> str:
    """A message's content (checked by the schema): a string, or parts whose every part is text."""
    if isinstance(value, str):
        return value
    for i, part in enumerate(value):
        if part.get("type") != "text":
            raise FieldError(f"{name}[{i}]", "only text parts are served by ztgate's own model")
    return "".join(part["text"] for part in value)


def _messages(value: list) -> list[pb.ChatMessage]:
    """The schema's messages (roles and fields the own model cannot serve already refused)."""
    out = []
    for i, message in enumerate(value):
        where = f"messages[{i}]"
        if message.get("content") is None:
            raise FieldError(f"{where}.content", "is required")
        out.append(pb.ChatMessage(role=ROLES[message["role"]],
                                  content=_text(message["content"], f"{where}.content")))
    return out


def _stops(value: str | list | None) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return list(value)


def parse(body: Any, kind: str, model: str, limits: RequestLimits,
          extra_fields: frozenset[str] = frozenset()) -> Parsed:
    """A parsed JSON body of `kind` (CHAT or COMPLETION) for `model` as a GenerateRequest; raises
    OpenAIRequestError/FieldError (400), NotFound (404: another model), or the limits' errors
    (413, 400). `extra_fields`: gateway.openai_extra_fields, which the door lets through for other
    upstreams and the own model does not serve."""
    if not isinstance(body, dict):
        raise FieldError("body", "must be a JSON object")
    try:
        walk = check_request(body, PATHS[kind], replace(OPTIONS, extra_fields=extra_fields))
    except OpenAIRequestError as exc:
        raise FieldError(exc.param or "body", str(exc), whole=True) from None
    for where, why in walk.unserved:
        raise FieldError(where, why)
    for name in sorted(extra_fields):
        if body.get(name) is not None:
            raise FieldError(name, "is not served by ztgate's own model (it is a field of "
                             "gateway.openai_extra_fields, for other upstreams)")
    if body["model"] != model:
        raise NotFound(f"model {body['model']!r} is not served here; this adapter serves {model!r}")
    stream = body.get("stream") is True
    options = body.get("stream_options")
    if options is not None and not stream:
        raise FieldError("stream_options", "is only allowed with stream: true")
    include_usage = bool((options or {}).get("include_usage"))
    sampling = pb.SamplingParams()
    if body.get("temperature") is not None:
        sampling.temperature = float(body["temperature"])
    if body.get("top_p") is not None:
        if body["top_p"] == 0:
            raise FieldError("top_p", "must be above 0")
        sampling.top_p = float(body["top_p"])
    if body.get("top_k") is not None:
        sampling.top_k = body["top_k"]
    if body.get("seed") is not None:
        sampling.seed = body["seed"]
    max_tokens = body.get("max_tokens")
    newer = body.get("max_completion_tokens")
    if newer is not None and max_tokens is not None and newer != max_tokens:
        raise FieldError("max_completion_tokens", f"is {newer} but max_tokens is {max_tokens}; "
                         "set one of them")
    max_tokens = newer if newer is not None else max_tokens
    stops = _stops(body.get("stop"))
    if kind == CHAT:
        messages = _messages(body["messages"])
        prompt = ""
    else:
        raw = body["prompt"]
        if isinstance(raw, list) and len(raw) == 1:
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
