"""The gateway's chat scrub writes stand-ins, the Redaction API placeholders, and a policy may say
placeholders for chat too (`chat_pseudonyms`, ADR 0007): on the real service, pattern tier."""

from __future__ import annotations

from pathlib import Path

import pytest

from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.patterns.scanner import PatternScanner
from ztgate.redaction.metrics import ScrubPath
from ztgate.redaction.policies import Action, PolicyStore
from ztgate.redaction.service import RedactionService
from ztgate.redaction.vault import PLACEHOLDER_RE, Vault
from tests.stand_ins import stand_ins
from tests.unit.redaction.pattern_service import TEST_POLICIES, ScannerPool, scanner  # noqa: F401 (the fixture)

EMAIL = "jane.doe@fastmail.com"
PHONE = "+1 415 555 0134"
CARD = "4111 1111 1111 1111"
SSN = "536-22-8790"
AWS = "AKIAZ7Q3XH2LMN4PQ5RS"
TEXT = f"Mail {EMAIL}, call {PHONE}, card {CARD}, SSN {SSN}, key {AWS}."


@pytest.fixture
def service(scanner: PatternScanner, tmp_path: Path) -> RedactionService:  # noqa: F811
    (tmp_path / "placeholders.yaml").write_text(
        "name: placeholders\ntenants: [legacy]\ndefault_action: pseudonymize\nchat_pseudonyms: placeholder\n",
        encoding="utf-8")
    return RedactionService(policies=PolicyStore.load([TEST_POLICIES, tmp_path]), pool=ScannerPool(scanner),
                            scanner=scanner, vault=Vault(), max_text_bytes=65536,
                            operators=Operators(hash_key="test-hash-key-0123456", encrypt_key="0123456789abcdef"))


async def test_chat_reads_stand_ins_for_contact_details_and_placeholders_for_card_and_ssn(
        service: RedactionService) -> None:
    [result] = await service.redact_many([TEXT], tenant="t", path=ScrubPath.GATEWAY_REQUEST, chat=True)
    mail, phone = stand_ins([("EMAIL_ADDRESS", EMAIL), ("PHONE_NUMBER", PHONE)], TEXT)
    assert result.text == (f"Mail {mail}, call {phone}, card <CREDIT_CARD_1>, SSN <US_SSN_1>, "
                           "key <AWS_ACCESS_KEY_ID>.")
    actions = {f.entity_type: f.action for f in result.findings}
    assert actions == {"EMAIL_ADDRESS": Action.SURROGATE, "PHONE_NUMBER": Action.SURROGATE,
                       "CREDIT_CARD": Action.PSEUDONYMIZE, "US_SSN": Action.PSEUDONYMIZE,
                       "AWS_ACCESS_KEY_ID": Action.REDACT}
    # The caller gets every private value back; the secret never (it was never stored).
    restored = service.restore(f"To {mail} or {phone}; card <CREDIT_CARD_1>; key <AWS_ACCESS_KEY_ID>",
                               session_id=result.session_id, tenant="t")
    assert restored == f"To {EMAIL} or {PHONE}; card {CARD}; key <AWS_ACCESS_KEY_ID>"


async def test_the_redaction_api_keeps_placeholders(service: RedactionService) -> None:
    result = await service.redact(TEXT, tenant="t")
    assert result.text == ("Mail <EMAIL_ADDRESS_1>, call <PHONE_NUMBER_1>, card <CREDIT_CARD_1>, "
                           "SSN <US_SSN_1>, key <AWS_ACCESS_KEY_ID>.")
    [many] = await service.redact_many([TEXT], tenant="t")  # not chat: the same
    assert many.text == result.text


async def test_a_tenant_whose_policy_says_placeholder_gets_placeholders_on_chat(service: RedactionService) -> None:
    [result] = await service.redact_many([TEXT], tenant="legacy", path=ScrubPath.GATEWAY_REQUEST, chat=True)
    assert EMAIL not in result.text and "<EMAIL_ADDRESS_1>" in result.text and "<PHONE_NUMBER_1>" in result.text
    assert {f.action for f in result.findings if f.entity_type != "AWS_ACCESS_KEY_ID"} == {Action.PSEUDONYMIZE}


async def test_a_tenant_policy_that_hashes_keeps_hashing_on_chat(service: RedactionService) -> None:
    [result] = await service.redact_many([f"mail {EMAIL}"], tenant="acme", path=ScrubPath.GATEWAY_REQUEST,
                                         chat=True)
    assert "<EMAIL_ADDRESS:" in result.text and not PLACEHOLDER_RE.search(result.text)
