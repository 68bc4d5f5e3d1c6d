"""The code-and-technical-text corpus of private persons: its files match their generator, its splits share no
name, template or tool, and its counts are what a redactor leaves (plain functions as redactors, so that the
counting is what is under test; the real pipeline is scored by the bench)."""

from __future__ import annotations

from pathlib import Path

import pytest
from ztgate_bench import code_persons, corpus_file
from ztgate_bench.redaction_corpus import CLEAN, PII

CORPORA = Path(code_persons.__file__).resolve().parent.parent / "corpora"


@pytest.mark.parametrize("split", ["tune", "holdout", "holdout3"])
def test_the_committed_file_is_what_the_generator_writes(split):
    committed = corpus_file.load(CORPORA / f"code-persons-{split.replace('holdout3', 'holdout-3')}.jsonl")
    assert committed == code_persons.documents(split)
    assert (CORPORA / f"code-persons-{split.replace('holdout3', 'holdout-3')}.jsonl").stat().st_size < 300_000


def test_the_splits_share_no_name_template_or_tool():
    pairs = [(a, b) for i, a in enumerate(code_persons.SEEDS) for b in list(code_persons.SEEDS)[i + 1:]]
    for a, b in pairs:
        for pools in (code_persons.GIVEN, code_persons.SURNAMES, code_persons.TOOLS):
            assert not set(pools[a]) & set(pools[b]), (a, b)
        for templates in (code_persons.PERSON_TEMPLATES, code_persons.CLEAN_TEMPLATES):
            assert not {t for _, t in templates[a]} & {t for _, t in templates[b]}, (a, b)


def test_every_person_document_names_its_person_and_every_clean_one_none():
    for split in code_persons.SEEDS:
        samples = code_persons.documents(split)
        assert {s.category for s in samples} == {PII, CLEAN}
        for s in samples:
            if s.category == PII:
                assert [e.entity_type for e in s.entities][0] == "PERSON"
                assert s.entities[0].value in s.text


def test_counts_surnames_whole_words_other_values_and_altered_clean_documents():
    samples = [s for s in code_persons.documents("holdout") if s.template == "config"][:3]
    clean = [s for s in code_persons.documents("holdout") if s.category == CLEAN][:2]
    hidden = samples[0].entities[0].value

    def hides_one_person_and_edits_one_clean(text: str) -> str:
        return text.replace(hidden, "<PERSON_1>").replace(clean[0].text, clean[0].text + " ")

    figures = code_persons.measure(samples + clean, hides_one_person_and_edits_one_clean, "t")
    leaked = sum(s.entities[0].value != hidden for s in samples)
    assert (figures.persons, figures.surnames_leaked) == (3, leaked)
    assert (figures.clean_docs, figures.clean_altered) == (2, 1)


def test_a_surname_inside_a_longer_word_is_not_a_leak():
    sample = next(s for s in code_persons.documents("holdout") if s.category == PII)
    last = code_persons.surname(sample.entities[0].value)
    assert code_persons.measure([sample], lambda _: f"x{last}y {last}ish", "t").surnames_leaked == 0
    assert code_persons.measure([sample], lambda _: f"by {last}.", "t").surnames_leaked == 1
