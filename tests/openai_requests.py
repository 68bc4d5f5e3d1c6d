"""Hypothesis strategies for OpenAI requests and answers, generated from the door's own schema
(ztgate/protocols/openai/fields.py), with private values planted at random paths.

`requests(path)`: a request of that route, every field kind included at any nesting (text parts,
tool schemas, response formats, metadata, logit bias, ...), each text maybe holding a private
value (an e-mail address, an SSN, a card number), object keys of free JSON too; sometimes a vendor
field the schema does not know, holding one. What a request may be is the schema's business; what
the tests check is that each is refused (4xx naming the field or limit) or reaches an upstream
with no private value.

`answers(placeholders)`: an answer object (chat, completion, error, or any JSON value) with the
given placeholders planted in its strings, wherever they nest.
"""

from __future__ import annotations

import string
from typing import Any

from hypothesis import strategies as st

from ztgate.protocols.openai import fields
from ztgate.protocols.openai.schema import (AnyOf, Array, Boolean, Choice, Json, Map, Node, NonText,
                                            Number, Obj, Pattern, Tagged, Text)

EMAIL = "jane.doe@example.com"
SSN = "536-22-8790"
CARD = "4111 1111 1111 1111"
PRIVATE = (EMAIL, SSN, CARD)
# A field no schema declares: the door must refuse it (it holds a private value).
VENDOR_FIELD = "x_vendor_note"
# Lowercase: a capitalised random word could read as a name to the NER tier of a real suite.
WORDS = st.text(alphabet=string.ascii_lowercase + " ", max_size=10)


def texts() -> st.SearchStrategy[str]:
    """A short text, half the time with a private value in it (words around it, apart)."""
    planted = st.builds(lambda before, value, after: f"{before} {value} {after}".strip(),
                        WORDS, st.sampled_from(PRIVATE), WORDS)
    return st.one_of(WORDS, planted)


def keys() -> st.SearchStrategy[str]:
    return st.one_of(st.from_regex(r"[a-z_]{1,8}", fullmatch=True), st.sampled_from(PRIVATE))


def free_json() -> st.SearchStrategy[Any]:
    leaves = st.one_of(st.none(), st.booleans(), st.integers(-1000, 1000), texts())
    return st.recursive(leaves, lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(keys(), inner, max_size=3)), max_leaves=8)


def _number(node: Number) -> st.SearchStrategy[Any]:
    low = max(node.low, -1000)
    high = min(node.high, low + 12 if node.integer else node.high, 1000)
    if node.integer:
        return st.integers(int(low), int(high))
    return st.one_of(st.integers(int(low), int(high)),
                     st.floats(low, high, allow_nan=False, allow_infinity=False))


def _field(name: str, node: Node, neutral: tuple) -> st.SearchStrategy[Any]:
    """Mostly values the door takes: log-probabilities at their neutral value, n within bounds."""
    if name in fields.REFUSED_EVERYWHERE:
        return st.one_of(st.sampled_from(neutral), for_node(node)) if neutral else for_node(node)
    if name in ("n", "best_of"):
        return st.integers(1, 5)
    return for_node(node)


def for_node(node: Node) -> st.SearchStrategy[Any]:
    """Values that `node` declares (NonText parts are left out: the door refuses them)."""
    if isinstance(node, fields.ModelName):
        return st.just("door-model")
    if isinstance(node, fields.Prompt):
        return st.one_of(texts(), st.lists(texts(), min_size=1, max_size=3))
    if isinstance(node, Text):
        return texts()
    if isinstance(node, Json):
        return free_json()
    if isinstance(node, Number):
        return _number(node)
    if isinstance(node, Boolean):
        return st.booleans()
    if isinstance(node, Choice):
        return st.sampled_from(node.values)
    if isinstance(node, Pattern):
        return st.from_regex(node.regex, fullmatch=True)
    if isinstance(node, Obj):
        required = {name: for_node(f.node).filter(lambda v: v is not None)
                    for name, f in node.fields.items() if f.required}
        optional = {name: _field(name, f.node, f.neutral) for name, f in node.fields.items()
                    if not f.required}
        return st.fixed_dictionaries(required, optional=optional)
    if isinstance(node, Map):
        key = texts() if isinstance(node.key, Text) else for_node(node.key)
        return st.dictionaries(key, for_node(node.value), max_size=3)
    if isinstance(node, Array):
        return st.lists(for_node(node.item), min_size=node.min_items, max_size=max(node.min_items, 3))
    if isinstance(node, AnyOf):
        return st.one_of([for_node(o) for o in node.options])
    if isinstance(node, Tagged):
        return st.one_of([for_node(v) for v in node.variants.values() if not isinstance(v, NonText)])
    raise TypeError(f"no strategy for {type(node).__name__}")


def requests(path: str, model: str = "door-model") -> st.SearchStrategy[dict]:
    """A request of route `path` for `model`; a tenth of them with a vendor field holding a
    private value."""
    body = for_node(fields.SCHEMAS[path])

    def build(b: dict, roll: int, value: str) -> dict:
        return {**b, "model": model, **({VENDOR_FIELD: value} if roll == 5 else {})}
    return st.builds(build, body, st.integers(0, 9), st.sampled_from(PRIVATE))



def answers(placeholders: tuple[str, ...]) -> st.SearchStrategy[Any]:
    """An answer in which strings carry the placeholders (chat, completion, error or any JSON)."""
    said = st.builds(lambda before, p, after: f"{before} {p} {after}", WORDS,
                     st.sampled_from(placeholders), WORDS)
    text = st.one_of(WORDS, said)
    anything = st.recursive(st.one_of(st.none(), st.integers(0, 9), text), lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.from_regex(r"[a-z_]{1,8}", fullmatch=True),
                                                     inner, max_size=3)), max_leaves=8)
    call = st.fixed_dictionaries({"id": text, "type": st.just("function"), "function":
                                  st.fixed_dictionaries({"name": text, "arguments": text})})
    message = st.fixed_dictionaries({"role": st.just("assistant")}, optional={
        "content": text, "refusal": text, "reasoning_content": text, "tool_calls": st.lists(call, max_size=2),
        "function_call": st.fixed_dictionaries({"name": text, "arguments": text}),
        "audio": st.fixed_dictionaries({"id": text, "transcript": text}), "annotations": anything})
    choice = st.fixed_dictionaries({"index": st.integers(0, 3), "finish_reason": st.just("stop")},
                                   optional={"message": message, "text": text, "x_extra": anything})
    chat = st.fixed_dictionaries({"id": text, "object": st.just("chat.completion"),
                                  "model": st.just("door-model"),
                                  "choices": st.lists(choice, min_size=1, max_size=3)},
                                 optional={"system_fingerprint": text, "x_vendor": anything})
    error = st.fixed_dictionaries({"error": st.one_of(text, st.fixed_dictionaries(
        {"message": text, "type": text, "param": text}))})
    return st.one_of(chat, error, anything)
