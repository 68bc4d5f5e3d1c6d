"""The stand-ins the gateway's chat scrub writes for private values (surrogates by default, ADR 0007).

`stand_ins(values)` gives, for values in the order a prompt holds them, what a fresh call's session
replaces each with: the vault's own allocation (a transaction on no session, as in a new call), so a
test can say what the model must read instead of the value and what the caller must get back.
A stand-in is never the value and never a placeholder; the tests check that too. `pseudonyms_in(text)`:
the placeholders and stand-ins a text holds, what the test doubles of a model echo back.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ztgate.redaction.anonymising import surrogates
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


def _names(words: Sequence[str]) -> str:
    return "|".join(map(re.escape, words))


# What a TEST DOUBLE model echoes from what it read (tests/e2e/gateway_suite.py, openai_upstream.py): the
# placeholders, and the stand-ins the surrogates module writes (an address on a reserved example.* domain,
# a number in the 555-0100 to 555-0199 range, a listed given name and surname).
_PSEUDONYM = re.compile("|".join([
    PLACEHOLDER_RE.pattern,
    r"[A-Za-z0-9._%+-]+@(?:" + _names(surrogates.EMAIL_DOMAINS) + r")\b",
    r"(?:\+?1[ .-]?)?\(?[0-9]{3}\)?[ .-]?555[ .-]?01[0-9]{2}\b",
    rf"\b(?:{_names(surrogates.GIVEN_NAMES)})(?: (?:{_names(surrogates.GIVEN_NAMES)}))* "
    rf"(?:{_names(surrogates.SURNAMES)})\b",
]))


def pseudonyms_in(text: str) -> list[str]:
    """Every placeholder and stand-in in `text`, in order (what a test double echoes back)."""
    return [match.group(0) for match in _PSEUDONYM.finditer(text)]
