"""A postal address written after its label in another language ("Адрес: ул. Шипка 14, Казанлък", "כתובת: רחוב
הנרקיסים 45, רחובות", "ที่อยู่: 45/12 ถนนนิมมานเหมินท์", "पता: 27, शांति नगर, इंदौर", "العنوان: شارع الياسمين 22"):
the labels are ``language_cues.ADDRESS_LABELS``, in the scripts that neither the street layouts
(rules/people_places.yaml, a few countries' streets by their kind and number) nor NER read; there an address is
found only by its label. A Latin-script address stays theirs (they split the street from the town). The key-value rule reads these labels too, for a town's name alone (``place_fields``);
this rule takes the values it leaves, those with a house number.

The value runs to the end of its line or sentence (a full stop after a word of four letters or more, so "г." and
"ул." stay inside; 。, !, ?, ;), at most 120 characters, and must hold a word and a house number (one to five
digits) or two places split by a comma (a village's address, ADR 0039): "Адрес: не знаю", an IP address ("Адрес: 10.0.0.12"), a URL or an e-mail are no postal address."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.language_cues import ADDRESS_LABELS

_LABEL = re.compile(
    r"(?<![^\W\d_])(?i:" + "|".join(re.escape(label).replace(r"\ ", r"[ \t]+")
                                     for label in sorted(ADDRESS_LABELS, key=len, reverse=True))
    + r")[ \t]*[:：][ \t]*")
_LINE = re.compile(r"[^\n]{1,120}")
# Where a value ends: a sentence's stop, or a full stop after a word of four letters or more (not "г.", "ул.").
_END = re.compile(r"[。！？!?;；]|(?<=[^\W\d_]{4})\.(?=\s|$)|\.(?=\s*$)")
_HOUSE_NUMBER = re.compile(r"(?<!\d)\d{1,5}(?!\d)")
_WORD = re.compile(r"[^\W\d_]{2,}")
_NOT_POSTAL = re.compile(r"\d+\.\d+\.\d+|://|@|www\.|\.(?:com|org|net)\b|[0-9a-f]{0,4}:[0-9a-f]{0,4}:", re.I)


def _places(value: str) -> bool:
    """A village's address with no house number: two places or more split by commas ("ग्राम पिपरिया, ज़िला
    होशंगाबाद", "село Лесное, Тверская обл."), where "Адрес: не знаю" is one phrase (ADR 0039)."""
    parts = [p for p in re.split(r"[,،、，]", value) if p.strip()]
    return len(parts) >= 2 and all(sum(c.isalpha() for c in p) >= 2 for p in parts)  # a vowel sign is no letter


class AddressLabelRecognizer(ContextRule):
    NAME = "AddressLabelRecognizer"
    SCORE = 0.9
    ENTITIES = ("LOCATION",)

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        for m in _LABEL.finditer(text):
            line = _LINE.match(text, m.end())
            if line is None:
                continue
            value = line.group()
            stop = _END.search(value)
            value = value[:stop.start()] if stop else value
            value = value.rstrip(" \t,،、")
            if (_WORD.search(value) is None or _NOT_POSTAL.search(value) is not None
                    or (_HOUSE_NUMBER.search(value) is None and not _places(value))):
                continue
            out.append((m.end(), m.end() + len(value), "LOCATION"))
        return out
