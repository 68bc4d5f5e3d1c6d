"""Requests and sampling parameters: defaults, and rejections a person can act on."""

from __future__ import annotations

import math

import pytest

from ztgate.common.errors import InvalidArgument
from ztgate.inference.engines.errors import InvalidRequest
from ztgate.inference.engines.prompt import PromptRenderer
from ztgate.inference.engines.request import (
    DEFAULT_MAX_TOKENS,
    DEFAULT_TEMPERATURE,
    DEFAULT_TOP_K,
    DEFAULT_TOP_P,
    ChatMessage,
    GenerationRequest,
    SamplingParams,
)


def test_unset_sampling_fields_take_the_documented_defaults():
    s = SamplingParams.from_optional()
    # max_tokens unset stays unset: the renderer gives it DEFAULT_MAX_TOKENS, clamped to the context.
    assert (s.temperature, s.top_p, s.top_k, s.max_tokens, s.seed, s.stop, s.score_inline) == (
        DEFAULT_TEMPERATURE, DEFAULT_TOP_P, DEFAULT_TOP_K, None, None, (), False)
    assert s.greedy  # unset is greedy: the answer speculation and failover never change


def test_temperature_zero_is_greedy_and_kept_not_replaced_by_the_default():
    s = SamplingParams.from_optional(temperature=0.0)
    assert s.temperature == 0 and s.greedy


@pytest.mark.parametrize("fields, fragment", [
    ({"temperature": -0.1}, "temperature must be >= 0"),
    ({"temperature": math.nan}, "temperature must be >= 0"),
    ({"top_p": 0.0}, "top_p must be in (0, 1]"),
    ({"top_p": 1.5}, "top_p must be in (0, 1]"),
    ({"top_k": -1}, "top_k must be >= 0"),
    ({"max_tokens": 0}, "max_tokens must be a positive"),
    ({"max_tokens": -5}, "max_tokens must be a positive"),
    ({"stop": [""]}, "stop sequence 0 is empty"),
])
def test_invalid_sampling_is_rejected_with_the_field_named(fields, fragment):
    with pytest.raises(InvalidRequest, match=None) as e:
        SamplingParams.from_optional(**fields)
    assert fragment in str(e.value)


@pytest.mark.parametrize("fields", [
    {"temperature": 0.0}, {"temperature": 2.0}, {"top_p": 1.0}, {"top_p": 0.01}, {"top_k": 0},
    {"top_k": 40}, {"max_tokens": 1}, {"seed": -3}, {"stop": ["\n\n", "END"]},
])
def test_valid_sampling_edges_are_accepted(fields):
    SamplingParams.from_optional(**fields)


def test_invalid_request_maps_to_invalid_argument():
    assert issubclass(InvalidRequest, InvalidArgument) and InvalidRequest.status == "INVALID_ARGUMENT"


@pytest.mark.parametrize("kwargs, fragment", [
    ({}, "both are empty"),
    ({"prompt": "hi", "messages": [ChatMessage("user", "hi")]}, "not both"),
    ({"prompt": "   \n"}, "only whitespace"),
    ({"messages": [ChatMessage("robot", "hi")]}, "messages[0].role is 'robot'"),
    ({"messages": [ChatMessage("system", "be brief"), ChatMessage("user", "")]}, "messages[1] (user) has no content"),
])
def test_malformed_requests_are_rejected(kwargs, fragment):
    with pytest.raises(InvalidRequest) as e:
        GenerationRequest(**kwargs)
    assert fragment in str(e.value)


def test_a_request_without_id_gets_a_unique_one():
    a, b = GenerationRequest(prompt="x"), GenerationRequest(prompt="x")
    assert a.request_id and b.request_id and a.request_id != b.request_id
    assert GenerationRequest(prompt="x", request_id="mine").request_id == "mine"


class _WordTokenizer:
    """One token per word; a chat template that tags each message."""

    def __call__(self, text, add_special_tokens=True):
        return {"input_ids": [len(w) for w in text.split()]}

    def apply_chat_template(self, messages, tokenize, add_generation_prompt):
        assert tokenize is False and add_generation_prompt is True
        return " ".join(f"<{m['role']}> {m['content']}" for m in messages) + " <assistant>"


def test_chat_messages_are_rendered_with_the_chat_template():
    r = PromptRenderer(_WordTokenizer(), max_model_len=100)
    ids, _ = r.render(GenerationRequest(messages=[ChatMessage("user", "hello there")]))
    assert ids == [6, 5, 5, 11]


@pytest.mark.parametrize("asked, granted", [
    (None, 6),  # the default (256), clamped to the room the context leaves
    (3, 3),
    (6, 6),
    (8, 6),  # an explicit number within the context is clamped to the room as well
    (10, 6),  # the whole context: the near miss of the refusal below
])
def test_max_tokens_is_clamped_to_the_room_the_context_leaves(asked, granted):
    r = PromptRenderer(_WordTokenizer(), max_model_len=10)
    ids, max_tokens = r.render(GenerationRequest(prompt="a b c d", sampling=SamplingParams(max_tokens=asked)))
    assert len(ids) == 4 and max_tokens == granted
    assert DEFAULT_MAX_TOKENS > 10


@pytest.mark.parametrize("asked", [11, 10**9])
def test_an_explicit_max_tokens_above_the_context_is_refused_before_tokenizing(asked):
    class _NoTokenizer:
        def __call__(self, *args, **kwargs):
            raise AssertionError("tokenized a request that the context could never serve")

    r = PromptRenderer(_NoTokenizer(), max_model_len=10)
    with pytest.raises(InvalidRequest) as e:
        r.render(GenerationRequest(prompt="a b", sampling=SamplingParams(max_tokens=asked)))
    assert f"max_tokens is {asked}; the model's context is 10 tokens" in str(e.value)


@pytest.mark.parametrize("words, excess", [(10, 1), (13, 4)])
def test_a_prompt_that_fills_the_context_is_rejected_with_how_much_to_cut(words, excess):
    r = PromptRenderer(_WordTokenizer(), max_model_len=10)
    with pytest.raises(InvalidRequest) as e:
        r.render(GenerationRequest(prompt=" ".join(["w"] * words)))
    assert f"the prompt is {words} tokens" in str(e.value)
    assert f"shorten the prompt by at least {excess} tokens" in str(e.value)
