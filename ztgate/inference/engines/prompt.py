"""Renders a request to prompt token ids (the model's chat template, or the raw prompt) and checks
that the prompt leaves room in the context, the same way for both engines."""

from __future__ import annotations

from typing import Any

from ztgate.inference.engines.errors import InvalidRequest
from ztgate.inference.engines.request import DEFAULT_MAX_TOKENS, GenerationRequest


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
