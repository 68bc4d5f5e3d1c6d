"""The speculator's training prompts: chat requests assembled offline, deterministically, from a seed.

Instruction templates are the project's own; the words that fill them (jobs, companies, cities,
countries, product phrases, filler sentences) come from Faker (MIT licence, installed with the
project, pinned in the lock file) with a seeded generator, so the same seed gives the same prompts
on every machine and nothing is downloaded. The bench's reported prompt sets
(services/bench/inference_bench.py) are deliberately not used: a speculator tuned on the prompts
it is measured on would overstate its acceptance. Source and licence: docs/speculator.md.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import random
from collections.abc import Callable

from faker import Faker

SOURCE = f"faker=={importlib.metadata.version('faker')} (MIT) filling ztgate's own templates"

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


def data_hash(prompts: list[str]) -> str:
    """sha256 of the prompt list (recorded beside the checkpoint, never the text itself)."""
    return hashlib.sha256(json.dumps(prompts).encode()).hexdigest()
