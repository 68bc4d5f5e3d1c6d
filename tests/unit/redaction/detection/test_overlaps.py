"""Overlap resolution: one finding per span, secrets first, then score, then length; nothing uncovered."""

from __future__ import annotations

import itertools
import random

import pytest

from ztgate.redaction.detection.overlaps import resolve_overlaps
from ztgate.redaction.types import Detection


def d(entity_type: str, start: int, end: int, score: float = 0.9, recognizer: str = "r") -> Detection:
    return Detection(entity_type, start, end, score, recognizer)


CASES = [
    # (name, detections, expected)
    ("empty", [], []),
    ("single", [d("PERSON", 0, 4)], [d("PERSON", 0, 4)]),
    ("disjoint_sorted_by_start",
     [d("EMAIL_ADDRESS", 10, 20), d("PERSON", 0, 4)],
     [d("PERSON", 0, 4), d("EMAIL_ADDRESS", 10, 20)]),
    ("touching_spans_stay_separate",
     [d("PERSON", 0, 4), d("LOCATION", 4, 9)],
     [d("PERSON", 0, 4), d("LOCATION", 4, 9)]),
    ("same_span_higher_score_wins",
     [d("PERSON", 0, 4, 0.6), d("LOCATION", 0, 4, 0.8)],
     [d("LOCATION", 0, 4, 0.8)]),
    ("same_span_same_score_is_decided_by_name_not_order",
     [d("PERSON", 0, 4, 0.8), d("LOCATION", 0, 4, 0.8)],
     [d("PERSON", 0, 4, 0.8)]),
    ("container_of_higher_score_absorbs_contained",
     [d("PERSON", 0, 10, 0.9), d("LOCATION", 3, 6, 0.5)],
     [d("PERSON", 0, 10, 0.9)]),
    ("higher_score_inside_takes_the_containers_extent",
     [d("PERSON", 0, 10, 0.5), d("EMAIL_ADDRESS", 3, 8, 1.0)],
     [d("EMAIL_ADDRESS", 0, 10, 1.0)]),
    ("partial_overlap_merges_into_the_union_with_the_winners_type",
     [d("PHONE_NUMBER", 0, 8, 0.7), d("US_SSN", 5, 14, 0.95)],
     [d("US_SSN", 0, 14, 0.95)]),
    ("equal_scores_longer_span_wins",
     [d("PHONE_NUMBER", 0, 12, 0.8), d("DATE_OF_BIRTH", 4, 10, 0.8)],
     [d("PHONE_NUMBER", 0, 12, 0.8)]),
    ("equal_score_and_length_earlier_start_wins",
     [d("LOCATION", 2, 8, 0.8), d("PERSON", 0, 6, 0.8)],
     [d("PERSON", 0, 8, 0.8)]),
    ("secret_beats_higher_scoring_pii",
     [d("PERSON", 0, 12, 0.99), d("PASSWORD", 6, 12, 0.4)],
     [d("PASSWORD", 0, 12, 0.4)]),
    ("secret_inside_pii_takes_the_whole_span",
     [d("EMAIL_ADDRESS", 0, 30, 1.0), d("GITHUB_TOKEN", 5, 25, 0.9)],
     [d("GITHUB_TOKEN", 0, 30, 0.9)]),
    ("between_secrets_score_decides",
     [d("GENERIC_SECRET", 0, 40, 0.6), d("JWT", 6, 40, 0.99)],
     [d("JWT", 0, 40, 0.99)]),
    ("chain_of_overlaps_is_one_cluster",
     [d("PERSON", 0, 5, 0.7), d("LOCATION", 4, 10, 0.9), d("NRP", 9, 15, 0.6)],
     [d("LOCATION", 0, 15, 0.9)]),
    ("cluster_then_separate_span",
     [d("PERSON", 0, 5, 0.7), d("LOCATION", 3, 8, 0.9), d("EMAIL_ADDRESS", 8, 20, 1.0)],
     [d("LOCATION", 0, 8, 0.9), d("EMAIL_ADDRESS", 8, 20, 1.0)]),
    ("merged_finding_keeps_winners_recognizer",
     [d("PERSON", 0, 5, 0.7, "ner"), d("PERSON", 3, 9, 0.8, "hs")],
     [d("PERSON", 0, 9, 0.8, "hs")]),
    ("empty_spans_are_dropped",
     [d("PERSON", 3, 3), d("LOCATION", 5, 4), d("NRP", 6, 9)],
     [d("NRP", 6, 9)]),
    ("duplicates_collapse",
     [d("PERSON", 0, 4), d("PERSON", 0, 4)],
     [d("PERSON", 0, 4)]),
]


@pytest.mark.parametrize(("detections", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_resolve_overlaps(detections, expected):
    assert resolve_overlaps(detections) == expected


@pytest.mark.parametrize(("detections", "expected"), [c[1:] for c in CASES if len(c[1]) <= 4],
                         ids=[c[0] for c in CASES if len(c[1]) <= 4])
def test_result_does_not_depend_on_input_order(detections, expected):
    for permutation in itertools.permutations(detections):
        assert resolve_overlaps(permutation) == expected


def covered(detections) -> set[int]:
    return {i for x in detections for i in range(x.start, x.end)}


def test_random_inputs_give_disjoint_sorted_spans_covering_exactly_the_same_code_points():
    rng = random.Random(7)
    types = ["PERSON", "EMAIL_ADDRESS", "PASSWORD", "LOCATION", "JWT"]
    for _ in range(300):
        detections = []
        for _ in range(rng.randint(0, 8)):
            start = rng.randint(0, 60)
            detections.append(d(rng.choice(types), start, start + rng.randint(1, 15), round(rng.random(), 2)))
        resolved = resolve_overlaps(detections)
        assert all(a.end <= b.start for a, b in itertools.pairwise(resolved))
        assert covered(resolved) == covered(detections)
        for finding in resolved:
            members = [x for x in detections if x.start < finding.end and finding.start < x.end]
            if any(x.entity_type in {"PASSWORD", "JWT"} for x in members):
                assert finding.entity_type in {"PASSWORD", "JWT"}
