"""Operators: one test group per action, key checks, and parity with Presidio's AnonymizerEngine."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from presidio_anonymizer.entities import InvalidParamError, RecognizerResult

from ztgate.common.config import ConfigError
from ztgate.redaction.anonymising.operators import (
    ENCRYPT_OPERATOR,
    ENCRYPTED_PREFIX,
    KEYED_HASH_OPERATOR,
    MASK_OPERATOR,
    NONCE_BYTES,
    PSEUDONYMIZE_OPERATOR,
    DecryptError,
    KeyedHash,
    Operators,
    Pseudonymize,
    TailMask,
    build_engine,
)
from ztgate.redaction.policies import Action, Policy, ResolvedRule
from ztgate.redaction.vault import PseudonymTransaction

HASH_KEY = b"h" * 32
ENCRYPT_KEY = b"0123456789abcdef"


def rule(action: Action, mask_char: str = "*", keep_last: int = 0) -> ResolvedRule:
    return ResolvedRule(action, 0.5, mask_char, keep_last)


@pytest.fixture(scope="module")
def operators() -> Operators:
    return Operators(hash_key=HASH_KEY, encrypt_key=ENCRYPT_KEY)


# --- pseudonymize -----------------------------------------------------------------------------------------

def test_pseudonymize_gives_the_same_placeholder_to_the_same_value(operators):
    txn = PseudonymTransaction(None, 100)

    def replace(entity_type: str, value: str) -> str:
        return operators.replace(entity_type, value, rule(Action.PSEUDONYMIZE), txn)

    assert replace("PERSON", "Ada") == "<PERSON_1>"
    assert replace("EMAIL_ADDRESS", "ada@example.com") == "<EMAIL_ADDRESS_1>"
    assert replace("PERSON", "Grace") == "<PERSON_2>"
    assert replace("PERSON", "Ada") == "<PERSON_1>"
    assert replace("LOCATION", "Ada") == "<LOCATION_1>"  # a value is keyed by its type too


def test_pseudonymize_without_an_allocator_is_refused(operators):
    with pytest.raises(ValueError, match="allocator"):
        operators.replace("PERSON", "Ada", rule(Action.PSEUDONYMIZE))


def test_pseudonymize_operator_validates_its_allocator():
    with pytest.raises(InvalidParamError):
        Pseudonymize().validate({"allocator": object()})
    Pseudonymize().validate({"allocator": PseudonymTransaction(None, 1)})


# --- mask ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "mask_char", "keep_last", "expected"), [
    ("4111111111111111", "*", 0, "****************"),
    ("4111111111111111", "#", 4, "############1111"),
    ("Zoë 👩‍💻", "*", 0, "*******"),   # code points, not bytes
    ("123", "*", 4, "***"),              # no longer than the tail: masked whole, never shown
    ("1234", "*", 4, "****"),
    ("12345", "*", 4, "*2345"),
])
def test_mask_replaces_every_code_point_but_the_kept_tail(operators, value, mask_char, keep_last, expected):
    assert operators.replace("CREDIT_CARD", value, rule(Action.MASK, mask_char, keep_last)) == expected


def test_mask_operator_rejects_bad_params():
    with pytest.raises(InvalidParamError):
        TailMask().validate({"masking_char": "**", "keep_last": 0})
    with pytest.raises(InvalidParamError):
        TailMask().validate({"masking_char": "*", "keep_last": -1})


# --- redact ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("entity_type", ["AWS_SECRET_KEY", "PERSON"])
def test_redact_replaces_with_the_entity_type_tag(operators, entity_type):
    assert operators.replace(entity_type, "whatever", rule(Action.REDACT)) == f"<{entity_type}>"


# --- hash ------------------------------------------------------------------------------------------------

def test_hash_is_truncated_hmac_sha256_tagged_with_the_type(operators):
    replacement = operators.replace("EMAIL_ADDRESS", "ada@example.com", rule(Action.HASH))
    expected = hmac.new(HASH_KEY, b"ada@example.com", hashlib.sha256).hexdigest()[:12]
    assert replacement == f"<EMAIL_ADDRESS:{expected}>"


def test_hash_is_stable_for_a_key_and_differs_across_keys_and_values(operators):
    again = Operators(hash_key=HASH_KEY).replace("EMAIL_ADDRESS", "ada@example.com", rule(Action.HASH))
    other_key = Operators(hash_key=b"k" * 32).replace("EMAIL_ADDRESS", "ada@example.com", rule(Action.HASH))
    other_value = operators.replace("EMAIL_ADDRESS", "bob@example.com", rule(Action.HASH))
    mine = operators.replace("EMAIL_ADDRESS", "ada@example.com", rule(Action.HASH))
    assert mine == again
    assert len({mine, other_key, other_value}) == 3


def test_hash_length_is_configurable():
    replacement = Operators(hash_key=HASH_KEY, hash_hex_chars=20).replace("JWT", "x", rule(Action.HASH))
    assert re.fullmatch(r"<JWT:[0-9a-f]{20}>", replacement)


def test_hash_operator_rejects_short_key():
    with pytest.raises(InvalidParamError, match="at least 16 bytes"):
        KeyedHash().validate({"key": b"short", "hex_chars": 12})


# --- encrypt ---------------------------------------------------------------------------------------------

def test_encrypt_is_reversible_with_the_key(operators):
    ciphertext = operators.replace("IBAN_CODE", "DE89 3704 0044 0532 0130 00", rule(Action.ENCRYPT))
    assert ciphertext.startswith(ENCRYPTED_PREFIX) and "3704" not in ciphertext
    assert operators.decrypt(ciphertext) == "DE89 3704 0044 0532 0130 00"


def test_encrypt_accepts_a_text_key_of_any_length_from_16_bytes():
    for key in ("0123456789abcdef", "a passphrase of thirty-five letters"):
        operators = Operators(encrypt_key=key)
        assert operators.decrypt(operators.replace("IBAN_CODE", "Zoë", rule(Action.ENCRYPT))) == "Zoë"


def _encrypt(operators: Operators, value: str) -> str:
    return operators.replace("IBAN_CODE", value, rule(Action.ENCRYPT))


@settings(max_examples=150, deadline=None)
@given(value=st.text(max_size=300))
def test_encrypt_round_trips_any_text(operators, value):
    ciphertext = _encrypt(operators, value)
    assert operators.decrypt(ciphertext) == value
    raw = base64.b64decode(ciphertext.removeprefix(ENCRYPTED_PREFIX), validate=True)
    assert len(raw) == NONCE_BYTES + len(value.encode("utf-8")) + 16  # nonce || ciphertext || tag


@settings(max_examples=150, deadline=None)
@given(value=st.text(max_size=100), data=st.data())
def test_any_altered_byte_or_truncation_is_detected(operators, value, data):
    """Flipping any bit of the nonce, the ciphertext or the tag, or cutting bytes off either end,
    never decrypts: AES-CBC (Presidio's) would have decrypted some of these to altered text."""
    raw = bytearray(base64.b64decode(_encrypt(operators, value).removeprefix(ENCRYPTED_PREFIX)))
    how = data.draw(st.sampled_from(["flip", "cut_end", "cut_start"]))
    if how == "flip":
        at = data.draw(st.integers(0, len(raw) - 1))
        raw[at] ^= 1 << data.draw(st.integers(0, 7))
    elif how == "cut_end":
        raw = raw[:-data.draw(st.integers(1, len(raw)))]
    else:
        raw = raw[data.draw(st.integers(1, len(raw))):]
    with pytest.raises(DecryptError):
        operators.decrypt(ENCRYPTED_PREFIX + base64.b64encode(bytes(raw)).decode())


@settings(max_examples=50, deadline=None)
@given(value=st.text(max_size=50))
def test_every_encryption_has_its_own_nonce(operators, value):
    ciphertexts = [_encrypt(operators, value) for _ in range(64)]
    nonces = {base64.b64decode(c.removeprefix(ENCRYPTED_PREFIX))[:NONCE_BYTES] for c in ciphertexts}
    assert len(nonces) == 64 and len(set(ciphertexts)) == 64  # nothing to correlate equal values by


@pytest.mark.parametrize("ciphertext, reason", [
    ("DE89 3704", "not an encrypt replacement"),
    (ENCRYPTED_PREFIX + "not base64!", "is base64"),
    (ENCRYPTED_PREFIX + base64.b64encode(b"short").decode(), "truncated"),
])
def test_decrypt_says_what_is_wrong(operators, ciphertext, reason):
    with pytest.raises(DecryptError, match=reason):
        operators.decrypt(ciphertext)


def test_another_key_cannot_decrypt(operators):
    ciphertext = _encrypt(operators, "DE89 3704")
    with pytest.raises(DecryptError, match="failed authentication"):
        Operators(encrypt_key=b"another key of 16+ bytes").decrypt(ciphertext)


# --- keys ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("kwargs", "reason"), [
    ({"hash_key": b"short"}, "at least 16 bytes"),
    ({"encrypt_key": b"15 bytes only.."}, "at least 16 bytes"),
    ({"hash_key": HASH_KEY, "hash_hex_chars": 4}, "from 8 to 64"),
])
def test_unusable_keys_stop_start_up(kwargs, reason):
    with pytest.raises(ConfigError, match=reason):
        Operators(**kwargs)


@pytest.mark.parametrize(("action", "key"), [(Action.HASH, "hash_key"), (Action.ENCRYPT, "encrypt_key")])
def test_action_without_its_key_is_refused(action, key):
    operators = Operators()
    assert operators.missing_keys([action, Action.REDACT]) == [key]
    with pytest.raises(ConfigError, match=key):
        operators.replace("PERSON", "Ada", rule(action))


def test_check_names_the_policy_whose_action_lacks_a_key():
    policy = Policy(name="hashy", entities={"EMAIL_ADDRESS": "hash"})
    Operators(hash_key=HASH_KEY).check([policy])
    with pytest.raises(ConfigError, match="policy 'hashy' uses hash/encrypt but no hash_key"):
        Operators().check([policy])


# --- Presidio's engine -----------------------------------------------------------------------------------

def test_our_operators_are_registered_on_presidios_engine():
    names = build_engine().get_anonymizers()
    assert {PSEUDONYMIZE_OPERATOR, KEYED_HASH_OPERATOR, MASK_OPERATOR, "replace", ENCRYPT_OPERATOR} <= set(names)


def test_direct_path_gives_the_same_text_as_presidios_engine(operators):
    policy = Policy(name="mixed", entities={
        "PERSON": "pseudonymize", "EMAIL_ADDRESS": "hash", "AWS_SECRET_KEY": "redact",
        "CREDIT_CARD": {"action": "mask", "mask_keep_last": 4}})
    text = "👋 Ada <ada@example.com> card 4111111111111111 key wJalrXUtnFEMI/K7MDENG Ada"
    spans = [("PERSON", "Ada"), ("EMAIL_ADDRESS", "ada@example.com"), ("CREDIT_CARD", "4111111111111111"),
             ("AWS_SECRET_KEY", "wJalrXUtnFEMI/K7MDENG")]
    results, cursor = [], 0
    for entity_type, value in spans:
        start = text.index(value, cursor)
        results.append(RecognizerResult(entity_type, start, start + len(value), 0.9))
        cursor = start + len(value)
    last = text.rindex("Ada")
    results.append(RecognizerResult("PERSON", last, last + 3, 0.9))

    engine_text = build_engine().anonymize(
        text, results, operators.operator_configs(policy, PseudonymTransaction(None, 100)),
        merge_entities_with_spaces=False).text

    direct_txn = PseudonymTransaction(None, 100)
    parts, position = [], 0
    for result in results:
        value = text[result.start:result.end]
        replacement = operators.replace(result.entity_type, value, policy.rule_for(result.entity_type),
                                        direct_txn)
        parts += [text[position:result.start], replacement]
        position = result.end
    direct_text = "".join(parts) + text[position:]

    assert direct_text == engine_text
    assert direct_text.startswith("👋 <PERSON_1> <<EMAIL_ADDRESS:")
    assert direct_text.endswith("card ************1111 key <AWS_SECRET_KEY> <PERSON_1>")


@settings(max_examples=60, deadline=None)
@given(value=st.text(max_size=60), owner=st.text(min_size=1, max_size=12), other=st.text(min_size=1, max_size=12))
def test_a_value_sealed_for_one_tenant_opens_only_for_that_tenant(operators, value, owner, other):
    """The tenant is AES-GCM's associated data: another tenant's decrypt fails authentication."""
    ciphertext = operators.replace("IBAN_CODE", value, rule(Action.ENCRYPT), tenant=owner)
    assert operators.decrypt(ciphertext, owner) == value
    if other != owner:
        with pytest.raises(DecryptError, match="another tenant"):
            operators.decrypt(ciphertext, other)


def test_no_tenant_is_the_default_tenant(operators):
    ciphertext = operators.replace("IBAN_CODE", "DE89 3704", rule(Action.ENCRYPT))
    assert operators.decrypt(ciphertext, "default") == "DE89 3704"
    with pytest.raises(DecryptError):
        operators.decrypt(ciphertext, "acme")


def test_a_value_sealed_before_tenant_binding_is_refused_by_name(operators):
    with pytest.raises(DecryptError, match="before values were bound to their tenant"):
        operators.decrypt("enc:v1:" + base64.b64encode(bytes(40)).decode())
