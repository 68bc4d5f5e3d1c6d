"""Evidence about persons on technical lines (issue #29): a private person named in a code comment, a table or
a credit line is caught by the words around the name (a verb of people, a role, a credit, a label), and the
same frames around a tool or a bot change nothing.

The generated families draw two-word names and tools from fixed pools and frames from the evidence kinds;
the first tests read ``text_shape`` alone, the last run the production Analyzer and default policy.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.analyzer import Analyzer
from ztgate.redaction.detection.text_shape import has_evidence, needs_evidence, person_evidence
from ztgate.redaction.policies import PolicyStore

NAMES = st.sampled_from(["Jane Smith", "Oskar Lindqvist", "Priya Venkataraman", "Tomasz Wróbel", "Ines Duarte",
                         "Kwame Mensah", "Hanna Virtanen", "Lucía Ortega"])
TOOLS = st.sampled_from(["Dependabot", "Sentry", "Grafana", "Renovate", "Hypothesis", "Clippy", "Prometheus"])
FRAMES = st.sampled_from([
    "    # {} says this path is hot\n    return cache[key]\n",
    "    x = retry(3)  # {} suggested three retries\n",
    "def flush():  # per {}, the lead engineer\n    pass\n",
    "timeout = 30  // {} (SRE) approved it\n",
    "# Copyright (c) 2021 {}\nimport os\n",
    "# Thanks to {} for the benchmark\nrun()\n",
    "| owner | {} |\n| service | billing |\n",
    "/* Maintainer: {} */\nint main(void);\n",
])


def _span(text: str, value: str) -> tuple[int, int]:
    start = text.index(value)
    return start, start + len(value)


@settings(max_examples=120, deadline=None)
@given(NAMES, FRAMES)
def test_a_full_name_in_a_person_frame_has_evidence_on_its_technical_line(name: str, frame: str) -> None:
    text = frame.format(name)
    start, end = _span(text, name)
    assert needs_evidence(text, start)
    assert has_evidence(text, start, end, "PERSON")


@settings(max_examples=80, deadline=None)
@given(TOOLS, FRAMES)
def test_a_lone_tool_name_in_the_same_frames_has_no_person_evidence(tool: str, frame: str) -> None:
    text = frame.format(tool)
    assert not person_evidence(text, *_span(text, tool))


@pytest.mark.parametrize("text", [
    "    # the cache says miss\n", "x = 1  # per RFC 7231, GET is safe\n", "# Copyright (c) 2021 The Apache\n",
])
def test_frames_without_a_name_give_nothing(text: str) -> None:
    assert not person_evidence(text, 0, 5)


POLICY = PolicyStore.load().get("default")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(NAMES, FRAMES)
def test_the_analyzer_hides_a_private_person_named_in_code(redaction_analyzer: Analyzer, name: str,
                                                          frame: str) -> None:
    text = frame.format(name)
    out = redact(text, redaction_analyzer.analyze(text), POLICY, None, None, None, operators=Operators()).text
    assert name.split()[-1] not in out, out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(TOOLS, FRAMES)
def test_the_analyzer_leaves_tools_in_the_same_frames_alone(redaction_analyzer: Analyzer, tool: str,
                                                           frame: str) -> None:
    text = frame.format(tool)
    assert redact(text, redaction_analyzer.analyze(text), POLICY, None, None, None,
                  operators=Operators()).text == text
