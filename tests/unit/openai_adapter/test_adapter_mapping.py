"""The OpenAI schema onto `GenerateRequest`: every sampling field one to one, every field the
Inference service cannot honour refused with a 400 naming it, the request limits before any call."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ztgate.common.errors import InvalidArgument, NotFound
from ztgate.inference.limits import LimitExceeded, RequestLimits, RequestTooLarge
from ztgate.protocols.openai import fields
from ztgate.openai_adapter.mapping import CHAT, COMPLETION, FieldError, parse

MODEL = "SmolLM2-135M-Instruct"
LIMITS = RequestLimits()

texts = st.text(max_size=40)
sampling = st.fixed_dictionaries({}, optional={
    "temperature": st.floats(0, 2, allow_nan=False),
    "top_p": st.floats(0.01, 1, allow_nan=False),
    "top_k": st.integers(-1, 1000),
    "seed": st.integers(-(2**63), 2**63 - 1),
    "max_tokens": st.integers(1, LIMITS.max_output_tokens),
    "stop": st.one_of(st.none(), st.text(min_size=1, max_size=LIMITS.max_stop_chars),
                      st.lists(st.text(min_size=1, max_size=LIMITS.max_stop_chars),
                               max_size=LIMITS.max_stop_sequences)),
    "n": st.just(1),
    "presence_penalty": st.sampled_from([0, 0.0]),
    "frequency_penalty": st.sampled_from([0, 0.0]),
    "user": texts,
    "stream": st.booleans(),
})
messages = st.lists(st.fixed_dictionaries({
    "role": st.sampled_from(["system", "developer", "user", "assistant"]),
    "content": st.one_of(texts, st.lists(st.builds(lambda t: {"type": "text", "text": t}, texts),
                                         max_size=3))}), min_size=1, max_size=5)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(fields=sampling, chat=messages, prompt=st.text(min_size=1, max_size=40),
       kind=st.sampled_from([CHAT, COMPLETION]))
def test_every_sampling_field_maps_one_to_one(fields: dict, chat: list, prompt: str, kind: str) -> None:
    body = {"model": MODEL, **fields, **({"messages": chat} if kind == CHAT else {"prompt": prompt})}
    parsed = parse(body, kind, MODEL, LIMITS)
    s = parsed.request.sampling
    for name in ("temperature", "top_p", "top_k", "seed", "max_tokens"):
        assert s.HasField(name) == (name in fields)
        if name in fields:
            assert getattr(s, name) == pytest.approx(fields[name])
    stop = fields.get("stop")
    assert list(s.stop) == ([] if stop is None else [stop] if isinstance(stop, str) else stop)
    assert parsed.stream == fields.get("stream", False)
    if kind == CHAT:
        assert parsed.request.prompt == ""
        assert [(m.role, m.content) for m in parsed.request.messages] == [
            ("system" if m["role"] == "developer" else m["role"],
             m["content"] if isinstance(m["content"], str) else "".join(p["text"] for p in m["content"]))
            for m in chat]
    else:
        assert parsed.request.prompt == prompt and not parsed.request.messages


# Every field the door's schema marks as not served by ztgate's own model, per route.
UNSERVED = {kind: sorted(name for name, spec in schema.fields.items() if spec.own)
            for kind, schema in ((CHAT, fields.CHAT), (COMPLETION, fields.COMPLETIONS))}


@settings(max_examples=200)
@given(data=st.data(),
       value=st.one_of(st.integers(2, 5), st.floats(0.1, 2), st.just(True), st.just("auto"),
                       st.just([{"type": "function"}]), st.just({"type": "json_object"})),
       kind=st.sampled_from([CHAT, COMPLETION]))
def test_a_field_it_cannot_honour_is_a_400_naming_it(data: st.DataObject, value, kind: str) -> None:
    """n > 1, penalties, log-probabilities, tools, ...: never silently ignored."""
    field = data.draw(st.sampled_from(UNSERVED[kind]))
    body = {"model": MODEL, field: value,
            **({"messages": [{"role": "user", "content": "hi"}]} if kind == CHAT else {"prompt": "hi"})}
    schema = fields.CHAT if kind == CHAT else fields.COMPLETIONS
    if any(type(value) is type(v) and value == v for v in schema.fields[field].neutral):
        return  # "auto"-like values equal to the neutral one are served
    with pytest.raises(FieldError) as caught:
        parse(body, kind, MODEL, LIMITS)
    assert caught.value.param.startswith(field) and field in str(caught.value)


@pytest.mark.parametrize(("body", "param"), [
    ({"messages": [{"role": "user", "content": "hi"}], "n": 2}, "n"),
    ({"messages": [{"role": "user", "content": "hi"}], "n": True}, "n"),
    ({"messages": [{"role": "user", "content": "hi"}], "presence_penalty": 0.5}, "presence_penalty"),
    ({"messages": [{"role": "user", "content": "hi"}], "frequency_penalty": False}, "frequency_penalty"),
    ({"messages": [{"role": "user", "content": "hi"}], "temperature": 3}, "temperature"),
    ({"messages": [{"role": "user", "content": "hi"}], "temperature": "0.5"}, "temperature"),
    ({"messages": [{"role": "user", "content": "hi"}], "top_p": 0}, "top_p"),
    ({"messages": [{"role": "user", "content": "hi"}], "max_tokens": 0}, "max_tokens"),
    ({"messages": [{"role": "user", "content": "hi"}], "max_tokens": True}, "max_tokens"),
    ({"messages": [{"role": "user", "content": "hi"}], "max_tokens": 5,
      "max_completion_tokens": 6}, "max_completion_tokens"),
    ({"messages": [{"role": "user", "content": "hi"}], "seed": 2**63}, "seed"),
    ({"messages": [{"role": "user", "content": "hi"}], "stop": [1]}, "stop[0]"),
    ({"messages": [{"role": "user", "content": "hi"}], "stream": "yes"}, "stream"),
    ({"messages": [{"role": "user", "content": "hi"}], "stream_options": {"include_usage": True}},
     "stream_options"),
    ({"messages": [{"role": "user", "content": "hi"}], "frobnicate": 1}, "frobnicate"),
    ({"messages": []}, "messages"),
    ({"messages": [{"role": "tool", "content": "x"}]}, "messages[0].role"),
    ({"messages": [{"role": "user"}]}, "messages[0].content"),
    ({"messages": [{"role": "assistant", "content": "x", "tool_calls": []}]}, "messages[0].tool_calls"),
    ({"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {}}]}]},
     "messages[0].content[0]"),
    ({"messages": [{"role": "user", "content": "hi"}], "prompt": "x"}, "prompt"),
])
def test_bad_chat_fields_are_400s_naming_the_field(body: dict, param: str) -> None:
    with pytest.raises(FieldError) as caught:
        parse({"model": MODEL, **body}, CHAT, MODEL, LIMITS)
    assert caught.value.param == param


@pytest.mark.parametrize(("body", "param"), [
    ({"prompt": [1, 2, 3]}, "prompt"),
    ({"prompt": ["a", "b"]}, "prompt"),
    ({"prompt": ""}, "prompt"),
    ({"prompt": "hi", "echo": True}, "echo"),
    ({"prompt": "hi", "suffix": "x"}, "suffix"),
    ({"prompt": "hi", "best_of": 3}, "best_of"),
    ({"prompt": "hi", "logprobs": 2}, "logprobs"),
    ({"prompt": "hi", "max_completion_tokens": 4}, "max_completion_tokens"),
])
def test_bad_completion_fields_are_400s_naming_the_field(body: dict, param: str) -> None:
    with pytest.raises(FieldError) as caught:
        parse({"model": MODEL, **body}, COMPLETION, MODEL, LIMITS)
    assert caught.value.param == param


def test_another_model_is_a_404_and_a_missing_one_a_400() -> None:
    with pytest.raises(NotFound):
        parse({"model": "gpt-4o", "prompt": "hi"}, COMPLETION, MODEL, LIMITS)
    with pytest.raises(FieldError) as caught:
        parse({"prompt": "hi"}, COMPLETION, MODEL, LIMITS)
    assert caught.value.param == "model"


def test_the_request_limits_apply_before_any_call() -> None:
    small = RequestLimits(max_request_bytes=1024, max_prompt_bytes=100, max_messages=2,
                          max_stop_sequences=1, max_output_tokens=8)
    chat = [{"role": "user", "content": "hi"}]
    with pytest.raises(RequestTooLarge, match="limits.max_prompt_bytes"):
        parse({"model": MODEL, "prompt": "x" * 101}, COMPLETION, MODEL, small)
    with pytest.raises(RequestTooLarge, match="limits.max_messages"):
        parse({"model": MODEL, "messages": chat * 3}, CHAT, MODEL, small)
    with pytest.raises(LimitExceeded, match="limits.max_stop_sequences"):
        parse({"model": MODEL, "messages": chat, "stop": ["a", "b"]}, CHAT, MODEL, small)
    with pytest.raises(LimitExceeded, match="limits.max_output_tokens"):
        parse({"model": MODEL, "messages": chat, "max_completion_tokens": 9}, CHAT, MODEL, small)
    assert issubclass(LimitExceeded, InvalidArgument)


def test_max_completion_tokens_is_max_tokens_and_stream_options_ask_for_usage() -> None:
    parsed = parse({"model": MODEL, "messages": [{"role": "user", "content": "hi"}],
                    "max_completion_tokens": 7, "max_tokens": 7, "stream": True,
                    "stream_options": {"include_usage": True}}, CHAT, MODEL, LIMITS)
    assert parsed.request.sampling.max_tokens == 7 and parsed.include_usage


def test_an_operators_extra_field_is_known_but_not_served_by_the_own_model() -> None:
    body = {"model": MODEL, "prompt": "hi", "chat_template_kwargs": {"x": 1}}
    with pytest.raises(FieldError, match="gateway.openai_extra_fields") as unknown:
        parse(body, COMPLETION, MODEL, LIMITS)
    assert unknown.value.param == "chat_template_kwargs"
    with pytest.raises(FieldError, match="not served by ztgate's own model") as unserved:
        parse(body, COMPLETION, MODEL, LIMITS, frozenset({"chat_template_kwargs"}))
    assert unserved.value.param == "chat_template_kwargs"
