"""Vault: round trip, numbering, tenant isolation, expiry, bounds, no secrets, atomicity, stream hold-back."""

from __future__ import annotations

import threading

import pytest

from services.redaction.types import SECRET_ENTITY_TYPES
from services.redaction.vault import (
    PLACEHOLDER_RE,
    SecretNotStorableError,
    SessionFullError,
    Vault,
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
    return Vault(max_sessions=3, max_entries_per_session=4, ttl_s=60, clock=clock)


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


def test_unknown_session_restores_nothing(vault):
    assert vault.restore("t", "nope", "<PERSON_1>") == "<PERSON_1>"
    assert vault.restore("t", "", "<PERSON_1>") == "<PERSON_1>"


def test_placeholder_format_matches_the_restore_pattern():
    assert PLACEHOLDER_RE.fullmatch(format_placeholder("EMAIL_ADDRESS", 12))


# --- tenant isolation --------------------------------------------------------------------------------------

def test_another_tenants_session_id_gives_nothing_back(vault):
    store(vault, "acme", "shared-id", ("PERSON", "Ada"))
    assert vault.restore("globex", "shared-id", "<PERSON_1>") == "<PERSON_1>"
    assert vault.restore("", "shared-id", "<PERSON_1>") == "<PERSON_1>"
    assert vault.restore("acme", "shared-id", "<PERSON_1>") == "Ada"


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
    vault = Vault(max_entries_per_session=10_000)
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
    assert vault.restore("t", "b", "<PERSON_1>") == "<PERSON_1>"
    assert [vault.restore("t", sid, "<PERSON_1>") for sid in ("a", "c", "d")] == ["a", "c", "d"]


# --- expiry ------------------------------------------------------------------------------------------------

def test_session_expires_ttl_after_last_use(vault, clock):
    store(vault, "t", "s", ("PERSON", "Ada"))
    clock.now += 59
    assert vault.restore("t", "s", "<PERSON_1>") == "Ada"   # use pushes expiry to now + 60
    clock.now += 59
    assert vault.restore("t", "s", "<PERSON_1>") == "Ada"
    clock.now += 60
    assert vault.restore("t", "s", "<PERSON_1>") == "<PERSON_1>"
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
    assert vault.restore("t", "s", "<PERSON_1>") == "<PERSON_1>"


@pytest.mark.parametrize("kwargs", [{"max_sessions": 0}, {"max_entries_per_session": 0}, {"ttl_s": 0}])
def test_bounds_must_be_positive(kwargs):
    with pytest.raises(ValueError):
        Vault(**kwargs)


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
