"""Value types shared by the redaction modules (no grpc, no Presidio)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Detection:
    """One detected value: offsets are Unicode code points of the input, end exclusive.

    A detection never carries the value itself, so it can be logged, exported and sent
    across processes without leaking what it points at.
    """

    entity_type: str
    start: int
    end: int
    score: float
    recognizer: str


# Entity types that are secrets: never pseudonymised into the vault, never restorable.
SECRET_ENTITY_TYPES: frozenset[str] = frozenset({
    "AWS_ACCESS_KEY_ID", "AWS_SECRET_KEY", "GITHUB_TOKEN", "GITLAB_TOKEN", "SLACK_TOKEN",
    "STRIPE_KEY", "GOOGLE_API_KEY", "OPENAI_API_KEY", "JWT", "PRIVATE_KEY", "PASSWORD",
    "BEARER_TOKEN", "GENERIC_SECRET",
})

# PII entity types detected by the pattern tier (tier 1).
PATTERN_PII_ENTITY_TYPES: frozenset[str] = frozenset({
    "EMAIL_ADDRESS", "PHONE_NUMBER", "CREDIT_CARD", "US_SSN", "IBAN_CODE", "IP_ADDRESS",
    "MAC_ADDRESS", "DATE_OF_BIRTH", "ID_NUMBER",
})

# Entity types detected by NER (tier 2, Presidio + spaCy).
NER_ENTITY_TYPES: frozenset[str] = frozenset({"PERSON", "LOCATION", "NRP"})

# Entity types only tier 2's context rules detect: a health detail tied to a private person (a diagnosis, a
# condition, an allergy, a medication and its dose; HIPAA's PHI), docs/adr/0027.
CONTEXT_ENTITY_TYPES: frozenset[str] = frozenset({"HEALTH_DETAIL"})

ALL_ENTITY_TYPES: frozenset[str] = (SECRET_ENTITY_TYPES | PATTERN_PII_ENTITY_TYPES | NER_ENTITY_TYPES
                                    | CONTEXT_ENTITY_TYPES)
