"""`ztgate bench utility --answers`' fact checks (the run itself needs a suite: docs/results/utility.md)."""

from __future__ import annotations

from ztgate_bench import utility_answers
from ztgate_bench.utility_answers import Case, Tally
from ztgate.redaction.anonymising import surrogates

CASE = Case("Write a two-line note to Maria Gonzalez at maria.gonzalez@fastmail.com.", "Maria Gonzalez",
            "maria.gonzalez@fastmail.com")


def _tally(answer: str) -> Tally:
    tally = Tally("x")
    tally.add(CASE, answer)
    return tally


def test_an_answer_with_the_restored_facts_passes_every_check() -> None:
    t = _tally("Dear Maria Gonzalez,\nthe meeting is at 3. Reply to maria.gonzalez@fastmail.com.")
    assert (t.full_name, t.some_name, t.email, t.clean, t.all_facts) == (1, 1, 1, 1, 1)


def test_a_placeholder_or_a_stand_in_left_in_the_answer_fails() -> None:
    assert _tally("Dear <PERSON_1>, write to maria.gonzalez@fastmail.com. Maria Gonzalez").all_facts == 0
    stand_in = f"{surrogates.GIVEN_NAMES[0]} {surrogates.SURNAMES[0]}"
    t = _tally(f"Dear Maria Gonzalez and {stand_in} at maria.gonzalez@fastmail.com")
    assert t.clean == 0 and t.all_facts == 0
    assert _tally("Dear Maria Gonzalez, see clara.vance@example.org").clean == 0


def test_a_given_name_alone_counts_as_some_name_not_the_full_name() -> None:
    t = _tally("Hi Maria, see you Monday.")
    assert (t.full_name, t.some_name, t.email) == (0, 1, 0)


def test_no_case_person_is_on_the_surrogate_lists() -> None:
    lists = set(surrogates.GIVEN_NAMES) | set(surrogates.SURNAMES)
    assert all(not set(name.split()) & lists for name, _ in utility_answers.PERSONS)
    assert len(utility_answers.cases()) == len(utility_answers.TEMPLATES) * len(utility_answers.PERSONS)


def test_an_answer_with_a_stand_in_left_is_kept_for_reading_and_a_clean_one_is_not() -> None:
    tally = Tally("x")
    tally.add(CASE, "Dear Maria Gonzalez, see clara.vance@example.org")
    tally.add(CASE, "Dear Maria Gonzalez, see you.")
    assert tally.left == [(CASE.prompt, "Dear Maria Gonzalez, see clara.vance@example.org")]
