"""Public list ``court_cases``: a court case named "A v. B", "A v B", "A vs. B" or "A versus B" ("Marbury v. Madison",
"Brown v. Board of Education", "Donoghue v Stevenson", "Carlill v Carbolic Smoke Ball Co"), a public work of law: a
span inside such a title (or the title with a request word before it, "Explain Miranda") is kept. A private dispute
is not: in a text that speaks of someone's own case ("my lawsuit", "our claim", "his hearing"), of a filing, suing
or a lawyer of one's own ("filed last week", "we are suing", "my solicitor"), or that names a party again outside
the title ("... Mr Smith called"), every party stays hidden (docs/adr/0029). A party opened by a personal title ("Mr
Smith v. Jones") is never read so, and ``person_ties`` applies on top. PERSON, LOCATION and NRP, read only in a text
of a short request's length (``TEXT_MAX_CHARS``); the default policy keeps it, strict does not. Cue words written by
hand for ztgate."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ztgate.redaction.detection.public import FramePublicList, PublicList
from ztgate.redaction.detection.public._private_context import TEXT_MAX_CHARS

# A party: capitalised words, with "of", "the", "and", "&" and a company's suffix between them.
_WORD = r"(?:[A-Z][\w'’.\-]*|&|of|the|and|for|de|van|von)"
_PARTY = rf"[A-Z][\w'’.\-]*(?:[ \t]+{_WORD}){{0,6}}"
_CASE = re.compile(rf"{_PARTY}[ \t]+(?:v\.?|vs\.?|versus)[ \t]+{_PARTY}(?:[ \t]+\((?:No\.?[ \t]*\d+|\d{{4}})\))?")
_TITLE = re.compile(r"^(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Dame)\b")
# A request word that NER may take into the first party's span ("Explain Miranda").
_REQUEST = re.compile(r"(?:Explain|Describe|Summarise|Summarize|Compare|Discuss|Outline|Analyse|Analyze|Why|What|"
                      r"How|Was|Is|Did|Does)[ \t]+$")
# Someone's own dispute in the text: the case is a private matter (module doc).
_PRIVATE_DISPUTE = re.compile(
    r"(?i)\b(?:my|our|your|his|her|their)\s+(?:own\s+|pending\s+|current\s+|ongoing\s+)?(?:law\s*suits?|suits?|"
    r"cases?|claims?|disputes?|trials?|hearings?|litigation|proceedings|actions?|appeals?|complaints?|lawyers?|"
    r"attorneys?|solicitors?|barristers?|counsel|divorce|custody)\b"
    r"|\b(?:filed|lodged|served|issued)\s+(?:last|this|on|in|yesterday|today|against)\b"
    r"|\b(?:su(?:e|ed|es|ing)|against\s+(?:me|us|him|her|them))\b|\bcourt\s+date\b")
_LINE_REACH = 200


def _case_around(text: str, start: int, end: int) -> re.Match[str] | None:
    lo = max(0, start - _LINE_REACH, text.rfind("\n", 0, start) + 1)
    hi = text.find("\n", end)
    hi = min(len(text), end + _LINE_REACH) if hi < 0 else min(hi, end + _LINE_REACH)
    for case in _CASE.finditer(text, lo, hi):
        head = text[start:case.start()] if start < case.start() else ""
        if (case.start() <= start or _REQUEST.fullmatch(head) is not None) and end <= case.end():
            return case
    return None


@dataclass(frozen=True, slots=True)
class CourtCases(FramePublicList):
    """A party inside a court case's title is kept, unless the text speaks of a private dispute (module doc)."""

    def in_frame(self, text: str, start: int, end: int, entity_type: str) -> bool:
        # The whole text is read for a dispute: past a short request's length it is not read, and nothing kept.
        if len(text) > TEXT_MAX_CHARS:
            return False
        case = _case_around(text, start, end)
        if case is None or _PRIVATE_DISPUTE.search(text) is not None:
            return False
        parties = re.split(r"[ \t]+(?:v\.?|vs\.?|versus)[ \t]+", case.group(), maxsplit=1)
        if any(_TITLE.match(p) for p in parties):
            return False
        # A party named again outside the title is a person of the text: the case is theirs.
        outside = text[:case.start()] + " " + text[case.end():]
        for party in parties:
            first = party.split()[0]
            if len(first) > 2 and re.search(rf"(?<![\w]){re.escape(first)}(?![\w])", outside):
                return False
        return True


def load() -> PublicList:
    return CourtCases("court_cases", frozenset({"PERSON", "LOCATION", "NRP"}), frozenset())
