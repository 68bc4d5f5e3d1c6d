"""Vault: round trip, numbering, tenant isolation, per-tenant quotas, expiry, bounds, unknown
sessions, no secrets, atomicity, stream hold-back."""

from __future__ import annotations

import re
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ztgate.redaction.config import VaultSettings
from ztgate.redaction.types import SECRET_ENTITY_TYPES
from ztgate.redaction.vault import (
    PLACEHOLDER_RE,
    SecretNotStorableError,
    SessionFullError,
    SessionUnknownError,
    Vault,
    VaultFullError,
    format_placeholder,
    pending_placeholder_length,
)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def vault(clock) -> Vault:
    return Vault(VaultSettings(max_sessions=3, max_sessions_per_tenant=3, max_entries_per_session=4,
                               ttl_s=60), clock=clock)


def store(vault: Vault, tenant: str, session_id: str, *values: tuple[str, str]) -> list[str]:
    with vault.transaction(tenant, session_id) as txn:
        return [txn.placeholder_for(entity_type, original) for entity_type, original in values]


# --- round trip and numbering -------------------------------------------------------------------------------

def test_round_trip_restores_originals(vault):
    person, email = store(vault, "t", "s", ("PERSON", "Zoë Ångström"),
                          ("EMAIL_ADDRESS", "zoe@example.com"))
    assert (person, email) == ("<PERSON_1>", "<EMAIL_ADDRESS_1>")
    answer = f"Dear {person}, we wrote to {email}. 🎉 {person}!"
    assert vault.restore("t", "s", answer) == (
        "Dear Zoë Ångström, we wrote to zoe@example.com. 🎉 Zoë Ångström!")


def test_numbering_is_per_type_and_stable_across_calls_of_a_session(vault):
    assert store(vault, "t", "s", ("PERSON", "Ada"), ("PERSON", "Grace")) == ["<PERSON_1>", "<PERSON_2>"]
    assert store(vault, "t", "s", ("PERSON", "Grace"), ("PERSON", "Linus"), ("LOCATION", "Oslo")) == [
        "<PERSON_2>", "<PERSON_3>", "<LOCATION_1>"]
    assert vault.entry_count("t", "s") == 4


def test_unknown_placeholders_and_other_text_are_left_as_is(vault):
    store(vault, "t", "s", ("PERSON", "Ada"))
    text = "<PERSON_1> <PERSON_2> <AWS_SECRET_KEY> <person_1> <PERSON_01> a < b > c"
    assert vault.restore("t", "s", text) == "Ada <PERSON_2> <AWS_SECRET_KEY> <person_1> <PERSON_01> a < b > c"


def test_an_unknown_session_is_an_error_that_names_the_lifetime_and_its_setting(vault):
    with pytest.raises(SessionUnknownError) as caught:
        vault.restore("t", "nope", "<PERSON_1>")
    assert caught.value.status == "NOT_FOUND"
    message = str(caught.value)
    assert "session nope is unknown or expired for tenant t" in message
    assert "60 s" in message and "redaction.vault.ttl_s" in message
    with pytest.raises(SessionUnknownError):
        vault.restore("t", "nope", "no placeholder at all")  # the session is gone whatever the text
    with pytest.raises(ValueError):
        vault.restore("t", "", "<PERSON_1>")


def test_an_opened_session_without_pseudonyms_restores_text_as_is(vault):
    vault.open("t", "empty")
    assert vault.restore("t", "empty", "<PERSON_1> stays") == "<PERSON_1> stays"
    assert vault.entry_count("t", "empty") == 0 and len(vault) == 1


def test_placeholder_format_matches_the_restore_pattern():
    assert PLACEHOLDER_RE.fullmatch(format_placeholder("EMAIL_ADDRESS", 12))


# --- tenant isolation --------------------------------------------------------------------------------------

def test_another_tenants_session_id_is_unknown_to_a_tenant(vault):
    store(vault, "acme", "shared-id", ("PERSON", "Ada"))
    for other in ("globex", "", "default", "ACME", "acme "):
        with pytest.raises(SessionUnknownError):
            vault.restore(other, "shared-id", "<PERSON_1>")
    assert vault.restore("acme", "shared-id", "<PERSON_1>") == "Ada"


def test_no_tenant_is_the_default_tenant(vault):
    store(vault, "", "s", ("PERSON", "Ada"))
    assert vault.restore("default", "s", "<PERSON_1>") == "Ada"


def test_same_session_id_in_two_tenants_is_two_sessions(vault):
    store(vault, "acme", "sid", ("PERSON", "Ada"))
    store(vault, "globex", "sid", ("PERSON", "Bob"))
    assert vault.restore("acme", "sid", "<PERSON_1>") == "Ada"
    assert vault.restore("globex", "sid", "<PERSON_1>") == "Bob"


# --- secrets ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("entity_type", sorted(SECRET_ENTITY_TYPES))
def test_secrets_are_never_stored(vault, entity_type):
    with pytest.raises(SecretNotStorableError):
        store(vault, "t", "s", ("PERSON", "Ada"), (entity_type, "hunter2"))
    assert len(vault) == 0  # the whole transaction was dropped, PERSON included


# --- atomic commits -----------------------------------------------------------------------------------------

def test_exception_inside_a_transaction_leaves_nothing(vault):
    store(vault, "t", "s", ("PERSON", "Ada"))
    with pytest.raises(RuntimeError):
        with vault.transaction("t", "s") as txn:
            txn.placeholder_for("PERSON", "Grace")
            raise RuntimeError("operator failed")
    assert vault.entry_count("t", "s") == 1
    assert store(vault, "t", "s", ("PERSON", "Linus")) == ["<PERSON_2>"]  # the number was not used up


def test_transaction_that_adds_nothing_creates_no_session(vault):
    with vault.transaction("t", "s"):
        pass
    assert len(vault) == 0


def test_transaction_needs_a_session_id(vault):
    with pytest.raises(ValueError):
        vault.transaction("t", "")


def test_concurrent_transactions_on_one_session_never_share_a_number():
    vault = Vault(VaultSettings(max_entries_per_session=10_000))
    results: list[list[str]] = []

    def worker(n: int) -> None:
        values = [("PERSON", f"p{n}-{i}") for i in range(50)] + [("PERSON", "same")]
        results.append(store(vault, "t", "s", *values))

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    unique = {p for r in results for p in r[:-1]}
    assert len(unique) == 8 * 50
    assert len({r[-1] for r in results}) == 1
    assert vault.entry_count("t", "s") == 8 * 50 + 1


# --- bounds ------------------------------------------------------------------------------------------------

def test_full_session_refuses_new_values_and_keeps_what_it_had(vault):
    store(vault, "t", "s", *[("PERSON", f"p{i}") for i in range(3)])
    with pytest.raises(SessionFullError, match="already holds 4 pseudonyms"):
        store(vault, "t", "s", ("PERSON", "p3"), ("PERSON", "p4"))
    assert vault.entry_count("t", "s") == 3
    assert store(vault, "t", "s", ("PERSON", "p0"), ("PERSON", "p3")) == ["<PERSON_1>", "<PERSON_4>"]


def test_full_session_error_is_resource_exhausted_and_quotes_no_value(vault):
    with pytest.raises(SessionFullError) as caught:
        store(vault, "t", "s", *[("PERSON", f"secret-name-{i}") for i in range(5)])
    assert caught.value.status == "RESOURCE_EXHAUSTED"
    assert "secret-name" not in str(caught.value)


def test_least_recently_used_session_is_evicted(vault):
    for sid in ("a", "b", "c"):
        store(vault, "t", sid, ("PERSON", sid))
    vault.restore("t", "a", "<PERSON_1>")         # a is now the most recently used
    store(vault, "t", "d", ("PERSON", "d"))       # evicts b
    assert len(vault) == 3
    with pytest.raises(SessionUnknownError):
        vault.restore("t", "b", "<PERSON_1>")
    assert [vault.restore("t", sid, "<PERSON_1>") for sid in ("a", "c", "d")] == ["a", "c", "d"]


# --- expiry ------------------------------------------------------------------------------------------------

def test_session_expires_ttl_after_last_use(vault, clock):
    store(vault, "t", "s", ("PERSON", "Ada"))
    clock.now += 59
    assert vault.restore("t", "s", "<PERSON_1>") == "Ada"   # use pushes expiry to now + 60
    clock.now += 59
    assert vault.restore("t", "s", "<PERSON_1>") == "Ada"
    clock.now += 60
    with pytest.raises(SessionUnknownError):
        vault.restore("t", "s", "<PERSON_1>")
    assert len(vault) == 0


def test_expired_session_starts_again_from_one(vault, clock):
    store(vault, "t", "s", ("PERSON", "Ada"), ("PERSON", "Bob"))
    clock.now += 61
    assert store(vault, "t", "s", ("PERSON", "Bob")) == ["<PERSON_1>"]


def test_expired_sessions_do_not_count_against_the_bound(vault, clock):
    for sid in ("a", "b", "c"):
        store(vault, "t", sid, ("PERSON", sid))
    clock.now += 30
    store(vault, "t", "c", ("PERSON", "c2"))
    clock.now += 31                                # a and b expired, c still live
    store(vault, "t", "d", ("PERSON", "d"))
    assert len(vault) == 2
    assert vault.restore("t", "c", "<PERSON_2>") == "c2"


def test_forget_drops_a_session(vault):
    store(vault, "t", "s", ("PERSON", "Ada"))
    assert vault.forget("t", "s") is True
    assert vault.forget("t", "s") is False
    with pytest.raises(SessionUnknownError):
        vault.restore("t", "s", "<PERSON_1>")
    assert vault.usage("t").sessions == () and vault.total_bytes() == 0


@pytest.mark.parametrize("kwargs", [{"max_sessions": 0}, {"max_entries_per_session": 0}, {"ttl_s": 0},
                                    {"max_bytes": 0}, {"max_sessions_per_tenant": 0},
                                    {"max_bytes_per_tenant": 0}])
def test_bounds_must_be_positive(kwargs):
    with pytest.raises(ValueError):
        VaultSettings(**kwargs)


@pytest.mark.parametrize("kwargs, named", [
    ({"max_sessions": 10, "max_sessions_per_tenant": 11}, "max_sessions_per_tenant (11) must not exceed"),
    ({"max_bytes": 100, "max_bytes_per_tenant": 101}, "max_bytes_per_tenant (101) must not exceed")])
def test_a_tenant_quota_above_its_global_cap_is_refused(kwargs, named):
    with pytest.raises(ValueError, match=re.escape(named)):
        VaultSettings(**kwargs)


# --- per-tenant quotas: a tenant only ever makes room from its own sessions ---------------------------

def quota_vault(clock, **overrides) -> Vault:
    limits = {"max_sessions": 6, "max_sessions_per_tenant": 3, "max_bytes": 60,
              "max_bytes_per_tenant": 30, "max_entries_per_session": 50, "ttl_s": 60} | overrides
    return Vault(VaultSettings(**limits), clock=clock)


def test_a_flood_of_sessions_evicts_only_the_flooders_own(clock):
    vault = quota_vault(clock)
    store(vault, "acme", "live", ("PERSON", "Ada"))
    for n in range(10_000):  # the attack seen: Redact after Redact from someone else
        store(vault, "mallory", f"s{n}", ("PERSON", f"m{n}"))
    assert vault.restore("acme", "live", "<PERSON_1>") == "Ada"
    assert vault.usage("mallory").sessions == ("s9997", "s9998", "s9999")  # its own LRU went


def test_past_its_byte_quota_a_tenant_drops_its_own_oldest_sessions(clock):
    vault = quota_vault(clock)
    store(vault, "acme", "a", ("PERSON", "x" * 8))
    store(vault, "globex", "g", ("PERSON", "y" * 25))
    store(vault, "acme", "b", ("PERSON", "x" * 12))
    store(vault, "acme", "c", ("PERSON", "x" * 12))   # 32 > 30: acme's oldest (a) makes way
    assert vault.usage("acme").sessions == ("b", "c") and vault.usage("acme").size == 24
    assert vault.restore("globex", "g", "<PERSON_1>") == "y" * 25
    assert vault.total_bytes() == 49


def test_bytes_are_counted_in_utf8(clock):
    vault = quota_vault(clock)
    store(vault, "t", "s", ("PERSON", "Zoë"), ("PERSON", "🎉"))
    assert vault.usage("t").size == len("Zoë".encode()) + len("🎉".encode()) == 8


def test_one_session_larger_than_the_tenant_byte_quota_is_refused_and_drops_nothing(clock):
    vault = quota_vault(clock)
    store(vault, "acme", "a", ("PERSON", "Ada"))
    with pytest.raises(VaultFullError) as caught:
        store(vault, "acme", "big", ("PERSON", "z" * 31))
    assert caught.value.status == "RESOURCE_EXHAUSTED"
    assert "redaction.vault.max_bytes_per_tenant" in str(caught.value) and "z" * 31 not in str(caught.value)
    assert vault.usage("acme").sessions == ("a",)
    with pytest.raises(SessionUnknownError):
        vault.restore("acme", "big", "<PERSON_1>")


def test_at_the_global_cap_a_tenant_makes_room_from_its_own_sessions_only(clock):
    vault = quota_vault(clock)
    for tenant in ("acme", "globex"):
        for sid in ("1", "2", "3"):
            store(vault, tenant, sid, ("PERSON", tenant))
    assert len(vault) == 6
    store(vault, "acme", "4", ("PERSON", "acme"))    # acme drops its own oldest
    assert vault.usage("acme").sessions == ("2", "3", "4")
    with pytest.raises(VaultFullError) as caught:    # initech holds nothing to drop: refused
        vault.open("initech", "s")
    assert "redaction.vault.max_sessions" in str(caught.value)
    assert vault.usage("globex").sessions == ("1", "2", "3")
    clock.now += 61                                   # once sessions expire there is room again
    vault.open("initech", "s")
    assert vault.restore("initech", "s", "x") == "x"


def test_at_the_global_byte_cap_other_tenants_keep_their_values(clock):
    vault = quota_vault(clock, max_bytes=40)
    store(vault, "acme", "a", ("PERSON", "a" * 20))
    store(vault, "globex", "g", ("PERSON", "g" * 20))
    with pytest.raises(VaultFullError, match="redaction.vault.max_bytes"):
        store(vault, "initech", "i", ("PERSON", "i"))
    assert vault.total_bytes() == 40
    assert vault.restore("acme", "a", "<PERSON_1>") == "a" * 20


def test_the_session_being_written_is_never_its_own_victim(clock):
    vault = quota_vault(clock, max_sessions_per_tenant=1)
    store(vault, "t", "s", ("PERSON", "x" * 10))
    store(vault, "t", "s", ("PERSON", "y" * 10))
    assert vault.usage("t").sessions == ("s",) and vault.usage("t").size == 20
    store(vault, "t", "other", ("PERSON", "z"))      # one session per tenant: s makes way
    assert vault.usage("t").sessions == ("other",)


TENANTS = ("acme", "globex", "mallory")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(TENANTS), st.integers(0, 5),
                          st.sampled_from(["store", "open", "restore", "forget"]),
                          st.integers(1, 12)), max_size=60))
def test_no_operation_of_one_tenant_ever_changes_another_tenants_sessions(clock, operations):
    vault = quota_vault(clock)
    for tenant, number, op, size in operations:
        before = {other: vault.usage(other) for other in TENANTS if other != tenant}
        sid = f"s{number}"
        try:
            if op == "store":
                store(vault, tenant, sid, ("PERSON", f"{tenant}{number}-" + "v" * size))
            elif op == "open":
                vault.open(tenant, sid)
            elif op == "restore":
                vault.restore(tenant, sid, "<PERSON_1>")
            else:
                vault.forget(tenant, sid)
        except (VaultFullError, SessionUnknownError):
            pass
        assert {other: vault.usage(other) for other in before} == before
        limits = vault.settings
        assert len(vault) <= limits.max_sessions and vault.total_bytes() <= limits.max_bytes
        usage = vault.usage(tenant)
        assert len(usage.sessions) <= limits.max_sessions_per_tenant
        assert usage.size <= limits.max_bytes_per_tenant
    assert vault.total_bytes() == sum(vault.usage(t).size for t in TENANTS)


# --- streaming: how much of a chunk's tail to hold back ---------------------------------------------------

@pytest.mark.parametrize(("text", "held"), [
    ("", 0),
    ("plain text", 0),
    ("done <PERSON_1>", 0),
    ("hello <", 1),
    ("hello <P", 2),
    ("hello <PERS", 5),
    ("hello <PERSON", 7),
    ("hello <PERSON_", 8),
    ("hello <PERSON_1", 9),
    ("hello <PERSON_12", 10),
    ("<EMAIL_ADDRESS_1", 16),
    ("<PERSON_1> and <LOC", 4),
    ("a < b", 0),                 # space after "<": no placeholder can follow
    ("x <person", 0),             # lower case
    ("x <PERSONA", 0),            # no type is spelled like that
    ("x <PERSON_0", 0),           # numbers start at 1
    ("x <AWS_SECRET", 0),         # secrets never get placeholders
    ("x <PERSON_1>", 0),
    ("emoji 🎉<NR", 3),
])
def test_pending_placeholder_length(text, held):
    assert pending_placeholder_length(text) == held
