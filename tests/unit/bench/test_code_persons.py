"""The code-and-technical-text corpus of private persons: its files match their generator, its splits share no
name, template or tool, and its counts are what a redactor leaves (plain functions as redactors, so that the
counting is what is under test; the real pipeline is scored by the bench)."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest
from ztgate_bench import code_persons, corpus_file
from ztgate_bench.redaction_corpus import CLEAN, PII

CORPORA = Path(code_persons.__file__).resolve().parent.parent / "corpora"
FILES = {"tune": "code-persons-tune.jsonl", "tune2": "code-persons-tune-2.jsonl", "tune3": "code-persons-tune-3.jsonl",
         "tune4": "code-persons-tune-4.jsonl", "tune5": "code-persons-tune-5.jsonl", "tune6": "code-persons-tune-6.jsonl",
         "tune7": "code-persons-tune-7.jsonl",
         "tune8": "code-persons-tune-8.jsonl", "tune9": "code-persons-tune-9.jsonl",
         "tune10": "code-persons-tune-10.jsonl", "tune11": "code-persons-tune-11.jsonl",
         "tune12": "code-persons-tune-12.jsonl",
         "holdout": "code-persons-holdout.jsonl",
         "holdout3": "code-persons-holdout-3.jsonl", "holdout4": "code-persons-holdout-4.jsonl",
         "holdout5": "code-persons-holdout-5.jsonl", "holdout6": "code-persons-holdout-6.jsonl",
         "holdout7": "code-persons-holdout-7.jsonl", "holdout8": "code-persons-holdout-8.jsonl",
         "holdout9": "code-persons-holdout-9.jsonl", "holdout10": "code-persons-holdout-10.jsonl",
         "holdout11": "code-persons-holdout-11.jsonl", "holdout12": "code-persons-holdout-12.jsonl"}


def test_every_split_has_its_file():
    assert set(FILES) == set(code_persons.SEEDS)


@pytest.mark.parametrize("split", sorted(FILES))
def test_the_committed_file_is_what_the_generator_writes(split):
    committed = corpus_file.load(CORPORA / FILES[split])
    assert committed == code_persons.documents(split)
    assert (CORPORA / FILES[split]).stat().st_size < 300_000


@pytest.mark.parametrize("split", ["holdout4", "holdout5", "holdout6", "holdout7", "holdout8", "holdout9",
                                   "holdout10", "holdout11", "holdout12"])
def test_the_later_held_out_files_stay_small_and_name_every_address_in_ascii(split):
    assert (CORPORA / FILES[split]).stat().st_size < 80_000
    samples = code_persons.documents(split)
    assert len({s.entities[0].value for s in samples if s.category == PII}) > 100
    mails = [e.value for s in samples for e in s.entities if e.entity_type == "EMAIL_ADDRESS"]
    assert mails and all(m.isascii() for m in mails)
    assert any(not s.entities[0].value.isascii() for s in samples if s.category == PII)


def test_letters_lose_their_marks_in_addresses_and_ascii_is_unchanged():
    assert code_persons._ascii("bērziņš.ólafsdóttir") == "berzins.olafsdottir"
    assert code_persons._ascii("aysel.aydın") == "aysel.aydin"
    assert code_persons._ascii("kwame.te-kani") == "kwame.te-kani"


def test_the_splits_share_no_name_template_or_tool():
    for a, b in combinations(sorted(code_persons.SEEDS), 2):
        for pools in (code_persons.GIVEN, code_persons.SURNAMES, code_persons.TOOLS):
            assert not set(pools[a]) & set(pools[b]), (a, b)
        for templates in (code_persons.PERSON_TEMPLATES, code_persons.CLEAN_TEMPLATES):
            assert not {t for _, t in templates[a]} & {t for _, t in templates[b]}, (a, b)


@pytest.mark.parametrize(("split", "mails"), [("holdout5", 40), ("holdout6", 48), ("holdout7", 48),
                                                   ("holdout8", 56), ("holdout9", 64),
                                                   ("holdout10", 64), ("holdout11", 64),
                                                   ("holdout12", 72)])
def test_the_later_held_out_splits_share_no_mail_domain_and_have_their_counts(split, mails):
    others = {d for other, domains in code_persons.MAIL_DOMAINS.items() if other != split for d in domains}
    assert not set(code_persons.MAIL_DOMAINS[split]) & others
    samples = code_persons.documents(split)
    assert sum(s.category == PII for s in samples) == 160 and sum(s.category == CLEAN for s in samples) == 100
    assert sum(e.entity_type == "EMAIL_ADDRESS" for s in samples for e in s.entities) == mails


def test_the_sixth_tuning_split_shares_no_mail_domain_and_uses_name_like_tools_in_both_sides_formats():
    others = {d for other, domains in code_persons.MAIL_DOMAINS.items() if other != "tune6" for d in domains}
    assert not set(code_persons.MAIL_DOMAINS["tune6"]) & others
    samples = code_persons.documents("tune6")
    assert sum(s.category == PII for s in samples) == 96 and sum(s.category == CLEAN for s in samples) == 120
    # every kind of clean document has person documents of the same kind, so both sides are measured per format
    assert ({f for f, _ in code_persons.PERSON_TEMPLATES["tune6"]}
            == {f for f, _ in code_persons.CLEAN_TEMPLATES["tune6"]})


@pytest.mark.parametrize("held_out", ["holdout6", "holdout7", "holdout8", "holdout9", "holdout10", "holdout11",
                                      "holdout12"])
def test_the_sixth_to_twelfth_held_out_splits_have_twenty_template_kinds_no_other_split_has(held_out):
    def kinds(split: str) -> set[str]:
        return {family for templates in (code_persons.PERSON_TEMPLATES, code_persons.CLEAN_TEMPLATES)
                for family, _ in templates[split]}

    assert len({family for family, _ in code_persons.PERSON_TEMPLATES[held_out]}) == 20
    assert kinds(held_out) == {family for family, _ in code_persons.PERSON_TEMPLATES[held_out]}
    for split in code_persons.SEEDS:
        if split != held_out:
            assert not kinds(held_out) & kinds(split), split


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


def test_the_fifth_tuning_split_shares_no_mail_domain_and_holds_both_sides():
    others = {d for other, domains in code_persons.MAIL_DOMAINS.items() if other != "tune5" for d in domains}
    assert not set(code_persons.MAIL_DOMAINS["tune5"]) & others
    samples = code_persons.documents("tune5")
    assert sum(s.category == PII for s in samples) == 160 and sum(s.category == CLEAN for s in samples) == 144


def test_the_seventh_tuning_split_splits_names_across_fields_and_measures_both_sides_per_kind():
    others = {d for other, domains in code_persons.MAIL_DOMAINS.items() if other != "tune7" for d in domains}
    assert not set(code_persons.MAIL_DOMAINS["tune7"]) & others
    samples = code_persons.documents("tune7")
    assert sum(s.category == PII for s in samples) == 128 and sum(s.category == CLEAN for s in samples) == 140
    assert ({f for f, _ in code_persons.PERSON_TEMPLATES["tune7"]}
            == {f for f, _ in code_persons.CLEAN_TEMPLATES["tune7"]})
    # a name split across fields (no full name in the document) is listed by its surname, which is what is scored
    split = [s for s in samples if s.category == PII and " " not in s.entities[0].value]
    assert len(split) == 8 * sum("{name}" not in t for _, t in code_persons.PERSON_TEMPLATES["tune7"]) > 0
    assert all(code_persons.surname(s.entities[0].value) == s.entities[0].value for s in split)
    assert all(any(g in s.text for g in code_persons.GIVEN["tune7"]) for s in split)


def test_the_eighth_tuning_split_shares_no_mail_domain_and_holds_both_sides_of_each_kind():
    others = {d for other, domains in code_persons.MAIL_DOMAINS.items() if other != "tune8" for d in domains}
    assert not set(code_persons.MAIL_DOMAINS["tune8"]) & others
    samples = code_persons.documents("tune8")
    assert sum(s.category == PII for s in samples) == 96 and sum(s.category == CLEAN for s in samples) == 120
    # every kind of clean document (a table of things, a team's or a list's address) has person documents of the
    # same kind (a table of persons, a person's address), so both sides are measured per format
    assert ({f for f, _ in code_persons.PERSON_TEMPLATES["tune8"]}
            == {f for f, _ in code_persons.CLEAN_TEMPLATES["tune8"]})
    mails = [e.value for s in samples for e in s.entities if e.entity_type == "EMAIL_ADDRESS"]
    assert len(mails) == 72 and all(m.isascii() for m in mails)


def test_the_ninth_tuning_split_shares_no_mail_domain_and_holds_both_sides_of_each_kind():
    others = {d for other, domains in code_persons.MAIL_DOMAINS.items() if other != "tune9" for d in domains}
    assert not set(code_persons.MAIL_DOMAINS["tune9"]) & others
    samples = code_persons.documents("tune9")
    assert sum(s.category == PII for s in samples) == 136 and sum(s.category == CLEAN for s in samples) == 140
    # every kind of person document (a contact's copula, an attendee list, a manifest's author) has clean documents
    # of the same kind (a team, a bot, a rota or a product in the person's place); a product's own name is clean only
    assert ({f for f, _ in code_persons.PERSON_TEMPLATES["tune9"]}
            < {f for f, _ in code_persons.CLEAN_TEMPLATES["tune9"]})
    mails = [e.value for s in samples for e in s.entities if e.entity_type == "EMAIL_ADDRESS"]
    assert len(mails) == 32 and all(m.isascii() for m in mails)


def test_the_tenth_tuning_split_shares_no_mail_domain_and_each_clean_kind_has_person_documents():
    others = {d for other, domains in code_persons.MAIL_DOMAINS.items() if other != "tune10" for d in domains}
    assert not set(code_persons.MAIL_DOMAINS["tune10"]) & others
    samples = code_persons.documents("tune10")
    assert sum(s.category == PII for s in samples) == 160 and sum(s.category == CLEAN for s in samples) == 100
    # twenty file kinds, one template each; every clean kind (a team, a bot, an organisation in the author-like slot)
    # is one of them, so the slot is measured on both sides in its own syntax
    kinds = [f for f, _ in code_persons.PERSON_TEMPLATES["tune10"]]
    assert len(kinds) == len(set(kinds)) == 20
    assert {f for f, _ in code_persons.CLEAN_TEMPLATES["tune10"]} < set(kinds)
    earlier = {f for split in code_persons.SEEDS if split != "tune10"
               for f, _ in code_persons.PERSON_TEMPLATES[split] + code_persons.CLEAN_TEMPLATES[split]}
    assert not set(kinds) & earlier
    mails = [e.value for s in samples for e in s.entities if e.entity_type == "EMAIL_ADDRESS"]
    assert all(m.isascii() for m in mails)


def test_the_eleventh_tuning_split_has_twenty_new_kinds_and_measures_publishers_and_product_names_both_sides():
    others = {d for other, domains in code_persons.MAIL_DOMAINS.items() if other != "tune11" for d in domains}
    assert not set(code_persons.MAIL_DOMAINS["tune11"]) & others
    samples = code_persons.documents("tune11")
    assert sum(s.category == PII for s in samples) == 160 and sum(s.category == CLEAN for s in samples) == 100
    kinds = [f for f, _ in code_persons.PERSON_TEMPLATES["tune11"]]
    assert len(kinds) == len(set(kinds)) == 20
    assert {f for f, _ in code_persons.CLEAN_TEMPLATES["tune11"]} < set(kinds)
    earlier = {f for split in code_persons.SEEDS if split != "tune11"
               for f, _ in code_persons.PERSON_TEMPLATES[split] + code_persons.CLEAN_TEMPLATES[split]}
    assert not set(kinds) & earlier
    # every clean document names its product with a tool (a given name or a surname) in the manifest's own slot
    tools = code_persons.TOOLS["tune11"]
    assert all(any(t in s.text for t in tools) for s in samples if s.category == CLEAN)
    mails = [e.value for s in samples for e in s.entities if e.entity_type == "EMAIL_ADDRESS"]
    assert mails and all(m.isascii() for m in mails)


def test_the_twelfth_tuning_split_names_lists_of_two_and_organisation_slots_in_new_kinds():
    others = {d for other, domains in code_persons.MAIL_DOMAINS.items() if other != "tune12" for d in domains}
    assert not set(code_persons.MAIL_DOMAINS["tune12"]) & others
    samples = code_persons.documents("tune12")
    assert sum(s.category == PII for s in samples) == 176 and sum(s.category == CLEAN for s in samples) == 120
    kinds = [f for f, _ in code_persons.PERSON_TEMPLATES["tune12"]]
    assert len(kinds) == len(set(kinds)) == 22
    assert {f for f, _ in code_persons.CLEAN_TEMPLATES["tune12"]} < set(kinds)
    earlier = {f for split in code_persons.SEEDS if split != "tune12"
               for f, _ in code_persons.PERSON_TEMPLATES[split] + code_persons.CLEAN_TEMPLATES[split]}
    assert not set(kinds) & earlier
    # a list names two persons of different surnames, the private one listed first being the later item
    lists = [s for s in samples if s.category == PII and sum(e.entity_type == "PERSON" for e in s.entities) == 2]
    assert len(lists) == 14 * 8
    assert all(s.entities[0].value.split(" ", 1)[1] != s.entities[1].value.split(" ", 1)[1] for s in lists)
    assert all(s.text.index(s.entities[1].value) < s.text.index(s.entities[0].value) for s in lists)
    mails = [e.value for s in samples for e in s.entities if e.entity_type == "EMAIL_ADDRESS"]
    assert mails and all(m.isascii() for m in mails)
