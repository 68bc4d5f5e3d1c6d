"""Persons in comment lines no rule read before and tools spelt like names written as products (issue #29, sixth
round): generated families, both sides.

Persons: a name in a comment line held in a notebook cell's source strings (``"# NAME tuned ..."``) and in the
comment syntaxes of Makefiles, R, Fortran, batch files, Lisp and MATLAB; in an on-call or incident timeline
("14:02 paged NAME", "- 09:15 NAME acknowledged the page", "escalated to on-call NAME"); under a person's or a
role's key in YAML or TOML front matter and in comments ("reviewers: [NAME, docs-bot]", "# Analyst: NAME"), also
for given names on no shipped list. Tools: words spelt like given names or surnames used as products ("pip
install", ``import``, "python -m", ``library()``, "Run X", "X config", "X server", "X plugin", a tag list).

The rule tests read the rules alone; the ``analyzer`` tests run the production Analyzer and the default policy.
Name pools and tools are made up here, apart from every ``code_persons`` split's and from ``person_formats``'s.
"""

from __future__ import annotations

import json
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.unit.redaction.detection.names import person_formats as P
from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.analyzer import Analyzer
from ztgate.redaction.detection.names import evidence_recognizer
from ztgate.redaction.detection.names.code_identifiers import code_identifier, given_name
from ztgate.redaction.detection.names.context import context_recognizers
from ztgate.redaction.detection.names.context.comment_subjects import CommentSubjectRecognizer
from ztgate.redaction.detection.names.context.person_keys import PersonKeyRecognizer
from ztgate.redaction.detection.names.context.transcript_speakers import TranscriptSpeakerRecognizer
from ztgate.redaction.policies import PolicyStore
from ztgate_bench import code_persons

POLICY = PolicyStore.load().get("default")
FAST = settings(max_examples=200, deadline=None)
SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# Given names on no shipped list (the pair rules cannot start from them), and tools spelt like names.
OFF_LIST = ("Tsetseg", "Oyunbileg", "Makerita", "Ravshan", "Gulnora", "Nyambura", "Sefo", "Zhyldyz", "Bakhyt",
            "Fetu", "Yupanqui")
TOOLS = ("Dexter", "Tika", "Marlo", "Doris", "Nova", "Rasa", "Gemma", "Devin", "Tobin", "Heron")

# Comment lines in the syntaxes of Makefiles, R, Fortran, batch, Lisp, MATLAB; {} the rest of the line.
COMMENTS = ("## {}", "# {}", "#' {}", "! {}", "REM {}", ";; {}", "% {}", "\t# {}")
# A source line held as a string of a list, as a notebook's cells and JSON arrays of lines hold it: {} the line.
STRING_LINES = ('  {},', '"source": [{}, "x = 1\\n"]', '{{"cell_type": "code", "source": [{}]}}',
                '["import numpy as np\\n", {}]')
# A name after a cue or before a verb of people on a comment line: {} the name.
COMMENT_FRAMES = ("{} tuned these thresholds", "{} reran this cell with the March data", "only {} holds the key",
                  "{} will rotate the token", "TODO(ask {}) whether this target is still used",
                  "reviewed with {} on Friday", "{} found the off-by-one here", "ping {} before editing")
# Times a timeline line starts with, and its frames: {t} the time, {n} the name.
TIMES = ("14:02", "03:40:12", "2024-07-02 11:05", "09:15 UTC", "7:45 PM", "[22:17]", "- 09:15", "* 23:59:01Z")
TIMELINE = ("{t} paged {n}", "{t} handed over to {n} (EU shift)", "{t} {n} acknowledged the page",
            "{t} escalated to on-call {n}", "{t} {n} rolled back the canary", "{t} incident commander: {n}",
            "{t} {n} is on call until Monday")
# Keys about a person or a role, in front matter and comments: {} the name.
KEYED = ("author: {}", "reviewers: [{}, docs-bot]", 'authors = ["{}"]', "# Analyst: {}", "## Maintainer: {}",
         "#' @author {}", "! Contact: {}", "REM owner: {}", 'engineer = "{}"', "sre: {}", "maintainers:\n  - {}",
         "---\ntitle: Capacity plan\nauthor: {}\n---", "+++\nauthor = \"{}\"\n+++")
# Tools spelt like names, written as products: {t} the tool, {m} its lower case.
CLEAN = ("## lint with {t}\nlint:\n\tpython -m {m} src/\n",
         "library({m})  # {t} draws the survival curves\n",
         '{{"cell_type": "code", "source": ["!pip install {m}\\n", "import {m}\\n", "# {t} config below"]}}\n',
         '{{"cell_type": "markdown", "source": ["## Setup\\n", "Run {t} before the next cell."]}}\n',
         "---\ntitle: Upgrading {t}\ntags: [{m}, upgrade]\n---\n",
         "14:20 {t} server restarted by the watchdog\n14:22 error rate normal\n",
         "npm install {m}\n// the {t} plugin is enabled below\n",
         "The {t} config lives in setup.cfg; run {t} on every push.\n",
         "[tool.{m}]\nstrict = true  # {t} settings\n",
         "{m}-check: ## {t} checks\n\t{m} check --strict\n")

RULES = context_recognizers()
PAIR_RULES = (PersonKeyRecognizer(), CommentSubjectRecognizer(), TranscriptSpeakerRecognizer())


def _found(text: str, value: str) -> bool:
    start = text.index(value)
    spans = [(s, e) for r in RULES for s, e, _ in r.find(text)] + evidence_recognizer.find(text)
    return any(s <= start and start + len(value) <= e for s, e in spans)


def _redacted(analyzer: Analyzer, text: str) -> str:
    return redact(text, analyzer.analyze(text), POLICY, None, None, None, operators=Operators()).text


def _survives(surname: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(surname)}(?!\w)", text) is not None


def test_the_pools_are_apart_from_every_split_and_the_off_list_names_on_no_list() -> None:
    for split in code_persons.GIVEN:
        assert not set(OFF_LIST) & set(code_persons.GIVEN[split]), split
        assert not {t.casefold() for t in TOOLS} & {t.casefold() for t in code_persons.TOOLS[split]}, split
    assert not {t.casefold() for t in TOOLS} & {t.casefold() for t in P.TOOLS}
    assert not any(given_name(g) for g in OFF_LIST)


@FAST
@given(st.sampled_from(P.GIVEN), st.sampled_from(P.SURNAMES), st.sampled_from(COMMENTS),
       st.sampled_from(COMMENT_FRAMES), st.sampled_from(["", "release: build\n\t./sign.sh\n", "x <- 1\n"]))
def test_a_name_on_a_comment_line_of_these_syntaxes_is_found(first: str, last: str, comment: str, frame: str,
                                                             tail: str) -> None:
    name = f"{first} {last}"
    text = comment.format(frame.format(name)) + "\n" + tail
    assert _found(text, name), text


@FAST
@given(st.sampled_from(P.GIVEN), st.sampled_from(P.SURNAMES), st.sampled_from(["# {}", "## {}", "// {}", "-- {}"]),
       st.sampled_from(COMMENT_FRAMES), st.sampled_from(STRING_LINES))
def test_a_name_on_a_comment_line_inside_a_cells_source_string_is_found(first: str, last: str, comment: str,
                                                                        frame: str, holder: str) -> None:
    name = f"{first} {last}"
    text = holder.format(json.dumps(comment.format(frame.format(name)) + "\n", ensure_ascii=False)) + "\n"
    assert _found(text, name), text


@FAST
@given(st.sampled_from(P.GIVEN), st.sampled_from(P.SURNAMES), st.sampled_from(TIMES), st.sampled_from(TIMELINE))
def test_a_name_in_an_on_call_timeline_is_found(first: str, last: str, time: str, frame: str) -> None:
    name = f"{first} {last}"
    text = "Timeline\n" + frame.format(t=time, n=name) + "\n"
    assert _found(text, name), text


@FAST
@given(st.sampled_from(OFF_LIST + P.GIVEN), st.sampled_from(P.SURNAMES), st.sampled_from(KEYED))
def test_a_name_under_a_person_or_role_key_is_found_whatever_its_given_name(first: str, last: str,
                                                                            frame: str) -> None:
    name = f"{first} {last}"
    text = frame.format(name) + "\n"
    assert _found(text, name), text


@FAST
@given(st.sampled_from(OFF_LIST), st.sampled_from(P.SURNAMES),
       st.sampled_from(["14:02 paged {}", "03:40 handed over to {}", "- 09:15 {} acknowledged the page",
                        "[22:17] escalated to on-call {}", "Reviewed with {} on Friday.", "Prepared by {}."]))
def test_an_off_list_name_after_a_cue_of_people_is_found(first: str, last: str, frame: str) -> None:
    name = f"{first} {last}"
    text = frame.format(name) + "\n"
    assert _found(text, name), text


@FAST
@given(st.sampled_from(["Platform Team", "Payments Guild", "Data Platform", "Acme Corp", "Release Bot",
                        "Winston Logger", "TBD", "docs-bot", "sre-rotation"]), st.sampled_from(KEYED))
def test_teams_bots_and_placeholders_under_those_keys_are_left(value: str, frame: str) -> None:
    """The rules this round widened (keys about persons, their list items, the evidence recognizer)."""
    text = frame.format(value) + "\n"
    assert not any(r.find(text) for r in PAIR_RULES) and evidence_recognizer.find(text) == [], text


@FAST
@given(st.sampled_from(TOOLS), st.sampled_from(CLEAN))
def test_tools_spelt_like_names_written_as_products_are_found_by_no_rule_and_read_as_code(tool: str,
                                                                                        template: str) -> None:
    text = template.format(t=tool, m=tool.casefold())
    assert not any(r.find(text) for r in RULES) and evidence_recognizer.find(text) == [], text
    for m in re.finditer(rf"\b{tool}\b", text):
        assert code_identifier(text, m.start(), m.end()), (text, m.start())


def test_a_person_cue_keeps_a_name_spelt_like_a_tool_a_person() -> None:
    """The product test yields to a person cue, as before: "Ask Nova", "Nova's script", "Install Nova"."""
    for text in ["Ask Nova about the cache.\n", "Run Nova's script first.\n", "Thanks, Nova!\n"]:
        start = text.index("Nova")
        assert not code_identifier(text, start, start + 4), text


@SLOW
@given(st.sampled_from(P.GIVEN), st.sampled_from(P.SURNAMES), st.sampled_from(COMMENTS + ("# {}",)),
       st.sampled_from(COMMENT_FRAMES), st.sampled_from(STRING_LINES + ("{}",)))
def test_the_analyzer_hides_a_name_in_these_comment_lines(redaction_analyzer: Analyzer, first: str, last: str,
                                                          comment: str, frame: str, holder: str) -> None:
    line = comment.format(frame.format(f"{first} {last}"))
    text = (line if holder == "{}" else holder.format(json.dumps(line + "\n", ensure_ascii=False))) + "\n"
    assert not _survives(last, _redacted(redaction_analyzer, text)), text


@SLOW
@given(st.sampled_from(P.GIVEN), st.sampled_from(P.SURNAMES), st.sampled_from(TIMES), st.sampled_from(TIMELINE))
def test_the_analyzer_hides_a_name_in_a_timeline(redaction_analyzer: Analyzer, first: str, last: str, time: str,
                                                 frame: str) -> None:
    text = "Timeline\n" + frame.format(t=time, n=f"{first} {last}") + "\n"
    assert not _survives(last, _redacted(redaction_analyzer, text)), text


@SLOW
@given(st.sampled_from(OFF_LIST + P.GIVEN), st.sampled_from(P.SURNAMES), st.sampled_from(KEYED))
def test_the_analyzer_hides_a_name_under_a_person_or_role_key(redaction_analyzer: Analyzer, first: str, last: str,
                                                              frame: str) -> None:
    text = frame.format(f"{first} {last}") + "\n"
    assert not _survives(last, _redacted(redaction_analyzer, text)), text


@SLOW
@given(st.sampled_from(TOOLS), st.sampled_from(CLEAN))
def test_the_analyzer_leaves_tools_written_as_products_alone(redaction_analyzer: Analyzer, tool: str,
                                                             template: str) -> None:
    text = template.format(t=tool, m=tool.casefold())
    assert _redacted(redaction_analyzer, text) == text
