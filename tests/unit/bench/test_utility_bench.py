"""`ztgate bench utility`: its corpus files and its counts (the redactors scored here are plain functions, so
that the counting itself is what is under test; the real pipeline is scored by the bench)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ztgate_bench.utility_bench import (
    DEFAULT_CORPUS,
    FIRST_HOLDOUT,
    SECOND_TUNING_CORPUS,
    TUNING_CORPUS,
    UtilityCase,
    UtilityScore,
    load_cases,
    markdown,
    meets_targets,
    score,
)


@pytest.mark.parametrize(("held_out_path", "tuning_paths"), [
    (DEFAULT_CORPUS, (TUNING_CORPUS, SECOND_TUNING_CORPUS)),
    (FIRST_HOLDOUT, (TUNING_CORPUS, SECOND_TUNING_CORPUS)),
])
def test_every_corpus_loads_and_keeps_tuning_apart_from_reporting(held_out_path, tuning_paths):
    held_out = load_cases(held_out_path)
    assert len(held_out) >= 60
    assert {c.topic for c in held_out} == {"history", "geography", "science", "companies", "products", "code"}
    for tuning_path in tuning_paths:
        tuning = load_cases(tuning_path)
        assert len(tuning) >= 30
        assert not {c.prompt for c in held_out} & {c.prompt for c in tuning}
        assert not {v for c in held_out for v in c.private} & {v for c in tuning for v in c.private}


def test_the_second_held_out_set_shares_no_prompt_with_the_first():
    assert not {c.prompt for c in load_cases(DEFAULT_CORPUS)} & {c.prompt for c in load_cases(FIRST_HOLDOUT)}


def test_a_listed_value_missing_from_its_prompt_is_refused(tmp_path: Path):
    row = {"id": "x", "topic": "geography", "prompt": "Where is Lima?", "public": ["Quito"],
           "private_prompt": "Where is Lima? I am Ann Lee.", "private": ["Ann Lee"]}
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"c\.jsonl:1: 1 listed value\(s\) not in the prompt"):
        load_cases(path)


def test_counts_altered_prompts_kept_names_and_private_values_reaching_the_model():
    cases = [UtilityCase("a", "geography", "Where is Lima?", ("Lima",), "Where is Lima? I am Ann Lee.", ("Ann Lee",)),
             UtilityCase("b", "history", "Who was Nero?", ("Nero",), "Who was Nero? Mail bo@x.org.", ("bo@x.org",))]

    def hides_lima_and_mail(text: str) -> str:
        return text.replace("Lima", "<LOCATION_1>").replace("bo@x.org", "<EMAIL_ADDRESS_1>")

    result = score("test", hides_lima_and_mail, cases)
    assert (result.prompts, result.altered, result.public_names, result.public_kept) == (2, 1, 2, 1)
    assert (result.private_values, result.private_reaching) == (2, 1)
    assert result.public_kept_beside_private == 1  # Nero beside the mail address; Lima hidden in both
    assert not meets_targets(result)


def test_public_names_kept_beside_private_details_are_counted_apart_from_the_clean_prompts():
    cases = [UtilityCase("a", "history", "Who was Nero?", ("Nero",), "Who was Nero? I am Ann Lee.", ("Ann Lee",))]

    def hides_everything_capitalised_beside_a_person(text: str) -> str:
        return text.replace("Nero", "<PERSON_2>").replace("Ann Lee", "<PERSON_1>") if "Ann" in text else text

    result = score("test", hides_everything_capitalised_beside_a_person, cases)
    assert (result.altered, result.public_kept, result.private_reaching) == (0, 1, 0)
    assert (result.public_kept_beside_private, result.kept_beside_private_share) == (0, 0.0)
    assert "| 0/1 (0%) |" in markdown([result], Path("c.jsonl"))


def test_targets():
    assert meets_targets(UtilityScore("s", 100, 2, 100, 95, 10, 0))
    assert not meets_targets(UtilityScore("s", 100, 3, 100, 95, 10, 0))
    assert not meets_targets(UtilityScore("s", 100, 2, 100, 94, 10, 0))
    assert not meets_targets(UtilityScore("s", 100, 2, 100, 95, 10, 1))
