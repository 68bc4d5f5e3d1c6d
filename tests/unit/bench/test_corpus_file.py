"""JSONL corpus files (`ztgate bench redaction --corpus FILE`) and the independent tuning corpus."""

from __future__ import annotations

import json

import pytest

from ztgate_bench import context_corpus, corpus_file
from ztgate_bench.redaction_corpus import CLEAN


def test_a_written_corpus_loads_back_the_same(tmp_path) -> None:  # noqa: ANN001
    samples = context_corpus.generate(40, "tune")
    path = tmp_path / "c.jsonl"
    assert corpus_file.dump(samples, path) == 40
    assert corpus_file.load(path) == samples


def test_the_splits_are_seeded_and_differ() -> None:
    assert context_corpus.generate(30, "holdout") == context_corpus.generate(30, "holdout")
    assert context_corpus.generate(30, "holdout") != context_corpus.generate(30, "tune")
    held_out = {t.template_id for t in context_corpus.TEMPLATES if t.held_out}
    assert not {s.template for s in context_corpus.generate(300, "tune")} & held_out


def test_every_value_is_in_its_text_and_clean_documents_list_none() -> None:
    for s in context_corpus.generate(200, "holdout"):
        assert all(e.value in s.text for e in s.entities)
        assert (s.category == CLEAN) == (not s.entities)


@pytest.mark.parametrize(("row", "message"), [
    ({"category": "pii", "text": "hi Rose", "entities": [{"type": "PERSON", "value": "Tyler"}]}, "not in the text"),
    ({"category": "clean", "text": "Rose", "entities": [{"type": "PERSON", "value": "Rose"}]}, "lists no entities"),
    ({"category": "pii", "text": "x", "entities": [{"type": "NAME", "value": "x"}]}, "unknown"),
    ({"category": "other", "text": "x"}, "category"),
    ({"category": "pii"}, "text"),
])
def test_a_line_of_another_shape_is_refused_with_its_line_number(tmp_path, row: dict, message: str) -> None:  # noqa: ANN001
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps({"category": "clean", "text": "ok"}) + "\n" + json.dumps(row) + "\n")
    with pytest.raises(corpus_file.CorpusFileError, match=rf"bad.jsonl:2: .*{message}"):
        corpus_file.load(path)
