"""JSON parsed only within bounds on nesting depth and value count, checked before any object is
built: a 2 MiB body of `[{},{},...]` is some 700,000 Python objects (about 51 MB) held for as long
as its call waits, while its bytes alone are 2 MiB.

The check scans the raw bytes at C speed (string literals skipped by one regular expression,
structural characters counted), then walks only the brackets, whose number the value bound has
already capped; what passes is parsed by the standard library as before.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ztgate.common.errors import ResourceExhausted

# A string literal: quotes around anything but a quote or backslash, or an escape (unrolled loop:
# linear, no backtracking).
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")


class JsonTooComplex(ResourceExhausted):
    """A JSON text nests deeper, or holds more values, than allowed; `bound` names which."""

    def __init__(self, message: str, bound: str) -> None:
        super().__init__(message)
        self.bound = bound


def check(raw: bytes, *, depth_limit: int, value_limit: int) -> None:
    """Raises JsonTooComplex when `raw` passes a bound; says nothing of whether it is valid JSON."""
    skeleton = _STRING.sub(b'""', raw)
    values = skeleton.count(b",") + skeleton.count(b"[") + skeleton.count(b"{") + 1
    if values > value_limit:
        raise JsonTooComplex(f"the JSON body holds about {values} values; the limit is {value_limit}",
                             "values")
    depth = 0
    for bracket in _BRACKET.finditer(skeleton):  # at most 2 * value_limit of them
        if bracket.group() in (b"[", b"{"):
            depth += 1
            if depth > depth_limit:
                raise JsonTooComplex(f"the JSON body nests deeper than {depth_limit} levels", "depth")
        else:
            depth -= 1


def loads(raw: bytes, *, depth_limit: int, value_limit: int) -> Any:
    """`json.loads(raw)` once `raw` is within the bounds (JsonTooComplex otherwise); invalid JSON
    raises what json.loads raises."""
    check(raw, depth_limit=depth_limit, value_limit=value_limit)
    return json.loads(raw)
