"""Reversible pseudonymisation store: per (tenant, session) placeholder <-> original, bounded, expiring.

Sessions are keyed by (tenant, session_id); writes go through `transaction()`, so a failed request
leaves nothing behind; restoring from an unknown session raises rather than returning placeholders;
per-tenant and global bounds evict a tenant's own sessions only; secrets are never stored. One lock
guards the bookkeeping, and Restore's regex passes run outside it
(docs/adr/0011-vault-restore-outside-the-lock.md). Rules one by one: docs/architecture.md
("Module notes").
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from types import TracebackType

from ztgate.common.errors import NotFound, ResourceExhausted
from ztgate.common.tenants import DEFAULT_TENANT
from ztgate.redaction.anonymising import surrogates
from ztgate.redaction.config import VaultSettings
from ztgate.redaction.types import ALL_ENTITY_TYPES, SECRET_ENTITY_TYPES

# A placeholder the vault hands out: `<PERSON_1>`, `<EMAIL_ADDRESS_12>`.
PLACEHOLDER_RE = re.compile(r"<([A-Z][A-Z0-9_]*)_([1-9][0-9]{0,8})>")
# The same, as one capturing group: `split` then gives text and placeholders in turn, in C.
_PLACEHOLDER_SPLIT = re.compile(r"(<[A-Z][A-Z0-9_]*_[1-9][0-9]{0,8}>)")
# Characters of text that Restore's regex takes in one C call (_slices): about 0.3 ms.
RESTORE_SLICE_CHARS = 16_384
# Entity types that can get a restorable placeholder.
RESTORABLE_ENTITY_TYPES: frozenset[str] = ALL_ENTITY_TYPES - SECRET_ENTITY_TYPES
# Where the vault's settings live, for messages.
_SETTINGS = "redaction.vault"


class SecretNotStorableError(ValueError):
    """A secret type reached the vault: a bug upstream, since policies never pseudonymise secrets."""


class SessionFullError(ResourceExhausted):
    """The session holds `max_entries_per_session` pseudonyms already."""


class VaultFullError(ResourceExhausted):
    """A session cannot be kept within the tenant's quota or the vault's caps."""


class SessionUnknownError(NotFound):
    """Restore named a session this tenant does not have (never opened, expired or dropped)."""


@dataclass(frozen=True, slots=True)
class SessionCopy:
    """A session's whole state as a peer replica takes it (replication.py): what it hands out for
    each value, and what restores. Never logged: it holds original values."""

    tenant: str
    session_id: str
    # (entity type, original) -> placeholder or stand-in.
    placeholders: dict[tuple[str, str], str]
    counters: dict[str, int]
    surrogates: dict[str, str]
    forms: dict[str, str]
    names: frozenset[str]
    mails: dict[str, str]
    mail_locals: dict[str, str | None]
    phones: dict[str, str]


# Told of every write or use of a session (tenant, session id, whether its content changed), with
# the vault's lock held: it must only note the key (replication.py's queue does).
SessionListener = Callable[[str, str, bool], None]


def format_placeholder(entity_type: str, number: int) -> str:
    """`<ENTITY_TYPE_number>`."""
    return f"<{entity_type}_{number}>"


@dataclass(slots=True)
class _Session:
    originals: dict[str, str] = field(default_factory=dict)                 # placeholder -> original
    placeholders: dict[tuple[str, str], str] = field(default_factory=dict)  # (type, original) -> placeholder
    counters: dict[str, int] = field(default_factory=dict)                  # type -> last number used
    expires_at: float = 0.0
    size: int = 0                                                           # UTF-8 bytes of originals
    # Surrogates and the single names of persons' surrogates -> original, and their pattern (built on use).
    surrogates: dict[str, str] = field(default_factory=dict)
    # Other forms that restore (a person's stand-in in capitals, ...) -> what they restore to
    # (surrogates.restore_forms); which keys of both are single names; e-mail stand-ins, lower case.
    forms: dict[str, str] = field(default_factory=dict)
    names: set[str] = field(default_factory=set)
    mails: dict[str, str] = field(default_factory=dict)
    # Local parts of e-mail stand-ins on a reserved domain (case folded) -> original, None when two
    # share one: the same local part on another `example.*` domain restores when it names one value.
    mail_locals: dict[str, str | None] = field(default_factory=dict)
    # Phone stand-ins' ten digits (no country code) -> original: one written in another layout restores.
    phones: dict[str, str] = field(default_factory=dict)
    pattern: re.Pattern[str] | None = None
    table: dict[str, str] | None = None                                     # placeholders and surrogates
    # Kept on this replica only: its writes and uses are told to no listener (a gateway call's own).
    local: bool = False


@dataclass(slots=True)
class _Tenant:
    """One tenant's share: its sessions, least recently used first, and their bytes."""

    sessions: OrderedDict[str, None] = field(default_factory=OrderedDict)
    size: int = 0


@dataclass(frozen=True, slots=True)
class TenantUsage:
    # The tenant's live session ids, least recently used first.
    sessions: tuple[str, ...]
    # UTF-8 bytes of the original values they hold.
    size: int


class PseudonymTransaction:
    """Allocates placeholders against a session (or none: numbering for one call only), staging new ones."""

    def __init__(self, session: _Session | None, max_entries: int) -> None:
        self._session = session
        self._max_entries = max_entries
        # New placeholders by (entity type, original), and the last number used per type, not yet committed.
        self.staged: dict[tuple[str, str], str] = {}
        self.counters: dict[str, int] = {}
        # New surrogates (and single names) -> original, their other forms, which are single names, and
        # e-mail stand-ins (lower case) -> original, not yet committed.
        self.staged_surrogates: dict[str, str] = {}
        self.staged_forms: dict[str, str] = {}
        self.staged_names: set[str] = set()
        self.staged_mails: dict[str, str] = {}
        self.staged_mail_locals: dict[str, str | None] = {}
        self.staged_phones: dict[str, str] = {}

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
            raise SessionFullError(f"this session already holds {self._max_entries} pseudonyms "
                                   f"({_SETTINGS}.max_entries_per_session); start a new session")
        number = self._next_number(entity_type)
        placeholder = format_placeholder(entity_type, number)
        self.staged[key] = placeholder
        return placeholder

    def _next_number(self, entity_type: str) -> int:
        number = self.counters.get(entity_type)
        if number is None:
            number = self._session.counters.get(entity_type, 0) if self._session is not None else 0
        number += 1
        self.counters[entity_type] = number
        return number

    def surrogate_for(self, entity_type: str, original: str, context: str) -> str:
        """The session's surrogate for this value: a new one is none of the session's values (surrogates,
        their single names, originals), is not in `context` (the text being redacted) and is not the
        original; with no such candidate (or no surrogate for the type), the value's placeholder."""
        if entity_type in SECRET_ENTITY_TYPES:
            raise SecretNotStorableError(f"{entity_type} is a secret type and is never pseudonymised")
        key = (entity_type, original)
        session = self._session
        existing = session.placeholders.get(key) if session is not None else None
        if existing is None:
            existing = self.staged.get(key)
        if existing is not None:
            return existing
        number = self.counters.get(entity_type, self._session.counters.get(entity_type, 0)
                                   if self._session is not None else 0) + 1
        taken = self._taken()
        folded_context = context.casefold()
        for candidate in surrogates.candidates(entity_type, original, number, self._persons()):
            aliases = surrogates.restore_aliases(entity_type, original, candidate)
            if entity_type == "PHONE_NUMBER" and self._phone_taken(candidate, original):
                continue
            if all(_free(word, original, folded_context, taken) for word in (candidate, *aliases)):
                break
        else:
            return self.placeholder_for(entity_type, original)
        self.placeholder_for(entity_type, original)   # bounds checked and numbered as a placeholder
        self.staged[key] = candidate
        self.staged_surrogates[candidate] = original
        self.staged_surrogates.update(aliases)
        whole, single = surrogates.restore_forms(entity_type, original, candidate)
        self.staged_forms.update(whole)
        self.staged_forms.update(single)
        self.staged_names.update(single)
        self.staged_names.update(aliases)
        if entity_type == "EMAIL_ADDRESS":
            self.staged_mails[candidate.casefold()] = original
            local, _, domain = candidate.casefold().partition("@")
            if domain in surrogates.EMAIL_DOMAINS:
                _add_local(self.staged_mail_locals, local, original)
        if entity_type == "PHONE_NUMBER" and (digits := phone_digits(candidate)):
            self.staged_phones[digits] = original
        return candidate

    def _phone_taken(self, candidate: str, original: str) -> bool:
        """A phone stand-in whose digits another stand-in or a phone number of the session has: the digits
        must name one value."""
        digits = phone_digits(candidate)
        if digits is None:
            return False
        session = self._session
        numbers = [original, *(value for kind, value in self.staged if kind == "PHONE_NUMBER")]
        if session is not None:
            if digits in session.phones:
                return True
            numbers += [value for kind, value in session.placeholders if kind == "PHONE_NUMBER"]
        return digits in self.staged_phones or any(phone_digits(number) == digits for number in numbers)

    def _taken(self) -> set[str]:
        """Every value of the session, staged or held (originals, surrogates, their single names), case
        folded: a new surrogate or single name must be none of them in any case, so that each form that
        restores names one value only."""
        values = [*self.staged_surrogates, *(value for _, value in self.staged)]
        session = self._session
        if session is not None:
            values += [*session.surrogates, *session.originals.values(), *session.originals]
        return {value.casefold() for value in values}

    def _persons(self) -> tuple[tuple[str, str], ...]:
        """The session's persons that have a stand-in, and it, staged ones last."""
        held = self._session.placeholders.items() if self._session is not None else ()
        return tuple((original, value) for (entity_type, original), value in (*held, *self.staged.items())
                     if entity_type == "PERSON" and not PLACEHOLDER_RE.fullmatch(value))


class _Transaction:
    """Context manager returned by Vault.transaction: holds the lock, commits on a clean exit."""

    def __init__(self, vault: Vault, key: tuple[str, str]) -> None:
        self._vault = vault
        self._key = key

    def __enter__(self) -> PseudonymTransaction:
        self._vault._lock.acquire()
        try:
            session = self._vault._live_session(self._key)
            self._txn = PseudonymTransaction(session, self._vault.settings.max_entries_per_session)
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


def _key(tenant: str | None, session_id: str) -> tuple[str, str]:
    if not session_id:
        raise ValueError("a vault session needs a session id")
    return tenant or DEFAULT_TENANT, session_id


class Vault:
    """Thread-safe, bounded, expiring placeholder store with per-tenant quotas (see module doc)."""

    def __init__(self, settings: VaultSettings | None = None, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings or VaultSettings()
        self._clock = clock
        self._lock = threading.Lock()
        # Least recently used first; since every use also pushes expiry forward, also soonest-expiring first.
        self._sessions: OrderedDict[tuple[str, str], _Session] = OrderedDict()
        self._tenants: dict[str, _Tenant] = {}
        self._size = 0
        # Told of each session write or use made here (not of copies taken from peers): replication.
        self.listener: SessionListener | None = None

    def transaction(self, tenant: str | None, session_id: str) -> _Transaction:
        """`with vault.transaction(tenant, sid) as txn:` allocate with txn.placeholder_for; commit on exit."""
        return _Transaction(self, _key(tenant, session_id))

    def open(self, tenant: str | None, session_id: str, *, replicate: bool = True) -> None:
        """Makes the session exist (empty if new) and counts as a use; VaultFullError when the
        tenant has nothing of its own to make room with at the vault's caps. A session made with
        `replicate` off is kept here only (no listener hears of it)."""
        key = _key(tenant, session_id)
        with self._lock:
            session = self._live_session(key)
            changed = session is None
            if session is None:
                self._make_room(key, new=True, added=0)
                session = self._add(key)
                session.local = not replicate
            self._touch(key, session)
            self._tell(key, session, changed)

    def restore(self, tenant: str | None, session_id: str, text: str, *, lead: str = "") -> str:
        """Replaces the session's placeholders (and surrogates, in the forms `_surrogate_pattern` names)
        in `text` by their originals; anything else is left as is. `lead`: the answer's text just
        before `text` when it is a streamed piece (its last character decides whether a surrogate may
        start at `text`'s first one, as in the whole answer). SessionUnknownError when this tenant has
        no such live session."""
        steps = self.restore_steps(tenant, session_id, text, lead=lead)
        while True:
            try:
                next(steps)
            except StopIteration as done:
                return done.value

    def restore_steps(self, tenant: str | None, session_id: str, text: str, *,
                      lead: str = "") -> Generator[None, None, str]:
        """`restore` one slice of `text` at a time (_slices, about 0.3 ms of regex each): it yields
        after each, and returns the restored text. The Restore RPC runs it on the event loop, which
        serves every tenant's call between two slices (docs/adr/0011)."""
        key = _key(tenant, session_id)
        with self._lock:  # a session this tenant does not have is refused before any pass over the text
            session = self._session_for_restore(key, session_id)
            if session.surrogates:
                pattern, table = _surrogate_pattern(session)
                phones = dict(session.phones)
                locals_ = dict(session.mail_locals)
                # A cut before "<" could split a surrogate that has one: then one piece.
                whole = any("<" in word for word in session.surrogates)
        if session.surrogates:   # one pass for placeholders and surrogates, outside the lock
            def original(match: re.Match[str]) -> str:
                found = match.group(0)
                if match.lastgroup == "mail":
                    folded = found.casefold()
                    return table.get(folded) or locals_.get(folded.partition("@")[0]) or found
                if match.lastgroup == "phone":
                    return phones.get(phone_digits(found) or "", found)
                return table.get(found, found)
            out = []
            # The lead's last character as a stand-in of its class, which no surrogate starts with.
            prefix = _lead_class(lead)
            for piece in [text] if whole else _slices(text):
                out.append(pattern.sub(original, prefix + piece)[len(prefix):])
                prefix = ""
                yield
            return "".join(out)
        # Text and the placeholders it names (odd places), split outside the lock.
        slices: list[list[str]] = [[text]]
        named: set[str] = set()
        if "<" in text:
            slices = []
            for piece in _slices(text):
                slices.append(_PLACEHOLDER_SPLIT.split(piece))
                named.update(slices[-1][1::2])
                yield
        with self._lock:
            session = self._session_for_restore(key, session_id)
            held = session.originals
            originals = {p: held[p] for p in named if p in held}  # one lookup per distinct name
        if not originals:
            return text
        restored = []
        for parts in slices:
            parts[1::2] = [originals.get(name, name) for name in parts[1::2]]
            restored.append("".join(parts))
            yield
        return "".join(restored)

    def pending_length(self, tenant: str | None, session_id: str, text: str) -> int:
        """How many code points at the end of `text` to hold back from a streamed restore: a placeholder
        or one of the session's surrogates that the next chunk may complete."""
        pending = pending_placeholder_length(text)
        with self._lock:
            session = self._live_session(_key(tenant, session_id))
            words = (tuple(session.surrogates) + tuple(session.forms)
                     + tuple(f"{local}@{domain}" for local in session.mail_locals
                             for domain in surrogates.EMAIL_DOMAINS)
                     + tuple(_bare_locals(session.mail_locals))) if session is not None else ()
            phones = tuple(session.phones) if session is not None else ()
        if phones:
            pending = max(pending, _pending_phone_length(text, phones))
        return max(pending, _pending_surrogate_length(text, words)) if words else pending

    def _session_for_restore(self, key: tuple[str, str], session_id: str) -> _Session:
        session = self._live_session(key)
        if session is None:
            raise SessionUnknownError(
                f"session {session_id} is unknown or expired for tenant {key[0]} (a session lives "
                f"{self.settings.ttl_s:g} s after its last use, {_SETTINGS}.ttl_s, and a "
                f"tenant's least recently used sessions make way past "
                f"{_SETTINGS}.max_sessions_per_tenant or max_bytes_per_tenant); its pseudonyms "
                "cannot be restored: redact again in a new session")
        self._touch(key, session)
        self._tell(key, session, False)
        return session

    def forget(self, tenant: str | None, session_id: str) -> bool:
        """Drops a session; True if it existed."""
        with self._lock:
            key = _key(tenant, session_id)
            if key not in self._sessions:
                return False
            self._drop(key)
            return True

    def entry_count(self, tenant: str | None, session_id: str) -> int:
        """Pseudonyms held for a live session (0 for none)."""
        with self._lock:
            session = self._live_session(_key(tenant, session_id))
            return 0 if session is None else len(session.originals)

    def usage(self, tenant: str | None) -> TenantUsage:
        """What the tenant holds now (live sessions only)."""
        with self._lock:
            self._purge_expired()
            share = self._tenants.get(tenant or DEFAULT_TENANT)
            return TenantUsage(tuple(share.sessions), share.size) if share else TenantUsage((), 0)

    def total_bytes(self) -> int:
        """Bytes of originals held, all tenants together (live sessions only)."""
        with self._lock:
            self._purge_expired()
            return self._size

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
            self._drop(key)

    def _live_session(self, key: tuple[str, str]) -> _Session | None:
        self._purge_expired()
        return self._sessions.get(key)

    def _touch(self, key: tuple[str, str], session: _Session) -> None:
        session.expires_at = self._clock() + self.settings.ttl_s
        self._sessions.move_to_end(key)
        self._tenants[key[0]].sessions.move_to_end(key[1])

    def _add(self, key: tuple[str, str]) -> _Session:
        session = self._sessions[key] = _Session()
        self._tenants.setdefault(key[0], _Tenant()).sessions[key[1]] = None
        return session

    def _drop(self, key: tuple[str, str]) -> None:
        session = self._sessions.pop(key)
        share = self._tenants[key[0]]
        del share.sessions[key[1]]
        share.size -= session.size
        self._size -= session.size
        if not share.sessions:
            del self._tenants[key[0]]

    def _make_room(self, key: tuple[str, str], *, new: bool, added: int) -> None:
        """Drops the tenant's own least recently used sessions (never `key`, never another
        tenant's) until `key`, with `added` more bytes (and as a new session when `new`), fits the
        tenant's quotas and the vault's caps. Raises VaultFullError, dropping nothing, when it cannot."""
        limits = self.settings
        tenant, session_id = key
        share = self._tenants.get(tenant) or _Tenant()
        current = self._sessions.get(key)
        own_size = (current.size if current is not None else 0) + added
        if own_size > limits.max_bytes_per_tenant:
            raise VaultFullError(
                f"this session would hold {own_size} bytes of original values; a tenant may hold "
                f"{limits.max_bytes_per_tenant} ({_SETTINGS}.max_bytes_per_tenant): start a new session")
        sessions, size = len(share.sessions) + new, share.size + added
        total_sessions, total_size = len(self._sessions) + new, self._size + added
        victims: list[str] = []
        for victim in share.sessions:  # least recently used first
            if (sessions <= limits.max_sessions_per_tenant and size <= limits.max_bytes_per_tenant
                    and total_sessions <= limits.max_sessions and total_size <= limits.max_bytes):
                break
            if victim == session_id:
                continue
            dropped = self._sessions[(tenant, victim)].size
            victims.append(victim)
            sessions, size = sessions - 1, size - dropped
            total_sessions, total_size = total_sessions - 1, total_size - dropped
        if total_sessions > limits.max_sessions or total_size > limits.max_bytes:
            cap, value = (("max_sessions", limits.max_sessions) if total_sessions > limits.max_sessions
                          else ("max_bytes", limits.max_bytes))
            raise VaultFullError(
                f"the vault is at its cap of {value} ({_SETTINGS}.{cap}) with other tenants' "
                "sessions, which are never dropped for another tenant; retry when sessions expire, "
                f"or raise {_SETTINGS}.{cap}")
        for victim in victims:
            self._drop((tenant, victim))

    def _commit(self, key: tuple[str, str], txn: PseudonymTransaction) -> None:
        session = self._sessions.get(key)
        if not txn.staged:  # nothing new: a use of an existing session, and no session made
            if session is not None:
                self._touch(key, session)
                self._tell(key, session, False)
            return
        added = sum(len(original.encode("utf-8")) for _, original in txn.staged)
        self._make_room(key, new=session is None, added=added)
        if session is None:
            session = self._add(key)
        for value_key, placeholder in txn.staged.items():
            session.placeholders[value_key] = placeholder
            session.originals[placeholder] = value_key[1]
        session.counters.update(txn.counters)  # the lock was held since allocation: these are the latest
        if txn.staged_surrogates:
            session.surrogates.update(txn.staged_surrogates)
            session.forms.update(txn.staged_forms)
            session.names.update(txn.staged_names)
            session.mails.update(txn.staged_mails)
            for local, mail_original in txn.staged_mail_locals.items():
                _add_local(session.mail_locals, local, mail_original)
            session.phones.update(txn.staged_phones)
            session.pattern = None
        session.table = None
        session.size += added
        self._tenants[key[0]].size += added
        self._size += added
        self._touch(key, session)
        self._tell(key, session, True)

    def _tell(self, key: tuple[str, str], session: _Session, changed: bool) -> None:
        if self.listener is not None and not session.local:
            self.listener(key[0], key[1], changed)

    # Copies between replicas (replication.py). A copy counts against the same bounds as the
    # receiver's own sessions, and taking one tells no listener (no echo back to the sender).

    def keys(self) -> list[tuple[str, str]]:
        """Every live session's (tenant, session id) that peers may have, least recently used first."""
        with self._lock:
            self._purge_expired()
            return [key for key, session in self._sessions.items() if not session.local]

    def export(self, tenant: str, session_id: str) -> SessionCopy | None:
        """The live session's whole state (copied under the lock), None when it has none."""
        with self._lock:
            session = self._live_session((tenant, session_id))
            if session is None:
                return None
            return SessionCopy(tenant, session_id, dict(session.placeholders), dict(session.counters),
                               dict(session.surrogates), dict(session.forms), frozenset(session.names),
                               dict(session.mails), dict(session.mail_locals), dict(session.phones))

    def touch(self, tenant: str, session_id: str) -> bool:
        """A peer's use of a session this vault holds a copy of: its life starts again. False when
        none is held."""
        key = _key(tenant, session_id)
        with self._lock:
            session = self._live_session(key)
            if session is None:
                return False
            self._touch(key, session)
            return True

    def take(self, copy: SessionCopy) -> None:
        """Merges a peer's copy of a session into this vault: values it lacks are added, what it
        already hands out for a value stays (the first writer of a value or a placeholder wins, so
        no placeholder ever names two values), counters take the higher number. Within the tenant's
        quotas and the vault's caps as any write (VaultFullError, nothing taken); secret types are
        refused (SecretNotStorableError)."""
        key = _key(copy.tenant, copy.session_id)
        if any(entity_type in SECRET_ENTITY_TYPES for entity_type, _ in copy.placeholders):
            raise SecretNotStorableError("a peer's copy names a secret type, which is never pseudonymised")
        with self._lock:
            session = self._live_session(key)
            held = session.placeholders if session is not None else {}
            values = set(session.originals) if session is not None else set()
            new: dict[tuple[str, str], str] = {}
            for value_key, stand_in in copy.placeholders.items():
                if value_key not in held and stand_in not in values:
                    new[value_key] = stand_in
                    values.add(stand_in)
            held_count = len(held)
            if held_count + len(new) > self.settings.max_entries_per_session:
                raise SessionFullError(f"a peer's copy holds more than {self.settings.max_entries_per_session} "
                                       f"pseudonyms ({_SETTINGS}.max_entries_per_session)")
            added = sum(len(original.encode("utf-8")) for _, original in new)
            self._make_room(key, new=session is None, added=added)
            if session is None:
                session = self._add(key)
            for value_key, stand_in in new.items():
                session.placeholders[value_key] = stand_in
                session.originals[stand_in] = value_key[1]
            for entity_type, number in copy.counters.items():
                session.counters[entity_type] = max(number, session.counters.get(entity_type, 0))
            grew = bool(new)
            for mapping, incoming in ((session.surrogates, copy.surrogates), (session.forms, copy.forms),
                                      (session.mails, copy.mails), (session.phones, copy.phones)):
                for word, original in incoming.items():
                    if word not in mapping:
                        mapping[word] = original
                        grew = True
            session.names.update(word for word in copy.names
                                 if word in session.surrogates or word in session.forms)
            for local, mail_original in copy.mail_locals.items():
                if session.mail_locals.get(local, "") != mail_original:
                    _add_local(session.mail_locals, local, mail_original)
                    grew = True
            if grew:
                session.pattern = None
                session.table = None
            session.size += added
            self._tenants[key[0]].size += added
            self._size += added
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


# An e-mail stand-in's domain in any of its reserved forms (surrogates.EMAIL_DOMAINS).
_RESERVED_DOMAIN = "(?:" + "|".join(map(re.escape, surrogates.EMAIL_DOMAINS)) + ")"


def _bare_locals(locals_: dict[str, str | None]) -> list[str]:
    """The e-mail stand-ins' local parts that restore alone, with no domain ("Gideon.Ashcombe", as a model
    writes the address it read): two words joined by "." or "_" (one word may be an everyday word or a
    person's stand-in name), naming one value."""
    return [local for local, original in locals_.items() if original is not None and _BARE_LOCAL.fullmatch(local)]


_BARE_LOCAL = re.compile(r"[^\W_]+(?:[._][^\W_]+)+")


def _add_local(locals_: dict[str, str | None], local: str, original: str | None) -> None:
    """Records that `local` stands for `original`; a local part two values share names neither (None)."""
    locals_[local] = original if locals_.get(local, original) == original else None


def _free(word: str, original: str, folded_context: str, taken: set[str]) -> bool:
    """A new surrogate or single name: not the original, none of the session's values, and not anywhere
    in the text being redacted (inside another word too: a candidate is skipped rather than risked),
    in any case."""
    folded = word.casefold()
    return folded != original.casefold() and folded not in taken and folded not in folded_context


def _slices(text: str, size: int | None = None) -> Iterator[str]:
    """`text` in pieces of about `size` characters, each cut just before a "<": no placeholder spans
    a cut (one has no "<" past its first character), nor a surrogate (the caller checks that none has
    one), and the lookarounds at a cut see what they would in the whole text ("<" is no word
    character). Restore's regex runs a piece at a time (`Vault.restore_steps`)."""
    size = size or RESTORE_SLICE_CHARS
    start = 0
    while len(text) - start > size:
        cut = text.find("<", start + size)
        if cut == -1:
            break
        yield text[start:cut]
        start = cut
    yield text[start:]


# A North American number in any usual layout ("(212) 555-0142", "212.555.0142", "+1 212 555 0142",
# "2125550142"): one whose digits are a phone stand-in's restores to its original.
_PHONE_SHAPE = (r"(?<!\w)(?:\+?1[ .-]?)?(?:\([0-9]{3}\) ?|[0-9]{3}[ .-]?)[0-9]{3}[ .-]?[0-9]{4}"
                r"(?![0-9A-Za-z_]|[.-][0-9])")


def _pending_phone_length(text: str, phones: tuple[str, ...]) -> int:
    """The longest tail of `text` in a phone's characters, at a word start, whose digits begin one of
    `phones` (ten digits each; with or without a leading country code 1) or go on from one (what
    follows a phone decides whether it restores)."""
    start = len(text)
    while start and len(text) - start < _PHONE_REACH and text[start - 1] in "0123456789()+-. ":
        start -= 1
    for at in range(start, len(text)):
        if text[at] not in "0123456789(+" or (at and _WORD_CHAR.match(text[at - 1])):
            continue
        digits = "".join(c for c in text[at:] if c in "0123456789")
        if any(p.startswith(d) or d.startswith(p) for p in phones
               for d in ((digits, digits[1:]) if digits[:1] == "1" else (digits,))):
            return len(text) - at
    return 0


_PHONE_REACH = 20   # "+1 (212) 555-0142." and a character to spare


def phone_digits(value: str) -> str | None:
    """The ten digits of a North American number without its country code, or None."""
    digits = "".join(c for c in value if c in "0123456789")
    if len(digits) == 11 and digits[0] == "1":
        digits = digits[1:]
    return digits if len(digits) == 10 else None


# Characters that, next to a single name, make it part of an address, a path or an identifier
# ("clara.whitlock@...", "/Clara/"): a single name is not restored there.
_JOINERS = ".@/-"


def _surrogate_pattern(session: _Session) -> tuple[re.Pattern[str], dict[str, str]]:
    """Placeholders; the session's e-mail stand-ins in any case; its surrogates and their forms as whole
    words; and the single names of persons' stand-ins (and their forms) as whole words that no joiner
    ties to a neighbouring word (`_JOINERS`): each alternative longest first; and what each stands for
    (e-mail stand-ins case folded). Built on the first restore after a commit, then reused (a streamed
    answer restores chunk by chunk). Every lookaround sees one character before a match and at most
    two after it: `Vault.restore`'s `lead` and `_pending_surrogate_length` keep streamed pieces exact."""
    if session.pattern is None:
        def alternation(words: set[str] | list[str]) -> str:
            return "|".join(map(re.escape, sorted(words, key=len, reverse=True))) or "(?!)"
        everything = {**session.surrogates, **session.forms}
        mails = [word for word in everything if word.casefold() in session.mails]
        names = [word for word in everything if word in session.names]
        whole = set(everything) - set(mails) - set(names)
        joiner = re.escape(_JOINERS)
        session.pattern = re.compile(
            rf"<[A-Z][A-Z0-9_]*_[1-9][0-9]{{0,8}}>"
            rf"|(?P<mail>(?i:(?<!\w)(?:{alternation(list(session.mails))}"
            rf"|(?:{alternation(list(session.mail_locals))})@{_RESERVED_DOMAIN})(?!\w)"
            rf"|(?<![\w{joiner}+])(?:{alternation(_bare_locals(session.mail_locals))})(?![\w@]|[{joiner}+]\w)))"
            rf"|(?<!\w)(?:{alternation(whole)})(?!\w)"
            + (rf"|(?P<phone>{_PHONE_SHAPE})" if session.phones else "") +
            rf"|(?<![\w{joiner}])(?:{alternation(names)})(?![\w@]|[{joiner}]\w)")
    if session.table is None:
        session.table = {**session.originals, **session.surrogates, **session.forms, **session.mails}
    return session.pattern, session.table


def _lead_class(lead: str) -> str:
    """One character of the class of `lead`'s last one for the pattern's lookbehinds (a word character,
    a joiner, or neither), that starts no surrogate and no placeholder; "" for no lead."""
    if not lead:
        return ""
    last = lead[-1]
    return "_" if _WORD_CHAR.match(last) else "." if last in _JOINERS else " "


def _pending_surrogate_length(text: str, words: tuple[str, ...]) -> int:
    """The longest tail of `text` that starts a surrogate or one of its forms, in any case (or is one,
    which a next word character or a joiner and a word character would undo), at a word start."""
    longest = 0
    reach = max(map(len, words)) + 1
    tail = text[-reach:]
    folded = tail.casefold()
    if len(folded) != len(tail):   # a character that folds into several: compare as written
        folded = tail
    offset = len(text) - len(tail)
    for word in words:
        word = word.casefold() if len(word.casefold()) == len(word) else word
        for size in range(min(len(word) + 1, len(folded)), longest, -1):
            start = len(folded) - size
            piece = folded[start:]
            if (piece == word[:size] or (size == len(word) + 1 and piece[:-1] == word and piece[-1] in _JOINERS)) \
                    and (offset + start == 0 or not text[offset + start - 1].isalnum()):
                longest = size
                break
    # A single name followed by a joiner just before the cut: whether it restores depends on what follows
    # the joiner ("Clara-" + "Whitlock"), so it waits too.
    cut = len(text) - longest
    if cut and text[cut - 1] in _JOINERS:
        start = cut - 1
        while start and len(text) - start <= reach + 1 and _WORD_CHAR.match(text[start - 1]):
            start -= 1
        if start < cut - 1 and (start == 0 or not _WORD_CHAR.match(text[start - 1])):
            longest = len(text) - start
    return longest


_WORD_CHAR = re.compile(r"\w")
