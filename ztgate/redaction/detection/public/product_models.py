"""Public list ``product_models``: a product named by a brand or model word and a model number, with no list of
names: capitalised words right before a token that mixes capitals and digits ("Dyson V15", "Galaxy S23",
"ThinkPad X1", "Pixel 8a"), which spaCy reads as a person or a place ("Dyson V"). A digit-only number is not a
model number here ("Smith 42" is no product), nor a postcode's first half ("Manchester M1 1AE"). Up to two series
words or numbers may stand between ("AMD Ryzen 7 5800X", "Intel Core i7 13700K"), never a room or unit word
("Anna Schmidt Room 4B")."""

from __future__ import annotations

import re

from ztgate.redaction.detection.public import PublicList

# Words that name a room, a unit or a seat, not a product series ("Anna Schmidt Room 4B" is no product).
_UNIT_WORDS = ("Room|Rooms|Suite|Unit|Flat|Apt|Apartment|Building|Bldg|Floor|Block|Ward|Bed|Office|Desk|Level|"
               "Platform|Seat|Gate|Bay|Box|Lot|Plot|House|Studio|Wing|Lab|Cell|Locker|Cabin|Row|Stand|Hall")
# Right after the name: the rest of a model token the name was cut inside ("Dyson V" + "15"), or up to two series
# words or numbers ("AMD Ryzen 7 5800X": NER reads "Ryzen" as a person) and a space and a model token that mixes
# letters and digits ("5800X", "FP-30X", "R6", "i7"); not the outward half of a British postcode, nor a room.
MODEL_NUMBER = re.compile(
    r"(?:(?<=[A-Z])\d{1,4}[a-z]{0,2}|(?:\s+(?:\d{1,2}|(?!(?:" + _UNIT_WORDS + r")\b)[A-Z][a-z]{1,12})){0,2}\s+(?:[A-Z]{1,3}-?\d{1,4}[a-z]{0,2}"
    r"|\d{1,5}[A-Z]{1,3}|\d{1,2}[a-z]|[A-Za-z]{1,4}-?\d[A-Z\d\-]*[A-Z][A-Z\d]*|[a-z]\d{1,2}))\b"
    r"(?!\s+\d[A-Z]{2}\b)")


def load() -> PublicList:
    return PublicList("product_models", frozenset({"PERSON", "LOCATION"}), frozenset(), followed_by=MODEL_NUMBER)
