"""Every field of `POST /v1/chat/completions` and `POST /v1/completions`, declared once.

From OpenAI's API reference (and `top_k`, which vLLM and ztgate's own model serve). A field not
here is refused (400 naming it) unless the operator names it in gateway.openai_extra_fields. Text a
model may read is `Text` or `Json` (scrubbed); names and ids are `Text` too, since a private value
fits an identifier's form (a card number, an SSN). `own`: what ztgate's own model cannot serve.
"""

from __future__ import annotations

from typing import Any

from ztgate.protocols.openai.errors import OpenAIRequestError
from ztgate.protocols.openai.schema import (AnyOf, Array, Boolean, Choice, DoorOptions, Field, Json,
                                            Map, Node, NonText, Number, Obj, Pattern, Tagged, Text,
                                            Walk)

CHAT_PATH = "/v1/chat/completions"
COMPLETIONS_PATH = "/v1/completions"
# The GenAI operation each route is (gen_ai.operation.name).
OPERATIONS: dict[str, str] = {CHAT_PATH: "chat", COMPLETIONS_PATH: "text_completion"}
OPENAI_PREFIX = "/v1/"
# Set by the gateway's processor from the body's `model` (clients' copies are dropped before any
# filter); Envoy routes on it once the body is scrubbed (ztgate/gateway/openai_routes.py).
MODEL_HEADER = "x-ztgate-openai-model"
# Longest `model` accepted: the gateway routes on it (a header value).
MAX_MODEL_CHARS = 256
INT32 = 2**31 - 1
INT64 = 2**63
TOOLS = "tool calling is not served by ztgate's own model"
NOT_SERVED = "is not served by ztgate's own model"


class ModelName(Node):
    """`model`: printable ASCII, routed on, never scrubbed (a name nobody serves is a 404)."""

    def accepts(self, value: object) -> bool:
        return isinstance(value, str)

    def describe(self) -> str:
        return "a non-empty string naming the model"

    def check(self, parent: dict | list, key: Any, path: str, walk: Walk) -> None:
        model = parent[key]
        if not isinstance(model, str) or not model:
            raise OpenAIRequestError("`model` is required: a non-empty string naming the model", path)
        if len(model) > MAX_MODEL_CHARS or not model.isprintable() or not model.isascii():
            raise OpenAIRequestError(f"`model` must be at most {MAX_MODEL_CHARS} printable ASCII "
                                     "characters", path)


class Prompt(Node):
    """A completion's `prompt`: a string or a non-empty array of strings (token ids are refused)."""

    def accepts(self, value: object) -> bool:
        return True

    def describe(self) -> str:
        return ("a string or a non-empty array of strings (token-id prompts cannot be scrubbed, so "
                "the gateway refuses them)")

    def check(self, parent: dict | list, key: Any, path: str, walk: Walk) -> None:
        prompt = parent[key]
        if isinstance(prompt, str):
            walk.texts.add(parent, key, path)
        elif isinstance(prompt, list) and prompt and all(isinstance(p, str) for p in prompt):
            for i in range(len(prompt)):
                walk.texts.add(prompt, i, f"{path}[{i}]")
        else:
            raise OpenAIRequestError(f"`prompt` is required: {self.describe()}", path)


def _typed(tag: str, **fields: Field) -> Obj:
    """A variant of a `type`-tagged object: its tag and its fields."""
    return Obj({"type": Field(Choice((tag,)), required=True), **fields})


TEXT_PART = _typed("text", text=Field(Text(), required=True))
CONTENT_PART = Tagged("type", {
    "text": TEXT_PART,
    "refusal": _typed("refusal", refusal=Field(Text(), required=True)),
    "image_url": NonText("image_url"),
    "input_audio": NonText("input_audio"),
    "file": NonText("file"),
})
CONTENT = AnyOf((Text(), Array(CONTENT_PART)))
FUNCTION_CALL = Obj({"name": Field(Text()), "arguments": Field(Text())})
TOOL_CALL = Tagged("type", {
    "function": _typed("function", id=Field(Text()), function=Field(FUNCTION_CALL, required=True)),
    "custom": _typed("custom", id=Field(Text()), custom=Field(
        Obj({"name": Field(Text()), "input": Field(Text())}), required=True)),
})
MESSAGE = Obj({
    "role": Field(Choice(("system", "developer", "user", "assistant", "tool", "function"),
                         unserved={"tool": TOOLS, "function": TOOLS}), required=True),
    "content": Field(CONTENT),
    "name": Field(Text()),
    "refusal": Field(Text(), own=NOT_SERVED),
    "tool_calls": Field(Array(TOOL_CALL), own=TOOLS),
    "function_call": Field(FUNCTION_CALL, own=TOOLS),
    "tool_call_id": Field(Text(), own=TOOLS),
    "audio": Field(Obj({"id": Field(Text(), required=True)}), own=NOT_SERVED),
})
FUNCTION = Obj({"name": Field(Text(), required=True), "description": Field(Text()),
                "parameters": Field(Json()), "strict": Field(Boolean())})
TOOL = Tagged("type", {
    "function": _typed("function", function=Field(FUNCTION, required=True)),
    "custom": _typed("custom", custom=Field(Json(), required=True)),
})
TOOL_CHOICE = AnyOf((Choice(("none", "auto", "required")), Tagged("type", {
    "function": _typed("function", function=Field(Obj({"name": Field(Text(), required=True)}),
                                                  required=True)),
    "custom": _typed("custom", custom=Field(Obj({"name": Field(Text(), required=True)}),
                                            required=True)),
    "allowed_tools": _typed("allowed_tools", allowed_tools=Field(Json(), required=True)),
})))
RESPONSE_FORMAT = Tagged("type", {
    "text": _typed("text"),
    "json_object": _typed("json_object"),
    "json_schema": _typed("json_schema", json_schema=Field(Obj({
        "name": Field(Text(), required=True), "description": Field(Text()),
        "schema": Field(Json()), "strict": Field(Boolean())}), required=True)),
})
STOP = AnyOf((Text(), Array(Text())))
LOGIT_BIAS = Map(Pattern(r"-?[0-9]{1,12}", "a token id (digits)"), Number(-100, 100), 1024)
STREAM_OPTIONS = Obj({"include_usage": Field(Boolean()), "include_obfuscation": Field(Boolean())})
# Log-probabilities carry the model's tokens one by one: a pseudonym split across tokens cannot be
# put back, so the gateway neither asks for them nor passes any an upstream sends
# (ztgate/gateway/processor/openai_answers.py).
LOGPROBS = ("the gateway does not pass log-probabilities: their token strings would carry pieces of "
            "pseudonyms it cannot restore")

COMMON: dict[str, Field] = {
    "model": Field(ModelName(), required=True),
    "stream": Field(Boolean()),
    "stream_options": Field(STREAM_OPTIONS),
    "temperature": Field(Number(0, 2)),
    "top_p": Field(Number(0, 1)),
    "top_k": Field(Number(-1, INT32, integer=True)),
    "max_tokens": Field(Number(1, INT32, integer=True)),
    "n": Field(Number(1, INT32, integer=True), own="only n=1 is served (one choice per request)",
               neutral=(1,)),
    "stop": Field(STOP),
    "seed": Field(Number(-INT64, INT64 - 1, integer=True)),
    "user": Field(Text()),
    "presence_penalty": Field(Number(-2, 2), own="the Inference service has no presence penalty",
                              neutral=(0, 0.0)),
    "frequency_penalty": Field(Number(-2, 2), own="the Inference service has no frequency penalty",
                               neutral=(0, 0.0)),
    "logit_bias": Field(LOGIT_BIAS, own="logit_bias is not served"),
}
CHAT = Obj({
    **COMMON,
    "messages": Field(Array(MESSAGE, min_items=1), required=True),
    "max_completion_tokens": Field(Number(1, INT32, integer=True)),
    "logprobs": Field(Boolean(), own=LOGPROBS, neutral=(False,)),
    "top_logprobs": Field(Number(0, 20, integer=True), own=LOGPROBS, neutral=(0,)),
    "tools": Field(Array(TOOL), own=TOOLS),
    "tool_choice": Field(TOOL_CHOICE, own=TOOLS, neutral=("none",)),
    "parallel_tool_calls": Field(Boolean(), own=TOOLS),
    "functions": Field(Array(FUNCTION), own="function calling is not served by ztgate's own model"),
    "function_call": Field(AnyOf((Choice(("none", "auto")), Obj({"name": Field(Text(), required=True)}))),
                           own="function calling is not served by ztgate's own model",
                           neutral=("none",)),
    "response_format": Field(RESPONSE_FORMAT,
                             own="structured output is not served by ztgate's own model"),
    "prediction": Field(_typed("content", content=Field(AnyOf((Text(), Array(TEXT_PART))),
                                                         required=True)),
                        own="predicted outputs are not served by ztgate's own model"),
    "metadata": Field(Map(Text(), Text(), 16), own="metadata is not stored by ztgate's own model"),
    "store": Field(Boolean(), own="ztgate's own model stores no completions", neutral=(False,)),
    "modalities": Field(Array(Choice(("text", "audio"))), own="only text is served by ztgate's own "
                        "model", neutral=(["text"],)),
    "audio": Field(Obj({"voice": Field(AnyOf((Text(), Obj({"id": Field(Text(), required=True)}))),
                                       required=True),
                        "format": Field(Choice(("wav", "aac", "mp3", "flac", "opus", "pcm16")),
                                        required=True)}),
                   own="audio output is not served by ztgate's own model"),
    "reasoning_effort": Field(Choice(("none", "minimal", "low", "medium", "high")),
                              own="reasoning effort is not served by ztgate's own model"),
    "verbosity": Field(Choice(("low", "medium", "high")),
                       own="verbosity is not served by ztgate's own model"),
    "service_tier": Field(Choice(("auto", "default", "flex", "scale", "priority")),
                          own="ztgate's own model has one service tier", neutral=("auto", "default")),
    "web_search_options": Field(Json(), own="web search is not served by ztgate's own model"),
    "prompt_cache_key": Field(Text()),
    "safety_identifier": Field(Text()),
}, extra=True)
COMPLETIONS = Obj({
    **COMMON,
    "prompt": Field(Prompt(), required=True),
    "suffix": Field(Text(), own="suffix (insertion) is not served"),
    "echo": Field(Boolean(), own="echo is not served", neutral=(False,)),
    "best_of": Field(Number(1, INT32, integer=True), own="only best_of=1 is served", neutral=(1,)),
    "logprobs": Field(Number(0, 5, integer=True), own=LOGPROBS, neutral=(0,)),
}, extra=True)
SCHEMAS: dict[str, Obj] = {CHAT_PATH: CHAT, COMPLETIONS_PATH: COMPLETIONS}
# Fields every route refuses at any value but their neutral one, whatever the upstream.
REFUSED_EVERYWHERE = ("logprobs", "top_logprobs")


def check_request(payload: dict, path: str, options: DoorOptions) -> Walk:
    """Checks `payload` against `path`'s schema and collects its texts; raises OpenAIRequestError
    (400) naming the first field that is unknown, malformed or out of bounds."""
    walk = Walk(options)
    SCHEMAS[path].check_object(payload, "", walk)
    for name in ("n", "best_of"):
        value = payload.get(name)
        if value is not None and value > options.max_choices:
            raise OpenAIRequestError(f"`{name}` is {value}; the gateway serves at most "
                                     f"{options.max_choices} choices a request "
                                     "(gateway.openai_max_choices)", name)
    for where, why in walk.unserved:
        if where in REFUSED_EVERYWHERE:
            raise OpenAIRequestError(f"`{where}`: {why}", where)
    return walk
