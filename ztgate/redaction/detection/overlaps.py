"""Overlap resolution: turns detections that may overlap into disjoint findings, one per span.

The rule, in one sentence: detections that overlap (directly or through a chain) form one cluster; the
cluster becomes ONE detection spanning the union of its members, with the entity type, score and
recognizer of its highest-priority member.

Priority, highest first:
1. a secret over PII, whatever the scores: a span that holds any part of a secret must get a secret's
   action, so that no secret character is ever pseudonymised into the vault or left in the output;
2. the higher score;
3. the longer span;
4. the earlier start, then entity type and recognizer names (only so the result never depends on order).

Consequences: a span that contains a lower-priority one absorbs it; a higher-priority span inside a
lower-priority one takes over the container's whole extent; partially overlapping spans merge into the
union. No code point that any detection covered is ever left uncovered, so dropping a loser can never
expose part of a value. Spans that only touch (end == start) do not overlap and stay separate; empty
spans (end <= start) are dropped.
"""

from __future__ import annotations

from collections.abc import Iterable

from ztgate.redaction.types import SECRET_ENTITY_TYPES, Detection


def priority(detection: Detection) -> tuple[bool, float, int, int, str, str]:
    """Sort key: the larger wins (see module doc)."""
    return (detection.entity_type in SECRET_ENTITY_TYPES, detection.score,
            detection.end - detection.start, -detection.start, detection.entity_type, detection.recognizer)


def _close(members: list[Detection], start: int, end: int) -> Detection:
    winner = members[0] if len(members) == 1 else max(members, key=priority)
    if winner.start == start and winner.end == end:
        return winner
    return Detection(winner.entity_type, start, end, winner.score, winner.recognizer)


def resolve_overlaps(detections: Iterable[Detection]) -> list[Detection]:
    """Disjoint detections sorted by start, one per cluster of overlapping inputs (see module doc)."""
    ordered = sorted((d for d in detections if d.end > d.start), key=lambda d: (d.start, d.end))
    if not ordered:
        return []
    resolved: list[Detection] = []
    members = [ordered[0]]
    start, end = ordered[0].start, ordered[0].end
    for detection in ordered[1:]:
        if detection.start < end:
            members.append(detection)
            if detection.end > end:
                end = detection.end
            continue
        resolved.append(_close(members, start, end))
        members = [detection]
        start, end = detection.start, detection.end
    resolved.append(_close(members, start, end))
    return resolved
