"""The kinds of field an OpenAI request may hold, and the one walk that checks a body against them.

A route's schema (fields.py) declares every field once as one of these nodes, and nothing else
passes: `Text` is scrubbed (it is text a model may read), `Json` is any JSON whose every string and
key is scrubbed (tool parameter schemas, `metadata`, `response_format.json_schema`), `Number`,
`Boolean` and `Choice` are validated against their bounds, `NonText` (images, audio, files) is
refused unless the operator lets such parts through unread, and a key no node declares is refused
with a 400 naming it, unless the operator names it (`DoorOptions.extra_fields`, scrubbed as `Json`).

The walk collects every text in `Walk.texts` (with where to put its scrubbed form back) and, for
the limits, the texts of each chat message or prompt. `Field.own` marks what ztgate's own model
cannot serve (the adapter refuses those; the processor lets them through to other upstreams).
Bounded cost: one pass over the parsed body; every node's work is linear in its value.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ztgate.protocols.openai.errors import OpenAIRequestError

# The setting that lets non-text content parts through unread (gateway.openai_non_text_parts).
NON_TEXT_PARTS_SETTING = "gateway.openai_non_text_parts"
# The setting that names vendor fields the door accepts and scrubs as text.
EXTRA_FIELDS_SETTING = "gateway.openai_extra_fields"


@dataclass(frozen=True, slots=True)
class DoorOptions:
    """The operator's choices for the door (gateway settings)."""

    pass_non_text_parts: bool = False  # gateway.openai_non_text_parts: pass
    extra_fields: frozenset[str] = frozenset()  # gateway.openai_extra_fields
    max_choices: int = 4  # gateway.openai_max_choices: bound of `n` and `best_of`


def kind_of(value: object) -> str:
    """A JSON value's kind, as a message names it."""
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
            type(None): "null"}.get(type(value), "a number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:32]} is out of range")
    return value


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


def parse_body(body: bytes) -> dict:
    """A request body as a JSON object; OpenAIRequestError (400) for anything else, including a
    number too long or too large for Python (past 4,300 digits, or beyond a float's range)."""
    try:
        payload = json.loads(body, parse_float=_finite, parse_constant=_no_constant)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise OpenAIRequestError(f"the request body is not valid JSON ({exc.__class__.__name__} "
                                 f"at byte {getattr(exc, 'pos', getattr(exc, 'start', 0))})") from None
    except RecursionError:
        raise OpenAIRequestError("the request body nests too deeply") from None
    except ValueError as exc:  # an int of more than 4,300 digits, a float out of range, NaN
        raise OpenAIRequestError(f"the request body holds a number the gateway cannot read: "
                                 f"{str(exc)[:120]}") from None
    if not isinstance(payload, dict):
        raise OpenAIRequestError(f"the request body must be a JSON object, not {kind_of(payload)}")
    return payload


class Texts:
    """A request's strings to scrub, each with where to put its scrubbed form back."""

    def __init__(self) -> None:
        self.values: list[str] = []
        self.paths: list[str] = []
        self._setters: list[Callable[[str], None]] = []
        self._keys: dict[int, tuple[dict, list[tuple[str, int]], str]] = {}

    def add(self, container: dict | list, key: Any, path: str) -> None:
        self.values.append(container[key])
        self.paths.append(path)

        def put(text: str) -> None:
            container[key] = text
        self._setters.append(put)

    def add_key(self, container: dict, key: str, path: str) -> None:
        """An object's key (a property name in a JSON schema, a metadata key): renamed in place."""
        _, renames, _ = self._keys.setdefault(id(container), (container, [], path))
        renames.append((key, len(self.values)))
        self.values.append(key)
        self.paths.append(f"{path} (a key)")
        self._setters.append(lambda text: None)  # applied with its object's other keys

    def put_back(self, texts: list[str]) -> None:
        for setter, text in zip(self._setters, texts):
            setter(text)
        for container, renames, path in self._keys.values():
            new = {key: texts[i] for key, i in renames}
            if len(set(new.values())) != len(new):
                raise OpenAIRequestError(f"`{path}` has keys that are the same once scrubbed; "
                                         "rename them", path)
            items = [(new.get(k, k), v) for k, v in container.items()]
            container.clear()
            container.update(items)


@dataclass
class Walk:
    """What one walk found: the texts to scrub, the text of each message, what the own model
    cannot serve (path, why), in the order met."""

    options: DoorOptions
    texts: Texts = field(default_factory=Texts)
    unserved: list[tuple[str, str]] = field(default_factory=list)


class Node:
    """A kind of field; `check` validates `parent[key]` (and records its texts) or raises."""

    def check(self, parent: dict | list, key: Any, path: str, walk: Walk) -> None:
        raise NotImplementedError

    def accepts(self, value: object) -> bool:
        """Whether `value` is of this node's JSON kind (AnyOf picks the first that is)."""
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError


def _refuse(path: str, message: str) -> OpenAIRequestError:
    return OpenAIRequestError(f"`{path}` {message}", path)


@dataclass(frozen=True)
class Text(Node):
    """A string the model may read: scrubbed."""

    def accepts(self, value: object) -> bool:
        return isinstance(value, str)

    def describe(self) -> str:
        return "a string"

    def check(self, parent: dict | list, key: Any, path: str, walk: Walk) -> None:
        if not isinstance(parent[key], str):
            raise _refuse(path, f"must be a string, not {kind_of(parent[key])}")
        walk.texts.add(parent, key, path)


@dataclass(frozen=True)
class Json(Node):
    """Any JSON value (a tool's parameter schema, metadata): every string and key scrubbed."""

    def accepts(self, value: object) -> bool:
        return True

    def describe(self) -> str:
        return "any JSON value"

    def check(self, parent: dict | list, key: Any, path: str, walk: Walk) -> None:
        stack: list[tuple[dict | list, Any, str]] = [(parent, key, path)]
        while stack:
            container, k, where = stack.pop()
            value = container[k]
            if isinstance(value, str):
                walk.texts.add(container, k, where)
            elif isinstance(value, dict):
                for name in value:
                    walk.texts.add_key(value, name, where)
                    stack.append((value, name, f"{where}.{name}"))
            elif isinstance(value, list):
                stack.extend((value, i, f"{where}[{i}]") for i in range(len(value)))


@dataclass(frozen=True)
class Number(Node):
    """A number within [low, high]; `integer`: a whole number."""

    low: float
    high: float
    integer: bool = False

    def accepts(self, value: object) -> bool:
        return isinstance(value, (int, float)) and not isinstance(value, bool)

    def describe(self) -> str:
        return "an integer" if self.integer else "a number"

    def check(self, parent: dict | list, key: Any, path: str, walk: Walk) -> None:
        value = parent[key]
        if not self.accepts(value) or (self.integer and not isinstance(value, int)):
            raise _refuse(path, f"must be {self.describe()}, not {kind_of(value)}")
        if not self.low <= value <= self.high:
            shown = str(value) if len(str(value)) <= 24 else f"{str(value)[:20]}..."
            raise _refuse(path, f"must be between {self.low:g} and {self.high:g}, not {shown}")


@dataclass(frozen=True)
class Boolean(Node):
    def accepts(self, value: object) -> bool:
        return isinstance(value, bool)

    def describe(self) -> str:
        return "a boolean"

    def check(self, parent: dict | list, key: Any, path: str, walk: Walk) -> None:
        if not isinstance(parent[key], bool):
            raise _refuse(path, f"must be true or false, not {kind_of(parent[key])}")


@dataclass(frozen=True)
class Choice(Node):
    """One of a few strings (an enum); `unserved`: values ztgate's own model cannot serve, and why."""

    values: tuple[str, ...]
    unserved: Mapping[str, str] = field(default_factory=dict)

    def accepts(self, value: object) -> bool:
        return isinstance(value, str)

    def describe(self) -> str:
        return "one of " + ", ".join(self.values)

    def check(self, parent: dict | list, key: Any, path: str, walk: Walk) -> None:
        value = parent[key]
        if value not in self.values:  # an unknown enum value is never echoed (it may be private)
            raise _refuse(path, f"must be {self.describe()}")
        if value in self.unserved:
            walk.unserved.append((path, self.unserved[value]))


@dataclass(frozen=True)
class Pattern(Node):
    """A short string of a fixed form (a token id of logit_bias): validated, not scrubbed."""

    regex: str
    what: str

    def accepts(self, value: object) -> bool:
        return isinstance(value, str)

    def describe(self) -> str:
        return self.what

    def check(self, parent: dict | list, key: Any, path: str, walk: Walk) -> None:
        if not isinstance(parent[key], str) or not re.fullmatch(self.regex, parent[key]):
            raise _refuse(path, f"must be {self.what}")


@dataclass(frozen=True)
class NonText(Node):
    """A content part the gateway cannot read (image, audio, file): refused, or passed unread
    with gateway.openai_non_text_parts: pass."""

    kind: str

    def accepts(self, value: object) -> bool:
        return isinstance(value, dict)

    def describe(self) -> str:
        return f"a {self.kind} part"

    def check(self, parent: dict | list, key: Any, path: str, walk: Walk) -> None:
        if not walk.options.pass_non_text_parts:
            raise OpenAIRequestError(
                f"`{path}` is a `{self.kind}` part, which the gateway cannot scrub: send text parts "
                f"only, or set {NON_TEXT_PARTS_SETTING}: pass to let such parts through unread",
                f"{path}.type")
        walk.unserved.append((path, "only text parts are served by ztgate's own model"))


@dataclass(frozen=True)
class Field:
    """An object's field: its node; `required`; `own`: why ztgate's own model cannot serve it
    unless its value is one of `neutral` (None: it can)."""

    node: Node
    required: bool = False
    own: str | None = None
    neutral: tuple = ()


def _neutral(value: object, neutral: tuple) -> bool:
    # By type as well as value: `true` is not `n: 1`, `false` is not a zero penalty.
    return value is None or any(type(value) is type(v) and value == v for v in neutral)


@dataclass(frozen=True)
class Obj(Node):
    """An object of declared fields; any other key is refused (naming it). `extra`: the top level,
    where the operator's extra fields are accepted and scrubbed as JSON. Null is absent."""

    fields: Mapping[str, Field]
    extra: bool = False

    def accepts(self, value: object) -> bool:
        return isinstance(value, dict)

    def describe(self) -> str:
        return "an object"

    def check(self, parent: dict | list, key: Any, path: str, walk: Walk) -> None:
        value = parent[key]
        if not isinstance(value, dict):
            raise _refuse(path, f"must be an object, not {kind_of(value)}")
        self.check_object(value, path, walk)

    def check_object(self, value: dict, path: str, walk: Walk) -> None:
        prefix = f"{path}." if path else ""
        for name in value:
            if name not in self.fields and not (self.extra and name in walk.options.extra_fields):
                where = f"{prefix}{name}"
                hint = (f", or name it in {EXTRA_FIELDS_SETTING} to have it scrubbed as text"
                        if self.extra else "")
                # The name is shown only when short and plain (a key may be private).
                shown = where if len(name) <= 64 and name.isidentifier() else f"{prefix}(a key)"
                raise OpenAIRequestError(f"`{shown}` is not a field the gateway knows for this "
                                         f"route: remove it{hint}", shown)
        for name, spec in self.fields.items():
            where = f"{prefix}{name}"
            if value.get(name) is None:
                if spec.required:
                    raise _refuse(where, f"is required: {spec.node.describe()}")
                continue
            spec.node.check(value, name, where, walk)
            if spec.own is not None and not _neutral(value[name], spec.neutral):
                walk.unserved.append((where, spec.own))
        if self.extra:
            for name in walk.options.extra_fields:
                if value.get(name) is not None and name not in self.fields:
                    Json().check(value, name, f"{prefix}{name}", walk)


@dataclass(frozen=True)
class Map(Node):
    """An object of the caller's keys (`key` validates each) to values of `value`."""

    key: Node
    value: Node
    max_items: int

    def accepts(self, value: object) -> bool:
        return isinstance(value, dict)

    def describe(self) -> str:
        return "an object"

    def check(self, parent: dict | list, key: Any, path: str, walk: Walk) -> None:
        value = parent[key]
        if not isinstance(value, dict):
            raise _refuse(path, f"must be an object, not {kind_of(value)}")
        if len(value) > self.max_items:
            raise _refuse(path, f"has {len(value)} entries; at most {self.max_items} are allowed")
        for i, name in enumerate(list(value)):
            if isinstance(self.key, Text):
                walk.texts.add_key(value, name, path)
            else:
                self.key.check([name], 0, f"{path} (key {i})", walk)
            # Named by position: a key may be private.
            self.value.check(value, name, f"{path}[{i}]", walk)


@dataclass(frozen=True)
class Array(Node):
    item: Node
    min_items: int = 0
    max_items: int | None = None

    def accepts(self, value: object) -> bool:
        return isinstance(value, list)

    def describe(self) -> str:
        return f"an array of {self.item.describe()}s" if not self.min_items else (
            f"a non-empty array of {self.item.describe()}s")

    def check(self, parent: dict | list, key: Any, path: str, walk: Walk) -> None:
        value = parent[key]
        if not isinstance(value, list):
            raise _refuse(path, f"must be {self.describe()}, not {kind_of(value)}")
        if len(value) < self.min_items:
            raise _refuse(path, f"must be {self.describe()}")
        if self.max_items is not None and len(value) > self.max_items:
            raise _refuse(path, f"has {len(value)} items; at most {self.max_items} are allowed")
        for i in range(len(value)):
            self.item.check(value, i, f"{path}[{i}]", walk)


@dataclass(frozen=True)
class AnyOf(Node):
    """One of several kinds, picked by the value's JSON kind (the first that accepts it)."""

    options: tuple[Node, ...]
    hint: str = ""

    def accepts(self, value: object) -> bool:
        return any(o.accepts(value) for o in self.options)

    def describe(self) -> str:
        return " or ".join(o.describe() for o in self.options)

    def check(self, parent: dict | list, key: Any, path: str, walk: Walk) -> None:
        for option in self.options:
            if option.accepts(parent[key]):
                option.check(parent, key, path, walk)
                return
        raise _refuse(path, f"must be {self.describe()}, not {kind_of(parent[key])}{self.hint}")


@dataclass(frozen=True)
class Tagged(Node):
    """An object whose `tag` field (e.g. `type`) picks its schema among `variants`."""

    tag: str
    variants: Mapping[str, Node]

    def accepts(self, value: object) -> bool:
        return isinstance(value, dict)

    def describe(self) -> str:
        return f"an object with `{self.tag}` one of {', '.join(self.variants)}"

    def check(self, parent: dict | list, key: Any, path: str, walk: Walk) -> None:
        value = parent[key]
        if not isinstance(value, dict):
            raise _refuse(path, f"must be {self.describe()}, not {kind_of(value)}")
        tag = value.get(self.tag)
        if not isinstance(tag, str):
            raise _refuse(f"{path}.{self.tag}", f"must be a string: one of {', '.join(self.variants)}")
        if tag not in self.variants:
            raise _refuse(f"{path}.{self.tag}", f"must be one of {', '.join(self.variants)}")
        self.variants[tag].check(parent, key, path, walk)
