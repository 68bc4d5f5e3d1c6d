"""Private persons and places in the frames of the public lists added for issue #29's fifth round
(``public_events``, ``work_titles``, ``company_frames``, ``model_generations`` and the new frames of
``encyclopedic_persons``: professions, ranks, famous prizes): how many private names the default policy keeps
that it should not, on generated families. Both sides of the trade:

    python -m ztgate_bench.public_frames_family

Each template is filled with every pairing of the given names and invented surnames below (120 names: real given
names, since the frames read a given name as a person, and surnames no real person is known by; the towns are
invented too); a detection is built by hand on every mention of each private value (no spaCy: what is measured is
what the policy does with a value found), and a value is *kept* when it survives redaction. ``PRIVATE`` holds a
private hint in each template (a relation, a possessive, an address, a phone number, everyday private life);
``PRIVATE_B`` was written beside it and only reported (hints outside that vocabulary too: "the allotment
society", "the parish hall", "next door"); ``BARE`` the same frames with no hint at all, which the lists keep
by design. Only counts and templates are printed.
"""

from __future__ import annotations

import argparse
import itertools
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ztgate.redaction.anonymising.operators import Operators
    from ztgate.redaction.policies import Policy

GIVEN = ("Anna", "Tomas", "Ingrid", "Pavel", "Mariam", "Kofi", "Yuki", "Diego", "Leila", "Arjun")
SURNAMES = ("Quarrendon", "Velloway", "Ostermire", "Brackwith", "Pellingham", "Tregunna", "Vossberg", "Hallorin",
            "Keverne", "Ashcombe", "Dunmorrow", "Fenlacey")
TOWNS = ("Quarlby", "Ostmere", "Hexwarden", "Bramlow")

# (list, template): {n} a full name (PERSON), {s} the surname alone (PERSON), {t} a town (LOCATION).
PRIVATE = (
    ("public_events", "My neighbour {n} chairs the Council of {t} and lives at 12 Elm Road."),
    ("public_events", "When is the trial of {n}? She is my aunt."),
    ("public_events", "What did {n} say at the council of {t} meeting on Friday?"),
    ("public_events", "Our client {n} from the Battle of {t} re-enactment society called, 0161 496 0123."),
    ("work_titles", "What is the plot of the novel my friend {n} wrote?"),
    ("work_titles", "Is the novel Harbour Lights by {n} any good? She is my aunt."),
    ("work_titles", "What is {s}'s painting Summer Fields about? He lives at 4 Mill Street."),
    ("work_titles", "Summarise the report {n} sent me yesterday."),
    ("encyclopedic_persons", "What did the Nigerian writer {n} in my book club win?"),
    ("encyclopedic_persons", "Who was Lord {n}? He is our tenant at 9 Park Road."),
    ("encyclopedic_persons", "How many Olympic medals did my nephew {n} win at school?"),
    ("encyclopedic_persons", "{n} won the office Wimbledon sweepstake again; call her on 07700 900123."),
    ("encyclopedic_persons", "What did Admiral {s} say to my husband at the club?"),
    ("company_frames", "{s} is based in {t}; my husband {n} runs it, call 0161 496 0000."),
    ("company_frames", "{n} is based in {t}; what does she make?"),
    ("company_frames", "Who is the {s} bakery named after? My neighbour asked."),
    ("company_frames", "{n} started in {t}: what did the company make? She is my sister."),
    ("model_generations", "Is {n} II coming to my party on Friday?"),
    ("model_generations", "My son {n} 3rd plays at 4 Quay Street."),
)
# Written beside ``PRIVATE`` and only reported: hints outside the private-evidence vocabulary as well as in it.
PRIVATE_B = (
    ("public_events", "Did {n} win the Battle of {t} bake-off at the allotment society?"),
    ("public_events", "Why did {n} walk out of the Council of {t} session? The whole street is talking."),
    ("work_titles", "Who directed the film {n} showed at the parish hall?"),
    ("work_titles", "What is the plot of {s}'s Garden Diary? She is the new hire in accounting."),
    ("encyclopedic_persons", "What did the artist {n} who lives next door paint for the village fete?"),
    ("encyclopedic_persons", "Who is Lady {n} and why does she park outside number 7?"),
    ("encyclopedic_persons", "Did {n} win the Pulitzer Prize, or was that just the parish newsletter?"),
    ("company_frames", "{s} is based in {t}. What does the company owe the landlord?"),
    ("company_frames", "Both {s} and Tesco are based in {t}, where my flatmate works."),
    ("model_generations", "Did {n} II inherit the farm from {n} senior?"),
)
BARE = (
    ("public_events", "What happened at the Battle of {t}?"),
    ("work_titles", "What is the plot of Harbour Lights by {n}?"),
    ("encyclopedic_persons", "Who was Admiral {s}?"),
    ("encyclopedic_persons", "{n} won the Nobel Prize, but for what?"),
    ("company_frames", "{s} is based in {t}. What does the company make?"),
    ("company_frames", "Who is the {s} brewery named after?"),
)
FAMILIES = {"private A (a hint in each template)": PRIVATE, "private B (written beside it, reported only)": PRIVATE_B,
            "bare frames (no private hint)": BARE}


def names() -> list[tuple[str, str]]:
    return list(itertools.product(GIVEN, SURNAMES))


def _values(template: str, given: str, surname: str, town: str) -> tuple[str, list[tuple[str, str]]]:
    text = template.format(n=f"{given} {surname}", s=surname, t=town)
    values = []
    if "{n}" in template:
        values.append((f"{given} {surname}", "PERSON"))
    elif "{s}" in template:
        values.append((surname, "PERSON"))
    if "{t}" in template:
        values.append((town, "LOCATION"))
    return text, values


def redact_values(text: str, values: list[tuple[str, str]], policy: Policy, operators: Operators) -> str:
    """text redacted under policy with every occurrence of each (value, type) detected as NER would."""
    from ztgate.redaction.anonymising.anonymize import redact
    from ztgate.redaction.types import Detection

    detections = []
    for value, entity_type in values:
        start = text.find(value)
        while start >= 0:
            detections.append(Detection(entity_type, start, start + len(value), 0.9, "SpacyRecognizer"))
            start = text.find(value, start + 1)
    return redact(text, detections, policy, None, None, None, operators=operators).text


def kept(template: str, policy_name: str) -> tuple[int, int]:
    """How many of the private values survive redaction in template under the policy, of how many."""
    from ztgate.redaction.anonymising.operators import Operators
    from ztgate.redaction.policies import PolicyStore

    policy = PolicyStore.load().get(policy_name)
    operators = Operators()
    count = total = 0
    for index, (given, surname) in enumerate(names()):
        text, values = _values(template, given, surname, TOWNS[index % len(TOWNS)])
        out = redact_values(text, values, policy, operators)
        for value, _ in values:
            total += 1
            count += value in out
    return count, total


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description=__doc__).parse_args(argv)
    print("| family | templates | values kept, default | values kept, strict |")
    print("|---|---:|---:|---:|")
    details = []
    for label, family in FAMILIES.items():
        default = [kept(t, "default") for _, t in family]
        strict = [kept(t, "strict") for _, t in family]
        total = sum(n for _, n in default)
        kept_default, kept_strict = sum(k for k, _ in default), sum(k for k, _ in strict)
        print(f"| {label} | {len(family)} | {kept_default}/{total} | {kept_strict}/{total} |")
        details += [f"{label.split()[0]} [{name}] kept {k}/{n}: {t}" for (name, t), (k, n) in zip(family, default) if k]
    print("\n".join(["", *details]) if details else "")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
