"""Limits on the shape of an inference request, declared once: the `limits:` section of ztgate.yaml.

Two places enforce them, both reading this one model: the gateway, on each GenerateRequest before
any redaction work (`gateway/processor/`), and the inference service, for callers inside the
mesh (`inference/service.py`). Envoy enforces `max_request_bytes` itself, as the size of body it
buffers (`gateway/envoy_config.py`), so a body past it never reaches a check here.

Statuses: a request too big to take (bytes, number of messages) is RESOURCE_EXHAUSTED, as gRPC's
own message-size refusal and `redaction.max_text_bytes` are; a sampling field past its bound is
INVALID_ARGUMENT, as any other invalid field is. Every message names the value, the limit and the
setting. The checks are counts and one UTF-8 length: no work is spent on a request they refuse.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field, model_validator

from ztgate.common import bounded_json
from ztgate.common.errors import InvalidArgument, RequestTooLarge
from ztgate.common.settings import Strict


class LimitExceeded(InvalidArgument):
    """A sampling field past its configured bound (INVALID_ARGUMENT); the message names the setting."""


def utf8_length(texts: Sequence[str]) -> int:
    """UTF-8 bytes of the texts together (one encode each; no copy is kept)."""
    return sum(len(text.encode("utf-8", "surrogatepass")) for text in texts)


class RequestLimits(Strict):
    # Largest request message (a serialized GenerateRequest), bytes: Envoy buffers at most this much
    # of a request body and refuses more itself with RESOURCE_EXHAUSTED; below it every refusal
    # comes from the checks here, naming the limit passed. redaction.server.max_message_bytes must
    # hold it plus the ext_proc framing (checked at load).
    max_request_bytes: int = Field(default=2 * 1024 * 1024, gt=0)
    # Text the model reads, UTF-8 bytes: the prompt, or all chat messages' contents together.
    # 64 KiB holds the default model's whole context (8,192 tokens; bytes a token of English and
    # YAML: docs/operations/limits.md). The gateway's wait for the scrub grows with the prompt
    # (gateway.redaction.message_timeout_per_kib_s, up to gateway.redaction.max_message_timeout_s),
    # and NER reads a prompt whole: raise it with those settings (how long 64 KiB takes:
    # docs/operations/limits.md).
    max_prompt_bytes: int = Field(default=64 * 1024, gt=0)
    # Chat messages in one request (each is scrubbed as a text of its own).
    max_messages: int = Field(default=256, gt=0)
    # Stop sequences in one request, and characters in each.
    max_stop_sequences: int = Field(default=8, ge=0)
    max_stop_chars: int = Field(default=64, gt=0)
    # Largest max_tokens a request may ask for; one above the model's context is refused too. An
    # unset max_tokens is the default (256), clamped to the room the prompt leaves in the context.
    max_output_tokens: int = Field(default=4096, gt=0)
    # A JSON request body (the OpenAI door) is refused before it is parsed when it nests deeper
    # than this, or holds more values than this (objects, arrays and scalars; keys not counted): a
    # small body of empty objects parses into far more memory than its bytes (docs/operations/limits.md).
    # OpenAI requests nest a few levels (tool schemas a few more) and a 256-message chat with tools
    # holds a few thousand values.
    max_json_depth: int = Field(default=64, gt=0)
    max_json_values: int = Field(default=50_000, gt=0)

    @model_validator(mode="after")
    def _prompt_fits_the_request(self) -> RequestLimits:
        if self.max_prompt_bytes > self.max_request_bytes:
            raise ValueError(f"limits.max_prompt_bytes ({self.max_prompt_bytes}) cannot exceed "
                             f"limits.max_request_bytes ({self.max_request_bytes}), which bounds the "
                             "whole request")
        return self

    def check_json(self, body: bytes) -> None:
        """Refuses (RequestTooLarge, naming the setting) a body past max_json_depth or
        max_json_values, from its bytes, before any object is built."""
        try:
            bounded_json.check(body, depth_limit=self.max_json_depth, value_limit=self.max_json_values)
        except bounded_json.JsonTooComplex as exc:
            raise RequestTooLarge(f"{exc} (limits.max_json_{exc.bound})") from None

    def check(self, *, prompt: str, contents: Sequence[str], stops: Sequence[str],
              max_tokens: int | None, request_bytes: int | None = None) -> None:
        """Raises RequestTooLarge or LimitExceeded for the first limit the request passes.

        `contents` are the chat messages' contents; `max_tokens` is None when the caller left it
        unset; `request_bytes` is the serialized request's size where it is known (the gateway).
        """
        if request_bytes is not None and request_bytes > self.max_request_bytes:
            raise RequestTooLarge(f"the request is {request_bytes} bytes; the limit is "
                                  f"{self.max_request_bytes} bytes (limits.max_request_bytes)")
        if len(contents) > self.max_messages:
            raise RequestTooLarge(f"the request has {len(contents)} messages; the limit is "
                                  f"{self.max_messages} (limits.max_messages): send fewer turns")
        if len(stops) > self.max_stop_sequences:
            raise LimitExceeded(f"the request has {len(stops)} stop sequences; the limit is "
                                f"{self.max_stop_sequences} (limits.max_stop_sequences)")
        # A code point is at most 4 bytes: most prompts are measured without an encode.
        chars = len(prompt) + sum(len(text) for text in contents)
        if chars * 4 > self.max_prompt_bytes:
            size = utf8_length([prompt, *contents])
            if size > self.max_prompt_bytes:
                what = "the prompt is" if prompt else "the messages' contents are"
                raise RequestTooLarge(f"{what} {size} bytes (UTF-8); the limit is "
                                      f"{self.max_prompt_bytes} bytes (limits.max_prompt_bytes): "
                                      "shorten it")
        for i, stop in enumerate(stops):
            if len(stop) > self.max_stop_chars:
                raise LimitExceeded(f"stop sequence {i} is {len(stop)} characters; the limit is "
                                    f"{self.max_stop_chars} (limits.max_stop_chars)")
        if max_tokens is not None and max_tokens > self.max_output_tokens:
            raise LimitExceeded(f"max_tokens is {max_tokens}; the limit is {self.max_output_tokens} "
                                "(limits.max_output_tokens): ask for fewer, or leave it unset for "
                                "the default")
