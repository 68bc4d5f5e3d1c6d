"""The speculator's training prompts, from a seed, with nothing downloaded. Two sources:

- templates: the project's own instruction templates filled with Faker words by a seeded generator;
  reproducible, but a narrow slice of chat;
- self: user turns the target writes itself (the Magpie method), broad and the target's own
  distribution, with a seed per prompt.
The bench's reported prompt sets are deliberately not used: a speculator tuned on the prompts it is
measured on would overstate its acceptance. Sources, licences and figures: docs/speculator.md.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import random
from collections.abc import Callable

from faker import Faker

SOURCE = f"faker=={importlib.metadata.version('faker')} (MIT) filling ztgate's own templates"
SELF_SOURCE = "user turns sampled from the target itself (Magpie; SmolLM2-135M-Instruct, Apache-2.0)"

# How the target writes its own user turns: its full distribution (temperature 1) less the far tail,
# short enough to be a request, not an essay.
SELF_TEMPERATURE = 1.0
SELF_TOP_P = 0.95
SELF_MAX_TOKENS = 96
SELF_MIN_CHARS = 12  # shorter is a greeting or a fragment, not a request
# Draws per wanted prompt before giving up: a draw that ran out of tokens, was too short or repeated
# an earlier prompt is drawn again with the next seed.
SELF_ATTEMPTS_PER_PROMPT = 4
_MARKER = "\x00ztgate-user-turn\x00"

def _noun(f: Faker) -> str:
    return f.word(part_of_speech="noun")


# Open questions (mixed chat) and copy-heavy edits (the answer repeats the prompt), like the traffic
# the primary serves.
_TEMPLATES: tuple[Callable[[Faker], str], ...] = (
    lambda f: f"What does a {f.job().lower()} do? Answer in two sentences.",
    lambda f: f"Give me three tips for working as a {f.job().lower()}.",
    lambda f: f"What is the capital of {f.country()}? Answer in one sentence.",
    lambda f: f"Write a short product description for {f.company()}'s new {f.catch_phrase().lower()}.",
    lambda f: f"Explain in simple words what it means to {f.bs()}.",
    lambda f: f"Write a friendly two-line email inviting {f.first_name()} to a meeting in {f.city()}.",
    lambda f: f"Suggest a name for a cafe in {f.city()} and say why in one sentence.",
    lambda f: f"List four things to pack for a trip to {f.country()}.",
    lambda f: f"Summarize this in one sentence: {f.paragraph(nb_sentences=3)}",
    lambda f: f"Repeat the following text exactly: '{f.sentence(nb_words=14)}'",
    lambda f: f"Rewrite this sentence in the past tense: {f.first_name()} walks to {f.city()} and buys a "
              f"{_noun(f)}.",
    lambda f: (f"Extract the email address from this text: Please contact {f.name()} at {f.email()} or call "
               f"{f.phone_number()} for details."),
    lambda f: f"Translate into formal English: hey {f.first_name()}, can u send the {_noun(f)} report asap",
    lambda f: f"Turn this list into a sentence: {', '.join(f.words(nb=5))}.",
    lambda f: (f"Fix the typo in this code and return the full code:\ndef {f.word()}_total(items):\n"
               f"    retrun sum(items)\n"),
    lambda f: f"Write a haiku about {_noun(f)}s in {f.city()}.",
    # General chat beyond the shapes above, so the head sees the target's longer explanatory answers.
    lambda f: f"How do I get started with {_noun(f)} photography? Give a short step-by-step guide.",
    lambda f: f"What are the pros and cons of living in a city like {f.city()}?",
    lambda f: f"Explain the difference between a {_noun(f)} and a {_noun(f)} to a ten-year-old.",
    lambda f: f"Write a short story of about five sentences about {f.first_name()}, who finds a {_noun(f)}.",
    lambda f: (f"{f.first_name()} has {f.random_int(3, 40)} apples and gives away {f.random_int(1, 3)}. "
               f"How many are left? Explain your reasoning."),
    lambda f: f"Why is {f.color_name().lower()} a popular color for {_noun(f)}s? Answer briefly.",
    lambda f: f"What should I consider before starting a job as a {f.job().lower()} at {f.company()}?",
    lambda f: f"Give a short definition of the word '{f.word()}' and use it in a sentence.",
    # More shapes of request: formats, code, reasoning, style, conversation.
    lambda f: f"Write a Python function that returns the {_noun(f)} count of a list, with a docstring.",
    lambda f: f"Convert this to JSON with keys name, city and email: {f.name()}, {f.city()}, {f.email()}",
    lambda f: f"Compare {_noun(f)} and {_noun(f)} in a short table with two columns.",
    lambda f: f"What is {f.random_int(2, 99)} times {f.random_int(2, 99)}? Show the steps.",
    lambda f: f"Write a polite reply declining an invitation from {f.first_name()} to {f.city()}.",
    lambda f: f"Give me a recipe idea that uses {_noun(f)} and {_noun(f)}, with three steps.",
    lambda f: f"Describe a typical day of a {f.job().lower()} in four sentences.",
    lambda f: f"Make this sentence more formal: {f.sentence(nb_words=10)}",
    lambda f: f"List five questions to ask in an interview at {f.company()}.",
    lambda f: f"Explain how a {_noun(f)} works, as if to a beginner.",
    lambda f: f"Write a tweet announcing that {f.company()} opens an office in {f.city()}.",
    lambda f: f"What are three common mistakes people make when learning about {_noun(f)}s?",
    lambda f: f"Continue this story in three sentences: {f.sentence(nb_words=12)}",
    lambda f: f"Give a one-paragraph history of {f.country()} for a travel guide.",
    lambda f: (f"Sort these words alphabetically and return them as a numbered list: "
               f"{', '.join(f.words(nb=6))}."),
    lambda f: f"Write a short motivational message for someone starting a job at {f.company()}.",
)


def training_prompts(samples: int, seed: int) -> list[str]:
    """`samples` prompts, the templates taken in a seeded shuffled cycle so every kind appears."""
    rng = random.Random(seed)
    fake = Faker("en_US")
    fake.seed_instance(seed)
    order: list[int] = []
    out = []
    for _ in range(samples):
        if not order:
            order = list(range(len(_TEMPLATES)))
            rng.shuffle(order)
        out.append(_TEMPLATES[order.pop()](fake))
    return out


def user_turn_prefix(apply_chat_template: Callable[[list[dict[str, str]]], str]) -> str:
    """The chat template's text before a user's words (its default system turn and the user
    header): what the target continues when it writes a request itself."""
    rendered = apply_chat_template([{"role": "user", "content": _MARKER}])
    if rendered.count(_MARKER) != 1:
        raise ValueError("the chat template does not render a user turn's text verbatim; it cannot write "
                         "its own prompts (train on templates only: --self-prompts 0)")
    return rendered.split(_MARKER)[0]


def self_prompt_seed(seed: int, draw: int) -> int:
    """The sampling seed of the `draw`-th self-prompt draw: distinct per draw and per run seed."""
    return (seed * 1_000_003 + draw) % (2**31 - 1)


def accept_self_prompt(text: str, finished: bool, seen: set[str]) -> str | None:
    """The drawn user turn as a training prompt, or None where it is not one: cut off by the token
    limit, too short, or a repeat of an earlier prompt."""
    text = text.strip()
    if not finished or len(text) < SELF_MIN_CHARS or text in seen:
        return None
    return text


def data_hash(prompts: list[str]) -> str:
    """sha256 of the prompt list (recorded beside the checkpoint, never the text itself)."""
    return hashlib.sha256(json.dumps(prompts).encode()).hexdigest()
