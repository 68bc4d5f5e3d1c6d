"""JSON refused before parsing when it nests too deep or holds too many values
(ztgate/common/bounded_json.py): the bounds are exact on generated documents, and strings that
look like structure never count."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from ztgate.common.bounded_json import JsonTooComplex, check, loads

SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
DOCUMENTS = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                         | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=40)


def _depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


def _counted(value: Any) -> int:
    """What the bound counts: every value (keys not), an empty container twice."""
    if isinstance(value, (list, dict)):
        children = list(value.values() if isinstance(value, dict) else value)
        return 1 + sum(map(_counted, children)) + (not children)
    return 1


@settings(max_examples=300, deadline=None)
@given(document=DOCUMENTS, ascii_only=st.booleans())
def test_generated_documents_pass_at_their_own_bounds_and_fail_one_below(document: Any,
                                                                         ascii_only: bool) -> None:
    raw = json.dumps(document, ensure_ascii=ascii_only).encode()
    depth, values = _depth(document), _counted(document)
    assert loads(raw, depth_limit=max(depth, 1), value_limit=values) == json.loads(raw)
    with pytest.raises(JsonTooComplex) as info:
        check(raw, depth_limit=max(depth, 1), value_limit=values - 1)
    assert info.value.bound == "values" and info.value.status == "RESOURCE_EXHAUSTED"
    if depth > 1:
        with pytest.raises(JsonTooComplex) as info:
            check(raw, depth_limit=depth - 1, value_limit=values)
        assert info.value.bound == "depth"


@pytest.mark.parametrize("text", ['[,,,]{{{', '\\"[[[[', '{"a": [1,2]}', "\\\\", '\\u0022[['])
def test_brackets_commas_and_escaped_quotes_inside_strings_never_count(text: str) -> None:
    raw = json.dumps({"content": text}).encode()
    check(raw, depth_limit=1, value_limit=2)


def test_the_issues_body_of_empty_objects_is_refused_fast_before_any_is_built() -> None:
    raw = b"[" + b",".join([b"{}"] * 700_000) + b"]"  # 2 MiB
    started = time.perf_counter()
    with pytest.raises(JsonTooComplex, match="limit is 50000"):
        loads(raw, depth_limit=64, value_limit=50_000)
    assert time.perf_counter() - started < 0.5  # a scan at C speed, no objects


@pytest.mark.parametrize("raw", [b"{", b"[1,]", b"\xff"])
def test_invalid_json_within_the_bounds_fails_as_json_loads_does(raw: bytes) -> None:
    with pytest.raises((json.JSONDecodeError, UnicodeDecodeError)):
        loads(raw, depth_limit=8, value_limit=100)
