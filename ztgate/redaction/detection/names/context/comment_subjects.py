"""A name-shaped pair that a verb of people ties to a person in a comment or a log line, in any comment syntax
(``#``, ``//``, ``--``, ``;``, ``%``, ``/* */``, ``<!-- -->``, ``REM``, ``'``, a doc comment's ``*``) or on a
technical line (``text_shape.technical_line``) (issue #29).

Candidates: name-shaped pairs (``person_pairs``); two to four name words, listed or not, after a timeline's time
(``timeline_subjects``: "06:55 NAME took the pager"), right after a comment's marker (``opening_subjects``: "# NAME
tuned these limits") or before what only a person is or undertakes (``on_call_subjects``: "NAME is on call";
ADR 0026). Each is a person when a finite verb follows it (a modal or auxiliary and a lower-case word, a past
tense, a verb of people from ``data/words/person_verbs.txt``), or when a cue that addresses, credits or hands
work to someone stands right before it ("paged", "ping", "thanks to", "cc", "assigned to", "waiting on", "by").

Only on comment and log lines: in prose the same frames name public figures ("Alan Turing proposed"), which
the public lists decide (a context rule's finding is tied to a person by construction, ``person_ties``)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.person_pairs import pairs
from ztgate.redaction.detection.names.context.shapes import NAME_RUN, trim
from ztgate.redaction.detection.text_shape import line_bounds, technical_line, tool_or_organisation, whole_name
from ztgate.redaction.detection.wordlists import phrases, words

# A line's comment opener, after its indentation.
COMMENT_OPENER = re.compile(
    r"[ \t]*(?:#+'?|//+!?|--+(?:[ \t]*\|)?|;+|%+|/\*+|\*+(?=[ \t])|<!--|\{[#%]|\(\*|(?i:REM)\b|'|!(?=[ \t]))")
_IRREGULAR_PAST = (
    "found broke wrote rewrote took made ran built sent led left gave said saw kept got set put cut lost won paid "
    "told thought brought bought caught taught drew drove chose spoke froze began came became knew grew threw "
    "flew held met read stood understood undid redid forgot shut split spun struck swore tore woke reran rebuilt "
    "resent reset rewound overrode oversaw withdrew upheld").split()
# What a person does with a task or a secret, in the present ("only NAME holds the signing key", "NAME runs the
# release"): on a comment or log line after a name-shaped pair, not in prose.
_PRESENT = "holds keeps runs handles leads manages covers drives".split()
_VERBS = "|".join(sorted({*words("person_verbs"), *_IRREGULAR_PAST, *_PRESENT}, key=len, reverse=True))
_VERB_AFTER = re.compile(
    r"(?:\*\*|__)?,?[ \t]+(?:(?:will|would|should|shall|can|could|must|may|might|is|was|has|had|have|does|did|"
    rf"needs|wants|to|also|just|then|already|never|still|finally)[ \t]+[a-z]|[a-z]{{2,}}ed\b|(?:{_VERBS})\b)")
_ROLES = "|".join(re.escape(w) for w in sorted({*words("person_roles"), "primary", "secondary", "backup"}, key=len,
                                                reverse=True))
_CUE_BEFORE = re.compile(
    r"(?i:\b(?:paged|pinged|ping|page|asked|ask|thank(?:s|ed)?(?:[ \t]+to)?|blamed?|blames|cc|bcc|notify|notified|"
    r"told|tell|e-?mail(?:ed)?|called|call|messaged?|remind(?:ed)?|invited?|mention(?:ed)?|"
    r"assign(?:ed)?(?:[ \t]+to)?|hand(?:ed)?[ \t]+(?:it[ \t]+)?(?:off|over)[ \t]+to|escalat(?:e|ed)[ \t]+to|"
    r"wait(?:ing|ed)?[ \t]+(?:on|for)|(?:talk(?:ed)?|spoke|speak|met|paired|check(?:ed)?|sync(?:ed)?|discussed|review(?:ed)?|"
    r"agreed|confirmed|worked)[ \t]+with|per|via|credit(?:s|ed)?(?:[ \t]+to)?|kudos[ \t]+to|props[ \t]+to|by|from|"
    r"loop(?:ed)?[ \t]+in)[ \t]*:?[ \t]+"
    # a role between the cue and the name: "escalated to on-call NAME", "paged the secondary NAME"
    rf"(?:(?:the|our|their|my)[ \t]+)?(?:(?:{_ROLES})[ \t]+)?)$")


# A line of a source held as a string of a list, after its opening quote (a notebook cell's ``"source": ["# ...",``,
# a JSON array of lines): the comment opener that follows it opens a line of the source.
_STRING_LINE = re.compile(r"""(?:^|[\[,])[ \t]*["']""", re.MULTILINE)
# A line that starts with a time (a timeline, an on-call or incident log, a shell history): "14:02 paged ...",
# "- 09:15 ... acknowledged", "[22:17] ...", "2024-07-02 11:05 ...", "03:40:12Z ...".
_TIME_LEAD = re.compile(
    r"[ \t]*(?:[-*•>|][ \t]*)?(?:\d{4}-\d\d-\d\d[ T]?)?\[?\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?Z?"
    r"(?:[ \t]*(?:UTC|[AaPp]\.?[Mm]\.?))?\]?[ \t:,\-–—|]")


def comment_or_log_line(text: str, pos: int) -> bool:
    """The line holding pos opens with a comment marker (also inside a string that holds a line of a source, as a
    notebook's cells do), starts with a time (a log or a timeline), or is a log or code line."""
    lo = line_bounds(text, pos)[0]
    if COMMENT_OPENER.match(text, lo, pos) is not None or _TIME_LEAD.match(text, lo, pos) is not None:
        return True
    quote = None
    for quote in _STRING_LINE.finditer(text, lo, pos):
        pass
    return (quote is not None and COMMENT_OPENER.match(text, quote.end(), pos) is not None) or technical_line(text, pos)


# The subject of a timeline's line: two to four name words right after the line's time ("14:06 NAME declared").
_SUBJECT = re.compile(rf"(?:{NAME_RUN})(?![\w@/\-])")
_TIMELINE_LINE = re.compile(rf"^{_TIME_LEAD.pattern}[ \t]*", re.MULTILINE)


def timeline_subjects(text: str) -> Iterator[tuple[int, int]]:
    """Runs of two to four name words that open a timeline's or a log's line right after its time, whether or
    not a list knows the given name ("- 14:06 Bounmy Vilaseca declared SEV-2"): a verb after them decides."""
    for lead in _TIMELINE_LINE.finditer(text):
        run = _SUBJECT.match(text, lead.end())
        if run is None:
            continue
        span = trim(text, run.start(), run.group())
        if span is None or len(text[span[0]:span[1]].split()) < 2:
            continue
        start, end = whole_name(text, *span)
        if not tool_or_organisation(text[start:end]):
            yield start, end


# The subject opening a comment: two to four name words right after the line's comment marker ("# NAME added this
# rate limit"), the place a timeline's subject has after its time (issue #29, ADR 0026).
_COMMENT_SUBJECT_LINE = re.compile(rf"^{COMMENT_OPENER.pattern}[ \t]+", re.MULTILINE)
# What only a person is or undertakes, right after a name: on call or away, or a plan (data/words/person_plans.txt).
_PLANS = "|".join(re.escape(p).replace(r"\ ", r"[ \t]+") for p in sorted(phrases("person_plans"), key=len, reverse=True))
_ONLY_A_PERSON_AFTER = re.compile(
    r"[ \t]+(?:(?:is|was|will[ \t]+be)[ \t]+(?:(?:the|our)[ \t]+)?(?:on[ \t\-]call|on[ \t]+duty|on[ \t]+leave|"
    rf"on[ \t]+vacation|on[ \t]+holiday|out[ \t]+of[ \t]+(?:the[ \t]+)?office)\b|(?i:{_PLANS})\b)")
# A past tense or a verb of people, a particle, and an object ("tuned these", "set up this", "moved the").
_DID_TO_AN_OBJECT = re.compile(
    rf"[ \t]+(?:[a-z]{{2,}}ed|{_VERBS})(?:[ \t]+(?:up|in|out|over|off|back|down))?[ \t]+"
    r"(?:this|these|that|those|the|a|an|it|them|our|its|every|all)\b")
_ANY_RUN = re.compile(rf"(?<![\w@./\-])(?:{NAME_RUN})(?![\w@/\-])")


def _subject(text: str, run: re.Match[str] | None) -> tuple[int, int] | None:
    """A run of two to four name words naming no tool or organisation, grown over a whole surname."""
    if run is None:
        return None
    span = trim(text, run.start(), run.group())
    if span is None or not 2 <= len(text[span[0]:span[1]].split()) <= 4:
        return None
    start, end = whole_name(text, *span)
    return None if tool_or_organisation(text[start:end]) else (start, end)


def opening_subjects(text: str) -> Iterator[tuple[int, int]]:
    """Runs of two to four name words right after a comment line's marker, whether or not a list knows the given
    name, that did something to an object ("# Illari Porcu tuned these limits after the load test", "# NAME set up
    this workflow"): not a title-case noun phrase with a verb and no object ("// Retry Policy changed for the
    client")."""
    for lead in _COMMENT_SUBJECT_LINE.finditer(text):
        span = _subject(text, _SUBJECT.match(text, lead.end()))
        if span is not None and _DID_TO_AN_OBJECT.match(text, span[1]):
            yield span


def on_call_subjects(text: str) -> Iterator[tuple[int, int]]:
    """Runs of two to four name words, listed or not, right before what only a person is or undertakes ("Epeli
    Ravouvou is on call", "NAME is going to"): the line's kind decides (``find``)."""
    for run in _ANY_RUN.finditer(text):
        if _ONLY_A_PERSON_AFTER.match(text, run.end()):
            span = _subject(text, run)
            if span is not None and _ONLY_A_PERSON_AFTER.match(text, span[1]):
                yield span


class CommentSubjectRecognizer(ContextRule):
    NAME = "CommentSubjectRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON",)

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        for start, end in sorted({*pairs(text), *timeline_subjects(text), *opening_subjects(text),
                                  *on_call_subjects(text)}):
            lo, hi = line_bounds(text, start)
            if not (_VERB_AFTER.match(text, end, hi) or _CUE_BEFORE.search(text, max(lo, start - 40), start)):
                continue
            if comment_or_log_line(text, start):
                out.append((start, end, "PERSON"))
        return out
