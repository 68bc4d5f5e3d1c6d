"""The value of a key named for a person or a place, in JSON, YAML, .env or a form ("displayName": "Rose
Tyler", city: Haderup). Keys in any script ("Adresse:", "住所:"), a full-width colon too."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.fields import field_kind, value_span

_KEY_VALUE = re.compile(r"""(?<![\w\-])["']?([^\W\d][\w\-]{0,40})["']?[ \t]*[:=：][ \t]*["']?([^"'\n,;{}\[\]<>]{1,80})""")
_CAMEL_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])")


class KeyValueFieldRecognizer(ContextRule):
    NAME = "KeyValueFieldRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON", "LOCATION")

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        for m in _KEY_VALUE.finditer(text):
            kind = field_kind(_CAMEL_HUMP.sub("_", m.group(1)).replace("-", "_"))
            if kind:
                span = value_span(text, m.start(2), m.group(2).rstrip(), kind)
                if span:
                    out.append(span)
        return out
