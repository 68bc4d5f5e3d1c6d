"""The rule catalogue: the built-in YAML loads; bad files stop loading with the file and rule named; a stable hash."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ztgate.redaction.detection.patterns.catalogue import (
    DEFAULT_RULES_DIR,
    Catalogue,
    CatalogueError,
    Rule,
    catalogue_hash,
    load_catalogue,
)
from ztgate.redaction.detection.patterns.validators import VALIDATORS
from ztgate.redaction.types import PATTERN_PII_ENTITY_TYPES, SECRET_ENTITY_TYPES

GOOD_RULE = """\
  - id: {rule_id}
    entity: EMAIL_ADDRESS
    pattern: '\\b[a-z]+@[a-z]+\\.com\\b'
    validator: null
    score: 0.9
"""


def write(directory: Path, name: str, body: str) -> Path:
    path = directory / name
    path.write_text(body, encoding="utf-8")
    return path


def test_built_in_catalogue_loads_with_unique_ids_known_entities_and_validators() -> None:
    catalogue = load_catalogue()
    ids = [r.id for r in catalogue.rules]
    assert len(ids) == len(set(ids)) >= 30
    assert catalogue.entity_types <= PATTERN_PII_ENTITY_TYPES | SECRET_ENTITY_TYPES | {"PERSON", "LOCATION"}
    assert {r.validator for r in catalogue.rules} - {None} <= set(VALIDATORS)
    assert {Path(p).name for p in catalogue.sources.values()} == {"national_ids.yaml", "people_places.yaml", "pii.yaml",
                                                                 "secrets.yaml"}
    assert Path(catalogue.sources["email_address"]).parent == DEFAULT_RULES_DIR


def test_value_groups_are_found_in_order_of_preference() -> None:
    catalogue = load_catalogue()
    assert catalogue.rule("password_assignment").value_groups == ("value", "value_2", "value_3")
    assert catalogue.rule("email_address").value_groups == ()


def test_hash_is_stable_and_follows_content_and_order() -> None:
    a, b = load_catalogue(), load_catalogue()
    assert a.sha256 == b.sha256 and re.fullmatch(r"[0-9a-f]{64}", a.sha256)
    rules = list(a.rules)
    changed = [rules[0].model_copy(update={"score": 0.5}), *rules[1:]]
    assert catalogue_hash(changed) != a.sha256
    assert catalogue_hash([rules[1], rules[0], *rules[2:]]) != a.sha256


def test_hash_ignores_comments_and_layout(tmp_path: Path) -> None:
    first = load_catalogue(write(tmp_path, "a.yaml", "rules:\n" + GOOD_RULE.format(rule_id="mail")))
    second = load_catalogue(write(tmp_path, "b.yaml", "# a comment\nrules:\n\n" + GOOD_RULE.format(rule_id="mail")))
    assert first.sha256 == second.sha256


BAD_RULES = [
    ("unknown_key", "    colour: blue\n", r"rule 'bad': colour: unknown key"),
    ("unknown_validator", None, r"rule 'bad': validator: unknown validator 'lunh'"),
    ("bad_regex", None, r"rule 'bad': pattern is not a valid regex"),
    ("unknown_entity", None, r"rule 'bad': entity: unknown entity type 'SHOE_SIZE'"),
    ("bad_guard", "    not_after: '[a-'\n", r"rule 'bad': not_after: not a valid regex"),
    ("bad_value_group", None, r"rule 'bad': value groups must be named value or value_<n>"),
    ("required_context_without_words", "    context: {required: true, deny: [x]}\n",
     r"rule 'bad': context: required context needs at least one word"),
    ("context_unknown_key", "    context: {words: [ssn], radius: 4}\n", r"rule 'bad': context.radius: unknown key"),
    ("score_out_of_range", None, r"rule 'bad': score"),
    ("bad_id", None, r"rule 'Bad-Id': id"),
]


def _bad_rule(kind: str, extra: str | None) -> str:
    fields = {"id": "bad", "entity": "EMAIL_ADDRESS", "pattern": "'x+'", "validator": "null", "score": "0.9"}
    if kind == "unknown_validator":
        fields["validator"] = "lunh"
    elif kind == "bad_regex":
        fields["pattern"] = "'(unclosed'"
    elif kind == "unknown_entity":
        fields["entity"] = "SHOE_SIZE"
    elif kind == "bad_value_group":
        fields["pattern"] = "'(?P<valueX>x+)'"
    elif kind == "score_out_of_range":
        fields["score"] = "1.5"
    elif kind == "bad_id":
        fields["id"] = "Bad-Id"
    body = "".join(f"    {k}: {v}\n" for k, v in fields.items()).replace("    id:", "  - id:", 1)
    return body + (extra or "")


@pytest.mark.parametrize(("kind", "extra", "message"), BAD_RULES, ids=[b[0] for b in BAD_RULES])
def test_bad_rule_stops_loading_naming_file_and_rule(tmp_path: Path, kind: str, extra: str | None,
                                                     message: str) -> None:
    path = write(tmp_path, "rules.yaml", "rules:\n" + GOOD_RULE.format(rule_id="fine") + _bad_rule(kind, extra))
    with pytest.raises(CatalogueError, match=re.escape(str(path)) + ": " + message):
        load_catalogue(path)


def test_duplicate_rule_id_across_files_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "rules:\n" + GOOD_RULE.format(rule_id="mail"))
    write(tmp_path, "b.yaml", "rules:\n" + GOOD_RULE.format(rule_id="mail"))
    with pytest.raises(CatalogueError, match=r"b\.yaml: rule 'mail': duplicate rule id \(also in .*a\.yaml\)"):
        load_catalogue(tmp_path)


@pytest.mark.parametrize(("body", "message"), [
    ("rules: [unclosed\n", "cannot read rule file"),
    ("rules:\n  - just a string\n", "rule #1: expected a mapping"),
    ("version: 2\nrules: []\n", "version: unknown key"),
    ("- a list at the top\n", "Input should be a valid dictionary"),
])
def test_malformed_file_is_refused_with_its_name(tmp_path: Path, body: str, message: str) -> None:
    path = write(tmp_path, "broken.yaml", body)
    with pytest.raises(CatalogueError, match=re.escape(str(path)) + ".*" + re.escape(message)):
        load_catalogue(path)


def test_missing_paths_and_empty_catalogues_are_refused(tmp_path: Path) -> None:
    with pytest.raises(CatalogueError, match="no such rule file or directory"):
        load_catalogue(tmp_path / "nope.yaml")
    with pytest.raises(CatalogueError, match=r"no rule files \(\*\.yaml\)"):
        load_catalogue(tmp_path)
    with pytest.raises(CatalogueError, match="no rules"):
        load_catalogue(write(tmp_path, "empty.yaml", "rules: []\n"))


def test_directory_loads_files_in_name_order(tmp_path: Path) -> None:
    write(tmp_path, "b.yaml", "rules:\n" + GOOD_RULE.format(rule_id="second"))
    write(tmp_path, "a.yaml", "rules:\n" + GOOD_RULE.format(rule_id="first"))
    write(tmp_path, "notes.txt", "ignored")
    assert [r.id for r in load_catalogue(tmp_path).rules] == ["first", "second"]


def test_from_rules_validates_dicts_like_yaml() -> None:
    catalogue = Catalogue.from_rules([{"id": "x", "entity": "JWT", "pattern": "eyJ", "validator": None,
                                       "score": 0.5}])
    assert isinstance(catalogue.rules[0], Rule)
    with pytest.raises(CatalogueError, match=r"<memory>: rule 'y': validator"):
        Catalogue.from_rules([{"id": "y", "entity": "JWT", "pattern": "eyJ", "validator": "nope", "score": 0.5}])
    with pytest.raises(CatalogueError, match="duplicate rule id"):
        Catalogue.from_rules([catalogue.rules[0], catalogue.rules[0]])
