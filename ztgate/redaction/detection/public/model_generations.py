"""Public list ``model_generations``: a product model named with its brand, its model token and its generation,
with no list of names: "the Canon EOS 5D Mark II" (NER reads "Mark II" as a person), "the Sony Alpha 7 III",
"the Fujifilm X100V" read whole as a place, "Nikon F3". A span is kept where it is, or is followed by, a model
token that mixes capitals and digits and a generation ("Mark II", "Mk III", a roman numeral), or where it is a
generation right after a model token ("5D Mark II"); a span opened by a given name ("Anna B12") is never read so.
``product_models`` keeps a brand before a model token; this list decides the spans around it. Nothing in the
paragraph or at another mention of the name may point to a private person (``_private_context``). PERSON and
LOCATION. The default policy keeps it, strict does not. Written for ztgate."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.public import FramePublicList, PublicList
from ztgate.redaction.detection.public._private_context import private_evidence

# A model token: capitals or digits and at least one of each ("5D", "X100V", "M6", "A7R", "EOS-1D").
MODEL = r"(?=[A-Za-z\-]*\d)(?=[\d\-]*[A-Z])[A-Z\d][A-Za-z\d\-]{0,9}"
GENERATION = r"(?:Mark|Mk\.?)\s+(?:[IVX]{1,4}|\d{1,2})|[IVX]{2,4}|Gen(?:eration)?\s+\d{1,2}"
_GENERATION_SPAN = re.compile(rf"(?:{GENERATION})\b")
# Right before a generation span: a model token, or a series word and a number ("Alpha 7 ").
_MODEL_BEFORE = re.compile(rf"(?:\b{MODEL}|\b[A-Z][a-z]+\s+\d{{1,3}})\s+$")
# A span that is a product: brand or series words and a model token, maybe a generation after it.
_PRODUCT_SPAN = re.compile(
    rf"(?:the\s+)?[A-Z][\w\-]+(?:\s+[A-Z][\w\-]+){{0,2}}\s+(?:{MODEL}|\d{{1,3}}\s+[IVX]{{2,4}})"
    rf"(?:\s+(?:{GENERATION}))?")
# Right after a span: a model token or a number and a generation ("EOS" + " 5D Mark II", "Alpha" + " 7 III"); a
# roman numeral alone after a name is a regnal or a family's ("Anna Berg II"), not a model's.
_GENERATION_AFTER = re.compile(rf"\s+(?:{MODEL}|\d{{1,3}})\s+(?:{GENERATION})\b")
# "Mark II" right after a span that holds a model token itself ("Pentax K-1" + " Mark II").
_MARK_AFTER = re.compile(r"\s+(?:Mark|Mk\.?)\s+(?:[IVX]{1,4}|\d{1,2})\b")
_HAS_MODEL = re.compile(rf"\b{MODEL}\b")


@dataclass(frozen=True, slots=True)
class ModelGenerations(FramePublicList):
    """A product model with its generation is kept (module doc)."""

    def in_frame(self, text: str, start: int, end: int, entity_type: str) -> bool:
        value = text[start:end]
        words = value.split()
        if words and words[0].casefold() == "the":
            words = words[1:]
        if not words:
            return False
        generation = _GENERATION_SPAN.match(text, start, min(len(text), end + 12))
        if generation is not None and generation.end() >= end:  # "Mark II", or "Mark" read alone
            framed = _MODEL_BEFORE.search(text, max(0, start - 30), start) is not None
        elif given_name(words[0]):
            return False
        else:
            framed = (_PRODUCT_SPAN.fullmatch(value) is not None
                      or _GENERATION_AFTER.match(text, end, min(len(text), end + 30)) is not None
                      or (_MARK_AFTER.match(text, end, min(len(text), end + 20)) is not None
                          and _HAS_MODEL.search(value) is not None))
        return framed and not private_evidence(text, start, end)


def load() -> PublicList:
    return ModelGenerations("model_generations", frozenset({"PERSON", "LOCATION"}), frozenset())
