"""The redaction benchmark corpus: deterministic, truthful ground truth, clean prompts really clean."""

from __future__ import annotations

import ipaddress
import re

import pytest

from ztgate_bench.redaction_corpus import (
    CATEGORIES,
    CLEAN,
    MAX_CHARS,
    MIN_CHARS,
    PII,
    PII_ENTITY_TYPES,
    SECRET,
    WORLD_LOCALES,
    Sample,
    generate,
)
from ztgate.redaction.types import ALL_ENTITY_TYPES, CONTEXT_ENTITY_TYPES, SECRET_ENTITY_TYPES

N = 600
SEED = 20240611


@pytest.fixture(scope="module")
def corpus() -> list[Sample]:
    return generate(N, SEED)


def _values(corpus: list[Sample], entity_type: str) -> list[str]:
    return [e.value for s in corpus for e in s.entities if e.entity_type == entity_type]


def _luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def _iban_ok(iban: str) -> bool:
    compact = iban.replace(" ", "")
    rearranged = compact[4:] + compact[:4]
    return int("".join(str(int(ch, 36)) for ch in rearranged)) % 97 == 1


def test_same_seed_gives_the_same_corpus(corpus: list[Sample]) -> None:
    assert generate(N, SEED) == corpus


def test_locales_draw_names_and_places_from_them_reproducibly() -> None:
    world = generate(300, 5, locales=WORLD_LOCALES)
    assert world == generate(300, 5, locales=WORLD_LOCALES)
    default_people = set(_values(generate(300, 5), "PERSON"))
    world_people = set(_values(world, "PERSON"))
    assert world_people and world_people != default_people
    assert any(not p.isascii() for p in world_people)  # Łukasz, Océane: not only en_US names


def test_locales_leave_the_default_corpus_unchanged() -> None:
    generate(50, 3, locales=WORLD_LOCALES)
    assert [s.text for s in generate(50, 3)] == [s.text for s in generate(50, 3, locales=())]


def test_different_seeds_give_different_corpora() -> None:
    assert [s.text for s in generate(50, 1)] != [s.text for s in generate(50, 2)]


def test_category_counts_follow_the_default_mix() -> None:
    samples = generate(300, 7)
    counts = {c: sum(s.category == c for s in samples) for c in CATEGORIES}
    assert counts == {PII: 135, SECRET: 90, CLEAN: 75}
    assert generate(0, 7) == []


def test_negative_size_is_rejected() -> None:
    with pytest.raises(ValueError):
        generate(-1, 0)


def test_unknown_category_in_mix_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown"):
        generate(10, 0, mix={"pii": 1.0, "spam": 1.0})


def test_sample_ids_are_unique(corpus: list[Sample]) -> None:
    assert len({s.sample_id for s in corpus}) == len(corpus)


def test_every_ground_truth_value_appears_verbatim_in_its_text(corpus: list[Sample]) -> None:
    missing = [(s.sample_id, e) for s in corpus for e in s.entities if e.value not in s.text]
    assert not missing


def test_no_template_slot_is_left_unfilled(corpus: list[Sample]) -> None:
    assert not [s.sample_id for s in corpus if re.search(r"<<[a-z0-9_#]+>>", s.text)]


def test_prompt_lengths_stay_within_bounds(corpus: list[Sample]) -> None:
    lengths = [len(s.text) for s in corpus]
    assert MIN_CHARS <= min(lengths) and max(lengths) <= MAX_CHARS


def test_entity_type_names_are_those_of_the_redaction_service(corpus: list[Sample]) -> None:
    assert {e.entity_type for s in corpus for e in s.entities} <= ALL_ENTITY_TYPES


@pytest.mark.parametrize("n", [60, 300])
def test_every_entity_type_is_covered(n: int) -> None:
    """Every type but ID_NUMBER and the context types, whose families live beside their rules
    (redaction_corpus.PII_ENTITY_TYPES)."""
    expected = ALL_ENTITY_TYPES - {"ID_NUMBER"} - CONTEXT_ENTITY_TYPES
    assert {e.entity_type for s in generate(n, 3) for e in s.entities} == expected


def test_categories_match_their_ground_truth(corpus: list[Sample]) -> None:
    for s in corpus:
        if s.category == CLEAN:
            assert s.entities == ()
        elif s.category == PII:
            assert s.entity_types and s.entity_types <= PII_ENTITY_TYPES
        else:
            assert s.entity_types & SECRET_ENTITY_TYPES


def test_templates_are_varied(corpus: list[Sample]) -> None:
    by_category = {c: {s.template for s in corpus if s.category == c} for c in CATEGORIES}
    assert len(by_category[PII]) >= 60 and len(by_category[SECRET]) >= 50 and len(by_category[CLEAN]) >= 40
    with_values = [s.text for s in corpus if s.category != CLEAN]
    assert len(set(with_values)) >= 0.98 * len(with_values)  # a short NRP template may repeat by chance


def test_prompts_with_several_values_are_common(corpus: list[Sample]) -> None:
    pii = [s for s in corpus if s.category == PII]
    assert sum(len(s.entities) >= 2 for s in pii) >= 0.4 * len(pii)


# ---- the values are well formed

@pytest.mark.parametrize(("entity_type", "pattern"), [
    ("AWS_ACCESS_KEY_ID", r"(AKIA|ASIA)[A-Z2-7]{16}"),
    ("AWS_SECRET_KEY", r"[A-Za-z0-9/+]{40}"),
    ("GITHUB_TOKEN", r"gh[pous]_[A-Za-z0-9]{36}|github_pat_[A-Z0-9]{22}_[A-Za-z0-9]{59}"),
    ("GITLAB_TOKEN", r"glpat-[A-Za-z0-9_-]{20}"),
    ("SLACK_TOKEN", r"xox[bpas]-\d{10,13}(-\d{10,13}){1,2}-[A-Za-z0-9]{24,32}"),
    ("STRIPE_KEY", r"sk_live_[A-Za-z0-9]{24,99}"),
    ("GOOGLE_API_KEY", r"AIza[A-Za-z0-9_-]{35}"),
    ("OPENAI_API_KEY", r"sk-(proj-)?[A-Za-z0-9_-]+T3BlbkFJ[A-Za-z0-9_-]+"),
    ("JWT", r"eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+"),
    ("PRIVATE_KEY", r"-----BEGIN ((RSA|EC|OPENSSH) )?PRIVATE KEY-----\n[A-Za-z0-9+/=\n]+\n"
                    r"-----END ((RSA|EC|OPENSSH) )?PRIVATE KEY-----"),
    ("US_SSN", r"(?!000|666|9\d\d)\d{3}([- ])(?!00)\d{2}\1(?!0000)\d{4}"),
    ("MAC_ADDRESS", r"([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}|[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}"),
    ("EMAIL_ADDRESS", r"[a-z0-9._]+@[a-z0-9-]+(\.[a-z0-9-]+)+"),
    ("PHONE_NUMBER", r"\+?[0-9 ().-]{10,20}"),
])
def test_values_have_the_real_format(corpus: list[Sample], entity_type: str, pattern: str) -> None:
    values = _values(corpus, entity_type)
    assert values
    assert [v for v in values if not re.fullmatch(pattern, v)] == []


def test_credit_cards_pass_luhn_and_come_with_mixed_separators(corpus: list[Sample]) -> None:
    cards = _values(corpus, "CREDIT_CARD")
    assert all(_luhn_ok(re.sub(r"\D", "", c)) for c in cards)
    assert {" " in c for c in cards} == {True, False} and any("-" in c for c in cards)


def test_ibans_have_valid_check_digits(corpus: list[Sample]) -> None:
    ibans = _values(corpus, "IBAN_CODE")
    assert ibans and all(_iban_ok(i) for i in ibans)


def test_ip_addresses_parse_and_cover_both_versions(corpus: list[Sample]) -> None:
    versions = {ipaddress.ip_address(v).version for v in _values(corpus, "IP_ADDRESS")}
    assert versions == {4, 6}


def test_phone_numbers_cover_us_national_and_international_forms(corpus: list[Sample]) -> None:
    phones = _values(corpus, "PHONE_NUMBER")
    assert any(p.startswith("(") for p in phones) and any(p.startswith("+") and not p.startswith("+1")
                                                           for p in phones)


def test_dates_of_birth_come_with_birth_context(corpus: list[Sample]) -> None:
    for s in corpus:
        if "DATE_OF_BIRTH" in s.entity_types:
            assert re.search(r"born|birth|DOB|birthday", s.text, re.IGNORECASE), s.text


def test_pem_keys_of_every_kind_appear() -> None:
    keys = _values(generate(1500, SEED), "PRIVATE_KEY")
    kinds = {re.match(r"-----BEGIN (.*)PRIVATE KEY", v).group(1) for v in keys}
    assert kinds == {"RSA ", "EC ", "OPENSSH ", ""}


# ---- clean prompts hold nothing a redactor should touch

# What a value of each kind looks like, loosely: any hit in a clean prompt is a corpus bug.
_DETECTORS = {
    "email": r"[\w.+-]+@[\w-]+(\.[\w-]+)*\.[A-Za-z]{2,}\b",
    "ipv4": r"\b\d{1,3}(\.\d{1,3}){3}\b",
    "ipv6": r"(?i)\b[0-9a-f]{1,4}(:[0-9a-f]{0,4}){4,7}\b",
    "mac": r"(?i)\b([0-9a-f]{2}[:-]){5}[0-9a-f]{2}\b",
    "ssn": r"\b\d{3}[- ]\d{2}[- ]\d{4}\b",
    "us phone": r"\(?\b\d{3}\)?[ .-]\d{3}[ .-]\d{4}\b",
    "e164 phone": r"\+\d[\d -]{7,}",
    "iban": r"\b[A-Z]{2}\d{2}( ?[A-Z0-9]{4}){3,}",
    "token prefix": r"\b(AKIA|ASIA)[A-Z2-7]{16}|gh[pous]_|github_pat_|glpat-|xox[a-z]-|sk_live_|AIza|\bsk-|eyJ",
    "private key": r"PRIVATE KEY-----",
    "url credentials": r"://[^/\s:@]*:[^/\s@]+@",
    # a literal value, not a lookup such as `os.environ[...]` or `getpass.getpass(...)`
    "assignment": r"(?i)(password|passwd|secret|api_key|token)\s*[=:]\s*"
                  r"(['\"][^'\"\s]{6,}['\"]|(?>[A-Za-z0-9!*_~-]{8,})(?![.(\[]))",
}


@pytest.mark.parametrize("kind", sorted(_DETECTORS))
def test_clean_prompts_contain_no_value_of_a_known_kind(corpus: list[Sample], kind: str) -> None:
    pattern = re.compile(_DETECTORS[kind])
    hits = [(s.template, m.group(0)) for s in corpus if s.category == CLEAN for m in [pattern.search(s.text)] if m]
    assert hits == []


def test_clean_prompts_contain_no_card_like_digit_run(corpus: list[Sample]) -> None:
    for s in corpus:
        if s.category == CLEAN:
            for run in re.findall(r"\d[\d -]{11,22}\d", s.text):
                digits = re.sub(r"\D", "", run)
                assert not (13 <= len(digits) <= 19 and _luhn_ok(digits)), (s.template, run)


def test_clean_prompts_share_no_value_with_the_pii_and_secret_prompts(corpus: list[Sample]) -> None:
    values = {e.value for s in generate(2000, SEED + 1) for e in s.entities if len(e.value) >= 4}
    clean_texts = [s.text for s in corpus if s.category == CLEAN]
    leaks = [v for v in values for t in clean_texts
             if v in t and re.search(rf"(?<!\w){re.escape(v)}(?!\w)", t)]
    assert leaks == []
