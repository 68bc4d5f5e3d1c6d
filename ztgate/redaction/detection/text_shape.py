"""The shape of the text around a tier-2 candidate: sentence position, the word before, the line it fills, and
whether that line is technical (code, logs, diffs, stack traces, tables, version-control output) - one set
of helpers for the NER gate, the gazetteer and the context recognizers.

A name or a place that only a list vouches for is weak evidence in technical text, where capitalised words are
identifiers, branch names and log fields far more often than people or towns; ``needs_evidence`` and
``has_evidence`` say when a candidate must be backed by its context, and by what. Every look is bounded to the
line (at most ``LINE_REACH`` characters each side), so a candidate costs the same however long the text is.
"""

from __future__ import annotations

import re
import unicodedata

from ztgate.redaction.detection.manifests import product_name_field
from ztgate.redaction.detection.records import THINGS, sql_update_kind
from ztgate.redaction.detection.wordlists import COMMON_SENTENCE_STARTS, NEVER_TRIGGERS, TECHNICAL_WORDS, phrases, words

# Characters skipped when looking back for the start of a sentence: spaces, quotes, brackets, bullets.
_LEAD_IN = frozenset(" \t\"'“‘«(*[{-•>#_`|")
# What ends a sentence, a clause that starts like one ("Note: ..."), a list label ("1) ...") or a line.
_SENTENCE_END = frozenset(".!?:;)\n\r。！？")
# How far back a sentence start is looked for.
_SENTENCE_REACH = 16
# Characters of a line looked at on each side of a position.
LINE_REACH = 240

# Letters of scripts written without spaces between words (Thai, kana, Han), as a character-class body: a
# Latin word inside such text has one of them, not a space, on either side.
UNSPACED_LETTERS = "\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# The punctuation written with them: CJK symbols and punctuation, full-width forms (（ ） ： 、 。).
UNSPACED_PUNCTUATION = "\u3000-\u303f\uff00-\uffef"

# Name particles that legitimately carry an inner capital (McDonald, O'Brien, DiCaprio, LeBron, VanDyke).
NAME_PREFIX = re.compile(r"(?:Mc|Mac|O['’]|D['’]|De|Di|Da|Du|La|Le|Van|Von|St)\w")


def at_sentence_start(text: str, start: int) -> bool:
    """Whether text[start] opens a sentence, a line, a clause after a colon or a numbered item ("2. Write")."""
    i = start - 1
    limit = max(-1, start - _SENTENCE_REACH)
    while i > limit and text[i] in _LEAD_IN:
        i -= 1
    if i < 0:
        return True
    if i == limit:
        return False
    return text[i] in _SENTENCE_END or text[i].isdigit()


_PREV_WORD = re.compile(r"([^\W\d_]+)\W{0,2}$")


def prev_word(text: str, start: int) -> str:
    """The word right before start (at most two non-word characters between), case-folded; "" if none."""
    m = _PREV_WORD.search(text, max(0, start - 40), start)
    return m.group(1).casefold() if m else ""


# Capitals of every Latin block a name is written in: Latin-1, Extended-A (Ł, Ś, Ž alternate with their lower
# cases in Ā-ſ), Extended-B (Ș, Ț, Ǧ) and Extended Additional (Ọ, Ẹ, Ạ in Yoruba and Vietnamese names), as
# the characters of a regular expression's class; a lower-case letter never starts a name (``is_capitalised``).
LATIN_CAPITALS = "A-ZÀ-ÖØ-ÞĀ-ſ" + "".join(c for c in map(chr, (*range(0x180, 0x250), *range(0x1E00, 0x1F00)))
                                        if c.isupper())


def is_capitalised(word: str) -> bool:
    """Capitalised like a name: not all capitals (an acronym), not CamelCase (an identifier) unless a name
    prefix or a hyphen explains the inner capital ("McDonald", "Smith-Jones")."""
    if not word or not word[0].isupper():
        return False
    rest = word[1:]
    if rest and rest.isupper():
        return False
    return not (any(c.isupper() for c in rest) and not NAME_PREFIX.match(word) and "-" not in word)


def sentence_bounds(text: str, start: int, end: int, ends: re.Pattern[str], reach: int, *,
                    with_end: bool = False) -> tuple[int, int]:
    """The sentence around text[start:end]: from the last match of ``ends`` before it to the first after it (its
    terminator included ``with_end``), at most ``reach`` characters each side."""
    lo = max((m.end() for m in ends.finditer(text, max(0, start - reach), start)), default=max(0, start - reach))
    found = ends.search(text, end, min(len(text), end + reach))
    if found is None:
        return lo, min(len(text), end + reach)
    return lo, found.end() if with_end else found.start()


def line_bounds(text: str, pos: int) -> tuple[int, int]:
    """The line holding pos (cut at LINE_REACH characters each side)."""
    lo = max(0, pos - LINE_REACH)
    start = text.rfind("\n", lo, pos) + 1 or lo
    end = text.find("\n", pos, min(len(text), pos + LINE_REACH))
    return start, (end if end >= 0 else min(len(text), pos + LINE_REACH))


def fills_line(text: str, start: int, end: int) -> bool:
    """The span is all its line holds, but for spaces and a closing comma or full stop (a vCard, a list)."""
    lo, hi = max(0, start - 80), min(len(text), end + 80)  # bounded: a long text without line breaks
    line_start = text.rfind("\n", lo, start) + 1 or lo
    line_end = text.find("\n", end, hi)
    if line_end < 0:
        if hi < len(text):
            return False
        line_end = hi
    if line_start == lo and lo > 0 and text[lo - 1] != "\n":
        return False
    return not text[line_start:start].strip() and not text[end:line_end].strip(" \t\r,.")


# --- technical lines --------------------------------------------------------------------------------------

_TECHNICAL_LINE = re.compile(
    r"""^[+\-]?\s*(?:
        diff\ --git|index\ [0-9a-f]{6,}|---\ a/|\+\+\+\ b/|@@\ |commit\ [0-9a-f]{7,}|Merge:|Date:\ |On\ branch
      | Changes\ (?:not\ )?(?:staged|to\ be)|(?:modified|new\ file|deleted|renamed):\ |[0-9a-f]{7,12}\ \S
      | Traceback\ |File\ "|at\ [\w$.<>]+\(|Caused\ by:|[\w.]*(?:Error|Exception)\b[:(]|Exception\ in
      | \d{4}-\d\d-\d\d[T\ ]\d\d:\d\d|\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL)\b
      | (?:def|class|import|from\ \S+\ import|return|function|const|let|var|public|private|package|func|fn|
         if|elif|else|for|while|try|except|catch|switch|case)\b
      | (?:SELECT|INSERT|UPDATE|DELETE|FROM|WHERE|GROUP\ BY|ORDER\ BY|CREATE|ALTER|JOIN|VALUES|LIMIT)\b
      | \.(?!NET\b)[A-Z][A-Z\d_]+[ \t]   # a dot keyword: PowerShell's .AUTHOR/.TAGS, troff's .SH (not ".NET")
      | --\ |//|/\*|\#(?![\#\s]*$)|[{}\]]|\[\s*(?:$|[{"'\[])|\|.*\||"[\w\-]+"\s*:|[a-z_][\w.\-]*\s*[:=]\s*\S
    )""", re.VERBOSE)
# Code or data inside a line: calls, assignments, operators, member access, end-of-statement punctuation.
# A path (std::io, Foo::bar) needs a letter past the hex digits on one side: an IPv6 address in a sentence
# (fe80::1, 2001:db8::8a2e) is a value in prose, not code.
_CODE_INSIDE = re.compile(r"\w\((?:[^()\s]|, )*\)|\)\s*[;{:]\s*$|[;{]\s*$|\s(?:==|!=|=>|->|:=|\+=)\s"
                          r"|\w*[g-zG-Z_]\w*::\w|\w::\w*[g-zG-Z_]|\w\.\w+\(|^\s{4,}\S|\t")
# Quoted literal fields of CSV rows: three or more comma-separated fields without spaces after the commas.
_CSV_ROW = re.compile(r"^[^,\s][^,]*(?:,[^,\s][^,]*){2,}$")


def technical_line(text: str, pos: int) -> bool:
    """Whether the line holding pos is code, a log, a diff, a stack trace, a table, a CSV or YAML row, or
    version-control output, rather than prose (an e-mail header, a chat line, a sentence)."""
    start, end = line_bounds(text, pos)
    line = text[start:end]
    if _TECHNICAL_LINE.match(line) or _CODE_INSIDE.search(line) or _CSV_ROW.match(line.strip()):
        return True
    return _in_code_fence(text, start)


def _in_code_fence(text: str, line_start: int) -> bool:
    """An odd number of ``` fences in the 2,000 characters before the line: inside a Markdown code block."""
    return text.count("```", max(0, line_start - 2000), line_start) % 2 == 1


# --- evidence -----------------------------------------------------------------------------------------------

# A contact or identity value on the same line: an e-mail address, a phone number, an IBAN, an SSN.
CONTACT_VALUE = re.compile(
    r"[\w.+\-]+@[\w\-]+\.[\w.\-]+|\+?\(?\d{2,4}\)?[ .\-]?\d{2,4}[ .\-]\d{3,4}(?:[ .\-]\d{2,4})?"
    r"|\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,}|\b\d{3}-\d{2}-\d{4}\b")
# A field label that says what the value after it is: "name:", "author =", "\"city\": ".
_PERSON_LABEL = re.compile(
    r"(?i)(?:(?<![^\W_])_*(?:full_?name|display_?name|first_?name|last_?name|name|author|owner|assignee|reporter|"
    r"contact|customer|reviewed-by|signed-off-by|co-authored-by|reported-by|acked-by|tested-by|cc|to|from|attn)_*"
    r"['\"]?\s*(?:[:=]=?|!=)\s*['\"]?|[@:](?:author|maintainer|owner)\b:?\s+"
    r"|\bby\s+|\bask\s+|\bcontact\s+|\bping\s+"
    r"|\bauthor\(\s*['\"]|(?-i:(?:^|\n)[ \t]*AUTHOR\.[ \t]+))$")  # Erlang's -author("; COBOL's AUTHOR. paragraph
_PLACE_LABEL = re.compile(
    r"(?i)(?:\b(?:city|town|village|place|location|address|birthplace|hometown|country|municipality)"
    r"['\"]?\s*[:=]\s*['\"]?)$")
# A copyright line or value before its holder, its years a range or a list: "(c) 2019-2023 ", "Copyright ©
# 2019–2024 ", "Copyright (C) 2020, 2023 ", "copyright = \"2024, ".
_COPYRIGHT = (r"(?:copyright(?:['\"]?\s*[:=]\s*['\"]?)?\s*(?:(?:\(c\)|©)\s*)?|(?:\(c\)|©)\s*)"
              r"\d{4}(?:\s*(?:[-–—,]|to)\s*\d{4})*,?\s+")
# A copyright line whose holder comes before its years or has none: the mark right before the holder ("Copyright
# (C) ", "© ", "(c) "), and right after it its years or the reservation (" 2022", ", 2019-2021", ". All rights
# reserved"): "Copyright © NAME 2021", "(c) NAME, 2020. All rights reserved." (issue #29).
_COPYRIGHT_MARK = re.compile(r"(?i)(?:(?<![\w])copyright[ \t]*(?:\(c\)|©)?|(?<![\w)])\(c\)|©)[ \t]*$")
_COPYRIGHT_AFTER = re.compile(r"(?i),?[ \t]+\d{4}(?:[ \t]*(?:[-–—,]|to)[ \t]*\d{4})*(?!\d)|\.?[ \t]+all[ \t]+rights[ \t]+reserved")
# A citation's author before its year ("please cite it as: NAME (2024).", "To cite tidekit in publications use:\n\n
# NAME (2024)."): the cue to cite up to 160 characters before, over at most two line breaks, and the year right after.
_CITE_CUE = re.compile(r"(?i)\bcite\b[^\n]{0,80}?\b(?:as|use)\b[ \t]*:?[ \t]*(?:\n[ \t]*){0,2}$")
_CITED_YEAR = re.compile(r",?[ \t]+(?:et[ \t]+al\.?[ \t]+)?\(\d{4}[a-z]?\)")
# Where questions, requests or patches go: "questions go to ", "direct questions about this page to ".
_ASKS = r"(?:questions|queries|requests|feedback|patches|concerns|enquiries|inquiries|issues)"
_ASKS_TO = (rf"{_ASKS}\s+(?:(?:should|can|may|must)\s+)?(?:go|goes|be\s+(?:sent|directed|addressed))\s+to"
            rf"|(?:direct|send|address|forward|route)\s+(?:(?:all|any|your|the)\s+)?{_ASKS}"
            r"(?:\s+(?:about|on|regarding|for)(?:\s+[\w\-./]+){1,4}?)?\s+to")
# Before a name: a table's label cell ("| owner | "), a copyright line ("(c) 2019-2023 "), or a phrase that
# credits or quotes someone ("per ", "according to ", "thanks to ", "reviewed by ").
_PERSON_BEFORE = re.compile(
    r"(?i)(?:\|\s*(?:owner|author|maintainer|name|contact|assignee|reviewer|lead)\s*\|\s*"
    r"|\b(?:maintainer|maintainers|maintained-by|written-by|authors?|credits?|owners?|lead|primary|secondary|backup"
    r"|on_?call|on-call|escalation|approvers?|reviewers?)\s*[:=]\s*['\"]?"
    rf"|{_COPYRIGHT}"
    r"|\b(?:per|according\s+to|thanks\s+to|courtesy\s+of|kudos\s+to|props\s+to|shout-?outs?\s+to|(?-i:credit(?:s|ed)?|cc:?|CC:?)"
    r"|(?:review|comments?|feedback|approval|sign-?off)\s+(?:by|from)|belong(?:s|ed|ing)?\s+to|(?:a|the)\s+(?:branch|fork|patch|laptop|account)\s+of|(?:written|maintained|authored|created|reviewed|approved|"
    r"reported|requested|owned|signed|contributed|debugged|fixed|implemented|designed|developed|tested|translated|"
    r"prepared|compiled|curated|edited|analy[sz]ed|checked|verified|validated|supervised|led|run|coordinated|"
    r"presented|acknowledged)\s+by|(?:assigned|escalated|handed(?:\s+(?:over|off))?|reassigned|delegated)\s+to"
    r"(?:\s+(?:the\s+)?(?:on-?call|primary|secondary|backup|incident\s+commander))?"
    r"|ask|ping|paged|pinged|notified|messaged|check\s+with|"
    r"(?:talk|speak)\s+(?:to|with)|(?:talked|spoke|met|paired|reviewed|discussed|synced|agreed|confirmed|worked)"
    r"\s+with|reach\s+out\s+to|loop\s+in"
    rf"|{_ASKS_TO})\s+"
    r"|\b(?:Dr|Prof|Mr|Mrs|Ms|Mx)\.?\s+)$")
# A contact's or a keeper's noun, what it is for, and a copula, on the name's line (issue #29, ADR 0030): "Our security
# contact for the gauge firmware is ", "The maintainer of this module is ", "owner is ", "Point of contact is ",
# "the DRIs for this service are ". The noun is a person's role in a project, never a team word; what follows must
# still be two name words or more and no team, bot or tool (``person_evidence``).
_CONTACT_COPULA = re.compile(
    r"(?i)\b(?:contacts?|point[ \t]+of[ \t]+contact|maintainers?|owners?|custodians?|stewards?|dris?|pocs?|"
    r"(?:release|incident|engineering|product|project)[ \t]+(?:manager|lead|owner)s?|tech(?:nical)?[ \t]+leads?)"
    r"(?:[ \t]+(?:for|of|on|at)[ \t]+(?:[^\n.;:!?()<>]|\.(?=\w)){1,60}?)?[ \t]+(?:is|are|remains?|will[ \t]+be)"
    r"(?:[ \t]+(?:still|now|currently))?[ \t]+$")
# How far before a name its contact copula is looked for, on its line.
CONTACT_COPULA_REACH = 110
_PERSON_VERBS = "|".join(sorted(words("person_verbs"), key=len, reverse=True))
_PERSON_ROLES = "|".join(re.escape(w) for w in sorted(words("person_roles"), key=len, reverse=True))
# Plans, needs and undertakings in several words ("is going to", "is handling"): data/words/person_plans.txt.
_PERSON_PLANS = "|".join(re.escape(p).replace(r"\ ", r"[ \t]+")
                         for p in sorted(phrases("person_plans"), key=len, reverse=True))
# After a name, markdown's emphasis closed first ("**NAME** left a comment"): a person's verb ("says",
# "thinks", "plans"), a plan or an undertaking ("is going to"), or a role in apposition (", the lead
# engineer", "(SRE)").
_PERSON_AFTER = re.compile(
    rf"(?i)^(?:\*\*|__)?(?:[ \t]+(?:{_PERSON_VERBS}|{_PERSON_PLANS})\b"
    rf"|[ \t]*(?:,|\(|[-–—])[ \t]*(?:(?:the|our|my|a|an|their|his|her)[ \t]+)?(?:[\w\-]+[ \t]+){{0,2}}?"
    rf"(?:{_PERSON_ROLES})\b)")


# Before a name, cues that only a person follows, whatever NER calls it: where questions go, a page or a
# hand-over, a copyright line's holder ("questions go to ", "paged ", "escalated to ", "(c) 2021 ").
_ADDRESSED_BEFORE = re.compile(
    rf"(?i)(?:{_COPYRIGHT}|\b(?:{_ASKS_TO}"
    r"|ask|asked|ping|paged|pinged|(?:assigned|escalated|reassigned|handed\s+(?:over|off))\s+to)\s+)$")


def person_cue_before(text: str, start: int) -> bool:
    """A cue right before start that only a person follows (``_ADDRESSED_BEFORE``: "questions go to ", "paged ",
    "(c) 2021 "): what NER calls a place there is a person ("questions go to Yerkebulan Iwuchukwu")."""
    return _ADDRESSED_BEFORE.search(text, max(0, start - 60), start) is not None


def copyright_holder(text: str, start: int, end: int) -> bool:
    """text[start:end] is the holder of a copyright line that names its years after it or none ("Copyright © NAME
    2021", "(c) NAME, 2020", "Copyright NAME. All rights reserved."): the mark right before, years or the
    reservation right after."""
    return (_COPYRIGHT_MARK.search(text, max(0, start - 16), start) is not None
            and _COPYRIGHT_AFTER.match(text, end) is not None)


def cited_author(text: str, start: int, end: int) -> bool:
    """text[start:end] is the author of a citation written after a cue to cite it, its year in brackets right after
    ("please cite it as: NAME (2024).", "To cite x in publications use:\n\n  NAME (2024).")."""
    return (_CITED_YEAR.match(text, end) is not None
            and _CITE_CUE.search(text, max(0, start - 160), start) is not None)


def contact_copula(text: str, start: int) -> bool:
    """A contact's or a keeper's noun and a copula stand before start on its line ("Our security contact for X is
    ", "The maintainer of this module is "): a name of two words or more after it is a person (``_CONTACT_COPULA``)."""
    lo = max(line_bounds(text, start)[0], start - CONTACT_COPULA_REACH)
    return _CONTACT_COPULA.search(text, lo, start) is not None


def person_after(text: str, end: int) -> bool:
    """A verb of people or a role in apposition right after a name ending at end ("says", ", our SRE")."""
    return _PERSON_AFTER.match(text[end:end + 60]) is not None


# Phrases right before a place that say it is one ("lives in", "moved to"), whatever the line.
STRONG_PLACE_CUE = re.compile(
    r"(?i)(?<![^\W\d_])(?:" + "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in phrases("strong_place_cues"))
    + r")\s+$")


def _next_line_end(text: str, line_end: int) -> int:
    """The end of the line after the one ending at line_end (line_end itself at the end of the text)."""
    return line_bounds(text, line_end + 1)[1] if line_end + 1 < len(text) else line_end


def contact_on_line(text: str, start: int, end: int) -> bool:
    """An e-mail address, phone number, IBAN or SSN on the candidate's line, outside the candidate. A candidate
    that runs past its line adds the line its last character is on, but no line past the next: the same reach
    ``evidence_possible`` looks over (a candidate ending in a line break does not take the line after it)."""
    lo, hi = _candidate_lines(text, start, end)
    return any(m.end() <= start or m.start() >= end for m in CONTACT_VALUE.finditer(text, lo, hi))


def _candidate_lines(text: str, start: int, end: int) -> tuple[int, int]:
    """The lines a candidate's contact is looked for on: its first line, and its last if it runs onto the next."""
    lo, hi = line_bounds(text, start)
    if end - 1 > hi:
        hi = min(line_bounds(text, end - 1)[1], _next_line_end(text, hi))
    return lo, hi


# Where a sentence ends for ``contacts_in_sentence``: "?", "!" or a full stop before a capital (not after a title),
# or a line break.
_CONTACT_SENTENCE_END = re.compile(
    r"[?!](?=\s)|\.(?<!Dr\.)(?<!Mr\.)(?<!Ms\.)(?<!Mrs\.)(?<!St\.)(?<!Prof\.)(?=\s+[A-Z])|\n")


def contacts_in_sentence(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of the contact values ``contact_on_line`` finds, within the candidate's sentence: "What is the
    capital of France? Write to a@b.org" has a contact on the line of France, not in its sentence."""
    if not contact_on_line(text, start, end):
        return []
    lo, hi = sentence_bounds(text, start, end, _CONTACT_SENTENCE_END, LINE_REACH)
    line_lo, line_hi = _candidate_lines(text, start, end)
    lo, hi = max(lo, line_lo), min(hi, max(line_hi, end))
    return [m.span() for m in CONTACT_VALUE.finditer(text, lo, hi) if m.end() <= start or m.start() >= end]


def labelled(text: str, start: int, entity_type: str) -> bool:
    """A field label for this kind of value right before it ("author: ", "\"city\": \"")."""
    before = text[max(0, start - 40):start]
    pattern = _PLACE_LABEL if entity_type == "LOCATION" else _PERSON_LABEL
    return pattern.search(before) is not None


def has_evidence(text: str, start: int, end: int, entity_type: str) -> bool:
    """Context that backs a name or a place in technical text: a contact value on its line, a field label,
    (for a place) a strong place cue ("based in", "lives in"), or (for a name) evidence about a person."""
    if entity_type == "PERSON" and tool_or_organisation(text[start:end]):
        return False  # "# written by Dependabot", "(c) 2021 Acme Corp": no evidence makes a tool a person
    if contact_on_line(text, start, end) or (labelled(text, start, entity_type)
                                             and not software_name_field(text, start)):
        return True
    if entity_type == "PERSON":
        return person_evidence(text, start, end)
    return entity_type == "LOCATION" and strong_place_cue(text, start)


def person_evidence(text: str, start: int, end: int) -> bool:
    """Words around text[start:end] that say it is a person: a verb of people or a role after it ("says",
    ", the lead engineer", "(SRE)"), a credit, an assignment, a personal title or a table label before it
    ("per ", "thanks to ", "assigned to ", "Dr. ", "(c) 2021 ", "| owner | "), a handle or an e-mail address
    right after it ("(@tnguyen)", "<t.nguyen@x.org>"), a task given to it in a TODO ("TODO: Aroha Ngata to
    confirm"), a copyright line's holder with its year after it or none (``copyright_holder``), a citation's author
    after a cue to cite (``cited_author``). Only for a name of two words or more: a lone capitalised
    word there is as often a tool or a bot ("# Dependabot wrote this bump", "thanks to Hypothesis"), unless a
    title stands before it or a handle on its line spells it (``handle_spells_name``). A span with a tool's
    word or ending in an organisation's legal form is never a person ("Kafka Connect", "Acme Corp")."""
    if tool_or_organisation(text[start:end]):
        return False
    if _TITLE_BEFORE.search(text, max(0, start - 12), start):
        return True
    if len(text[start:end].split()) < 2:
        return False
    if _TODO_BEFORE.search(text, max(0, start - 12), start) and _TASK_AFTER.match(text, end):
        return True  # "TODO: Aroha Ngata to confirm the rate", "FIXME: Aroha Ngata will rewrite this"
    if _MENTION_BEFORE.search(text, max(0, start - 3), start):
        return True  # "@Aroha Ngata can you look?": a mention of a display name
    if copyright_holder(text, start, end) or cited_author(text, start, end) or contact_copula(text, start):
        return True
    return (handle_spells_name(text, start, end) or _PERSON_AFTER.match(text[end:end + 60]) is not None or _HANDLE_AFTER.match(text, end) is not None
            or _PERSON_BEFORE.search(text, max(0, start - 40), start) is not None)


# The last word of an organisation's name ("Acme Corp", "Globex GmbH", "Payments Team").
ORGANISATION_SUFFIXES = words("organisation_suffixes")
# The last word of a piece of software's name ("Zuul Gateway", "Billing API", "Release Bot").
COMPONENT_SUFFIXES = words("component_suffixes")


def organisation_name(span: str) -> bool:
    """A run of two words or more whose last is an organisation's legal form or collective noun ("Acme Corp",
    "Platform Guild", "The Ledger Authors"): a group, never a person."""
    parts = [w.strip(".,;:'\"()") for w in span.split()]
    return len(parts) > 1 and parts[-1].casefold() in ORGANISATION_SUFFIXES


_CAPITALISED_AFTER = re.compile(r"(?:[ \t]+[A-Z][\w\-]*){1,3}")


def software_name(span: str) -> bool:
    """A run of two words or more whose last is a piece of software's word ("Lavinia Codegen", "Otis Release Bot",
    ``data/words/component_suffixes.txt``): a tool, never a person or a place (ADR 0036)."""
    parts = [w.strip(".,;:'\"()") for w in span.split()]
    return len(parts) > 1 and parts[-1].casefold() in COMPONENT_SUFFIXES


def group_name_after(text: str, start: int, end: int) -> bool:
    """text[start:end] and up to three capitalised words right after it on its line end in an organisation's
    collective noun or a piece of software's ("Winston Packaging Team", "Vera Maintainers", "Otis Release Bot"):
    the span is part of a group's or a tool's name (issue #29, eighth round); so is a span of two words or more
    that itself ends in a piece of software's word ("Lavinia Codegen", ADR 0036)."""
    if software_name(text[start:end]):
        return True
    m = _CAPITALISED_AFTER.match(text, end)
    if m is None:
        return False
    return any(w.casefold() in ORGANISATION_SUFFIXES or w.casefold() in COMPONENT_SUFFIXES for w in m.group().split())


_PERSONAL_TITLES = frozenset({"dr", "mr", "mrs", "ms", "mx", "miss", "prof", "sir", "dame", "madam"})


def tool_or_organisation(span: str) -> bool:
    """A word of the span names a tool or a product ("Kafka Connect", "Terraform Cloud") or its last word is an
    organisation's legal form or collective noun ("Acme Corp") or a piece of software's ("Zuul Gateway",
    ``data/words/component_suffixes.txt``): no evidence makes it a person."""
    parts = [w.strip(".,;:'\"()") for w in span.split()]
    if parts and parts[0].istitle() and parts[0].casefold() in _PERSONAL_TITLES:
        parts = parts[1:]  # "Dr. Ann Lee <...>": a title opens a person's name, never a tool's ("DR", "MR": technical words)
    return (any(w.casefold() in TECHNICAL_WORDS or w.casefold() in NEVER_TRIGGERS for w in parts)
            or (len(parts) > 1 and (parts[-1].casefold() in ORGANISATION_SUFFIXES
                                    or parts[-1].casefold() in COMPONENT_SUFFIXES)))


_TITLE_WORD = re.compile(r"\b(?:Dr|Prof|Mr|Mrs|Ms|Mx|Doctor|Professor|TODO|FIXME|XXX|HACK)\b")
_TODO_BEFORE = re.compile(r"\b(?:TODO|FIXME|XXX|HACK)\b\s*:?\s*$")
# A task or a promise given to the name in a TODO: "to confirm", "will rewrite", "should check", "needs to".
_TASK_AFTER = re.compile(r"[ \t]+(?:to|will|should|must|shall|can|could|may|might|would|needs?[ \t]+to|has[ \t]+to"
                         r"|is[ \t]+going[ \t]+to|promised[ \t]+to|wants[ \t]+to|plans?[ \t]+to)[ \t]+[a-z]")
_MENTION_BEFORE = re.compile(r"(?<![\w.@])@$")
_TITLE_BEFORE = re.compile(r"(?:\b(?:Dr|Prof|Mr|Mrs|Ms|Mx)\.?|\b(?:Doctor|Professor))[ \t]+$")
# A handle or an e-mail address right after a name: "(@tnguyen)", " @tnguyen", "(t@x.org)", "<t@x.org>"; an
# "@" glued to the name's last letter is no handle ("x = 1@mvoss"), as ``_HANDLES`` reads it too.
_HANDLE_AFTER = re.compile(r"[ \t]*(?:[(<\[][ \t]*)?(?:(?<![\w.])@[A-Za-z0-9][\w\-]{1,38}\b|[\w.+\-]+@[\w\-]+\.[\w.\-]+)")
# Handles and e-mail local parts: "@tnguyen", "TODO(tnguyen)", "t.nguyen@x.org".
_HANDLES = re.compile(r"(?<![\w.])@([A-Za-z0-9][\w\-]{1,38})|\b(?:TODO|FIXME|XXX)\(([\w.\-]{2,40})\)"
                      r"|([\w.+\-]{2,64})@[\w\-]+\.")


def _ascii_letters(word: str) -> str:
    """Lower-case ASCII letters only ("Te Kani" -> "tekani", "Ben-David" -> "bendavid", "Wróbel" -> "wrobel")."""
    return "".join(c for c in unicodedata.normalize("NFKD", word.casefold()) if "a" <= c <= "z")


def handle_spells_name(text: str, start: int, end: int) -> bool:
    """A handle or an e-mail local part on the name's line or the line before, outside the name, holds its
    surname (four letters or more) or starts with its given name and then the surname's initial
    ("TODO(jraghavan): Ji-woo Raghavan", "Aroha Ngata (@angata)", "t.nguyen@x.org")."""
    words = [w for w in text[start:end].split() if w[:1].isupper()]
    if not words:
        return False
    given = _ascii_letters(words[0])
    surname = _ascii_letters("".join(words[1:]) if len(words) > 1 else words[0])
    lo, hi = line_bounds(text, start)
    if lo > 0:
        lo = line_bounds(text, lo - 1)[0]
    for m in _HANDLES.finditer(text, lo, hi):
        if start <= m.start() < end:
            continue
        handle = _ascii_letters(next(g for g in m.groups() if g))
        if len(surname) >= 4 and surname in handle:
            return True
        if (len(words) > 1 and len(given) >= 3 and handle.startswith(given)
                and handle[len(given):].startswith(surname[:1])):
            return True
    return False


def strong_place_cue(text: str, start: int) -> bool:
    """A phrase right before start that says a place follows ("she lives in ", "I'm from ")."""
    return STRONG_PLACE_CUE.search(text, max(0, start - 40), start) is not None


# The label and cue patterns anywhere (not only right before a candidate), for `evidence_possible`.
_ANY_LABEL_OR_CUE = re.compile("|".join(f"(?:{p.pattern.removeprefix('(?i)').removesuffix('$')})" for p in
                                        (_PERSON_LABEL, _PLACE_LABEL, STRONG_PLACE_CUE, _PERSON_BEFORE,
                                                            _CONTACT_COPULA))
                               + rf"|\b(?:{_PERSON_VERBS}|{_PERSON_ROLES})\b", re.IGNORECASE)


def evidence_possible(text: str, pos: int) -> bool:
    """Whether any candidate starting on the line holding pos could have ``has_evidence``: a contact value on
    the line or the next (a candidate may run onto it), or a field label or strong place cue on the line or
    within 40 characters before it (``labelled`` and ``strong_place_cue`` look that far back), a handle on the
    line or the one before, a personal title or a TODO. False means
    every candidate there is weak by construction."""
    start, end = line_bounds(text, pos)
    if CONTACT_VALUE.search(text, start, _next_line_end(text, end)):
        return True
    # A handle that may spell a name on this line or the one before (``handle_spells_name``), or a title.
    if _HANDLES.search(text, line_bounds(text, start - 1)[0] if start > 0 else start, end) is not None:
        return True
    if _TITLE_WORD.search(text, max(0, start - 12), end) is not None:
        return True
    return _ANY_LABEL_OR_CUE.search(text, max(0, start - 40), end) is not None


def needs_evidence(text: str, start: int) -> bool:
    """A candidate here needs ``has_evidence``: its line is technical."""
    return technical_line(text, start)


# --- whole names ----------------------------------------------------------------------------------------------

_PARTICLE = r"(?:van|von|der|den|de|del|della|di|da|du|la|le|ten|ter|dos|das|do|y|bin|al|el|Van|Von|De|Da|Di|Du)"
_NAME_WORD = r"[^\W\d_][^\W\d_'’\-]*(?:['’\-][^\W\d_]+)*"
# After a name: particles and a capitalised word ("van der Berg"), another surname ("García Márquez") or a
# hyphenated part ("-Jones"); before it: a capitalised word and particles ("Pieter van der" + "Berg").
_MORE_AFTER = re.compile(rf"(?:-(?=[A-ZÀ-Þ])|(?: {_PARTICLE}){{0,3}} (?=[A-ZÀ-Þ]))({_NAME_WORD})")
_MORE_BEFORE = re.compile(rf"({_NAME_WORD})((?: {_PARTICLE}){{1,3}}) $")
# How many words a name may grow by.
MAX_NAME_GROWTH = 3


def _not_a_name_word(word: str) -> bool:
    folded = word.casefold()
    return (not is_capitalised(word) or folded in COMMON_SENTENCE_STARTS or folded in NEVER_TRIGGERS
            or folded in TECHNICAL_WORDS)


def whole_name(text: str, start: int, end: int) -> tuple[int, int]:
    """A person's span grown over the rest of a multi-word surname on the same line: particles and a
    capitalised word after it ("Jan" + " van der Berg"), a second surname ("García" + " Márquez"), a
    hyphenated part, and a given name with particles before it; at most MAX_NAME_GROWTH words."""
    for _ in range(MAX_NAME_GROWTH):
        m = _MORE_AFTER.match(text, end, min(len(text), end + 60))
        if m is None or _not_a_name_word(m.group(1)):
            break
        end = m.end()
    m = _MORE_BEFORE.search(text, max(0, start - 60), start)
    if m is not None and not _not_a_name_word(m.group(1)) and "\n" not in m.group(0):
        start = m.start()
    return start, end


# Keys of a CI step, a job, a workflow, a service or a package: beside a bare `name`, they say what it names.
_SOFTWARE_KEYS = frozenset((
    "run uses with image on steps jobs runs-on runs_on needs if shell script command commands entrypoint stage "
    "stages ports restart container containers build version description env environment working-directory "
    "timeout-minutes services service job workflow pipeline task tasks deployment component package app "
    "application chart dependencies tool "
    # a record of hosts, servers or other things by their parent key or a sibling only a thing has (issue #29,
    # eighth round: "hosts:\n  - name: Vera\n    rack: r14")
    "hosts host hostname fqdn port rack servers server nodes node tools packages plugins plugin repos repo "
    "repository repositories queues queue topics clusters cluster databases buckets runners workers bots "
    "integrations exporters replicas namespace").split())
_YAML_KEY = re.compile(r"^([ \t]*)(?:-[ \t]+)?[\"']?([\w\-]+)[\"']?[ \t]*:")


# names_software reads this many rows either side of the key, and looks this far for a row's ends: a longer
# row is read as its own mapping (JSON, TOML) within _MAPPING_REACH of the key, so each key costs a bounded read.
_SOFTWARE_ROWS = 12
_ROW_REACH = 4096
_MAPPING_REACH = 1024


def _row_bounds(text: str, pos: int) -> tuple[int, int] | None:
    """Start and end of the row holding pos; None when either end lies past _ROW_REACH."""
    newline = text.rfind("\n", max(0, pos - _ROW_REACH), pos)
    if newline < 0 and pos > _ROW_REACH:
        return None
    end = text.find("\n", pos, pos + _ROW_REACH)
    if end < 0:
        if len(text) > pos + _ROW_REACH:
            return None
        end = len(text)
    return newline + 1, end


def names_software(text: str, pos: int) -> bool:
    """The YAML mapping holding the key at pos has a step's, a job's or a service's key beside it, or its
    parent key is one ("- name: Gerrit sync\n  run: ...", "service:\n  name: Zuul Gateway"); a JSON or TOML line is its own mapping."""
    bounds = _row_bounds(text, pos)
    if bounds is None:  # a long row: its own mapping, whose sibling keys stand near the key
        low, high = max(0, pos - _MAPPING_REACH), pos + _MAPPING_REACH
        return any(text.find(f'"{k}"', low, high) >= 0 for k in _SOFTWARE_KEYS)
    before: list[str] = []
    start, end = bounds
    while start > 0 and len(before) < _SOFTWARE_ROWS and (up := _row_bounds(text, start - 1)) is not None:
        before.append(text[up[0]:up[1]])
        start = up[0]
    after: list[str] = []
    while end < len(text) and len(after) < _SOFTWARE_ROWS and (down := _row_bounds(text, end + 1)) is not None:
        after.append(text[down[0]:down[1]])
        end = down[1]
    lines = [*reversed(before), text[bounds[0]:bounds[1]], *after]
    row = len(before)
    here = _YAML_KEY.match(lines[row])
    if here is None:
        return any(f'"{k}"' in lines[row] for k in _SOFTWARE_KEYS)
    indent = len(here.group(1)) + (2 if lines[row][len(here.group(1)):].startswith("-") else 0)
    for step in (1, -1):
        i = row + step
        while 0 <= i < len(lines):
            m = _YAML_KEY.match(lines[i])
            if m is None:
                i += step
                continue
            own = len(m.group(1)) + (2 if lines[i][len(m.group(1)):].startswith("-") else 0)
            if own < indent:
                if step == 1:
                    break
                if m.group(2).casefold() in _SOFTWARE_KEYS:
                    return True  # "service:\n  name: Zuul Gateway", "services:\n  api:\n    name: ..."
                indent = own  # on to the parent's siblings and ancestors
                i += step
                continue
            if own == indent and m.group(2).casefold() in _SOFTWARE_KEYS:
                return True  # "- name: Gerrit sync\n  run: ..."
            if step == 1 and lines[i][len(m.group(1)):].startswith("-") and own == indent:
                break  # the next item of the list
            i += step
    return False


# A bare `name` key right before a value ("name: ", "\"name\": \"").
_NAME_KEY = re.compile(r"(?<![\w\-])name['\"]?[ \t]*[:=][ \t]*['\"]?$")


def software_name_field(text: str, start: int) -> bool:
    """The value at start is a bare `name` that names a step, a job or a service (``names_software``):
    its label is no evidence about a person ("- name: Pulumi lint\n  run: make lint"), nor is it in an SQL UPDATE of
a table of things (``records``), nor is a product's name in its own manifest (``manifests``: "\"name\": \"Black
Helper\"" beside "\"manifest_version\"")."""
    if product_name_field(text, start):
        return True
    if _NAME_KEY.search(text, max(0, start - 12), start) is None:
        return False
    # "UPDATE jobs SET name = 'Huey'": the name of a thing (records, issue #29, eighth round)
    return names_software(text, start) or sql_update_kind(text, start) == THINGS
