"""A person's user name spelt ``first.last`` in lower case ("reviewer: kwame.mensah", "@kwame.mensah"), where
a field about a person or an @-mention stands before it and its first part is a known given name."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.names.context.base import ContextRule, Span

# Fields whose value is a person, not a thing ("name:" is left out: a package, a job, a setting is named too).
_PERSON_FIELD = (r"(?:author|authors|owner|owners|assignee|assignees|reviewer|reviewers|approver|approvers|"
                 r"maintainer|maintainers|reporter|contact|cc|on_?call|on-call|primary|secondary|backup|lead|user)")
_IDENT = r"([a-z]{2,20})[._]([a-z]{2,30})"
_CUED = re.compile(
    rf"(?i:(?<![\w-])_*{_PERSON_FIELD}_*['\"]?\s*[:=]\s*(?:\[\s*)?['\"]?(?:@)?)(?-i:{_IDENT})(?![\w.@/-])"
    rf"|(?<![\w.@])@(?-i:{_IDENT})(?![\w@/-])(?!\.\w)")

# A decorator's attribute after an @-name is code, whatever the name ("@zoilo.setter", "@app.route").
_DECORATOR_ATTRIBUTES = frozenset({
    "setter", "getter", "deleter", "register", "route", "get", "post", "put", "patch", "delete", "command",
    "group", "task", "fixture", "parametrize", "mark", "cache", "callback", "validator", "handler", "event",
    "listener", "middleware", "hook", "property", "overload", "dispatch", "errorhandler", "before", "after"})


class LowerCaseUserNameRecognizer(ContextRule):
    NAME = "LowerCaseUserNameRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON",)

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        for m in _CUED.finditer(text):
            first = m.group(1) or m.group(3)
            if m.group(3) and m.group(4) in _DECORATOR_ATTRIBUTES:
                continue
            if given_name(first):
                start = m.start(1) if m.group(1) else m.start(3)
                end = m.end(2) if m.group(1) else m.end(4)
                out.append((start, end, "PERSON"))
        return out
