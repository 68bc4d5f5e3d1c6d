"""Public list ``feature_frames``: a natural feature on no list, by the words around it: a feature's noun in lower case
right after the name ("the Perito Moreno glacier", "the Erg Chigaga dunes", "the Annapurna circuit"), or a question
about its height, depth, length, ascent or eruptions ("How high is Huascarán", "How deep is Tanganyika", "Can you
climb Illimani", "When did Eyjafjallajökull last erupt"). The name is one to three words, none a known given name,
with no digits; a cue only a person follows or a verb of people after it is never read so; the question frames hold
only in a text with no evidence of a private person (``private_person_in_text``: "How tall is my son Tom?" is a
person's matter). ``person_ties`` applies on top. PERSON, LOCATION and NRP; the default policy keeps it, strict does
not. Cue words written by hand for ztgate."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.public import FramePublicList, PublicList
from ztgate.redaction.detection.public._private_context import private_person_in_text
from ztgate.redaction.detection.text_shape import person_after, person_cue_before

# A feature's noun right after the name, in lower case ("the Perito Moreno glacier", "the Erg Chigaga dunes").
_FEATURE_AFTER = re.compile(
    r"[ \t]+(?:dunes?|erg|glaciers?|ice\s?field|volcano(?:es)?|crater|caldera|waterfalls?|falls|cascades?|river|"
    r"lake|lagoon|canyon|gorge|massif|range|peak|summit|island|islands|archipelago|atoll|desert|plateau|valley|"
    r"fjord|reef|delta|estuary|cave|caves|hot\s+springs|geysers?|circuit|trek|base\s+camp|north\s+face|"
    r"south\s+face|summit\s+route|national\s+park)\b")
# A question or a plan about a feature right before the name.
_MEASURE_BEFORE = re.compile(
    r"(?i)\b(?:how\s+(?:high|tall|deep|long|wide|big|large|cold|steep|hard|difficult|dangerous)\s+(?:is|was|are)|"
    r"(?:the\s+)?(?:height|elevation|altitude|depth|length|summit|ascent|first\s+ascent|eruptions?|crater|slopes?)"
    r"\s+of|climb(?:s|ed|ing)?|summit(?:ed|ing)?|ascend(?:s|ed|ing)?|scal(?:e|ed|ing)|hike\s+up|trek\s+(?:up|to)|"
    r"swim\s+(?:in|across)|kayak(?:ing)?\s+(?:on|around|across)|sail(?:ing)?\s+(?:on|around|across)|"
    r"erupt(?:ion)?\s+of|(?:is|was)\s+(?:it\s+)?(?:safe|possible|hard|easy)\s+to\s+(?:climb|hike|swim\s+in|visit))"
    r"\s+(?:the\s+)?$")
# The same after the name ("When did NAME last erupt", "Is NAME still active").
_MEASURE_AFTER = re.compile(
    r"(?i)[ \t]+(?:(?:last|first)\s+)?erupt(?:s|ed|ing)?\b|[ \t]+(?:still\s+)?(?:active|dormant|erupting)\b"
    r"|[ \t]+(?:still\s+)?(?:an?\s+)?active\s+volcano\b")
_NAME = re.compile(r"(?:the[ \t]+)?[^\W\d_][\w'’\-]*(?:[ \t]+(?:del|de|la|al|of|the|[^\W\d_][\w'’\-]*)){0,3}")
# How far before the name the frame is read.
REACH = 60


@dataclass(frozen=True, slots=True)
class FeatureFrames(FramePublicList):
    """A natural feature named in a feature's frame is kept (module doc)."""

    def in_frame(self, text: str, start: int, end: int, entity_type: str) -> bool:
        value = text[start:end]
        words = value.split()
        if (_NAME.fullmatch(value) is None or any(given_name(w) for w in words if w[:1].isupper())
                or person_cue_before(text, start) or person_after(text, end)):
            return False
        if _FEATURE_AFTER.match(text, end, min(len(text), end + 30)) is not None:
            return True
        before = text[max(0, start - REACH):start]
        return ((_MEASURE_BEFORE.search(before) is not None
                 or _MEASURE_AFTER.match(text, end, min(len(text), end + 40)) is not None)
                and not private_person_in_text(text, start, end))


def load() -> PublicList:
    return FeatureFrames("feature_frames", frozenset({"PERSON", "LOCATION", "NRP"}), frozenset())
