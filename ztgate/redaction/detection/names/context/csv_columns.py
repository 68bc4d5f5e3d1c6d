"""Cells of CSV (or ;- or tab-separated) columns whose header names a person or a place (``name``, ``city``),
row by row until a row has another shape. A bare ``name`` column is a person's where the header says persons
(``records``: ``name,email``), no one's where it says things (``name,host,port``), and a full name's only where
it says neither."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.fields import field_kind, value_span
from ztgate.redaction.detection.records import column_kind, record_kind

_CSV_HEADER = re.compile(r"(?m)^[ \t]*([A-Za-z_][\w ]{0,40}(?:[,;\t][A-Za-z_][\w ]{0,40}){1,30})\r?$")


class CsvColumnFieldRecognizer(ContextRule):
    NAME = "CsvColumnFieldRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON", "LOCATION")

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        header = _CSV_HEADER.search(text)
        while header is not None:
            sep = next(c for c in ",;\t" if c in header.group(1))
            columns = header.group(1).split(sep)
            record = record_kind(None, columns)
            kinds = [column_kind(field_kind(c), c, record) for c in columns]
            pos = header.end() + 1
            for _ in range(1000 if any(kinds) else 0):  # rows until one has another shape
                end = text.find("\n", pos)
                end = len(text) if end < 0 else end
                cells = text[pos:end].split(sep)
                if pos >= len(text) or len(cells) != len(kinds):
                    break
                cell_start = pos
                for kind, cell in zip(kinds, cells):
                    if kind:
                        span = value_span(text, cell_start, cell, kind)
                        if span:
                            out.append(span)
                    cell_start += len(cell) + 1
                pos = end + 1
            header = _CSV_HEADER.search(text, max(pos, header.end()))  # rows read are no header: each line once
        return out
