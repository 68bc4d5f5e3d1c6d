"""The redaction service over real gRPC: a real process with real Hyperscan, spaCy and workers."""

from __future__ import annotations

import asyncio
import random
import re
import string

import grpc
import pytest
from grpc_health.v1 import health_pb2

from ztgate.gen.redaction.v1 import redaction_pb2 as pb
from ztgate.redaction.anonymising.surrogates import luhn_valid
from tests.procs import health_status

EMAIL = "jane.doe@example.com"
AWS_KEY = "AKIAZ7Q3XH2LMN4PQ5RS"
GITHUB = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A"
CARD = "4111 1111 1111 1111"
PERSON = "Maria Gonzalez"
PROMPT = (f"Hi, I am {PERSON} from Lisbon. Mail me at {EMAIL}; my card is {CARD}. "
          f"Deploy with AWS key {AWS_KEY} and token {GITHUB}.")


def test_health_reports_serving_for_server_and_service(redaction_address: str) -> None:
    serving = health_pb2.HealthCheckResponse.SERVING
    assert health_status(redaction_address, "") == serving
    assert health_status(redaction_address, "ztgate.redaction.v1.Redaction") == serving


async def test_redact_removes_every_value_and_reports_findings_without_values(stub) -> None:
    response = await stub.Redact(pb.RedactRequest(text=PROMPT))
    for value in (EMAIL, AWS_KEY, GITHUB, CARD, PERSON):
        assert value not in response.text
    types = {f.entity_type for f in response.findings}
    assert {"EMAIL_ADDRESS", "AWS_ACCESS_KEY_ID", "GITHUB_TOKEN", "CREDIT_CARD", "PERSON"} <= types
    for finding in response.findings:
        assert PROMPT[finding.start:finding.end] not in finding.replacement
        assert finding.replacement in response.text
    assert "<PERSON_1>" in response.text and "<AWS_ACCESS_KEY_ID>" in response.text
    assert response.session_id


async def test_offsets_are_code_points_of_the_input_with_astral_characters(stub) -> None:
    text = f"🙂🙂 naïve 日本 {EMAIL} 🎉"
    response = await stub.Redact(pb.RedactRequest(text=text))
    [finding] = [f for f in response.findings if f.entity_type == "EMAIL_ADDRESS"]
    assert text[finding.start:finding.end] == EMAIL


async def test_restore_puts_pseudonyms_back_for_the_same_session_and_tenant_only(stub) -> None:
    redacted = await stub.Redact(pb.RedactRequest(text=PROMPT, tenant="t1"))
    answer = f"Sure {redacted.text}"
    restored = await stub.Restore(pb.RestoreRequest(text=answer, session_id=redacted.session_id,
                                                    tenant="t1"))
    assert PERSON in restored.text and EMAIL in restored.text and CARD in restored.text
    # Secrets are never restorable.
    assert AWS_KEY not in restored.text and GITHUB not in restored.text
    # Another tenant has no such session, and is told so (a plaintext loopback listener takes the
    # body's tenant: development, docs/security.md).
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await stub.Restore(pb.RestoreRequest(text=answer, session_id=redacted.session_id, tenant="t2"))
    assert info.value.code() == grpc.StatusCode.NOT_FOUND
    assert f"session {redacted.session_id} is unknown or expired for tenant t2" in info.value.details()
    assert PERSON not in info.value.details()


async def test_a_session_that_pseudonymised_nothing_still_restores(stub) -> None:
    redacted = await stub.Redact(pb.RedactRequest(text="nothing personal here", tenant="t1"))
    restored = await stub.Restore(pb.RestoreRequest(text="model says <PERSON_1>",
                                                    session_id=redacted.session_id, tenant="t1"))
    assert restored.text == "model says <PERSON_1>"


async def test_pseudonyms_are_consistent_within_a_session(stub) -> None:
    first = await stub.Redact(pb.RedactRequest(text=f"Write to {EMAIL}."))
    second = await stub.Redact(pb.RedactRequest(text=f"Again: {EMAIL} and bob@example.org",
                                                session_id=first.session_id))
    assert "<EMAIL_ADDRESS_1>" in first.text
    assert "<EMAIL_ADDRESS_1>" in second.text and "<EMAIL_ADDRESS_2>" in second.text


async def test_block_action_answers_permission_denied_naming_types_not_values(stub) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await stub.Redact(pb.RedactRequest(text="My SSN is 536-22-8726, keep it safe.",
                                           tenant="acme"))
    assert info.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert "US_SSN" in info.value.details() and "536-22-8726" not in info.value.details()


async def test_tenant_policy_applies_and_cannot_be_swapped_for_another(stub) -> None:
    response = await stub.Redact(pb.RedactRequest(text=f"card {CARD}", tenant="acme"))
    assert response.text.endswith("1111") and "4111" not in response.text
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await stub.Redact(pb.RedactRequest(text="x", tenant="acme", policy="default"))
    assert info.value.code() == grpc.StatusCode.PERMISSION_DENIED


@pytest.mark.parametrize("request_kwargs, code, fragment", [
    ({"text": "x", "policy": "nope"}, grpc.StatusCode.INVALID_ARGUMENT, "unknown policy"),
    ({"text": "x", "session_id": "bad id!"}, grpc.StatusCode.INVALID_ARGUMENT, "session_id"),
    ({"text": "x" * 65537}, grpc.StatusCode.RESOURCE_EXHAUSTED, "limit is 65536 bytes"),
    ({"text": "é" * 32769}, grpc.StatusCode.RESOURCE_EXHAUSTED, "limit is 65536 bytes"),
])
async def test_bad_requests_get_clear_statuses(stub, request_kwargs, code, fragment) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await stub.Redact(pb.RedactRequest(**request_kwargs))
    assert info.value.code() == code
    assert fragment in info.value.details()


async def test_empty_text_is_fine(stub) -> None:
    response = await stub.Redact(pb.RedactRequest(text=""))
    assert response.text == "" and not response.findings


async def test_analyze_reports_without_changing_anything(stub) -> None:
    response = await stub.Analyze(pb.AnalyzeRequest(text=PROMPT))
    assert {f.entity_type for f in response.findings} >= {"EMAIL_ADDRESS", "GITHUB_TOKEN"}
    assert all(f.replacement == "" for f in response.findings)


async def _stream(stub, chunks: list[str], **first) -> tuple[str, list]:
    async def requests():
        for i, chunk in enumerate(chunks):
            yield pb.RedactChunk(text=chunk, final=i == len(chunks) - 1, **(first if i == 0 else {}))
    out, findings = [], []
    async for reply in stub.RedactStream(requests()):
        out.append(reply.text)
        findings.extend(reply.findings)
    return "".join(out), findings


SPLIT_VALUES = [
    ("GITHUB_TOKEN", f"token {GITHUB} ok"),
    ("EMAIL_ADDRESS", f"mail {EMAIL} now"),
    ("AWS_ACCESS_KEY_ID", f"key={AWS_KEY}."),
    ("CREDIT_CARD", f"card {CARD} thanks"),
]


@pytest.mark.parametrize("entity, text", SPLIT_VALUES, ids=[e for e, _ in SPLIT_VALUES])
async def test_stream_catches_a_value_split_at_every_position(stub, entity: str, text: str) -> None:
    value = next(v for v in (GITHUB, EMAIL, AWS_KEY, CARD) if v in text)
    for cut in range(1, len(text)):
        out, findings = await _stream(stub, [text[:cut], text[cut:]])
        assert value not in out, f"leaked with split at {cut}"
        assert entity in {f.entity_type for f in findings}


async def test_stream_in_five_character_chunks_equals_unary_redaction(stub) -> None:
    text = f"Contact {EMAIL} or use {GITHUB}; card {CARD}. Bye!"
    chunks = [text[i:i + 5] for i in range(0, len(text), 5)]
    out, findings = await _stream(stub, chunks)
    for value in (EMAIL, GITHUB, CARD):
        assert value not in out
    assert out.endswith("Bye!")
    assert [text[f.start:f.end] for f in findings] == [EMAIL, GITHUB, CARD]


async def test_concurrent_requests_do_not_leak_into_each_other(stub) -> None:
    rng = random.Random(5)
    names = ["".join(rng.choices(string.ascii_lowercase, k=10)) for _ in range(48)]

    async def one(name: str) -> tuple[str, pb.RedactResponse]:
        return name, await stub.Redact(pb.RedactRequest(text=f"reach {name}@example.com today",
                                                        tenant=f"tenant-{name}"))
    results = await asyncio.gather(*(one(n) for n in names))
    for name, response in results:
        assert "@example.com" not in response.text
        restored = await stub.Restore(pb.RestoreRequest(text=response.text,
                                                        session_id=response.session_id,
                                                        tenant=f"tenant-{name}"))
        assert restored.text == f"reach {name}@example.com today"
        others = [n for n in names if n != name]
        assert not any(o in restored.text for o in others)


SURROGATE_PROMPT = (f"Write a two-line note to {PERSON} at {EMAIL} (card {CARD}) about the meeting; "
                    f"deploy key {AWS_KEY}.")


async def test_surrogates_replace_values_with_stand_ins_that_restore(stub) -> None:
    redacted = await stub.Redact(pb.RedactRequest(text=SURROGATE_PROMPT, policy="surrogates", tenant="t1"))
    for value in (PERSON, EMAIL, CARD, AWS_KEY):
        assert value not in redacted.text
    by_type = {f.entity_type: f.replacement for f in redacted.findings}
    assert re.fullmatch(r"[A-Z][a-z]+ [A-Z][a-z]+", by_type["PERSON"])
    assert re.fullmatch(r"[a-z]+\.[a-z]+@example\.(com|org|net)", by_type["EMAIL_ADDRESS"])
    assert not luhn_valid(by_type["CREDIT_CARD"].replace(" ", ""))
    assert by_type["AWS_ACCESS_KEY_ID"] == "<AWS_ACCESS_KEY_ID>"  # secrets: never a surrogate
    assert "<PERSON_" not in redacted.text
    answer = f"Dear {by_type['PERSON'].split()[0]},\nsee you; write to {by_type['EMAIL_ADDRESS']}."
    restored = await stub.Restore(pb.RestoreRequest(text=answer, session_id=redacted.session_id, tenant="t1"))
    assert restored.text == f"Dear {PERSON.split()[0]},\nsee you; write to {EMAIL}."
    whole = await stub.Restore(pb.RestoreRequest(text=redacted.text, session_id=redacted.session_id,
                                                 tenant="t1"))
    assert whole.text == SURROGATE_PROMPT.replace(AWS_KEY, "<AWS_ACCESS_KEY_ID>")


async def test_surrogates_through_redact_stream_restore_and_match_the_session(stub) -> None:
    """RedactStream runs the pattern tier (docs/security.md, "Limits to know"): its e-mail and card get
    surrogates, the same ones a unary Redact of the session gives, and Restore undoes them."""
    cut = [SURROGATE_PROMPT[i:i + 7] for i in range(0, len(SURROGATE_PROMPT), 7)]
    text, findings = await _stream(stub, cut, policy="surrogates", tenant="t1", session_id="surrogate-stream")
    assert EMAIL not in text and CARD not in text and AWS_KEY not in text
    by_type = {f.entity_type: f.replacement for f in findings}
    assert set(by_type) >= {"EMAIL_ADDRESS", "CREDIT_CARD"}
    assert re.fullmatch(r"[a-z]+\.[a-z]+@example\.(com|org|net)", by_type["EMAIL_ADDRESS"])
    assert not luhn_valid(by_type["CREDIT_CARD"].replace(" ", ""))
    again = await stub.Redact(pb.RedactRequest(text=f"Also {EMAIL}.", policy="surrogates", tenant="t1",
                                               session_id="surrogate-stream"))
    assert again.text == f"Also {by_type['EMAIL_ADDRESS']}."          # the same stand-in all session long
    restored = await stub.Restore(pb.RestoreRequest(text=text, session_id="surrogate-stream", tenant="t1"))
    assert restored.text == SURROGATE_PROMPT.replace(AWS_KEY, "<AWS_ACCESS_KEY_ID>")
