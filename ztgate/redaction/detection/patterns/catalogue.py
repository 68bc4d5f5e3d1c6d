"""The pattern-rule catalogue: YAML files under rules/, validated into typed rules, with a content hash."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ztgate.redaction.data_dirs import RULES_DIR
from ztgate.redaction.detection.patterns.validators import VALIDATORS
from ztgate.redaction.detection.wordlists import WORDS_DIR, phrases
from ztgate.redaction.types import NER_ENTITY_TYPES, PATTERN_PII_ENTITY_TYPES, SECRET_ENTITY_TYPES

DEFAULT_RULES_DIR = RULES_DIR
# Types a rule may report. PERSON and LOCATION are NER's types, which some rules also find by shape or label
# (street addresses, "Name: ..."); both tiers' findings of one type merge like any overlapping findings.
PATTERN_NER_ENTITY_TYPES: frozenset[str] = frozenset({"PERSON", "LOCATION"}) & NER_ENTITY_TYPES
PATTERN_ENTITY_TYPES: frozenset[str] = PATTERN_PII_ENTITY_TYPES | SECRET_ENTITY_TYPES | PATTERN_NER_ENTITY_TYPES
# Bumped when the meaning of a rule field changes, so that caches keyed by the hash are invalidated.
CATALOGUE_SCHEMA_VERSION = 1
_VALUE_GROUP = re.compile(r"value(?:_[0-9]+)?")


class CatalogueError(ValueError):
    """The catalogue cannot be loaded; the message names the file and the rule."""


def python_flags(*, caseless: bool, unicode: bool) -> re.RegexFlag:
    """`re` flags that give a rule's pattern the semantics Hyperscan gives it (ASCII classes unless UCP)."""
    flags = re.NOFLAG if unicode else re.ASCII
    return flags | re.IGNORECASE if caseless else flags


class Context(BaseModel):
    """Words near a value that confirm it, or veto it. Matched case-insensitively, as whole words.

    When both kinds occur, the word nearest to the value decides.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    words: tuple[str, ...] = ()  # any of these near the value confirms it
    # Word lists of data/words/ whose phrases join `words` (labels in many languages live there, once).
    word_lists: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()  # any of these near the value (nearer than any of `words`) drops it
    deny_lists: tuple[str, ...] = ()  # word lists of data/words/ whose phrases join `deny`
    required: bool = False  # drop the value unless one of `words` is near
    boost: float = Field(0.0, ge=0.0, le=1.0)  # added to the score (capped at 1) when a word is near
    before: int = Field(48, ge=0, le=512)  # code points looked at before the value
    after: int = Field(16, ge=0, le=512)  # code points looked at after the value

    @model_validator(mode="before")
    @classmethod
    def _join_word_lists(cls, data: Any) -> Any:
        if not isinstance(data, Mapping) or not (data.get("word_lists") or data.get("deny_lists")):
            return data
        joined = dict(data)
        for field_name, lists_name in (("words", "word_lists"), ("deny", "deny_lists")):
            phrases_of = list(data.get(field_name) or ())
            for name in data.get(lists_name) or ():
                try:
                    listed = phrases(name)
                except FileNotFoundError:
                    raise ValueError(f"no word list {name!r} in {WORDS_DIR}") from None
                phrases_of += [w for w in listed if w not in phrases_of]
            joined[field_name] = tuple(phrases_of)
        return joined

    @field_validator("words", "deny")
    @classmethod
    def _non_blank(cls, words: tuple[str, ...]) -> tuple[str, ...]:
        if any(not w.strip() for w in words):
            raise ValueError("context words must not be blank")
        return words

    @model_validator(mode="after")
    def _consistent(self) -> Context:
        if self.required and not self.words:
            raise ValueError("required context needs at least one word")
        if not self.words and not self.deny:
            raise ValueError("context needs words, deny words, or both")
        if self.before == 0 and self.after == 0:
            raise ValueError("context window is empty (before and after are both 0)")
        return self


class Rule(BaseModel):
    """One catalogue rule: a Hyperscan pattern, an entity type, a validator and a score.

    When the pattern has named groups `value` (or `value_2`, `value_3`, ... for alternatives),
    Hyperscan matches the whole span and Python `re` then extracts the first group that took part:
    only that part is reported. `not_before`/`not_after` are Python regexes that must not match right
    before/after the value: they stand in for the lookarounds Hyperscan does not support.
    `longest_only` suits values that run to a delimiter: when the longest match from a start fails
    its checks, its prefixes are not tried (Hyperscan reports every one of them).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=64)
    entity: str
    description: str = ""
    pattern: str = Field(min_length=1)
    validator: str | None
    score: float = Field(gt=0.0, le=1.0)
    caseless: bool = False  # HS_FLAG_CASELESS / re.IGNORECASE
    unicode: bool = False  # HS_FLAG_UCP: \w, \d, \s and \b follow Unicode properties, not ASCII
    longest_only: bool = False  # judge only the longest match from each start (values that run to a delimiter)
    min_length: int | None = Field(None, ge=1)  # HS_EXT_FLAG_MIN_LENGTH: shortest whole match, in bytes
    context: Context | None = None
    not_before: str | None = None
    not_after: str | None = None

    @field_validator("entity")
    @classmethod
    def _known_entity(cls, entity: str) -> str:
        if entity not in PATTERN_ENTITY_TYPES:
            raise ValueError(f"unknown entity type {entity!r} (known: {', '.join(sorted(PATTERN_ENTITY_TYPES))})")
        return entity

    @field_validator("validator")
    @classmethod
    def _known_validator(cls, name: str | None) -> str | None:
        if name is not None and name not in VALIDATORS:
            raise ValueError(f"unknown validator {name!r} (known: {', '.join(sorted(VALIDATORS))})")
        return name

    @field_validator("not_before", "not_after")
    @classmethod
    def _guard_compiles(cls, guard: str | None) -> str | None:
        if guard is not None:
            try:
                re.compile(guard)
            except re.error as exc:
                raise ValueError(f"not a valid regex: {exc}") from None
        return guard

    @model_validator(mode="after")
    def _pattern_compiles(self) -> Rule:
        try:
            compiled = re.compile(self.pattern, python_flags(caseless=self.caseless, unicode=self.unicode))
        except re.error as exc:
            raise ValueError(f"pattern is not a valid regex: {exc}") from None
        bad = [g for g in compiled.groupindex if g.startswith("value") and not _VALUE_GROUP.fullmatch(g)]
        if bad:
            raise ValueError(f"value groups must be named value or value_<n>, not {', '.join(bad)}")
        return self

    @property
    def value_groups(self) -> tuple[str, ...]:
        """Names of the groups that hold the value, in order of preference."""
        names = re.compile(self.pattern, python_flags(caseless=self.caseless, unicode=self.unicode)).groupindex
        return tuple(sorted((g for g in names if _VALUE_GROUP.fullmatch(g)), key=lambda g: (len(g), g)))


class _RuleFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    description: str = ""
    rules: list[Any]


@dataclass(frozen=True)
class Catalogue:
    """The validated rules in load order (a rule's index is its Hyperscan expression id)."""

    rules: tuple[Rule, ...]
    sources: Mapping[str, str] = field(default_factory=dict)  # rule id -> file it came from
    sha256: str = ""

    def __post_init__(self) -> None:
        if not self.rules:
            raise CatalogueError("the catalogue has no rules")
        object.__setattr__(self, "sources", MappingProxyType(dict(self.sources)))
        object.__setattr__(self, "sha256", catalogue_hash(self.rules))

    @classmethod
    def from_rules(cls, rules: Iterable[Rule | Mapping[str, Any]], source: str = "<memory>") -> Catalogue:
        """A catalogue from rule objects or plain dicts (validated like YAML rules)."""
        parsed: list[Rule] = []
        for index, raw in enumerate(rules):
            parsed.append(raw if isinstance(raw, Rule) else _parse_rule(raw, source, index))
        _check_unique(parsed, source)
        return cls(tuple(parsed), {r.id: source for r in parsed})

    @property
    def entity_types(self) -> frozenset[str]:
        return frozenset(rule.entity for rule in self.rules)

    def rule(self, rule_id: str) -> Rule:
        for rule in self.rules:
            if rule.id == rule_id:
                return rule
        raise KeyError(rule_id)


def catalogue_hash(rules: Sequence[Rule]) -> str:
    """SHA-256 of the rules' canonical JSON (order included: it fixes the expression ids)."""
    canonical = json.dumps(
        {"schema": CATALOGUE_SCHEMA_VERSION, "rules": [r.model_dump(mode="json") for r in rules]},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
    )
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()


def _format_errors(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"])
        message = err["msg"].removeprefix("Value error, ")
        if err["type"] == "extra_forbidden":
            message = "unknown key"
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts)


def _parse_rule(raw: object, source: str, index: int) -> Rule:
    rule_id = raw.get("id") if isinstance(raw, Mapping) else None
    label = f"rule {rule_id!r}" if isinstance(rule_id, str) else f"rule #{index + 1}"
    if not isinstance(raw, Mapping):
        raise CatalogueError(f"{source}: {label}: expected a mapping, got {type(raw).__name__}")
    try:
        return Rule.model_validate(dict(raw))
    except ValidationError as exc:
        raise CatalogueError(f"{source}: {label}: {_format_errors(exc)}") from None


def _check_unique(rules: Sequence[Rule], source: str) -> None:
    seen: dict[str, int] = {}
    for rule in rules:
        seen[rule.id] = seen.get(rule.id, 0) + 1
    dupes = sorted(rid for rid, n in seen.items() if n > 1)
    if dupes:
        raise CatalogueError(f"{source}: rule {dupes[0]!r}: duplicate rule id")


def _rule_files(paths: Path | Sequence[Path] | None) -> list[Path]:
    if paths is None:
        paths = DEFAULT_RULES_DIR
    if isinstance(paths, (str, Path)):
        paths = [Path(paths)]
    files: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            found = sorted(p for p in path.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())
            if not found:
                raise CatalogueError(f"{path}: no rule files (*.yaml) in this directory")
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            raise CatalogueError(f"{path}: no such rule file or directory")
    return files


def load_catalogue(paths: Path | Sequence[Path] | None = None) -> Catalogue:
    """Load and validate rule files: a directory (its *.yaml, sorted by name), files, or the built-in rules.

    Raises CatalogueError naming the file and rule on unknown keys, unknown entity types or validator
    names, patterns that do not compile, and duplicate rule ids.
    """
    rules: list[Rule] = []
    sources: dict[str, str] = {}
    for path in _rule_files(paths):
        try:
            document = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
            raise CatalogueError(f"{path}: cannot read rule file: {exc}") from None
        try:
            rule_file = _RuleFile.model_validate(document)
        except ValidationError as exc:
            raise CatalogueError(f"{path}: {_format_errors(exc)}") from None
        for index, raw in enumerate(rule_file.rules):
            rule = _parse_rule(raw, str(path), index)
            if rule.id in sources:
                raise CatalogueError(f"{path}: rule {rule.id!r}: duplicate rule id (also in {sources[rule.id]})")
            sources[rule.id] = str(path)
            rules.append(rule)
    return Catalogue(tuple(rules), sources)
