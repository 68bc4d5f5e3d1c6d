"""Redaction corpora as JSONL files: one document a line, so that anyone can score ztgate on their own text.

Each line is a JSON object (docs/benchmarks.md, "Corpus files"):

``{"id": "t-000017", "category": "pii", "text": "...", "entities": [{"type": "PERSON", "value": "Rose Tyler"}],
"template": "ticket-refund"}``

* ``category``: ``pii``, ``secret`` or ``clean``; a clean document must come back unchanged, and must list no
  entities;
* ``entities``: every value the document embeds that must not survive, as it is written in ``text``, with its
  entity type named as in ``ztgate.redaction.types`` (PERSON, LOCATION, EMAIL_ADDRESS, AWS_SECRET_KEY ...);
* ``id`` and ``template`` (optional) name the document and the shape it came from, for diagnostics.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from ztgate_bench.redaction_corpus import CATEGORIES, CLEAN, Entity, Sample
from ztgate.redaction.types import ALL_ENTITY_TYPES


class CorpusFileError(ValueError):
    """A corpus file line that is not of the documented shape; the message names the file and the line."""


def load(path: str | Path) -> list[Sample]:
    """The documents of a JSONL corpus file, checked against the documented shape."""
    samples: list[Sample] = []
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                samples.append(_sample(json.loads(line), number))
            except (ValueError, TypeError, KeyError) as exc:
                raise CorpusFileError(f"{path}:{number}: {exc}") from None
    if not samples:
        raise CorpusFileError(f"{path}: no documents")
    return samples


def _sample(row: dict, number: int) -> Sample:
    if not isinstance(row, dict):
        raise ValueError("a line must be a JSON object")
    category, text = row["category"], row["text"]
    if category not in CATEGORIES:
        raise ValueError(f"category {category!r} is not one of {', '.join(CATEGORIES)}")
    if not isinstance(text, str) or not text:
        raise ValueError("text must be a non-empty string")
    entities = []
    for entity in row.get("entities", []):
        kind, value = entity["type"], entity["value"]
        if kind not in ALL_ENTITY_TYPES:
            raise ValueError(f"entity type {kind!r} is unknown (ztgate/redaction/types.py)")
        if not isinstance(value, str) or value not in text:
            raise ValueError(f"a {kind} value is not in the text as written")
        entities.append(Entity(kind, value))
    if category == CLEAN and entities:
        raise ValueError("a clean document lists no entities")
    return Sample(str(row.get("id", f"line-{number}")), category, text, tuple(entities),
                  str(row.get("template", "")))


def dump(samples: Iterable[Sample], path: str | Path) -> int:
    """Writes samples as a JSONL corpus file; returns how many."""
    count = 0
    with open(path, "w", encoding="utf-8") as out:
        for s in samples:
            row = {"id": s.sample_id, "category": s.category, "text": s.text,
                   "entities": [{"type": e.entity_type, "value": e.value} for e in s.entities],
                   "template": s.template}
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
            count += 1
    return count
