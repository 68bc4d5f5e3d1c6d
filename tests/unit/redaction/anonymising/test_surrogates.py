"""Surrogates (ztgate/redaction/anonymising/surrogates.py): generated families of each kind of value.

For every kind the surrogate keeps the kind and layout, fails the checksum where there is one, is the
same for the same value within a session, differs between two values, never equals the original, is
not text already in the prompt, and Restore gives the original text back (also streamed, a surrogate
cut anywhere).
"""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from ztgate.redaction.anonymising import surrogates
from ztgate.redaction.anonymising import anonymize
from ztgate.gateway.processor.session import PlaceholderRestorer
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.policies import Action, Policy
from ztgate.redaction.anonymising.surrogates import iban_valid, luhn_valid
from ztgate.redaction.types import Detection
from ztgate.redaction.vault import PLACEHOLDER_RE, Vault

POLICY = Policy(name="surrogates", default_action=Action.SURROGATE)
OPERATORS = Operators()
PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _luhn_complete(body: str) -> str:
    for check in string.digits:
        if luhn_valid(body + check):
            return body + check
    raise AssertionError("unreachable")


def _iban(country: str, bban: str) -> str:
    rearranged = bban + country + "00"
    check = 98 - int("".join(str(int(c, 36)) for c in rearranged)) % 97
    compact = f"{country}{check:02d}{bban}"
    return " ".join(compact[i:i + 4] for i in range(0, len(compact), 4))


cards = st.builds(lambda first, rest: _luhn_complete(first + rest), st.sampled_from("3456"),
                  st.text("0123456789", min_size=14, max_size=14)).map(
    lambda d: " ".join(d[i:i + 4] for i in range(0, 16, 4)))
ibans = st.builds(_iban, st.sampled_from(["DE", "GB", "FR", "NL", "ES"]),
                  st.text("0123456789", min_size=18, max_size=18))
ssns = st.builds(lambda a, g, s: f"{a:03d}-{g:02d}-{s:04d}", st.integers(1, 665), st.integers(1, 99),
                 st.integers(1, 9999))
words = st.from_regex(r"[A-Z][a-z]{2,9}", fullmatch=True)
persons = st.builds(lambda a, b: f"{a} {b}", words, words)
emails = st.from_regex(r"[a-z]{2,8}\.[a-z]{2,8}@[a-z]{3,8}\.(de|com|fr)", fullmatch=True)
phones = st.builds(lambda a, b, c: f"({a}) {b}-{c:04d}", st.integers(201, 989), st.integers(200, 989),
                   st.integers(0, 9999))
locations = st.one_of(words, st.builds(lambda n, w: f"{n} {w} Street", st.integers(1, 999), words))

KIND = {
    "CREDIT_CARD": re.compile(r"[3-6][0-9]{3} [0-9]{4} [0-9]{4} [0-9]{4}"),
    "IBAN_CODE": re.compile(r"[A-Z]{2}[0-9]{2}( [0-9]{4}){4}( [0-9]{2})"),
    "US_SSN": re.compile(r"[0-9]{3}-00-[0-9]{4}"),
    "PERSON": re.compile(r"[A-Z][a-z]+ [A-Z][a-z]+"),
    "EMAIL_ADDRESS": re.compile(r"[a-z]+\.[a-z]+@example\.(com|org|net)"),
    "PHONE_NUMBER": re.compile(r"\([0-9]{3}\) 555-01[0-9]{2}"),
    "LOCATION": re.compile(r"([0-9]+ )?[A-Z][a-z]+( [A-Z][a-z]+)?"),
}
FAMILIES = {"CREDIT_CARD": cards, "IBAN_CODE": ibans, "US_SSN": ssns, "PERSON": persons,
            "EMAIL_ADDRESS": emails, "PHONE_NUMBER": phones, "LOCATION": locations}


def _redact(vault: Vault, session: str, text: str, entity_type: str, values: list[str]) -> str:
    detections = []
    for value in dict.fromkeys(values):
        start = 0
        while (start := text.find(value, start)) >= 0:
            detections.append(Detection(entity_type, start, start + len(value), 0.9, "test"))
            start += len(value)
    detections = [d for d in detections if not any(
        o is not d and o.start <= d.start and d.end <= o.end and (o.end - o.start) > (d.end - d.start)
        for o in detections)]
    return anonymize.redact(text, detections, POLICY, vault, "t", session, operators=OPERATORS).text


def _surrogate(vault: Vault, session: str, entity_type: str, value: str) -> str:
    return _redact(vault, session, f"[{value}]", entity_type, [value])[1:-1]


@pytest.mark.parametrize("entity_type", sorted(FAMILIES))
@PROPERTY
@given(data=st.data())
def test_a_surrogate_keeps_the_kind_is_consistent_and_restores(entity_type: str, data: st.DataObject) -> None:
    first, second = data.draw(st.lists(FAMILIES[entity_type], min_size=2, max_size=2, unique=True))
    vault = Vault()
    text = f"Note: {first} and then {second}; again {first}."
    redacted = _redact(vault, "s", text, entity_type, [first, second])
    one, two = _surrogate(vault, "s", entity_type, first), _surrogate(vault, "s", entity_type, second)
    assert not PLACEHOLDER_RE.search(redacted), redacted
    assert redacted == f"Note: {one} and then {two}; again {one}."      # same value, same surrogate
    assert one != two and one != first and two != second
    assert first not in redacted and second not in redacted
    for surrogate in (one, two):
        assert KIND[entity_type].fullmatch(surrogate), surrogate
    if entity_type == "CREDIT_CARD":
        assert not luhn_valid(one.replace(" ", "")) and not luhn_valid(two.replace(" ", ""))
        assert one[0] == first[0] and len(one) == len(first)
    if entity_type == "IBAN_CODE":
        assert not iban_valid(one) and not iban_valid(two)
        assert one[:2] == first[:2] and len(one) == len(first)
    assert vault.restore("t", "s", redacted) == text


@PROPERTY
@given(value=persons, other=words)
def test_a_surrogate_is_never_text_already_in_the_prompt(value: str, other: str) -> None:
    """Whatever the first candidate would be, the prompt already holding it makes the next one chosen."""
    vault = Vault()
    first_choice = next(surrogates.candidates("PERSON", value, 1))
    text = f"{first_choice} and {other} wrote to {value}."
    redacted = _redact(vault, "s", text, "PERSON", [value])
    chosen = redacted[len(f"{first_choice} and {other} wrote to "):-1]
    assert chosen != first_choice and chosen not in text
    assert vault.restore("t", "s", redacted) == text


def test_a_person_s_single_names_restore_to_the_original_s() -> None:
    vault = Vault()
    text = "Write a note to Anna Schmidt about the meeting."
    redacted = _redact(vault, "s", text, "PERSON", ["Anna Schmidt"])
    given_name, surname = redacted[len("Write a note to "):-len(" about the meeting.")].split()
    answer = f"Dear {given_name}, the meeting moved. Regards to {given_name} {surname}'s team, {surname}."
    assert vault.restore("t", "s", answer) == ("Dear Anna, the meeting moved. Regards to Anna Schmidt's team, "
                                               "Schmidt.")
    # Inside another word a surrogate's name is left alone.
    assert vault.restore("t", "s", f"{given_name}ville") == f"{given_name}ville"


@PROPERTY
@given(value=persons, cut=st.integers(0, 200), tail=st.sampled_from(["", ".", " said hi", "'s"]))
def test_a_streamed_surrogate_cut_anywhere_is_restored(value: str, cut: int, tail: str) -> None:
    vault = Vault()
    redacted = _redact(vault, "s", f"Ask {value} today", "PERSON", [value])
    answer = redacted + tail
    cut = cut % (len(answer) + 1)
    restorer = PlaceholderRestorer(_VaultOnly(vault), "t", "s")  # type: ignore[arg-type]
    streamed = restorer.feed(answer[:cut]) + restorer.feed(answer[cut:]) + restorer.finish()
    assert streamed == f"Ask {value} today{tail}"


class _VaultOnly:
    """The restorer reads only its service's vault: this holds the real one, nothing else."""

    def __init__(self, vault: Vault) -> None:
        self.vault = vault


def test_a_type_without_a_stand_in_gets_its_placeholder() -> None:
    vault = Vault()
    redacted = _redact(vault, "s", "They are Norwegian.", "NRP", ["Norwegian"])
    assert redacted == "They are <NRP_1>."
    assert vault.restore("t", "s", redacted) == "They are Norwegian."


def test_documentation_ranges_for_addresses() -> None:
    vault = Vault()
    assert re.fullmatch(r"(192\.0\.2|198\.51\.100|203\.0\.113)\.[0-9]+",
                        _surrogate(vault, "s", "IP_ADDRESS", "10.20.30.40"))
    assert _surrogate(vault, "s", "IP_ADDRESS", "fe80::1").startswith("2001:db8::")
    assert _surrogate(vault, "s", "MAC_ADDRESS", "aa:bb:cc:dd:ee:ff").startswith("00:00:5e:00:53:")


def test_secrets_never_get_a_surrogate() -> None:
    with pytest.raises(ValidationError, match="not allowed for secret"):
        Policy.model_validate({"name": "x", "entities": {"AWS_SECRET_KEY": "surrogate"}})
