"""Public list ``product_models``: a product named by a brand or model word and a model number, with no list of
names: capitalised words right before a token that mixes capitals and digits ("Dyson V15", "Galaxy S23",
"ThinkPad X1", "Pixel 8a"), which spaCy reads as a person or a place ("Dyson V"). A digit-only number is not a
model number here ("Smith 42" is no product), nor a postcode's first half ("Manchester M1 1AE")."""

from __future__ import annotations

import re

from ztgate.redaction.detection.public import PublicList

# Right after the name: the rest of a model token the name was cut inside ("Dyson V" + "15"), or a space and a
# model token of capitals and digits; not the outward half of a British postcode.
MODEL_NUMBER = re.compile(
    r"(?:(?<=[A-Z])\d{1,4}[a-z]{0,2}|\s+(?:[A-Z]{1,3}-?\d{1,4}[a-z]{0,2}|\d{1,4}[A-Z]{1,3}|\d{1,2}[a-z]))\b"
    r"(?!\s+\d[A-Z]{2}\b)")


def load() -> PublicList:
    return PublicList("product_models", frozenset({"PERSON", "LOCATION"}), frozenset(), followed_by=MODEL_NUMBER)
