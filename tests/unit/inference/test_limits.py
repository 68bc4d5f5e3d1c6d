"""Request-shape limits: each one refused with its status and setting named, its near miss accepted."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from ztgate.common.errors import InvalidArgument, ResourceExhausted
from ztgate.common.settings import ServerSettings
from ztgate.inference.config import InstanceSettings
from ztgate.inference.engines.request import ChatMessage, GenerationRequest, SamplingParams
from ztgate.inference.limits import LimitExceeded, RequestLimits, RequestTooLarge
from ztgate.inference.service import InferenceService

LIMITS = RequestLimits(max_request_bytes=4096, max_prompt_bytes=100, max_messages=3,
                       max_stop_sequences=2, max_stop_chars=5, max_output_tokens=50)
ACCEPTED = {"prompt": "", "contents": (), "stops": (), "max_tokens": None, "request_bytes": None}


def _check(limits: RequestLimits = LIMITS, **shape: object) -> None:
    limits.check(**{**ACCEPTED, **shape})


@pytest.mark.parametrize("shape, error, fragment", [
    ({"request_bytes": 4097}, RequestTooLarge,
     "the request is 4097 bytes; the limit is 4096 bytes (limits.max_request_bytes)"),
    ({"contents": ("a",) * 4}, RequestTooLarge,
     "the request has 4 messages; the limit is 3 (limits.max_messages)"),
    ({"contents": ("a",) * 20_000}, RequestTooLarge, "the request has 20000 messages"),
    ({"stops": ("a", "b", "c")}, LimitExceeded,
     "the request has 3 stop sequences; the limit is 2 (limits.max_stop_sequences)"),
    ({"prompt": "x" * 101}, RequestTooLarge,
     "the prompt is 101 bytes (UTF-8); the limit is 100 bytes (limits.max_prompt_bytes)"),
    # Bytes, not characters: 34 three-byte characters are 102 bytes.
    ({"prompt": "€" * 34}, RequestTooLarge, "the prompt is 102 bytes"),
    # The messages count together.
    ({"contents": ("x" * 50, "y" * 51)}, RequestTooLarge,
     "the messages' contents are 101 bytes (UTF-8); the limit is 100 bytes"),
    ({"stops": ("abcdef",)}, LimitExceeded,
     "stop sequence 0 is 6 characters; the limit is 5 (limits.max_stop_chars)"),
    ({"max_tokens": 51}, LimitExceeded, "max_tokens is 51; the limit is 50 (limits.max_output_tokens)"),
    ({"max_tokens": 10**9}, LimitExceeded, "max_tokens is 1000000000; the limit is 50"),
])
def test_a_request_past_a_limit_is_refused_naming_value_limit_and_setting(shape, error, fragment) -> None:
    with pytest.raises(error) as raised:
        _check(**shape)
    assert fragment in str(raised.value)


@pytest.mark.parametrize("shape", [
    {"request_bytes": 4096},
    {"contents": ("a",) * 3},
    {"stops": ("a", "b")},
    {"prompt": "x" * 100},
    {"prompt": "€" * 33},  # 99 bytes
    {"contents": ("x" * 50, "y" * 50)},
    {"stops": ("abcde",)},
    {"stops": ("€€€€€",)},  # characters, not bytes: five of them
    {"max_tokens": 50},
    {"max_tokens": None},  # unset: the default, clamped to the context by the engine
])
def test_a_request_at_each_limit_is_accepted(shape) -> None:
    _check(**shape)


def test_sizes_are_resource_exhausted_and_sampling_bounds_invalid_argument() -> None:
    assert issubclass(RequestTooLarge, ResourceExhausted) and RequestTooLarge.status == "RESOURCE_EXHAUSTED"
    assert issubclass(LimitExceeded, InvalidArgument) and LimitExceeded.status == "INVALID_ARGUMENT"


def test_a_prompt_limit_above_the_request_limit_is_refused_at_load() -> None:
    with pytest.raises(ValidationError, match="max_prompt_bytes .* cannot exceed limits.max_request_bytes"):
        RequestLimits(max_request_bytes=1000, max_prompt_bytes=1001)


TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)


@settings(max_examples=300, deadline=None)
@given(prompt=TEXT, contents=st.lists(TEXT, max_size=5), stops=st.lists(TEXT, max_size=4),
       max_tokens=st.none() | st.integers(1, 100), request_bytes=st.none() | st.integers(0, 8192),
       prompt_limit=st.integers(1, 120), messages=st.integers(1, 5), stop_count=st.integers(0, 4),
       stop_chars=st.integers(1, 40), output=st.integers(1, 100))
def test_a_request_is_refused_exactly_when_one_of_its_measures_passes_its_limit(
        prompt, contents, stops, max_tokens, request_bytes, prompt_limit, messages, stop_count,
        stop_chars, output) -> None:
    limits = RequestLimits(max_request_bytes=4096, max_prompt_bytes=prompt_limit, max_messages=messages,
                           max_stop_sequences=stop_count, max_stop_chars=stop_chars,
                           max_output_tokens=output)
    over = [
        request_bytes is not None and request_bytes > 4096,
        len(contents) > messages,
        len(stops) > stop_count,
        len("".join([prompt, *contents]).encode("utf-8")) > prompt_limit,
        any(len(s) > stop_chars for s in stops),
        max_tokens is not None and max_tokens > output,
    ]
    settings_named = ["max_request_bytes", "max_messages", "max_stop_sequences", "max_prompt_bytes",
                      "max_stop_chars", "max_output_tokens"]
    try:
        limits.check(prompt=prompt, contents=contents, stops=stops, max_tokens=max_tokens,
                     request_bytes=request_bytes)
    except (RequestTooLarge, LimitExceeded) as exc:
        assert any(over)
        assert f"(limits.{settings_named[over.index(True)]})" in str(exc)  # the first limit passed
    else:
        assert not any(over)


class _UnreachableEngine:
    """TEST DOUBLE of an engine: fails the test if a refused request ever reaches it."""

    model_name = "unreachable"

    def generate(self, request):
        raise AssertionError("a request past the limits reached the engine")


@pytest.mark.parametrize("request_kwargs, error", [
    ({"prompt": "x" * 101}, RequestTooLarge),
    ({"messages": tuple(ChatMessage("user", "hi") for _ in range(4))}, RequestTooLarge),
    ({"prompt": "hi", "sampling": SamplingParams(stop=("a", "b", "c"))}, LimitExceeded),
    ({"prompt": "hi", "sampling": SamplingParams(stop=("abcdef",))}, LimitExceeded),
    ({"prompt": "hi", "sampling": SamplingParams(max_tokens=10**9)}, LimitExceeded),
])
async def test_the_inference_service_refuses_past_the_limits_before_taking_a_slot(request_kwargs, error) -> None:
    instance = InstanceSettings(name="test", server=ServerSettings(listen="127.0.0.1:1"), engine="transformers",
                                max_inflight=1)
    service = InferenceService(_UnreachableEngine(), instance, limits=LIMITS)  # type: ignore[arg-type]
    with pytest.raises(error):
        async for _ in service.generate(GenerationRequest(**request_kwargs)):
            pass
    assert service.limiter.in_flight == 0 and service.limiter.admitted == 0
