"""The stand-ins the gateway's chat scrub writes for private values (surrogates by default, ADR 0007).

`stand_ins(values)` gives, for values in the order a prompt holds them, what a fresh call's session
replaces each with: the vault's own allocation (a transaction on no session, as in a new call), so a
test can say what the model must read instead of the value and what the caller must get back.
A stand-in is never the value and never a placeholder; the tests check that too.
"""

from __future__ import annotations

from collections.abc import Sequence

from ztgate.redaction.vault import PLACEHOLDER_RE, PseudonymTransaction


def stand_ins(values: Sequence[tuple[str, str]], context: str = "") -> list[str]:
    """The stand-in of each (entity type, value), allocated in order in one new session; `context`, the
    text being redacted (a stand-in found in it is skipped, as the vault does)."""
    txn = PseudonymTransaction(None, 1 << 20)
    made = [txn.surrogate_for(entity_type, value, context) for entity_type, value in values]
    for (_, value), stand_in in zip(values, made):
        if stand_in == value or PLACEHOLDER_RE.fullmatch(stand_in):
            raise AssertionError(f"no stand-in for a value of {len(value)} characters: {stand_in!r}")
    return made


def stand_in(entity_type: str, value: str, context: str = "") -> str:
    """The stand-in of one value, the first of its type in a new session."""
    return stand_ins([(entity_type, value)], context)[0]
