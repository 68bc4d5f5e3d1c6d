"""What the attack bench's hostile tenant sends: the worst inputs known, each carrying the run's canaries.

Pure builders, no I/O. Sizes are the ones issue #10 names: the 32 KB RedactStream chunk
`"1-" * 16000 + "a"` (the stream scrubber's hold-point search is quadratic on it), a 1 MiB chunk
of adversarial text, 8 MiB prompts, 20,000 chat messages, `max_tokens` 10^9, thousands of stop
sequences; and regex food for every tier, one family per kind of pathology:

- digit_groups: long runs of short digit groups joined by dashes or spaces (cards, phones, IBANs
  are written in groups, so the grouped-value and hold-back patterns chase them);
- whitespace_free: one long token (secret-shaped patterns and the hold-back scan over a token);
- placeholder_prefixes: `<PERSON_` over and over, never closed (restore and its hold-back);
- pem_begins: `-----BEGIN` over and over, never ended (PEM blocks are held until their END);
- context_words: the catalogue's context words by the thousand (context boosting per finding);
- nested_unicode: zero-width characters inside digit runs, stacked combining marks, nested
  bidirectional embeddings (offset mapping and normalisation).

Every input carries `Canaries.sentence()` (at its start and end, and in its middle when large) in
plain context, so a scrubber that works catches them; one that reaches the upstream is a leak.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from ztgate_bench.canaries import Canaries
from ztgate.gen.inference.v1 import inference_pb2

KiB, MiB = 1024, 1024 * 1024
# The RedactStream chunk of issue #10, exactly as reported.
CHUNK_32K = "1-" * 16000 + "a"
STREAM_CHUNK_BYTES = MiB
PROMPT_BYTES = 8 * MiB
MESSAGE_COUNT = 20_000
MAX_TOKENS = 10**9
STOP_COUNT = 10_000
# Size of one regex-food input (each family, each API).
FOOD_BYTES = 64 * KiB
# RedactStream food is fed in chunks of this size (every chunk rescans what is held).
FOOD_CHUNK_CHARS = 4 * KiB

# One repeating unit per family; the text is the unit over and over (see the module doc).
FAMILIES: dict[str, str] = {
    "digit_groups": "1-",
    "whitespace_free": "aB3-x9_Q",
    "placeholder_prefixes": "<PERSON_",
    "pem_begins": "-----BEGIN ",
    "context_words": "password card ssn phone iban api key secret token credit social security call me ",
    "nested_unicode": "4\u200b1\u200c1\u200d1\u2060e\u0301\u0302\u0303\u0304\u202e\u202d\u2067\u2066",
}
# What ends a family's run: a tail that keeps the grouped-value search failing at every start.
_RUN_END = {"digit_groups": "a"}


def _fill(unit: str, size_bytes: int) -> str:
    """`unit` repeated to at most `size_bytes` UTF-8 bytes, cut at a unit boundary."""
    if size_bytes <= 0:
        return ""
    return unit * (size_bytes // len(unit.encode()))


def sized(parts: list[str], size_bytes: int, filler: str = ".") -> str:
    """The parts joined, padded with `filler` (ASCII) to exactly `size_bytes` UTF-8 bytes."""
    text = "".join(parts)
    missing = size_bytes - len(text.encode())
    if missing < 0:
        raise ValueError(f"the parts are {-missing} bytes over {size_bytes}")
    return text + filler * missing


def family_text(family: str, size_bytes: int, canaries: Canaries) -> str:
    """One family's run, the canaries before, in the middle of and after it: exactly `size_bytes`."""
    unit, sentence = FAMILIES[family], canaries.sentence()
    end = _RUN_END.get(family, "")
    room = size_bytes - 3 * len(sentence.encode()) - 2 * len(end.encode())
    if room < 2 * len(unit.encode()):
        raise ValueError(f"{size_bytes} bytes is too small for a {family} input with its canaries")
    half = _fill(unit, room // 2)
    return sized([sentence, half, end, sentence, half, end, sentence], size_bytes)


def adversarial_text(size_bytes: int, canaries: Canaries) -> str:
    """Every family in equal shares, each with its canaries: exactly `size_bytes`."""
    share = size_bytes // len(FAMILIES)
    parts = [family_text(family, share, canaries) for family in FAMILIES]
    return sized(parts, size_bytes)


def chunks(text: str, size: int) -> Iterator[str]:
    """`text` in pieces of `size` code points (the last may be shorter)."""
    for start in range(0, len(text), size):
        yield text[start:start + size]


def huge_prompt(canaries: Canaries, size_bytes: int = PROMPT_BYTES) -> inference_pb2.GenerateRequest:
    return inference_pb2.GenerateRequest(prompt=adversarial_text(size_bytes, canaries))


def many_messages(canaries: Canaries, count: int = MESSAGE_COUNT) -> inference_pb2.GenerateRequest:
    """`count` short chat messages cycling through the families; the canaries in the first, middle
    and last."""
    snippets = [unit * 4 for unit in FAMILIES.values()]
    contents = [snippets[i % len(snippets)] for i in range(count)]
    for index in {0, count // 2, count - 1}:
        contents[index] = canaries.sentence()
    return inference_pb2.GenerateRequest(messages=[
        inference_pb2.ChatMessage(role="user" if i % 2 == 0 else "assistant", content=c)
        for i, c in enumerate(contents)])


def huge_max_tokens(canaries: Canaries) -> inference_pb2.GenerateRequest:
    return inference_pb2.GenerateRequest(prompt=f"Write forever.{canaries.sentence()}",
                                         sampling=inference_pb2.SamplingParams(max_tokens=MAX_TOKENS))


def many_stops(canaries: Canaries, count: int = STOP_COUNT) -> inference_pb2.GenerateRequest:
    """`count` stop sequences, every hundredth one a canary sentence."""
    stops = [canaries.sentence() if i % 100 == 0 else f"stop here {i}" for i in range(count)]
    return inference_pb2.GenerateRequest(prompt=f"Say hello.{canaries.sentence()}",
                                         sampling=inference_pb2.SamplingParams(stop=stops))


def pii_dense(canaries: Canaries, size_bytes: int) -> str:
    """Nothing but canary sentences: the most findings per byte (the work a cancelled call leaves)."""
    sentence = canaries.sentence()
    return sized([sentence * (size_bytes // len(sentence.encode()))], size_bytes, filler=" ")


# ---- shared capacity (issue #28): what one tenant may hold that every tenant needs -------------

# A body just under the gateway's default request limit (limits.max_request_bytes, 2 MiB).
LARGE_BODY_BYTES = 2 * MiB - 4 * KiB
# A Restore text just under the redaction service's default text limit (redaction.max_text_bytes).
RESTORE_BYTES = MiB - 4 * KiB
# The largest prompt the gateway takes by default (limits.max_prompt_bytes, 64 KiB): the two
# 512 KB prompts at once are refused whole since then, so the largest allowed is what is sent.
LARGE_PROMPT_BYTES = 64 * KiB - KiB
# Names, places and an address to look up: the slowest text per byte for the NER tier.
NAME_DENSE_UNIT = "Maria Gonzalez met John Smith and Anna Schmidt in Springfield at 12 Lake Avenue. "


def name_dense(canaries: Canaries, size_bytes: int) -> str:
    """Names and places, the canaries first: exactly `size_bytes` (a scrub that holds a worker)."""
    sentence = canaries.sentence()
    return sized([sentence, _fill(NAME_DENSE_UNIT, size_bytes - len(sentence.encode()))], size_bytes,
                 filler=" ")


def door_body(model: str, content: str, size_bytes: int = 0) -> bytes:
    """An OpenAI chat body for `model`, padded with JSON whitespace to exactly `size_bytes` (valid
    JSON, cheap to parse, held whole while its call waits); unpadded when `size_bytes` is 0."""
    head = json.dumps({"model": model, "messages": [{"role": "user", "content": content}]}).encode()
    if not size_bytes:
        return head
    missing = size_bytes - len(head)
    if missing < 0:
        raise ValueError(f"the body is {-missing} bytes over {size_bytes}")
    return head[:-1] + b" " * missing + b"}"


def label_model(seed: int, n: int) -> str:
    """A model name no upstream serves, new for every call (a metric-label flood), 1-256 printable ASCII."""
    return f"flood-{seed:x}-{n:08x}"


def restore_text(placeholders: list[str], size_bytes: int = RESTORE_BYTES) -> str:
    """The session's placeholders over and over, to exactly `size_bytes`: a Restore that runs its
    substitution over all of it on a live session (the attacker's own)."""
    if not placeholders:
        raise ValueError("a live session's Restore needs at least one placeholder")
    unit = " ".join(placeholders) + " "
    return sized([_fill(unit, size_bytes)], size_bytes, filler=" ")
