"""Reversible pseudonymisation store: per (tenant, session) placeholder <-> original, bounded, expiring.

- A session is keyed by (tenant, session_id): another tenant using the same session id sees nothing.
- Placeholders are `<ENTITY_TYPE_n>`, numbered per entity type within a session from 1; the same
  (entity type, value) always gets the same placeholder in a session.
- Writes go through `transaction()`: placeholders are staged and only committed when the block ends
  without an exception, so a blocked or failed request leaves nothing behind.
- Bounds: at most `max_sessions` sessions (the least recently used is evicted), at most
  `max_entries_per_session` pseudonyms per session (one more fails the request with SessionFullError
  instead of silently forgetting older ones, which would make earlier answers unrestorable), and a
  session expires `ttl_s` seconds after its last use (commit or restore).
- Secrets are never stored: asking for a secret type's placeholder raises.
- One lock guards everything; every operation under it is short (dict work, one regex pass).
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType

from services.common.errors import ResourceExhausted
from services.redaction.types import ALL_ENTITY_TYPES, SECRET_ENTITY_TYPES

# A placeholder the vault hands out: `<PERSON_1>`, `<EMAIL_ADDRESS_12>`.
PLACEHOLDER_RE = re.compile(r"<([A-Z][A-Z0-9_]*)_([1-9][0-9]{0,8})>")
# Entity types that can get a restorable placeholder.
RESTORABLE_ENTITY_TYPES: frozenset[str] = ALL_ENTITY_TYPES - SECRET_ENTITY_TYPES


class SecretNotStorableError(ValueError):
    """A secret type reached the vault: a bug upstream, since policies never pseudonymise secrets."""


class SessionFullError(ResourceExhausted):
    """The session holds `max_entries_per_session` pseudonyms already."""


def format_placeholder(entity_type: str, number: int) -> str:
    """`<ENTITY_TYPE_number>`."""
    return f"<{entity_type}_{number}>"


@dataclass(slots=True)
class _Session:
    originals: dict[str, str] = field(default_factory=dict)                 # placeholder -> original
    placeholders: dict[tuple[str, str], str] = field(default_factory=dict)  # (type, original) -> placeholder
    counters: dict[str, int] = field(default_factory=dict)                  # type -> last number used
    expires_at: float = 0.0


class PseudonymTransaction:
    """Allocates placeholders against a session (or none: numbering for one call only), staging new ones."""

    def __init__(self, session: _Session | None, max_entries: int) -> None:
        self._session = session
        self._max_entries = max_entries
        # New placeholders by (entity type, original), and the last number used per type, not yet committed.
        self.staged: dict[tuple[str, str], str] = {}
        self.counters: dict[str, int] = {}

    def placeholder_for(self, entity_type: str, original: str) -> str:
        """The session's placeholder for this value, allocating the next number if it is new."""
        if entity_type in SECRET_ENTITY_TYPES:
            raise SecretNotStorableError(f"{entity_type} is a secret type and is never pseudonymised")
        key = (entity_type, original)
        session = self._session
        if session is not None:
            existing = session.placeholders.get(key)
            if existing is not None:
                return existing
        staged = self.staged.get(key)
        if staged is not None:
            return staged
        held = len(session.originals) if session is not None else 0
        if held + len(self.staged) >= self._max_entries:
            raise SessionFullError(f"this session already holds {self._max_entries} pseudonyms; "
                                   f"start a new session")
        number = self.counters.get(entity_type)
        if number is None:
            number = session.counters.get(entity_type, 0) if session is not None else 0
        number += 1
        self.counters[entity_type] = number
        placeholder = format_placeholder(entity_type, number)
        self.staged[key] = placeholder
        return placeholder


class _Transaction:
    """Context manager returned by Vault.transaction: holds the lock, commits on a clean exit."""

    def __init__(self, vault: Vault, key: tuple[str, str]) -> None:
        self._vault = vault
        self._key = key

    def __enter__(self) -> PseudonymTransaction:
        self._vault._lock.acquire()
        try:
            session = self._vault._live_session(self._key)
            self._txn = PseudonymTransaction(session, self._vault.max_entries_per_session)
        except BaseException:
            self._vault._lock.release()
            raise
        return self._txn

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        try:
            if exc_type is None:
                self._vault._commit(self._key, self._txn)
        finally:
            self._vault._lock.release()


class Vault:
    """Thread-safe, bounded, expiring placeholder store (see module doc)."""

    def __init__(self, *, max_sessions: int = 10_000, max_entries_per_session: int = 1_000,
                 ttl_s: float = 3600.0, clock: Callable[[], float] = time.monotonic) -> None:
        if max_sessions < 1 or max_entries_per_session < 1 or ttl_s <= 0:
            raise ValueError("max_sessions, max_entries_per_session and ttl_s must be positive")
        self.max_sessions = max_sessions
        self.max_entries_per_session = max_entries_per_session
        self.ttl_s = ttl_s
        self._clock = clock
        self._lock = threading.Lock()
        # Least recently used first; since every use also pushes expiry forward, also soonest-expiring first.
        self._sessions: OrderedDict[tuple[str, str], _Session] = OrderedDict()

    def transaction(self, tenant: str | None, session_id: str) -> _Transaction:
        """`with vault.transaction(tenant, sid) as txn:` allocate with txn.placeholder_for; commit on exit."""
        if not session_id:
            raise ValueError("a vault transaction needs a session id")
        return _Transaction(self, (tenant or "", session_id))

    def restore(self, tenant: str | None, session_id: str, text: str) -> str:
        """Replaces the session's placeholders in `text` by their originals; anything else is left as is."""
        if not session_id or "<" not in text:
            return text
        with self._lock:
            session = self._live_session((tenant or "", session_id))
            if session is None:
                return text
            self._touch((tenant or "", session_id), session)
            originals = session.originals
            return PLACEHOLDER_RE.sub(lambda m: originals.get(m.group(0), m.group(0)), text)

    def forget(self, tenant: str | None, session_id: str) -> bool:
        """Drops a session; True if it existed."""
        with self._lock:
            return self._sessions.pop((tenant or "", session_id), None) is not None

    def entry_count(self, tenant: str | None, session_id: str) -> int:
        """Pseudonyms held for a live session (0 for none)."""
        with self._lock:
            session = self._live_session((tenant or "", session_id))
            return 0 if session is None else len(session.originals)

    def __len__(self) -> int:
        with self._lock:
            self._purge_expired()
            return len(self._sessions)

    # Everything below runs with self._lock held.

    def _purge_expired(self) -> None:
        now = self._clock()
        sessions = self._sessions
        while sessions:
            key, session = next(iter(sessions.items()))
            if session.expires_at > now:
                break
            del sessions[key]

    def _live_session(self, key: tuple[str, str]) -> _Session | None:
        self._purge_expired()
        return self._sessions.get(key)

    def _touch(self, key: tuple[str, str], session: _Session) -> None:
        session.expires_at = self._clock() + self.ttl_s
        self._sessions.move_to_end(key)

    def _commit(self, key: tuple[str, str], txn: PseudonymTransaction) -> None:
        session = self._sessions.get(key)
        if session is None:
            if not txn.staged:
                return
            while len(self._sessions) >= self.max_sessions:
                self._sessions.popitem(last=False)
            session = _Session()
            self._sessions[key] = session
        for value_key, placeholder in txn.staged.items():
            session.placeholders[value_key] = placeholder
            session.originals[placeholder] = value_key[1]
        session.counters.update(txn.counters)  # the lock was held since allocation: these are the latest
        self._touch(key, session)


def pending_placeholder_length(text: str) -> int:
    """How many code points at the end of `text` may be the start of a placeholder still incomplete.

    For streamed output: hold that many back until the next chunk (`"... <PERS"` -> 5,
    `"<EMAIL_ADDRESS_1"` -> 16, `"a < b"` -> 0). Only prefixes of `<TYPE_n>` for restorable types count.
    """
    start = text.rfind("<", max(0, len(text) - _MAX_PLACEHOLDER_LENGTH))
    if start < 0:
        return 0
    tail = text[start + 1:]
    if tail in _TYPE_PREFIXES or _PARTIAL_NUMBERED.fullmatch(tail):
        return len(text) - start
    return 0


# Every prefix of "TYPE_" for restorable types, "" included (a lone "<").
_TYPE_PREFIXES: frozenset[str] = frozenset(
    f"{entity_type}_"[:length]
    for entity_type in RESTORABLE_ENTITY_TYPES for length in range(len(entity_type) + 2))
_PARTIAL_NUMBERED = re.compile(
    "(?:" + "|".join(sorted(map(re.escape, RESTORABLE_ENTITY_TYPES))) + r")_[1-9][0-9]{0,8}")
_MAX_PLACEHOLDER_LENGTH = max(map(len, RESTORABLE_ENTITY_TYPES)) + 12
