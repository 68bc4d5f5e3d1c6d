"""The parties of a private dispute named as a case ("My lawsuit Okafor-Lindqvist v. Tressilian was filed last week",
"our claim Brandt vs. Keller"): a case's title right after someone's own lawsuit, claim or case, or right before a
filing ("... v. ... was filed", "is listed for", "has been served"), is a private matter, and each party of one or
two capitalised words is a person (a party with a company's suffix, "Quellworth Ltd", is left to the other tiers). A
public case ("Marbury v. Madison") has no such cue and is kept by ``public/court_cases.py``; the decision is
docs/adr/0029."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.shapes import CAP_WORD

_PARTY = rf"{CAP_WORD}(?: {CAP_WORD})?"
_TITLE = rf"(?P<a>{_PARTY})[ \t]+(?:v\.?|vs\.?|versus)[ \t]+(?P<b>{_PARTY})"
_OWN = (r"(?i:\b(?:my|our|your|his|her|their)\s+(?:own\s+|pending\s+|current\s+|ongoing\s+)?(?:law\s*suit|suit|"
        r"case|claim|dispute|action|appeal|proceedings|litigation|complaint)\b)[,:]?[ \t]+(?:\(|\")?")
_FILED = (r"(?:\)|\")?[ \t]+(?i:(?:was|is|has\s+been|had\s+been|will\s+be|got)\s+(?:filed|lodged|served|"
          r"listed|issued|heard|adjourned|settled|dismissed)\b)")
# Someone's own case before the title, or a filing after it.
_CUES = (re.compile(rf"{_OWN}{_TITLE}"), re.compile(rf"(?<![\w.]){_TITLE}{_FILED}"))
_COMPANY = re.compile(r"(?:Ltd|Limited|Inc|plc|PLC|LLC|GmbH|AG|SA|Co|Corp|Bank|Council|Board|State|City|County)$")


class DisputePartyRecognizer(ContextRule):
    NAME = "DisputePartyRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON",)

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        for cue in _CUES:
            for m in cue.finditer(text):
                out.extend((m.start(group), m.end(group), "PERSON") for group in ("a", "b")
                           if _COMPANY.search(m.group(group)) is None)
        return out
