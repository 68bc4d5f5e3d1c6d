"""The golden files' schema (docs/golden.md): loaded, validated, and written back only by `--update`.

Curated inputs are YAML a person writes (`truth` marks what is sensitive); what the suite answered
when the goldens were last accepted is JSON that `ztgate eval --update` writes (`expected`). A file
that does not match is a GoldenError naming the file and the field.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ztgate.common.config import ConfigError

REDACTION_SCHEMA = "ztgate.golden.redaction/1"
REDACTION_EXPECTED_SCHEMA = "ztgate.golden.redaction-expected/1"
ANSWERS_SCHEMA = "ztgate.golden.answers/1"
ANSWERS_EXPECTED_SCHEMA = "ztgate.golden.answers-expected/1"
SPECULATION_SCHEMA = "ztgate.golden.speculation/1"
SPECULATION_EXPECTED_SCHEMA = "ztgate.golden.speculation-expected/1"
THRESHOLDS_SCHEMA = "ztgate.golden.thresholds/1"
# Where the goldens live, relative to the repository root.
DEFAULT_DIR = Path(__file__).resolve().parents[3] / "tests" / "golden"
CASE_ID = r"^[a-z0-9][a-z0-9_.-]{0,79}$"


class GoldenError(ConfigError):
    """A golden file that is missing or does not match its schema; the message names file and field."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --- redaction ---------------------------------------------------------------------------------

class Truth(_Model):
    """What a person marks as sensitive: every occurrence of `value` in the text is one of `type`."""

    type: str = Field(min_length=1)
    value: str = Field(min_length=1)


class RedactionCase(_Model):
    id: str = Field(pattern=CASE_ID)
    text: str = Field(min_length=1)
    # The policy the case is redacted under ("" is the suite's default).
    policy: str = ""
    truth: list[Truth] = []
    # Free text for people (e.g. the language of a contact block); never interpreted.
    note: str = ""
    # Part of the quick set (every case is in --full).
    quick: bool = True

    @model_validator(mode="after")
    def _values_in_text(self) -> RedactionCase:
        for i, item in enumerate(self.truth):
            if item.value not in self.text:
                raise ValueError(f"truth[{i}].value does not occur in the text")
        return self


class RedactionFile(_Model):
    schema_: Literal["ztgate.golden.redaction/1"] = Field(alias="schema")
    shape: str = Field(pattern=CASE_ID)
    cases: list[RedactionCase] = Field(min_length=1)


class Finding(_Model):
    type: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    # The recognizer that found it (a catalogue rule's id, SpacyRecognizer, GazetteerRecognizer, a context
    # recognizer's name): the report counts findings per recognizer and a drift names it. "" when not recorded.
    recognizer: str = ""


class RedactionAnswer(_Model):
    """What the gateway answered for one case: the scrubbed text and findings, or a refusal's status."""

    text: str | None = None
    findings: list[Finding] = []
    status: str = "OK"


class RedactionExpected(_Model):
    schema_: Literal["ztgate.golden.redaction-expected/1"] = Field(alias="schema")
    shape: str
    cases: dict[str, RedactionAnswer]


# --- answers -----------------------------------------------------------------------------------

class AnswerCase(_Model):
    id: str = Field(pattern=CASE_ID)
    # greedy: unary through the gateway and each engine directly; stream: chunks joined equal the
    # unary answer; pseudonym: the prompt carries PII, the answer's placeholders come back restored.
    kind: Literal["greedy", "stream", "pseudonym"]
    prompt: str = Field(min_length=1)
    max_tokens: int = Field(default=32, ge=1, le=256)
    # pseudonym: the values the restored answer must carry back (and no placeholder may remain).
    restores: list[str] = []
    # Reviewed facts, judged on every answer of the case (gateway, stream, each engine), case-insensitively:
    # each string here must appear ("Paris") ...
    must_contain: list[str] = []
    # ... and none of these may (a placeholder, another tenant's value). A placeholder fails any case anyway.
    must_not_contain: list[str] = []
    quick: bool = True


class AnswersFile(_Model):
    schema_: Literal["ztgate.golden.answers/1"] = Field(alias="schema")
    model: str = Field(min_length=1)
    cases: list[AnswerCase] = Field(min_length=1)


class EngineAnswer(_Model):
    token_ids: list[int]
    text: str


class AnswerExpected(_Model):
    """Per engine (primary: speculative; fallback: plain) the greedy tokens; the gateway's text."""

    engines: dict[str, EngineAnswer] = {}
    gateway: str | None = None
    # Whether primary and fallback agreed token for token when the golden was accepted.
    parity: bool | None = None


class AnswersExpected(_Model):
    schema_: Literal["ztgate.golden.answers-expected/1"] = Field(alias="schema")
    model: str
    # The configuration the answers were recorded under (engine, speculative method, parity, ...).
    configuration: dict[str, str]
    cases: dict[str, AnswerExpected]


# --- speculation -------------------------------------------------------------------------------

class SpeculationMethod(_Model):
    # Allowed absolute difference of the mean acceptance length from the accepted figure.
    tolerance: float = Field(default=0.15, gt=0)


class SpeculationFile(_Model):
    schema_: Literal["ztgate.golden.speculation/1"] = Field(alias="schema")
    max_tokens: int = Field(default=48, ge=1, le=256)
    prompts: list[str] = Field(min_length=1)
    methods: dict[str, SpeculationMethod] = Field(min_length=1)


class SpeculationExpected(_Model):
    schema_: Literal["ztgate.golden.speculation-expected/1"] = Field(alias="schema")
    # The method and draft length the primary ran when the figures were accepted.
    primary_method: str
    num_speculative_tokens: int = Field(ge=0)
    # Per method, the mean acceptance length (tokens per verification step) over the prompt set.
    methods: dict[str, float]


# --- thresholds --------------------------------------------------------------------------------

class Thresholds(_Model):
    schema_: Literal["ztgate.golden.thresholds/1"] = Field(alias="schema")
    # Redaction cases whose findings or output differ from the golden (each one named).
    max_redaction_drifted: int = Field(default=0, ge=0)
    # Recall and precision against the curated truth, per entity type ("*": any type not listed).
    min_recall: dict[str, float] = {"*": 0.0}
    min_precision: dict[str, float] = {"*": 0.0}
    # Clean texts that come back altered.
    max_clean_altered: int = Field(default=0, ge=0)
    # Share of blocked cases answered with their golden status.
    min_blocked_correct: float = Field(default=1.0, ge=0, le=1)
    # Share of greedy answers equal, token for token (direct) or text (gateway), to the golden.
    min_exact_match: float = Field(default=1.0, ge=0, le=1)
    # Streamed cases whose joined chunks differ from the unary answer.
    max_stream_mismatch: int = Field(default=0, ge=0)
    # Pseudonym cases whose answer keeps a placeholder or loses a value.
    max_restore_failures: int = Field(default=0, ge=0)
    # Answer cases whose answers break their reviewed facts (eval/facts.py).
    max_fact_failures: int = Field(default=0, ge=0)
    # Latency ratios measured in the same run (medians); never an absolute time.
    max_gateway_over_direct: float = Field(default=3.0, gt=0)
    # The primary with speculation on over the same engine with it off (eval/suite.py `plain`).
    max_speculative_over_plain: float = Field(default=2.0, gt=0)
    # Speed-check prompts whose greedy tokens differ with speculation on and off.
    max_speculation_mismatch: int = Field(default=0, ge=0)


# --- loading -----------------------------------------------------------------------------------

def _where(error: dict) -> str:
    return ".".join(str(part) for part in error["loc"]) or "(top level)"


def _read(path: Path) -> object:
    try:
        raw = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise GoldenError(f"{path}: cannot read the golden file ({exc.strerror})") from None
    try:
        return json.loads(raw) if path.suffix == ".json" else yaml.safe_load(raw)
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        raise GoldenError(f"{path}: not valid {'JSON' if path.suffix == '.json' else 'YAML'}: {exc}") from None


def load(path: Path, model: type[_Model]) -> _Model:
    """`path` parsed into `model`; GoldenError naming the file and the first field that does not fit."""
    data = _read(path)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        raise GoldenError(f"{path}: field {_where(first)}: {first['msg']}{more}; "
                          f"the schema is in docs/golden.md") from None


_FLAT_LIST = re.compile(r"\[((?:\s*-?\d+,?)+\s*)\]")
_FLAT_FINDING = re.compile(r'\{\s*"type": ("(?:[^"\\]|\\.)*"),\s*"start": (\d+),\s*"end": (\d+),'
                           r'\s*"recognizer": ("(?:[^"\\]|\\.)*")\s*\}')


def _flat_finding(m: re.Match[str]) -> str:
    """A finding on one line; its recognizer left out when not recorded (goldens from before it was)."""
    by = f', "recognizer": {m.group(4)}' if m.group(4) != '""' else ""
    return f'{{"type": {m.group(1)}, "start": {m.group(2)}, "end": {m.group(3)}{by}}}'


def dump(model: _Model) -> str:
    """The JSON that --update writes: stable key order, one field a line, for reviewable diffs."""
    text = json.dumps(model.model_dump(mode="json", by_alias=True, exclude_defaults=False),
                      indent=1, ensure_ascii=False, sort_keys=False)
    # Token ids and findings' spans on one line each: a changed token is one changed line.
    text = _FLAT_FINDING.sub(_flat_finding, text)
    return _FLAT_LIST.sub(lambda m: "[" + ", ".join(m.group(1).split()).replace(",,", ",") + "]", text) + "\n"


class Goldens:
    """Every golden file under one folder, validated; ids unique across the redaction files."""

    def __init__(self, root: Path = DEFAULT_DIR) -> None:
        self.root = root
        folder = root / "redaction"
        files = sorted(folder.glob("*.yaml"))
        if not files:
            raise GoldenError(f"{folder}: no redaction golden files (*.yaml)")
        self.redaction: dict[str, RedactionFile] = {}
        seen: dict[str, Path] = {}
        for path in files:
            golden = load(path, RedactionFile)
            for case in golden.cases:
                if case.id in seen:
                    raise GoldenError(f"{path}: field cases.id: {case.id} is also in {seen[case.id]}")
                seen[case.id] = path
            self.redaction[golden.shape] = golden
        self.redaction_expected: dict[str, RedactionExpected] = {}
        for shape in self.redaction:
            path = self.expected_path(shape)
            if path.exists():
                self.redaction_expected[shape] = load(path, RedactionExpected)
        self.answers: AnswersFile = load(root / "answers.yaml", AnswersFile)
        path = root / "answers.expected.json"
        self.answers_expected: AnswersExpected | None = load(path, AnswersExpected) if path.exists() else None
        self.speculation: SpeculationFile = load(root / "speculation.yaml", SpeculationFile)
        path = root / "speculation.expected.json"
        self.speculation_expected: SpeculationExpected | None = (
            load(path, SpeculationExpected) if path.exists() else None)
        self.thresholds: Thresholds = load(root / "thresholds.yaml", Thresholds)
        self.policies = root / "policies"

    def expected_path(self, shape: str) -> Path:
        return self.root / "redaction" / "expected" / f"{shape}.json"
