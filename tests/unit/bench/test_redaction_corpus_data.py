"""The corpus templates are a data file; the generator's output for a seed did not move with them."""

from __future__ import annotations

import hashlib
import json

import pytest
import yaml

from ztgate_bench import redaction_corpus
from ztgate_bench.redaction_corpus import CATEGORIES, generate

# sha256 of generate(400, 7) (ids, categories, texts, entities, template ids) recorded with the templates
# still Python literals, before they moved to bench/ztgate_bench/data/redaction_templates.yaml. A change here
# means every figure in docs/benchmarks.md measured on the generated corpus is on a different corpus.
SEED_7_400 = "23484d8c75d0f302e9e9178bf187a9cb524b15f6c515ac9d8af8776b13ac4ebe"


def _digest(samples: list) -> str:
    blob = json.dumps([[s.sample_id, s.category, s.text, [list(e) for e in s.entities], s.template]
                       for s in samples], ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()


def test_the_generated_corpus_is_byte_identical_to_the_one_before_the_move() -> None:
    assert _digest(generate(400, 7)) == SEED_7_400
    assert _digest(generate(400, 8)) != SEED_7_400  # the digest does see the corpus


def test_the_templates_are_package_data_with_every_category() -> None:
    from importlib import resources

    text = resources.files("ztgate_bench").joinpath(redaction_corpus.TEMPLATES_FILE).read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    assert set(data) == set(CATEGORIES)
    assert sum(map(len, data.values())) == len(redaction_corpus._TEMPLATES) > 300


@pytest.mark.parametrize("broken", ["pii: [a]\n", "pii: [a]\nsecret: [b]\nclean: [3]\n", "- a\n"])
def test_a_templates_file_of_the_wrong_shape_is_refused_naming_the_file(monkeypatch, broken: str) -> None:
    """Fault injection: a stand-in for importlib.resources serves the malformed file."""
    class _File:
        def joinpath(self, _name: str) -> _File:
            return self

        def read_text(self, encoding: str) -> str:
            return broken

    monkeypatch.setattr(redaction_corpus.resources, "files", lambda _pkg: _File())
    with pytest.raises(ValueError, match="redaction_templates.yaml"):
        redaction_corpus._load_templates()
