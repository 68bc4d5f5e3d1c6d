"""`ztgate bench utility --facts`: the reviewed facts of the tuning corpora, the fact check, the classes of cause
of a gateway-only failure and the parity verdict (the suite itself runs in the bench, not here)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ztgate_bench.utility_bench import load_cases
from ztgate_bench.utility_facts import (
    FACT_CORPORA,
    VARIANTS,
    Tally,
    at_parity,
    cause,
    fact_cases,
    markdown,
    passes,
)

CASE = {"id": "t-1", "topic": "geography", "prompt": "What is the capital of France?", "public": ["France"],
        "private_prompt": "What is the capital of France? I am Lena Vogt, lena@vogt.example.",
        "private": ["Lena Vogt", "lena@vogt.example"], "facts": ["Paris", ["capital", "seat"]]}


def _case(tmp_path: Path, **changes: object):
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps({**CASE, **changes}) + "\n", encoding="utf-8")
    return load_cases(path)[0]


def test_every_tuning_prompt_carries_reviewed_facts():
    for corpus in FACT_CORPORA:
        cases = load_cases(corpus)
        assert cases and all(case.facts for case in cases), corpus.name
    assert len(fact_cases(FACT_CORPORA, None)) == sum(len(load_cases(c)) for c in FACT_CORPORA)
    assert len(fact_cases(FACT_CORPORA, 3)) == 3 * len(FACT_CORPORA)


def test_a_fact_is_met_case_insensitively_and_an_alternative_by_any_of_its_strings(tmp_path: Path):
    case = _case(tmp_path)
    assert case.facts == ("Paris", ("capital", "seat"))
    assert passes(case.facts, "The CAPITAL of France is paris.")
    assert passes(case.facts, "Paris is the seat of government.")
    assert not passes(case.facts, "The capital of France is Lyon.")
    assert not passes(case.facts, "Paris.")


@pytest.mark.parametrize("facts", ["Paris", [""], [[]], [["Paris", 3]], [None]])
def test_malformed_facts_are_refused_naming_the_line(tmp_path: Path, facts: object):
    with pytest.raises(ValueError, match=r"c\.jsonl:1"):
        _case(tmp_path, facts=facts)


def test_a_corpus_without_facts_still_loads(tmp_path: Path):
    row = {k: v for k, v in CASE.items() if k != "facts"}
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    assert load_cases(path)[0].facts == ()


def test_the_cause_of_a_gateway_only_failure_is_classed(tmp_path: Path):
    case = _case(tmp_path)
    assert cause(case, "clean", "What is the capital of <LOCATION_1>?", "x", "primary") == "public name removed"
    assert cause(case, "private", "What is the capital of France? I am <PERSON_1>, <EMAIL_ADDRESS_1>.", "x",
                 "primary") == "placeholder in prompt"
    assert cause(case, "clean", case.prompt, "It is <LOCATION_2>.", "primary") == "placeholder left in answer"
    assert cause(case, "clean", case.prompt, "x", "fallback") == "served by another instance"
    assert cause(case, "clean", case.prompt, "x", "primary") == "answer differs with the prompt unchanged"


def test_parity_needs_as_many_gateway_passes_as_direct_ones_and_no_error():
    tally = Tally()
    for variant in VARIANTS:
        for system in ("direct", "gateway"):
            tally.asked[(system, variant)] = 10
            tally.passed[(system, variant)] = 4
    assert at_parity(tally)
    tally.passed[("gateway", "private")] = 3
    tally.gateway_only.append(("private", "placeholder in prompt", "t-1"))
    assert not at_parity(tally)
    tally.surrogates_only.append(("private", "t-1"))
    report = markdown(tally, FACT_CORPORA)
    assert "private, placeholder in prompt: 1 (t-1)" in report
    assert "Surrogates pass, placeholders fail: 1; t-1 (private)" in report
    tally.passed[("gateway", "private")] = 4
    tally.errors[("gateway", "clean")] = 1
    assert not at_parity(tally)
