"""The redaction pipeline: thresholds, allow-lists, block, overlaps, operators and the vault together."""

from __future__ import annotations

from pathlib import Path

import pytest

from ztgate.common.config import ConfigError
from ztgate.redaction.anonymising.anonymize import (
    BlockedError,
    InvalidDetectionError,
    analyze,
    redact,
)
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.config import VaultSettings
from ztgate.redaction.policies import Action, Policy, PolicyStore
from ztgate.redaction.types import Detection
from ztgate.redaction.vault import SessionFullError, Vault

ACME = Path(__file__).parents[1] / "data" / "policies" / "acme.yaml"


@pytest.fixture(scope="module")
def policies() -> PolicyStore:
    return PolicyStore.load([ACME])


@pytest.fixture(scope="module")
def default(policies) -> Policy:
    return policies.resolve()


@pytest.fixture(scope="module")
def acme(policies) -> Policy:
    return policies.resolve(tenant="acme")


@pytest.fixture(scope="module")
def operators() -> Operators:
    return Operators(hash_key=b"h" * 32, encrypt_key=b"0123456789abcdef")


@pytest.fixture
def vault() -> Vault:
    return Vault()


def at(text: str, value: str, entity_type: str, score: float = 0.9, recognizer: str = "test",
       occurrence: int = 0) -> Detection:
    """A detection of the `occurrence`-th `value` in `text`, offsets in code points."""
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(value, start + 1)
    return Detection(entity_type, start, start + len(value), score, recognizer)


def test_default_policy_pseudonymises_pii_and_redacts_secrets(default, operators, vault):
    text = "Ada Lovelace (ada@example.com) used key AKIAIOSFODNN7EXAMPLE; ask Ada Lovelace."
    detections = [at(text, "Ada Lovelace", "PERSON", 0.85), at(text, "ada@example.com", "EMAIL_ADDRESS", 1.0),
                  at(text, "AKIAIOSFODNN7EXAMPLE", "AWS_ACCESS_KEY_ID", 1.0),
                  at(text, "Ada Lovelace", "PERSON", 0.85, occurrence=1)]
    outcome = redact(text, detections, default, vault, "t", "s", operators=operators)
    assert outcome.text == ("<PERSON_1> (<EMAIL_ADDRESS_1>) used key <AWS_ACCESS_KEY_ID>; ask <PERSON_1>.")
    assert [(f.entity_type, f.start, f.end, f.replacement, f.action) for f in outcome.findings] == [
        ("PERSON", 0, 12, "<PERSON_1>", Action.PSEUDONYMIZE),
        ("EMAIL_ADDRESS", 14, 29, "<EMAIL_ADDRESS_1>", Action.PSEUDONYMIZE),
        ("AWS_ACCESS_KEY_ID", 40, 60, "<AWS_ACCESS_KEY_ID>", Action.REDACT),
        ("PERSON", 66, 78, "<PERSON_1>", Action.PSEUDONYMIZE),
    ]
    restored = vault.restore("t", "s", outcome.text)
    assert restored == text.replace("AKIAIOSFODNN7EXAMPLE", "<AWS_ACCESS_KEY_ID>")
    assert vault.entry_count("t", "s") == 2


def test_findings_never_carry_the_original_value(default, operators, vault):
    text = "mail ada@example.com"
    outcome = redact(text, [at(text, "ada@example.com", "EMAIL_ADDRESS")], default, vault, "t", "s",
                     operators=operators)
    assert all("ada@example.com" not in str(field) for finding in outcome.findings for field in finding)


def test_unicode_offsets_are_code_points_with_emoji_before_values(default, operators, vault):
    text = "👩‍👩‍👧 Zoë 🇳🇴 writes from Tromsø: zoë@exämple.no 🎉"
    detections = [at(text, "Zoë", "PERSON"), at(text, "Tromsø", "LOCATION"),
                  at(text, "zoë@exämple.no", "EMAIL_ADDRESS")]
    assert detections[0].start == 6  # the family emoji is five code points plus a space
    outcome = redact(text, detections, default, vault, "t", "s", operators=operators)
    assert outcome.text == (
        "👩‍👩‍👧 <PERSON_1> 🇳🇴 writes from <LOCATION_1>: <EMAIL_ADDRESS_1> 🎉")
    for finding, detection in zip(outcome.findings, detections):
        assert (finding.start, finding.end) == (detection.start, detection.end)
    assert vault.restore("t", "s", outcome.text) == text


# --- block ------------------------------------------------------------------------------------------------

def test_block_raises_with_sorted_types_and_leaves_the_vault_untouched(acme, operators, vault):
    text = "Ada, SSN 078-05-1120, card 4111111111111111, SSN again 219-09-9999"
    detections = [at(text, "Ada", "PERSON", 0.9), at(text, "078-05-1120", "US_SSN", 0.95),
                  at(text, "4111111111111111", "CREDIT_CARD", 1.0), at(text, "219-09-9999", "US_SSN", 0.9)]
    with pytest.raises(BlockedError) as caught:
        redact(text, detections, acme, vault, "acme", "s", operators=operators)
    assert caught.value.entity_types == ["US_SSN"]
    assert caught.value.status == "PERMISSION_DENIED"
    assert "078-05-1120" not in str(caught.value) and "Ada" not in str(caught.value)
    assert len(vault) == 0


def test_block_lists_every_blocked_type_once_in_order(operators, vault):
    policy = Policy(name="strict", entities={"US_SSN": "block", "PASSWORD": "block", "PERSON": "block"})
    text = "Ada pw hunter2 ssn 078-05-1120 Ada"
    detections = [at(text, "Ada", "PERSON", occurrence=1), at(text, "hunter2", "PASSWORD"),
                  at(text, "078-05-1120", "US_SSN"), at(text, "Ada", "PERSON")]
    with pytest.raises(BlockedError, match="contains PASSWORD, PERSON, US_SSN") as caught:
        redact(text, detections, policy, vault, "t", "s", operators=operators)
    assert caught.value.entity_types == ["PASSWORD", "PERSON", "US_SSN"]


def test_block_below_its_threshold_does_not_block(acme, operators, vault):
    text = "ref 078-05-1120"
    detections = [at(text, "078-05-1120", "US_SSN", 0.7)]
    outcome = redact(text, detections, acme, vault, "acme", "s", operators=operators)
    assert outcome.text == text and outcome.findings == ()


def test_block_inside_a_span_that_wins_the_overlap_still_blocks(operators, vault):
    policy = Policy(name="p", entities={"US_SSN": "block", "PHONE_NUMBER": "pseudonymize"})
    text = "call 078-05-1120 now"
    detections = [at(text, "078-05-1120", "PHONE_NUMBER", 0.99), at(text, "078-05-1120", "US_SSN", 0.6)]
    with pytest.raises(BlockedError):
        redact(text, detections, policy, vault, "t", "s", operators=operators)
    assert len(vault) == 0


# --- thresholds and allow ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("score", "replaced"), [(0.69, False), (0.7, True), (0.95, True)])
def test_score_threshold_is_inclusive_and_per_type(acme, operators, vault, score, replaced):
    text = "hi Ada"
    outcome = redact(text, [at(text, "Ada", "PERSON", score)], acme, vault, "acme", "s", operators=operators)
    assert (outcome.text == "hi <PERSON_1>") is replaced


def test_allow_list_values_and_patterns_are_left_as_is(acme, operators, vault):
    text = "write support@acme.example or bot@noreply.acme.example, not ada@example.com"
    detections = [at(text, v, "EMAIL_ADDRESS", 1.0)
                  for v in ("support@acme.example", "bot@noreply.acme.example", "ada@example.com")]
    outcome = redact(text, detections, acme, vault, "acme", "s", operators=operators)
    assert outcome.text.startswith(
        "write support@acme.example or bot@noreply.acme.example, not <EMAIL_ADDRESS:")
    assert [f.start for f in outcome.findings] == [detections[2].start]


def test_allow_list_never_lets_a_secret_through(operators, vault):
    policy = Policy(name="p", allow={"values": ["hunter2"], "patterns": [".*"]})
    text = "pw hunter2 and Ada"
    detections = [at(text, "hunter2", "PASSWORD"), at(text, "Ada", "PERSON")]
    outcome = redact(text, detections, policy, vault, "t", "s", operators=operators)
    assert outcome.text == "pw <PASSWORD> and Ada"


def test_allowed_type_does_not_shadow_an_overlapping_detection(acme, operators, vault):
    text = "host 10.0.0.1:ada@example.com"
    detections = [Detection("IP_ADDRESS", 5, 29, 1.0, "t"), at(text, "ada@example.com", "EMAIL_ADDRESS", 0.9)]
    outcome = redact(text, detections, acme, vault, "acme", "s", operators=operators)
    assert outcome.text.startswith("host 10.0.0.1:<EMAIL_ADDRESS:")


# --- overlaps and the other operators end to end ----------------------------------------------------------

def test_secret_overlapping_pii_is_redacted_whole_and_never_stored(default, operators, vault):
    text = "login ada:hunter2@db"
    detections = [at(text, "ada:hunter2@db", "EMAIL_ADDRESS", 0.99), at(text, "hunter2", "PASSWORD", 0.6)]
    outcome = redact(text, detections, default, vault, "t", "s", operators=operators)
    assert outcome.text == "login <PASSWORD>"
    assert [(f.entity_type, f.start, f.end) for f in outcome.findings] == [("PASSWORD", 6, 20)]
    assert len(vault) == 0


def test_acme_policy_masks_hashes_and_encrypts(acme, operators, vault):
    text = "card 4111111111111111 iban DE89370400440532013000 token ghp_abcdefghijklmnopqrstuvwxyz0123456789"
    detections = [at(text, "4111111111111111", "CREDIT_CARD"),
                  at(text, "DE89370400440532013000", "IBAN_CODE"),
                  at(text, "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "GITHUB_TOKEN")]
    outcome = redact(text, detections, acme, vault, "acme", "s", operators=operators)
    card, iban, token = outcome.findings
    assert card.replacement == "############1111"
    assert operators.decrypt(iban.replacement, "acme") == "DE89370400440532013000"  # sealed for its tenant
    assert token.replacement.startswith("<GITHUB_TOKEN:")
    assert outcome.text == f"card {card.replacement} iban {iban.replacement} token {token.replacement}"
    assert len(vault) == 0


# --- nothing half-done ------------------------------------------------------------------------------------

def test_failing_operator_leaves_the_vault_untouched(operators, vault):
    policy = Policy(name="p", entities={"PERSON": "pseudonymize", "EMAIL_ADDRESS": "hash"})
    text = "Ada ada@example.com"
    detections = [at(text, "Ada", "PERSON"), at(text, "ada@example.com", "EMAIL_ADDRESS")]
    with pytest.raises(ConfigError, match="hash_key"):
        redact(text, detections, policy, vault, "t", "s", operators=Operators())
    assert len(vault) == 0


def test_full_session_fails_the_request_and_stores_none_of_it(default, operators):
    vault = Vault(VaultSettings(max_entries_per_session=2))
    text = "Ada Bob Cy"
    detections = [at(text, name, "PERSON") for name in ("Ada", "Bob", "Cy")]
    with pytest.raises(SessionFullError):
        redact(text, detections, default, vault, "t", "s", operators=operators)
    assert len(vault) == 0


@pytest.mark.parametrize(("start", "end"), [(-1, 2), (3, 3), (5, 4), (0, 99)])
def test_offsets_outside_the_text_are_refused(default, operators, vault, start, end):
    with pytest.raises(InvalidDetectionError):
        redact("short", [Detection("PERSON", start, end, 0.9, "t")], default, vault, "t", "s",
               operators=operators)


# --- sessions ---------------------------------------------------------------------------------------------

def test_without_a_session_placeholders_hold_within_the_call_and_nothing_is_stored(default, operators, vault):
    text = "Ada met Bob, then Ada left"
    detections = [at(text, "Ada", "PERSON"), at(text, "Bob", "PERSON"),
                  at(text, "Ada", "PERSON", occurrence=1)]
    for session_id in (None, ""):
        outcome = redact(text, detections, default, vault, "t", session_id, operators=operators)
        assert outcome.text == "<PERSON_1> met <PERSON_2>, then <PERSON_1> left"
    assert redact(text, detections, default, None, "t", "s", operators=operators).text == outcome.text
    assert len(vault) == 0


def test_numbering_continues_across_requests_of_a_session(default, operators, vault):
    first = "Ada"
    second = "Bob and Ada"
    redact(first, [at(first, "Ada", "PERSON")], default, vault, "t", "s", operators=operators)
    detections = [at(second, "Bob", "PERSON"), at(second, "Ada", "PERSON")]
    outcome = redact(second, detections, default, vault, "t", "s", operators=operators)
    assert outcome.text == "<PERSON_2> and <PERSON_1>"


def test_no_detections_returns_the_text_unchanged(default, operators, vault):
    assert redact("nothing here", [], default, vault, "t", "s", operators=operators).text == "nothing here"


def test_analyze_applies_policy_and_overlaps_without_changing_anything(acme, vault):
    text = "Ada 10.0.0.1 support@acme.example Bob"
    detections = [at(text, "Ada", "PERSON", 0.5), at(text, "10.0.0.1", "IP_ADDRESS"),
                  at(text, "support@acme.example", "EMAIL_ADDRESS"), at(text, "Bob", "PERSON", 0.8),
                  at(text, "Bob", "LOCATION", 0.7)]
    assert analyze(text, detections, acme) == [at(text, "Bob", "PERSON", 0.8)]
    assert len(vault) == 0
