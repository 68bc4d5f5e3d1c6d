"""The name a writer gives as their own ("my name is Nguyen Van An", "I'm Tanaka Yui, the new tenant"): two or
three name words after "I'm"/"I am"/"my name is", whatever their order, so a family name written first (East
Asian order) is a person's name too, where NER and the given-name list know neither word (issue #29)."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import CuedNameRule
from ztgate.redaction.detection.names.context.shapes import CAP_WORD, END_OF_RUN
from ztgate.redaction.detection.wordlists import words

# "I'm Senior Engineer at Acme": a job title, no name.
_TITLE_WORDS = words("person_roles") | {"senior", "junior", "chief", "principal", "staff", "associate", "assistant"}

_INTRODUCTION = re.compile(
    rf"(?:\b(?i:my[ \t]+name[ \t]+is|my[ \t]+name's)|\bI[ \t]+am|\bI['’]m)[ \t]+"
    rf"({CAP_WORD}(?: {CAP_WORD}){{1,2}}){END_OF_RUN}")


class SelfIntroductionRecognizer(CuedNameRule):
    NAME = "SelfIntroductionRecognizer"
    SCORE = 0.9
    CUE = _INTRODUCTION
    GROUP_IS_NAME = True  # the end of the run closes the name

    def accept(self, match: re.Match[str]) -> bool:
        """A job title after "I'm" is no name."""
        return not any(w.casefold() in _TITLE_WORDS for w in match.group(1).split())
